#ifndef AOT_HARNESS_GOLDEN_REPLAY_RECORD_H_
#define AOT_HARNESS_GOLDEN_REPLAY_RECORD_H_

// What became of one replay of one golden test: the record replay, the gate
// and the qualification report all share (header-only, no dependencies, so
// the report can use it without linking the corpus machinery).

#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace aot {

enum class ReplayStatus { kPass, kFail, kSkipped, kExpired };

// Every value, in declaration order.
inline constexpr ReplayStatus kReplayStatuses[] = {ReplayStatus::kPass, ReplayStatus::kFail,
                                                   ReplayStatus::kSkipped, ReplayStatus::kExpired};

// "pass" | "fail" | "skipped" | "expired": the spelling in JSON, JUnit and
// HTML output.
inline absl::string_view ReplayStatusName(ReplayStatus status) {
  switch (status) {
    case ReplayStatus::kPass:
      return "pass";
    case ReplayStatus::kFail:
      return "fail";
    case ReplayStatus::kSkipped:
      return "skipped";
    case ReplayStatus::kExpired:
      return "expired";
  }
  return "fail";
}

struct ReplayRecord {
  std::string target;                         // "host-x86-64-v3"
  int version = 0;                            // N of golden/executables/<target>/v<N>
  std::string version_date;                   // the MANIFEST's created date, YYYY-MM-DD
  std::string test;                           // module name, e.g. "add_mul"
  ReplayStatus status = ReplayStatus::kFail;  // unset fails closed
  std::string reason;                         // why (for fail / skipped / expired)
  double load_ms = 0;
  double run_ms = 0;
  // Not replayed again: the same artifact and I/O blobs already replayed in
  // this run, as "<target> v<N>" (whose status and reason this record has).
  std::string replayed_as;
  // Not replayed: the verdict (status, reason, load_ms and run_ms) of an
  // earlier replay of the same blobs by the same runtime, taken from the
  // replay cache (harness/golden/replay_cache.h).
  bool from_replay_cache = false;
};

// Which targets a replay actually ran. A target whose every replay was
// skipped (CUDA without a device: loaded and validated, not executed) is
// not qualified by that replay, and reports must say so rather than call
// the release qualified.
struct ExecutionCoverage {
  std::vector<std::string> executed;        // at least one replay ran (pass or fail)
  std::vector<std::string> validated_only;  // every replay skipped
  bool complete() const { return validated_only.empty() && !executed.empty(); }
  // "executed: a, b; loaded and validated only (not executed): c" (the
  // parts that are not empty).
  std::string Describe() const {
    auto join = [](const std::vector<std::string>& v) {
      std::string out;
      for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
      return out;
    };
    std::string out = executed.empty() ? "no target executed" : "executed: " + join(executed);
    if (!validated_only.empty()) {
      out += "; loaded and validated only (not executed): " + join(validated_only);
    }
    return out;
  }
};

// Targets in name order; expired records count for neither side.
inline ExecutionCoverage ComputeExecutionCoverage(const std::vector<ReplayRecord>& records) {
  std::set<std::string> ran, skipped;
  for (const ReplayRecord& r : records) {
    if (r.status == ReplayStatus::kPass || r.status == ReplayStatus::kFail) ran.insert(r.target);
    if (r.status == ReplayStatus::kSkipped) skipped.insert(r.target);
  }
  ExecutionCoverage coverage;
  coverage.executed.assign(ran.begin(), ran.end());
  for (const std::string& t : skipped) {
    if (!ran.count(t)) coverage.validated_only.push_back(t);
  }
  return coverage;
}

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_REPLAY_RECORD_H_
