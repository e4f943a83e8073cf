#ifndef AOT_HARNESS_GOLDEN_REPLAY_RECORD_H_
#define AOT_HARNESS_GOLDEN_REPLAY_RECORD_H_

// What became of one replay of one golden test: the record replay, the gate
// and the qualification report all share (header-only, no dependencies, so
// the report can use it without linking the corpus machinery).

#include <string>

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
};

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_REPLAY_RECORD_H_
