#include "runtime/support/date.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace aot {

namespace {

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

}  // namespace

absl::StatusOr<Date> Date::Parse(absl::string_view text) {
  Date d;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' ||
      !absl::SimpleAtoi(text.substr(0, 4), &d.year) ||
      !absl::SimpleAtoi(text.substr(5, 2), &d.month) ||
      !absl::SimpleAtoi(text.substr(8, 2), &d.day) || d.month < 1 || d.month > 12 ||
      d.day < 1 || d.day > DaysInMonth(d.year, d.month) || d.year < 1970) {
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
  int total = year * 12 + (month - 1) - months;
  Date d;
  d.year = total / 12;
  d.month = total % 12 + 1;
  d.day = std::min(day, DaysInMonth(d.year, d.month));
  return d;
}

Date Date::MinusDays(int days) const {
  Date d = *this;
  for (int i = 0; i < days; ++i) {
    if (--d.day == 0) {
      if (--d.month == 0) {
        d.month = 12;
        --d.year;
      }
      d.day = DaysInMonth(d.year, d.month);
    }
  }
  return d;
}

}  // namespace aot
