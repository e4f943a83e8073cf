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

// When a compatibility fallback may go (CONTRACT.md s. 6), by the window's
// own rule: the old form was last emitted by goldens created before
// `superseded_on`, the day the first version without it was created. Those
// goldens stay current until that version is older than the window
// (ComputeBackwardWindow); the fallback may be removed from the first day
// of the first month that starts on or after the day they expire. Returns
// that first day. The fallback lint's notice (harness/lint) fires from it.
Date FallbackRemovalMonth(const Date& superseded_on);
// The expiry comment the lint reads, for a fallback of that form:
// "// Can be removed in <Month> <YYYY> (6 months backward compatibility
// window)."
std::string FallbackExpiryLine(const Date& superseded_on);
// "January" .. "December" for 1 .. 12; 0 for an unknown name.
const char* MonthName(int month);
int MonthNumber(absl::string_view name);

// Versions with their MANIFEST dates; errors name the unreadable manifest.
absl::StatusOr<std::vector<DatedVersion>> DatedVersions(const std::string& golden_dir,
                                                        absl::string_view target);

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_WINDOWS_H_
