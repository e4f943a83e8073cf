#include "harness/gate/qualification.h"

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
  d.verdict = gate.ok() ? "pass" : "blocked";
  d.tool_version = BuildGitDescribe();
  for (const GateCheck& c : gate.checks) d.checks.push_back({c.name, c.ok, c.summary});
  for (const GateBlocker& b : gate.blockers) {
    d.blockers.push_back({b.check, absl::StrCat("[", b.rule, "] ", b.message), b.fix});
  }
  for (const GateNotice& n : gate.notices) d.notices.push_back({n.check, n.message});
  for (const ReplayRecord& r : gate.backward.records) {
    ReportCell cell;
    cell.target = r.target;
    cell.version = r.version;
    cell.version_date = r.version_date;
    cell.test = r.test;
    cell.status = r.status;
    cell.reason = r.reason;
    cell.load_ms = r.load_ms;
    cell.run_ms = r.run_ms;
    d.cells.push_back(std::move(cell));
  }
  for (const std::string& target : targets) {
    AOT_ASSIGN_OR_RETURN(auto dated, DatedVersions(golden_dir, target));
    for (const DatedVersion& v : dated) {
      d.timeline.push_back(
          {"version", absl::StrCat(target, " v", v.version), v.created.ToString()});
    }
  }
  AOT_ASSIGN_OR_RETURN(auto releases, LoadReleases(golden_dir));
  for (const ReleaseSnapshot& r : releases) d.timeline.push_back({"release", r.id, r.date});
  return d;
}

}  // namespace aot
