#ifndef AOT_SUPPORT_DATE_H_
#define AOT_SUPPORT_DATE_H_

#include <string>

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
  Date PlusDays(int days) const { return MinusDays(-days); }
  friend auto operator<=>(const Date&, const Date&) = default;
};

// CONTRACT.md s. 4: the backward window is 6 months, the forward window 2
// weeks.
inline constexpr int kBackwardWindowMonths = 6;
inline constexpr int kForwardWindowDays = 14;

}  // namespace aot

#endif  // AOT_SUPPORT_DATE_H_
