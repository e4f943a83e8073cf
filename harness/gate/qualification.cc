#include "harness/gate/qualification.h"

#include <algorithm>
#include <optional>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "harness/golden/corpus.h"
#include "harness/golden/windows.h"
#include "harness/release/release.h"
#include "harness/release/rollout_audit.h"
#include "support/build_info.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<QualificationData> QualificationFromGate(const GateReport& gate,
                                                        const std::string& golden_dir,
                                                        const std::vector<std::string>& targets) {
  QualificationData d;
  d.now = gate.now;
  d.backward_window_start = gate.backward_window_start;
  d.forward_window_start = gate.forward_window_start;
  d.verdict = gate.ok() ? Verdict::kPass : Verdict::kBlocked;
  d.tool_version = BuildGitDescribe();
  d.checks = gate.checks;
  d.blockers = gate.blockers;
  d.notices = gate.notices;
  d.cells = gate.backward.records;
  for (const std::string& target : targets) {
    AOT_ASSIGN_OR_RETURN(auto dated, DatedVersions(golden_dir, target));
    for (const DatedVersion& v : dated) {
      d.timeline.push_back(
          {TimelineKind::kVersion, absl::StrCat(target, " v", v.version), v.created.ToString()});
    }
  }
  AOT_ASSIGN_OR_RETURN(auto releases, LoadReleases(golden_dir));
  for (const ReleaseSnapshot& r : releases) {
    d.timeline.push_back({TimelineKind::kRelease, r.id, r.date});
  }
  // The released runtimes' recorded runs of the flag-on goldens.
  AOT_ASSIGN_OR_RETURN(auto records, LoadReleaseRunRecords(golden_dir));
  for (const ReleaseSnapshot& r : releases) {
    auto record = records.find(r.id);
    if (record == records.end()) continue;
    std::vector<const OldRun*> runs;
    for (const auto& [digest, run] : record->second.runs) runs.push_back(&run);
    std::sort(runs.begin(), runs.end(), [](const OldRun* a, const OldRun* b) {
      return std::tie(a->target, a->test) < std::tie(b->target, b->test);
    });
    for (const OldRun* run : runs) {
      d.old_runtimes.push_back(
          {r.id, record->second.git_commit, run->target, run->test, run->verdict, run->detail});
    }
  }
  return d;
}

absl::Status AddOldRuntimeRuns(const nlohmann::json& json, const std::string& origin,
                               QualificationData* data) {
  auto bad = [&](const std::string& where, absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(origin, ": ", where, ": ", what));
  };
  auto text = [](const nlohmann::json& j, const char* key) -> std::optional<std::string> {
    if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return std::nullopt;
    return j[key].get<std::string>();
  };
  if (!json.is_object() || !json.contains("runtimes") || !json["runtimes"].is_array()) {
    return bad("top level", "expected {\"runtimes\": [...]} (forward-check --json output)");
  }
  std::vector<OldRuntimeCell> cells;
  for (size_t i = 0; i < json["runtimes"].size(); ++i) {
    const nlohmann::json& rt = json["runtimes"][i];
    const std::string where = absl::StrCat("runtimes[", i, "]");
    auto label = text(rt, "label");
    if (!label) return bad(where, "'label' is missing or not a string");
    if (!rt.contains("runs") || !rt["runs"].is_array()) return bad(where, "'runs' is not a list");
    for (size_t k = 0; k < rt["runs"].size(); ++k) {
      const nlohmann::json& run = rt["runs"][k];
      const std::string at = absl::StrCat(where, ".runs[", k, "]");
      auto target = text(run, "target"), test = text(run, "test"), verdict = text(run, "verdict");
      if (!target || !test || !verdict) return bad(at, "needs 'target', 'test' and 'verdict'");
      auto v = OldRunVerdictFromName(*verdict);
      if (!v) return bad(at, absl::StrCat("verdict '", *verdict, "' is not a verdict"));
      cells.push_back({*label, text(rt, "commit").value_or(""), *target, *test, *v,
                       text(run, "detail").value_or("")});
    }
  }
  for (OldRuntimeCell& c : cells) data->old_runtimes.push_back(std::move(c));
  return absl::OkStatus();
}

}  // namespace aot
