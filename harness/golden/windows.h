#ifndef AOT_HARNESS_GOLDEN_WINDOWS_H_
#define AOT_HARNESS_GOLDEN_WINDOWS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot {

// A calendar date (UTC), parsed from / printed as YYYY-MM-DD.
struct Date {
  int year = 0, month = 0, day = 0;
  static absl::StatusOr<Date> Parse(absl::string_view text);
  std::string ToString() const;
  // The same day `months` months earlier (clamped to the month's length:
  // 2026-08-31 minus 6 months is 2026-02-28).
  Date MinusMonths(int months) const;
  Date MinusDays(int days) const;
  friend auto operator<=>(const Date&, const Date&) = default;
};

// CONTRACT.md s. 4: the backward window is 6 months, the forward window 2
// weeks.
inline constexpr int kBackwardWindowMonths = 6;
inline constexpr int kForwardWindowDays = 14;

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
