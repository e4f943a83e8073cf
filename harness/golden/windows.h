#ifndef AOT_HARNESS_GOLDEN_WINDOWS_H_
#define AOT_HARNESS_GOLDEN_WINDOWS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "support/date.h"

namespace aot {

struct DatedVersion {
  int version = 0;
  Date created;
};

// The backward window, precisely (ARCHITECTURE.md "Windows"): the
// compilers current at any moment of [now - 6 months, now] are every
// version created inside the window plus the newest one created before
// it. Everything older is expired: reported, never a failure, and the only
// thing `aot-compat prune` may delete. Versions created after `now` are
// ignored (not yet current).
struct BackwardWindow {
  Date start;
  std::vector<int> in_window;  // ascending
  std::vector<int> expired;    // ascending
};
BackwardWindow ComputeBackwardWindow(std::vector<DatedVersion> versions, const Date& now);

// Versions with their MANIFEST dates; errors name the unreadable manifest.
absl::StatusOr<std::vector<DatedVersion>> DatedVersions(const std::string& golden_dir,
                                                        absl::string_view target);

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_WINDOWS_H_
