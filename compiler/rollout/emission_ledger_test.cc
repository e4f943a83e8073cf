#include "compiler/rollout/emission_ledger.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/date.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

EmissionFlag NewThunkKind() {
  EmissionFlag f;
  f.name = "emit_fused_gemm_thunk";
  f.description = "a new thunk kind";
  f.runtime_support_since = "2026-11-01";
  return f;
}

TEST(EmissionLedgerTest, TheShippedLedgerIsConsistent) {
  auto violations = CheckEmissionLedger(EmissionLedger(), "2026-11-29");
  ASSERT_TRUE(violations.ok());
  EXPECT_TRUE(violations->empty());
}

// Every shipped flag: switching its default on the day before
// EarliestSwitchDay of its runtime release is blocked, on that day allowed.
TEST(EmissionLedgerTest, EveryShippedFlagMayTurnOnFromItsEarliestSwitchDay) {
  for (const EmissionFlag& shipped : EmissionLedger()) {
    SCOPED_TRACE(shipped.name);
    EXPECT_FALSE(shipped.enabled_by_default);
    EXPECT_FALSE(shipped.runtime_release.empty());
    // The release id starts with its date (golden/releases/<date>-<hash>).
    EXPECT_EQ(shipped.runtime_release.substr(0, 10), shipped.runtime_support_since);
    auto support = Date::Parse(shipped.runtime_support_since);
    ASSERT_TRUE(support.ok());
    const Date earliest = EarliestSwitchDay(*support);
    EmissionFlag switched = shipped;
    switched.enabled_by_default = true;
    for (const Date& day : {*support, earliest.PlusDays(-1)}) {
      SCOPED_TRACE(day.ToString());
      switched.enabled_since = day.ToString();
      auto early = CheckEmissionLedger({switched}, day.ToString());
      ASSERT_TRUE(early.ok());
      ASSERT_EQ(early->size(), 1u);
      EXPECT_EQ((*early)[0].rule, "EMITTED_TOO_EARLY");
    }
    switched.enabled_since = earliest.ToString();
    auto later = CheckEmissionLedger({switched}, earliest.ToString());
    ASSERT_TRUE(later.ok());
    EXPECT_TRUE(later->empty());
  }
}

// The window of day D holds the releases of [D - 14, D] and the newest one
// before: on support + 14 the release before the supporting one is still
// current, so the first safe day is support + 15.
TEST(EmissionLedgerTest, CustomCallTargetPatternsMatchExactlyOrByPrefix) {
  EXPECT_TRUE(MatchesTargetPattern("lapack_spotrf_ffi", {"lapack_*"}));
  EXPECT_TRUE(MatchesTargetPattern("aot.topk", {"x", "aot.topk"}));
  EXPECT_FALSE(MatchesTargetPattern("aot.topk2", {"aot.topk"}));
  EXPECT_FALSE(MatchesTargetPattern("blas_strsm", {"lapack_*"}));
  // JAX's LAPACK targets are behind their flag, and nothing else is.
  const EmissionFlag* lapack = EmissionFlagForCustomCall("lapack_zheevd_ffi");
  ASSERT_NE(lapack, nullptr);
  EXPECT_EQ(lapack->name, "emit_lapack_custom_calls");
  EXPECT_FALSE(lapack->enabled_by_default);
  EXPECT_EQ(EmissionFlagForCustomCall("aot.gelu"), nullptr);
  EXPECT_EQ(EmissionFlagForCustomCall("blas_strsm"), nullptr);
}

TEST(EmissionLedgerTest, EarliestSwitchDayIsFifteenDaysAfterTheRelease) {
  auto support = Date::Parse("2026-12-07");
  ASSERT_TRUE(support.ok());
  EXPECT_EQ(EarliestSwitchDay(*support).ToString(), "2026-12-22");
  support = Date::Parse("2026-12-04");
  ASSERT_TRUE(support.ok());
  EXPECT_EQ(EarliestSwitchDay(*support).ToString(), "2026-12-19");
}

TEST(EmissionLedgerTest, OnByDefaultTenDaysAfterRuntimeSupportIsBlocked) {
  EmissionFlag f = NewThunkKind();
  f.enabled_by_default = true;
  f.enabled_since = "2026-11-11";
  auto violations = CheckEmissionLedger({f}, "2026-11-11");
  ASSERT_TRUE(violations.ok());
  ASSERT_EQ(violations->size(), 1u);
  EXPECT_EQ((*violations)[0].rule, "EMITTED_TOO_EARLY");
  EXPECT_THAT((*violations)[0].message, HasSubstr("runtime support was released on 2026-11-01"));
}

TEST(EmissionLedgerTest, OnByDefaultFifteenDaysAfterRuntimeSupportIsAllowed) {
  EmissionFlag f = NewThunkKind();
  f.enabled_by_default = true;
  f.enabled_since = "2026-11-16";
  auto violations = CheckEmissionLedger({f}, "2026-11-16");
  ASSERT_TRUE(violations.ok());
  EXPECT_TRUE(violations->empty());
  // Off by default: any time is fine.
  EmissionFlag off = NewThunkKind();
  EXPECT_TRUE(CheckEmissionLedger({off}, "2026-11-02")->empty());
}

TEST(EmissionLedgerTest, FallbackRemovedFiveMonthsAfterTheSwitchIsBlocked) {
  EmissionFlag f = NewThunkKind();
  f.runtime_support_since = "2026-01-01";
  f.enabled_by_default = true;
  f.enabled_since = "2026-06-01";
  f.fallback_removed_on = "2026-11-01";
  auto violations = CheckEmissionLedger({f}, "2026-11-29");
  ASSERT_TRUE(violations.ok());
  ASSERT_EQ(violations->size(), 1u);
  EXPECT_EQ((*violations)[0].rule, "FALLBACK_REMOVED_TOO_EARLY");
}

TEST(EmissionLedgerTest, FallbackRemovedSevenMonthsAfterTheSwitchIsAllowed) {
  EmissionFlag f = NewThunkKind();
  f.runtime_support_since = "2026-01-01";
  f.enabled_by_default = true;
  f.enabled_since = "2026-04-01";
  f.fallback_removed_on = "2026-11-01";
  auto violations = CheckEmissionLedger({f}, "2026-11-29");
  ASSERT_TRUE(violations.ok());
  EXPECT_TRUE(violations->empty());
}

TEST(EmissionLedgerTest, BadDatesAndMissingSupportAreReported) {
  EmissionFlag f = NewThunkKind();
  f.runtime_support_since = "";
  auto a = CheckEmissionLedger({f}, "2026-11-29");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ((*a)[0].rule, "NO_RUNTIME_SUPPORT_DATE");
  EmissionFlag g = NewThunkKind();
  g.enabled_since = "yesterday";
  auto b = CheckEmissionLedger({g}, "2026-11-29");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)[0].rule, "BAD_DATE");
  EXPECT_FALSE(CheckEmissionLedger({}, "2026-99-01").ok());
}

}  // namespace
}  // namespace aot
