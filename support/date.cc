#include "support/date.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"

namespace aot {
namespace {

absl::CivilDay ToCivil(const Date& d) { return absl::CivilDay(d.year, d.month, d.day); }

Date FromCivil(absl::CivilDay day) {
  return Date{static_cast<int>(day.year()), day.month(), day.day()};
}

int DaysInMonth(absl::CivilMonth month) { return (absl::CivilDay(month + 1) - 1).day(); }

}  // namespace

absl::StatusOr<Date> Date::Parse(absl::string_view text) {
  Date d;
  bool ok = text.size() == 10 && text[4] == '-' && text[7] == '-' &&
            absl::SimpleAtoi(text.substr(0, 4), &d.year) &&
            absl::SimpleAtoi(text.substr(5, 2), &d.month) &&
            absl::SimpleAtoi(text.substr(8, 2), &d.day) && d.year >= 1970;
  // absl::CivilDay normalizes out-of-range fields (2026-02-30 becomes
  // 2026-03-02): a date is valid when it survives unchanged.
  if (!ok || FromCivil(ToCivil(d)) != d) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a date YYYY-MM-DD"));
  }
  return d;
}

std::string Date::ToString() const {
  char buffer[16];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02d", year, month, day);
  return buffer;
}

Date Date::MinusMonths(int months) const {
  absl::CivilMonth month = absl::CivilMonth(year, this->month) - months;
  return FromCivil(absl::CivilDay(month.year(), month.month(), std::min(day, DaysInMonth(month))));
}

Date Date::MinusDays(int days) const { return FromCivil(ToCivil(*this) - days); }

}  // namespace aot
