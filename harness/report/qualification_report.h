#ifndef AOT_HARNESS_REPORT_QUALIFICATION_REPORT_H_
#define AOT_HARNESS_REPORT_QUALIFICATION_REPORT_H_

// The release qualification report's data model, and the writer of the
// whole report: what `ci/` qualification found, written three ways into one
// directory:
//   report.json  the data (report_json.h), for tools;
//   junit.xml    JUnit XML (report_junit.h), one <testsuite> per
//                target/version and one "gate" suite with a testcase per
//                gate check, for CI UIs;
//   index.html   one self-contained page (report_html.h; inline CSS and SVG,
//                nothing fetched) for people.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "harness/gate/gate_types.h"
#include "harness/golden/replay_record.h"
#include "harness/release/old_run_verdict.h"

namespace aot {

// The release's verdict: qualified, or blocked by at least one blocker.
enum class Verdict { kPass, kBlocked };

// What a timeline entry dates: a golden version or a release.
enum class TimelineKind { kVersion, kRelease };

// Every value of each enum, in declaration order.
inline constexpr Verdict kVerdicts[] = {Verdict::kPass, Verdict::kBlocked};
inline constexpr TimelineKind kTimelineKinds[] = {TimelineKind::kVersion, TimelineKind::kRelease};

// The names report.json, junit.xml and index.html spell the values with.
absl::string_view VerdictName(Verdict verdict);         // "pass" | "blocked"
absl::string_view TimelineKindName(TimelineKind kind);  // "version" | "release"

// The value among `all` that `name_of` names `name`; nullopt when none is,
// e.g. EnumFromName("skipped", kReplayStatuses, ReplayStatusName).
template <typename Enum, size_t N>
std::optional<Enum> EnumFromName(absl::string_view name, const Enum (&all)[N],
                                 absl::string_view (*name_of)(Enum)) {
  for (Enum value : all) {
    if (name_of(value) == name) return value;
  }
  return std::nullopt;
}

// Something dated on the version / release timeline.
struct TimelineEntry {
  TimelineKind kind = TimelineKind::kVersion;
  std::string label;  // "host-x86-64-v3 v1" or "2026-11-30-1a2b3c4d"
  std::string date;   // YYYY-MM-DD
};

// An older runtime's verdict on one artifact: a release's recorded run of
// a flag-on golden (golden/rollout/), or `forward-check --build_runtime`'s
// run of this compiler's output.
struct OldRuntimeCell {
  std::string runtime;  // release id, or the git ref asked for
  std::string commit;   // the commit it was built from
  std::string target;
  std::string test;
  OldRunVerdict verdict = OldRunVerdict::kNotRunnable;
  std::string detail;  // the old tool's line or error
};

// The report's data. Checks, blockers and notices are the gate's own
// (gate_types.h); a blocker's `check` names the GateCheck it belongs to.
struct QualificationData {
  std::string title = "AOT release qualification";
  std::string now;                      // the clock used, YYYY-MM-DD
  std::string backward_window_start;    // YYYY-MM-DD
  std::string forward_window_start;     // YYYY-MM-DD
  Verdict verdict = Verdict::kBlocked;  // unset fails closed
  std::string tool_version;             // free text (git describe, ...)
  std::vector<GateCheck> checks;
  std::vector<ReplayRecord> cells;  // the backward replay, as the gate ran it
  std::vector<TimelineEntry> timeline;
  std::vector<GateBlocker> blockers;
  std::vector<GateNotice> notices;
  std::vector<OldRuntimeCell> old_runtimes;  // grouped by runtime, oldest first
};

// The old-runtime cells grouped by runtime, in the order runtimes first
// appear in `data.old_runtimes`.
std::vector<std::pair<std::string, std::vector<const OldRuntimeCell*>>> GroupByRuntime(
    const QualificationData& data);

// A blocker's message as the report shows it: "[<rule>] <message>", or the
// message alone when the rule is empty. report.json keeps only this text, so
// a blocker read back from it has no rule and this message.
std::string BlockerMessage(const GateBlocker& blocker);

// A target and a golden version of it.
using ColumnKey = std::pair<std::string, int>;

// "<target>.v<version>", the name of a version's suite / column.
std::string ColumnName(const ColumnKey& key);

// Cells grouped by target/version, ordered by target then version; cells
// keep their input order within a group.
std::map<ColumnKey, std::vector<const ReplayRecord*>> GroupByVersion(const QualificationData& data);

// Creates `out_dir` (and its parents) and writes report.json, junit.xml and
// index.html into it, each atomically. Fails, naming the path, when
// `out_dir` exists and is not a directory or cannot be created or written.
absl::Status WriteQualificationReport(const QualificationData& data, const std::string& out_dir);

}  // namespace aot

#endif  // AOT_HARNESS_REPORT_QUALIFICATION_REPORT_H_
