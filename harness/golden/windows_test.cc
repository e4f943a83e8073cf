#include "harness/golden/windows.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::ElementsAre;

Date D(const char* text) { return *Date::Parse(text); }

TEST(DateTest, ParsesPrintsAndValidates) {
  EXPECT_EQ(D("2026-11-29").ToString(), "2026-11-29");
  EXPECT_FALSE(Date::Parse("2026-02-30").ok());
  EXPECT_FALSE(Date::Parse("2026-13-01").ok());
  EXPECT_FALSE(Date::Parse("26-11-29").ok());
  EXPECT_TRUE(Date::Parse("2024-02-29").ok());
  EXPECT_FALSE(Date::Parse("2026-02-29").ok());
}

TEST(DateTest, CalendarArithmetic) {
  EXPECT_EQ(D("2026-11-29").MinusMonths(6).ToString(), "2026-05-29");
  EXPECT_EQ(D("2026-08-31").MinusMonths(6).ToString(), "2026-02-28");
  EXPECT_EQ(D("2024-08-31").MinusMonths(6).ToString(), "2024-02-29");
  EXPECT_EQ(D("2026-03-15").MinusMonths(6).ToString(), "2025-09-15");
  EXPECT_EQ(D("2026-01-05").MinusDays(14).ToString(), "2025-12-22");
  EXPECT_EQ(D("2024-03-01").MinusDays(1).ToString(), "2024-02-29");
  EXPECT_LT(D("2026-05-28"), D("2026-05-29"));
}

TEST(BackwardWindowTest, InWindowPlusNewestBeforeItTheRestExpired) {
  std::vector<DatedVersion> versions = {{1, D("2025-01-10")},
                                        {2, D("2025-04-01")},
                                        {3, D("2026-03-01")},
                                        {4, D("2026-10-01")},
                                        {5, D("2026-12-24")}};  // after now: not current
  BackwardWindow w = ComputeBackwardWindow(versions, D("2026-11-29"));
  EXPECT_EQ(w.start.ToString(), "2026-05-29");
  EXPECT_THAT(w.in_window, ElementsAre(3, 4));
  EXPECT_THAT(w.expired, ElementsAre(1, 2));
}

TEST(BackwardWindowTest, BoundaryDayIsInsideAndOldOnlyVersionStaysCurrent) {
  BackwardWindow edge =
      ComputeBackwardWindow({{1, D("2026-05-29")}, {2, D("2026-01-01")}}, D("2026-11-29"));
  EXPECT_THAT(edge.in_window, ElementsAre(1, 2));
  EXPECT_TRUE(edge.expired.empty());
  // A single version created long ago is still the compiler of the whole
  // window: never expired.
  BackwardWindow old = ComputeBackwardWindow({{1, D("2020-01-01")}}, D("2026-11-29"));
  EXPECT_THAT(old.in_window, ElementsAre(1));
  EXPECT_TRUE(old.expired.empty());
}

}  // namespace
}  // namespace aot
