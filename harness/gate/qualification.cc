#include "harness/gate/qualification.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "harness/golden/corpus.h"
#include "harness/golden/windows.h"
#include "harness/release/release.h"
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
  return d;
}

}  // namespace aot
