#include "harness/release/rollout_audit.h"

#include <filesystem>
#include <set>
#include <system_error>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_store.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

std::string RecordPath(const std::string& golden_dir, const std::string& release) {
  return (fs::path(golden_dir) / "rollout" / (release + ".json")).string();
}

const EmissionFlag* FindIn(const std::vector<EmissionFlag>& ledger, absl::string_view name) {
  for (const EmissionFlag& f : ledger) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// A flag-on artifact: the golden it comes from and its digest.
struct FlagArtifact {
  std::string target;
  std::string test;
  std::string digest;
};

absl::StatusOr<std::vector<FlagArtifact>> NewestGoldenDigests(
    const std::string& golden_dir, const std::vector<std::string>& targets) {
  std::vector<FlagArtifact> out;
  for (const std::string& target : targets) {
    AOT_ASSIGN_OR_RETURN(std::vector<int> versions, DiscoverVersions(golden_dir, target));
    AOT_ASSIGN_OR_RETURN(Manifest manifest,
                         ReadManifest(VersionDir(golden_dir, target, versions.back())));
    if (manifest.format != 2) {
      return absl::FailedPreconditionError(
          absl::StrCat(target, " v", versions.back(),
                       " is a format 1 version: `aot-compat repack` it into the store"));
    }
    for (const auto& [test, entry] : manifest.tests) {
      out.push_back({target, test, entry.artifact});
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> FlagOnTargets(const EmissionFlag& flag,
                                       const std::vector<EmissionFlag>& ledger) {
  std::vector<std::string> out;
  for (const GoldenTarget& t : GoldenTargets()) {
    if (!absl::c_linear_search(t.emission_flags, flag.name)) continue;
    bool latest = true;
    for (const std::string& other : t.emission_flags) {
      const EmissionFlag* f = FindIn(ledger, other);
      if (f != nullptr && f->runtime_support_since > flag.runtime_support_since) latest = false;
    }
    if (latest) out.push_back(t.name);
  }
  return out;
}

nlohmann::ordered_json ReleaseRunRecord::ToJson() const {
  nlohmann::ordered_json j;
  j["release"] = release;
  j["git_commit"] = git_commit;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& [digest, run] : runs) list.push_back(run.ToJson());
  j["runs"] = list;
  return j;
}

absl::StatusOr<ReleaseRunRecord> ReleaseRunRecord::FromJson(const nlohmann::json& j,
                                                            const std::string& origin) {
  auto bad = [&](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(origin, ": ", what));
  };
  if (!j.is_object()) return bad("not a JSON object");
  ReleaseRunRecord r;
  for (const char* key : {"release", "git_commit"}) {
    if (!j.contains(key) || !j[key].is_string()) {
      return bad(absl::StrCat("'", key, "' is missing or not a string"));
    }
  }
  r.release = j["release"].get<std::string>();
  r.git_commit = j["git_commit"].get<std::string>();
  if (!j.contains("runs") || !j["runs"].is_array()) return bad("'runs' is missing or not a list");
  for (size_t i = 0; i < j["runs"].size(); ++i) {
    const nlohmann::json& e = j["runs"][i];
    const std::string where = absl::StrCat("runs[", i, "]");
    if (!e.is_object()) return bad(absl::StrCat(where, " is not an object"));
    OldRun run;
    for (const char* key : {"target", "test", "digest", "verdict", "detail"}) {
      if (!e.contains(key) || !e[key].is_string()) {
        return bad(absl::StrCat(where, ".", key, " is missing or not a string"));
      }
    }
    run.target = e["target"].get<std::string>();
    run.test = e["test"].get<std::string>();
    run.digest = e["digest"].get<std::string>();
    run.detail = e["detail"].get<std::string>();
    auto verdict = OldRunVerdictFromName(e["verdict"].get<std::string>());
    if (!verdict) {
      return bad(absl::StrCat(where, ".verdict '", e["verdict"].get<std::string>(),
                              "' is not passed, validated, mismatched, refused or not_runnable"));
    }
    run.verdict = *verdict;
    if (!r.runs.emplace(run.digest, run).second) {
      return bad(absl::StrCat(where, ": digest ", run.digest, " is recorded twice"));
    }
  }
  return r;
}

absl::StatusOr<std::map<std::string, ReleaseRunRecord>> LoadReleaseRunRecords(
    const std::string& golden_dir) {
  std::map<std::string, ReleaseRunRecord> records;
  fs::path dir = fs::path(golden_dir) / "rollout";
  std::error_code ec;
  if (!fs::exists(dir, ec)) return records;
  std::vector<std::string> paths;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".json") paths.push_back(e.path().string());
  }
  if (ec) return absl::InternalError(absl::StrCat(dir.string(), ": ", ec.message()));
  absl::c_sort(paths);
  for (const std::string& path : paths) {
    AOT_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
    nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return absl::InvalidArgumentError(absl::StrCat(path, ": not valid JSON"));
    AOT_ASSIGN_OR_RETURN(ReleaseRunRecord record, ReleaseRunRecord::FromJson(j, path));
    if (fs::path(path).stem().string() != record.release) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": records release '", record.release, "', not its file name's"));
    }
    records.emplace(record.release, std::move(record));
  }
  return records;
}

absl::Status RecordReleaseRuns(const std::string& golden_dir, const ReleaseSnapshot& release,
                               const std::vector<OldRun>& runs) {
  AOT_ASSIGN_OR_RETURN(auto records, LoadReleaseRunRecords(golden_dir));
  ReleaseRunRecord record;
  if (auto it = records.find(release.id); it != records.end()) {
    record = it->second;
  } else {
    record.release = release.id;
    record.git_commit = release.git_commit;
  }
  for (const OldRun& run : runs) record.runs.emplace(run.digest, run);
  const std::string path = RecordPath(golden_dir, release.id);
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) return absl::InternalError(absl::StrCat(path, ": ", ec.message()));
  return WriteFileAtomically(path, record.ToJson().dump(2) + "\n");
}

std::optional<Date> EarliestDayEveryWindowReleaseRuns(
    const std::vector<ReleaseSnapshot>& releases, const Date& from,
    const std::function<bool(const ReleaseSnapshot&)>& runs) {
  Date last = from;
  for (const ReleaseSnapshot& r : releases) {
    if (auto d = Date::Parse(r.date); d.ok() && *d > last) last = *d;
  }
  last = last.PlusDays(kForwardWindowDays + 1);
  for (Date day = from; day <= last; day = day.PlusDays(1)) {
    ReleaseWindow window = ComputeForwardWindow(releases, day);
    if (window.releases.empty()) continue;
    if (absl::c_all_of(window.releases, runs)) return day;
  }
  return std::nullopt;
}

nlohmann::ordered_json FlagAudit::ToJson() const {
  nlohmann::ordered_json j;
  j["flag"] = flag;
  j["targets"] = targets;
  j["artifacts"] = artifacts;
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (const FlagReleaseCell& c : releases) {
    nlohmann::ordered_json cell;
    cell["release"] = c.release;
    cell["date"] = c.release_date;
    cell["state"] = c.state == ReleaseRunsFlag::kRuns    ? "runs"
                    : c.state == ReleaseRunsFlag::kFails ? "fails"
                                                         : "unrecorded";
    if (!c.example.empty()) cell["example"] = c.example;
    cells.push_back(cell);
  }
  j["releases"] = cells;
  j["first_release"] = first_release;
  j["first_release_date"] = first_release_date;
  j["earliest_switch"] = earliest_switch;
  j["ledger_release"] = ledger_release;
  j["ledger_runtime_support_since"] = ledger_support_since;
  j["enabled_by_default"] = enabled_by_default;
  return j;
}

absl::StatusOr<std::vector<FlagAudit>> AuditEmissionFlags(
    const std::string& golden_dir, const std::vector<EmissionFlag>& ledger,
    const std::vector<ReleaseSnapshot>& releases,
    const std::map<std::string, ReleaseRunRecord>& records) {
  std::vector<FlagAudit> audits;
  for (const EmissionFlag& flag : ledger) {
    FlagAudit audit;
    audit.flag = flag.name;
    audit.targets = FlagOnTargets(flag, ledger);
    audit.ledger_release = flag.runtime_release;
    audit.ledger_support_since = flag.runtime_support_since;
    audit.enabled_by_default = flag.enabled_by_default;
    AOT_ASSIGN_OR_RETURN(std::vector<FlagArtifact> artifacts,
                         NewestGoldenDigests(golden_dir, audit.targets));
    audit.artifacts = static_cast<int>(artifacts.size());
    for (const ReleaseSnapshot& release : releases) {
      FlagReleaseCell cell{release.id, release.date, ReleaseRunsFlag::kRuns, OldRunVerdict::kPassed,
                           ""};
      auto record = records.find(release.id);
      for (const FlagArtifact& a : artifacts) {
        const OldRun* run = nullptr;
        if (record != records.end()) {
          auto it = record->second.runs.find(a.digest);
          if (it != record->second.runs.end()) run = &it->second;
        }
        if (run == nullptr) {
          if (cell.state == ReleaseRunsFlag::kRuns) {
            cell.state = ReleaseRunsFlag::kUnrecorded;
            cell.example = absl::StrCat(a.target, "/", a.test);
          }
          continue;
        }
        if (!OldRunOk(run->verdict) && cell.state != ReleaseRunsFlag::kFails) {
          cell.state = ReleaseRunsFlag::kFails;
          cell.verdict = run->verdict;
          cell.example = absl::StrCat(a.target, "/", a.test, ": ", OldRunVerdictName(run->verdict),
                                      ": ", run->detail);
        }
      }
      if (artifacts.empty()) {
        cell.state = ReleaseRunsFlag::kUnrecorded;
        cell.example = "no flag-on target";
      }
      audit.releases.push_back(std::move(cell));
    }
    // The first release that runs them with no later release failing.
    for (size_t i = 0; i < audit.releases.size(); ++i) {
      if (audit.releases[i].state != ReleaseRunsFlag::kRuns) continue;
      bool later_fails = false;
      for (size_t k = i + 1; k < audit.releases.size(); ++k) {
        later_fails |= audit.releases[k].state == ReleaseRunsFlag::kFails;
      }
      if (later_fails) continue;
      audit.first_release = audit.releases[i].release;
      audit.first_release_date = audit.releases[i].release_date;
      break;
    }
    if (!audit.first_release.empty()) {
      std::map<std::string, ReleaseRunsFlag> state;
      for (const FlagReleaseCell& c : audit.releases) state[c.release] = c.state;
      AOT_ASSIGN_OR_RETURN(Date from, Date::Parse(audit.first_release_date));
      auto day = EarliestDayEveryWindowReleaseRuns(releases, from, [&](const ReleaseSnapshot& r) {
        return state[r.id] == ReleaseRunsFlag::kRuns;
      });
      if (day) audit.earliest_switch = day->ToString();
    }
    audits.push_back(std::move(audit));
  }
  return audits;
}

std::string FlagAuditTable(const std::vector<FlagAudit>& audits) {
  if (audits.empty()) return "no emission flags\n";
  std::vector<std::string> releases;
  for (const FlagReleaseCell& c : audits[0].releases) releases.push_back(c.release);
  size_t width = 4;
  for (const FlagAudit& a : audits) width = std::max(width, a.flag.size());
  std::string out;
  // The release header: one column each, numbered; the key below.
  absl::StrAppend(&out, absl::StrFormat("%-*s ", static_cast<int>(width), "flag"));
  for (size_t i = 0; i < releases.size(); ++i) absl::StrAppend(&out, absl::StrFormat("%3d", i + 1));
  absl::StrAppend(&out, "  first release that runs it      ledger      earliest switch\n");
  for (const FlagAudit& a : audits) {
    absl::StrAppend(&out, absl::StrFormat("%-*s ", static_cast<int>(width), a.flag));
    for (const FlagReleaseCell& c : a.releases) {
      const char letter = c.state == ReleaseRunsFlag::kRuns ? 'Y'
                          : c.state == ReleaseRunsFlag::kUnrecorded
                              ? '-'
                              : OldRunVerdictLetter(c.verdict);
      absl::StrAppend(&out, "  ", std::string(1, letter));
    }
    absl::StrAppend(&out, absl::StrFormat("  %-30s %-11s %s%s\n",
                                          a.first_release.empty() ? "(none yet)" : a.first_release,
                                          a.ledger_support_since,
                                          a.earliest_switch.empty() ? "-" : a.earliest_switch,
                                          a.enabled_by_default ? " (on by default)" : ""));
  }
  absl::StrAppend(&out, "releases:");
  for (size_t i = 0; i < releases.size(); ++i) {
    absl::StrAppend(&out, i % 4 == 0 ? "\n " : "",
                    absl::StrFormat(" %2d %-22s", i + 1, releases[i]));
  }
  absl::StrAppend(&out,
                  "\nY runs every flag-on artifact; R refused by its runtime; N not runnable by "
                  "its aot-run; M mismatched; - not recorded\n");
  for (const FlagAudit& a : audits) {
    absl::StrAppend(&out, a.flag, " (", absl::StrJoin(a.targets, ", "), "; ", a.artifacts,
                    " artifacts):\n");
    for (const FlagReleaseCell& c : a.releases) {
      if (c.state == ReleaseRunsFlag::kRuns) continue;
      absl::StrAppend(&out, "  ", c.release, ": ",
                      c.state == ReleaseRunsFlag::kFails ? "" : "not recorded: ", c.example, "\n");
    }
  }
  return out;
}

absl::StatusOr<int> RecordMissingRuns(const std::string& golden_dir,
                                      const std::vector<EmissionFlag>& ledger,
                                      const std::vector<ReleaseSnapshot>& releases,
                                      const OldBuildOptions& options) {
  std::set<std::string> target_set;
  for (const EmissionFlag& flag : ledger) {
    for (const std::string& t : FlagOnTargets(flag, ledger)) target_set.insert(t);
  }
  std::vector<std::string> targets;
  for (const GoldenTarget& t : GoldenTargets()) {
    if (target_set.count(t.name)) targets.push_back(t.name);
  }
  AOT_ASSIGN_OR_RETURN(std::vector<OldRunArtifact> artifacts,
                       NewestGoldenArtifacts(golden_dir, targets));
  int recorded = 0;
  for (const ReleaseSnapshot& release : releases) {
    AOT_ASSIGN_OR_RETURN(auto records, LoadReleaseRunRecords(golden_dir));
    auto record = records.find(release.id);
    std::vector<OldRunArtifact> missing;
    std::set<std::string> seen;
    for (const OldRunArtifact& a : artifacts) {
      if (record != records.end() && record->second.runs.count(a.digest)) continue;
      if (seen.insert(a.digest).second) missing.push_back(a);
    }
    if (missing.empty()) continue;
    if (release.git_commit.empty() || release.git_commit == "unknown") {
      return absl::FailedPreconditionError(
          absl::StrCat("release ", release.id, " names no commit to build its runtime from"));
    }
    AOT_ASSIGN_OR_RETURN(OldRuntimeRuns runs,
                         RunWithOldRuntime(release.git_commit, missing, options));
    AOT_RETURN_IF_ERROR(RecordReleaseRuns(golden_dir, release, runs.runs));
    recorded += static_cast<int>(runs.runs.size());
    if (options.progress != nullptr) {
      options.progress->Line(absl::StrCat("release ", release.id, ": recorded ", runs.runs.size(),
                                          " run(s), ", runs.Failures(), " failing"));
    }
  }
  return recorded;
}

}  // namespace aot
