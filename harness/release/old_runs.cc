#include "harness/release/old_runs.h"

#include <filesystem>
#include <set>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_store.h"
#include "support/file_io.h"
#include "support/scratch_dir.h"
#include "support/sha256.h"
#include "support/status_macros.h"
#include "support/subprocess.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

// How long one old aot-run may take over a target's files, and over one
// file alone, before it counts as hung (`timeout` sends SIGTERM).
constexpr int kBatchTimeoutSeconds = 1200;
constexpr int kSingleTimeoutSeconds = 300;

constexpr absl::string_view kErrorPrefix = "aot-run: error: ";

std::string CachePath(const std::string& cache_dir, const OldBuild& build,
                      const OldRunArtifact& a) {
  return (fs::path(cache_dir) / "runs" / build.commit / (a.platform + "-" + a.digest + ".json"))
      .string();
}

std::optional<ParsedOldRun> ReadCached(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  auto text = ReadFileToString(path);
  if (!text.ok()) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("verdict") || !j["verdict"].is_string()) return std::nullopt;
  auto verdict = OldRunVerdictFromName(j["verdict"].get<std::string>());
  if (!verdict) return std::nullopt;
  std::string detail = j.value("detail", "");
  return ParsedOldRun{*verdict, std::move(detail)};
}

// A summary line's verdict ("<path>: <shape> load ..., <reference>").
ParsedOldRun FromSummary(absl::string_view rest) {
  std::string line(rest);
  if (auto at = rest.find("execution skipped ("); at != absl::string_view::npos) {
    absl::string_view why = rest.substr(at + 19);
    if (auto close = why.rfind("), reference"); close != absl::string_view::npos) {
      why = why.substr(0, close);
    }
    return {OldRunVerdict::kValidated, absl::StrCat("loaded and validated, not executed: ", why)};
  }
  if (absl::StrContains(rest, "reference: match")) return {OldRunVerdict::kPassed, line};
  if (absl::StrContains(rest, "reference: mismatch")) return {OldRunVerdict::kMismatched, line};
  return {OldRunVerdict::kValidated, absl::StrCat("ran, not compared: ", line)};
}

// An error line's verdict ("aot-run: error: <path>: <message>").
ParsedOldRun FromError(absl::string_view message) {
  std::string text(message);
  if (absl::ConsumePrefix(&message, "cannot load: ")) {
    return {OldRunVerdict::kRefused, std::string(message)};
  }
  if (absl::StrContains(message, "result differs from the reference")) {
    return {OldRunVerdict::kMismatched, text};
  }
  return {OldRunVerdict::kNotRunnable, text};
}

// Runs `build`'s aot-run over `files` on `platform`; stdout and stderr
// apart. Returns the parsed verdicts and, in `failure`, why nothing could
// be read when the tool did not print at all (its exit status).
std::map<std::string, ParsedOldRun> RunOldTool(const OldBuild& build, const std::string& platform,
                                               const std::vector<std::string>& files,
                                               const std::string& scratch, int timeout_seconds,
                                               std::string* failure) {
  const std::string out_path = (fs::path(scratch) / "stdout.txt").string();
  const std::string err_path = (fs::path(scratch) / "stderr.txt").string();
  std::string command = absl::StrCat("timeout ", timeout_seconds, " ", ShellQuote(build.aot_run),
                                     " --platform=", platform, " --iterations=1");
  for (const std::string& f : files) absl::StrAppend(&command, " ", ShellQuote(f));
  absl::StrAppend(&command, " >", ShellQuote(out_path), " 2>", ShellQuote(err_path));
  CommandResult run = RunShellCommand(command);
  std::string out = ReadFileToString(out_path).value_or("");
  std::string err = ReadFileToString(err_path).value_or("");
  if (failure != nullptr) {
    if (run.exit_code == 124) {
      *failure = absl::StrCat("the old aot-run did not finish within ", timeout_seconds, " s");
    } else if (run.exit_code >= 128 || run.exit_code < 0) {
      *failure = absl::StrCat("the old aot-run ended abnormally (exit status ", run.exit_code, ")");
    } else {
      *failure =
          absl::StrCat("the old aot-run printed nothing for it (exit status ", run.exit_code, ")");
    }
    std::string tail(absl::StripTrailingAsciiWhitespace(err));
    if (auto nl = tail.rfind('\n'); nl != std::string::npos) tail = tail.substr(nl + 1);
    if (!tail.empty()) absl::StrAppend(failure, ": ", tail);
  }
  return ParseOldAotRunOutput(out, err, files);
}

}  // namespace

nlohmann::ordered_json OldRun::ToJson() const {
  nlohmann::ordered_json j;
  j["target"] = target;
  j["test"] = test;
  j["digest"] = digest;
  j["verdict"] = std::string(OldRunVerdictName(verdict));
  j["detail"] = detail;
  return j;
}

std::map<std::string, ParsedOldRun> ParseOldAotRunOutput(absl::string_view out,
                                                         absl::string_view err,
                                                         const std::vector<std::string>& paths) {
  const std::set<std::string> wanted(paths.begin(), paths.end());
  // "<path>: rest" for a path of `wanted` (paths hold no ": " of their own).
  auto split = [&](absl::string_view line) -> std::optional<std::pair<std::string, std::string>> {
    const size_t colon = line.find(": ");
    if (colon == absl::string_view::npos) return std::nullopt;
    absl::string_view head = line.substr(0, colon);
    // A multi-participant run names its participants after the path:
    // "<path> (4 participants): ...".
    if (!wanted.count(std::string(head)) && absl::EndsWith(head, ")")) {
      if (size_t open = head.rfind(" ("); open != absl::string_view::npos) {
        head = head.substr(0, open);
      }
    }
    std::string path(head);
    if (!wanted.count(path)) return std::nullopt;
    return std::make_pair(std::move(path), std::string(line.substr(colon + 2)));
  };
  std::map<std::string, ParsedOldRun> verdicts;
  for (absl::string_view line : absl::StrSplit(out, '\n', absl::SkipEmpty())) {
    if (auto parts = split(line)) verdicts[parts->first] = FromSummary(parts->second);
  }
  // An error says more than a summary line printed before it (a mismatch
  // prints both); the first error of a path wins.
  std::set<std::string> erred;
  for (absl::string_view line : absl::StrSplit(err, '\n', absl::SkipEmpty())) {
    if (!absl::ConsumePrefix(&line, kErrorPrefix)) continue;
    auto parts = split(line);
    if (!parts || !erred.insert(parts->first).second) continue;
    verdicts[parts->first] = FromError(parts->second);
  }
  return verdicts;
}

absl::StatusOr<std::vector<OldRun>> RunWithOldBuild(const OldBuild& build,
                                                    const std::vector<OldRunArtifact>& artifacts,
                                                    const std::string& cache_dir,
                                                    Progress* progress) {
  std::vector<OldRun> runs(artifacts.size());
  // (target, platform) -> indices of the artifacts still to run.
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> pending;
  for (size_t i = 0; i < artifacts.size(); ++i) {
    const OldRunArtifact& a = artifacts[i];
    runs[i] = OldRun{a.target, a.test, a.digest, OldRunVerdict::kNotRunnable, ""};
    if (auto cached = ReadCached(CachePath(cache_dir, build, a))) {
      runs[i].verdict = cached->verdict;
      runs[i].detail = cached->detail;
      continue;
    }
    pending[{a.target, a.platform}].push_back(i);
  }
  if (pending.empty()) return runs;
  ScratchDir scratch("aot-old-run");
  if (scratch.path().empty()) {
    return absl::InternalError("cannot create a scratch directory for the old aot-run");
  }
  const std::string short_commit = build.commit.substr(0, 12);
  for (const auto& [key, indices] : pending) {
    const auto& [target, platform] = key;
    if (progress != nullptr) {
      progress->Update(absl::StrCat("old runtime ", short_commit, " runs ", target, " (",
                                    indices.size(), " artifacts)"));
    }
    fs::path dir = fs::path(scratch.path()) / target;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return absl::InternalError(absl::StrCat(dir.string(), ": ", ec.message()));
    std::vector<std::string> files;
    std::map<std::string, size_t> index_of;
    for (size_t i : indices) {
      std::string path = (dir / (artifacts[i].test + ".pb")).string();
      AOT_RETURN_IF_ERROR(WriteFileAtomically(path, artifacts[i].bytes));
      index_of[path] = i;
      files.push_back(path);
    }
    std::map<std::string, ParsedOldRun> parsed =
        RunOldTool(build, platform, files, scratch.path(), kBatchTimeoutSeconds, nullptr);
    for (const std::string& path : files) {
      auto it = parsed.find(path);
      ParsedOldRun verdict;
      if (it != parsed.end()) {
        verdict = it->second;
      } else {
        // Alone, so that what stopped the batch is told apart from it.
        std::string failure;
        auto alone =
            RunOldTool(build, platform, {path}, scratch.path(), kSingleTimeoutSeconds, &failure);
        auto found = alone.find(path);
        verdict = found != alone.end() ? found->second
                                       : ParsedOldRun{OldRunVerdict::kNotRunnable, failure};
      }
      const size_t i = index_of[path];
      runs[i].verdict = verdict.verdict;
      runs[i].detail = verdict.detail;
      // A hang says nothing lasting about the release: asked again next time.
      if (absl::StrContains(verdict.detail, "did not finish within")) continue;
      nlohmann::ordered_json entry = runs[i].ToJson();
      entry["commit"] = build.commit;
      const std::string cache = CachePath(cache_dir, build, artifacts[i]);
      fs::create_directories(fs::path(cache).parent_path(), ec);
      if (ec) return absl::InternalError(absl::StrCat(cache, ": ", ec.message()));
      AOT_RETURN_IF_ERROR(WriteFileAtomically(cache, entry.dump(2) + "\n"));
    }
  }
  return runs;
}

absl::StatusOr<std::vector<OldRunArtifact>> ShippedArtifacts(
    const std::vector<CompiledTest>& compiled) {
  std::vector<OldRunArtifact> out;
  out.reserve(compiled.size());
  for (const CompiledTest& c : compiled) {
    AOT_ASSIGN_OR_RETURN(GoldenTarget target, FindGoldenTarget(c.target));
    out.push_back({c.target, c.test, target.platform, c.executable.SerializeAsString(),
                   Sha256Hex(ArtifactBlobBytes(c.executable))});
  }
  return out;
}

absl::StatusOr<std::vector<OldRunArtifact>> NewestGoldenArtifacts(
    const std::string& golden_dir, const std::vector<std::string>& targets) {
  std::vector<OldRunArtifact> out;
  for (const std::string& name : targets) {
    AOT_ASSIGN_OR_RETURN(GoldenTarget target, FindGoldenTarget(name));
    AOT_ASSIGN_OR_RETURN(std::vector<int> versions, DiscoverVersions(golden_dir, name));
    const std::string dir = VersionDir(golden_dir, name, versions.back());
    AOT_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(dir));
    for (const std::string& test : manifest.TestNames()) {
      AOT_ASSIGN_OR_RETURN(GoldenArtifact artifact, ReadArtifact(dir, manifest, test));
      std::string digest = artifact.artifact_digest.empty()
                               ? Sha256Hex(ArtifactBlobBytes(artifact.executable))
                               : artifact.artifact_digest;
      out.push_back({name, test, target.platform, artifact.executable.SerializeAsString(),
                     std::move(digest)});
    }
  }
  return out;
}

std::map<OldRunVerdict, int> OldRuntimeRuns::Counts() const {
  std::map<OldRunVerdict, int> counts;
  for (OldRunVerdict v : kOldRunVerdicts) counts[v] = 0;
  for (const OldRun& r : runs) ++counts[r.verdict];
  return counts;
}

int OldRuntimeRuns::Failures() const {
  int n = 0;
  for (const OldRun& r : runs) n += OldRunOk(r.verdict) ? 0 : 1;
  return n;
}

absl::StatusOr<OldRuntimeRuns> RunWithOldRuntime(const std::string& ref,
                                                 const std::vector<OldRunArtifact>& artifacts,
                                                 const OldBuildOptions& options) {
  AOT_ASSIGN_OR_RETURN(OldBuild build, PrepareOldBuild(ref, options, OldTools::kRunOnly));
  OldRuntimeRuns result;
  result.commit = build.commit;
  AOT_ASSIGN_OR_RETURN(result.runs,
                       RunWithOldBuild(build, artifacts, options.cache_dir, options.progress));
  return result;
}

OldRun OldRunFromReplay(const ReplayRecord& r) {
  OldRun run{r.target, r.test, "", OldRunVerdict::kNotRunnable, r.reason};
  switch (r.status) {
    case ReplayStatus::kPass:
      run.verdict = OldRunVerdict::kPassed;
      break;
    case ReplayStatus::kSkipped:
      run.verdict = OldRunVerdict::kValidated;
      break;
    case ReplayStatus::kFail:
      run.verdict = absl::StrContains(r.reason, "refuses the artifact") ? OldRunVerdict::kRefused
                    : absl::StrContains(r.reason, "outputs differ")     ? OldRunVerdict::kMismatched
                                                                    : OldRunVerdict::kNotRunnable;
      break;
    case ReplayStatus::kExpired:
      run.detail = absl::StrCat("expired: ", r.reason);
      break;
  }
  return run;
}

std::string OldRunsTable(const std::vector<LabeledOldRuntimeRuns>& runtimes) {
  std::string out;
  if (runtimes.empty()) return out;
  const std::vector<OldRun>& rows = runtimes[0].runs.runs;
  size_t width = 8;
  for (const OldRun& r : rows) width = std::max(width, r.target.size() + 1 + r.test.size());
  absl::StrAppend(&out, absl::StrFormat("%-*s", static_cast<int>(width), "artifact"));
  for (size_t c = 0; c < runtimes.size(); ++c) absl::StrAppend(&out, absl::StrFormat("%3d", c + 1));
  absl::StrAppend(&out, "\n");
  for (size_t i = 0; i < rows.size(); ++i) {
    absl::StrAppend(&out, absl::StrFormat("%-*s", static_cast<int>(width),
                                          absl::StrCat(rows[i].target, "/", rows[i].test)));
    for (const LabeledOldRuntimeRuns& rt : runtimes) {
      const char letter =
          i < rt.runs.runs.size() ? OldRunVerdictLetter(rt.runs.runs[i].verdict) : '?';
      absl::StrAppend(&out, "  ", std::string(1, letter));
    }
    absl::StrAppend(&out, "\n");
  }
  absl::StrAppend(&out,
                  "P passed (ran, matched its reference), V validated (loaded, not executed), M "
                  "mismatched, R refused by its runtime, N not runnable by its aot-run\n");
  for (size_t c = 0; c < runtimes.size(); ++c) {
    const LabeledOldRuntimeRuns& rt = runtimes[c];
    std::map<OldRunVerdict, int> counts = rt.runs.Counts();
    absl::StrAppend(
        &out, absl::StrFormat("%2d %s (%s): ", c + 1, rt.label, rt.runs.commit.substr(0, 12)));
    bool first = true;
    for (OldRunVerdict v : kOldRunVerdicts) {
      absl::StrAppend(&out, first ? "" : ", ", counts[v], " ", OldRunVerdictName(v));
      first = false;
    }
    absl::StrAppend(&out, "\n");
    for (const OldRun& r : rt.runs.runs) {
      if (OldRunOk(r.verdict)) continue;
      absl::StrAppend(&out, "     ", r.target, "/", r.test, ": ", OldRunVerdictName(r.verdict),
                      ": ", r.detail, "\n");
    }
  }
  return out;
}

nlohmann::ordered_json OldRunsJson(const std::vector<LabeledOldRuntimeRuns>& runtimes) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const LabeledOldRuntimeRuns& rt : runtimes) {
    nlohmann::ordered_json j;
    j["label"] = rt.label;
    j["commit"] = rt.runs.commit;
    nlohmann::ordered_json counts;
    for (const auto& [verdict, n] : rt.runs.Counts()) counts[OldRunVerdictName(verdict)] = n;
    j["counts"] = counts;
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    for (const OldRun& r : rt.runs.runs) runs.push_back(r.ToJson());
    j["runs"] = runs;
    list.push_back(j);
  }
  nlohmann::ordered_json out;
  out["runtimes"] = list;
  return out;
}

}  // namespace aot
