#include "support/date.h"

#include "gtest/gtest.h"

namespace aot {
namespace {

Date D(const char* text) { return *Date::Parse(text); }

TEST(DateTest, ParsesAndPrints) {
  EXPECT_EQ(D("2026-11-30").ToString(), "2026-11-30");
  EXPECT_EQ(D("2024-02-29").ToString(), "2024-02-29");
  for (const char* bad : {"2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "1969-12-31",
                          "2026-1-01", "2026/01/01", "", "2026-01-01x"}) {
    EXPECT_FALSE(Date::Parse(bad).ok()) << bad;
  }
}

TEST(DateTest, MinusMonthsClampsToTheMonthsLength) {
  EXPECT_EQ(D("2026-08-31").MinusMonths(6), D("2026-02-28"));
  EXPECT_EQ(D("2024-08-31").MinusMonths(6), D("2024-02-29"));
  EXPECT_EQ(D("2026-03-15").MinusMonths(6), D("2025-09-15"));
  EXPECT_EQ(D("2026-01-31").MinusMonths(0), D("2026-01-31"));
}

TEST(DateTest, MinusDaysCrossesMonthsAndYears) {
  EXPECT_EQ(D("2026-12-01").MinusDays(14), D("2026-11-17"));
  EXPECT_EQ(D("2026-01-05").MinusDays(14), D("2025-12-22"));
  EXPECT_EQ(D("2024-03-01").MinusDays(1), D("2024-02-29"));
  EXPECT_EQ(D("2026-03-01").MinusDays(365), D("2025-03-01"));
  EXPECT_LT(D("2026-11-30"), D("2026-12-01"));
}

}  // namespace
}  // namespace aot
