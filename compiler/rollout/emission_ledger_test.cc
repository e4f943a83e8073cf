#include "compiler/rollout/emission_ledger.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

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

// The shipped input_output_alias flag: switching its default on today is
// blocked; from 14 days after its runtime support it is allowed.
// The flags whose runtime support landed on 2026-12-02: switching the
// default on that day is blocked, on 2026-12-16 allowed.
TEST(EmissionLedgerTest, FlagsOfTheSecondDecemberMayTurnOnFourteenDaysAfterSupport) {
  for (const char* name :
       {"emit_input_output_alias", "emit_low_precision_gemm", "emit_cudnn_convolution"}) {
    SCOPED_TRACE(name);
    const EmissionFlag* shipped = FindEmissionFlag(name);
    ASSERT_NE(shipped, nullptr);
    EXPECT_FALSE(shipped->enabled_by_default);
    EXPECT_EQ(shipped->runtime_support_since, "2026-12-02");
    EmissionFlag switched = *shipped;
    switched.enabled_by_default = true;
    switched.enabled_since = "2026-12-02";
    auto today = CheckEmissionLedger({switched}, "2026-12-02");
    ASSERT_TRUE(today.ok());
    ASSERT_EQ(today->size(), 1u);
    EXPECT_EQ((*today)[0].rule, "EMITTED_TOO_EARLY");
    switched.enabled_since = "2026-12-16";
    auto later = CheckEmissionLedger({switched}, "2026-12-16");
    ASSERT_TRUE(later.ok());
    EXPECT_TRUE(later->empty());
  }
}

// emit_collectives: runtime support landed on 2026-12-03 (release
// 2026-12-03); switching its default on before 2026-12-17 is blocked.
TEST(EmissionLedgerTest, CollectivesMayTurnOnFourteenDaysAfterTheirSupport) {
  const EmissionFlag* shipped = FindEmissionFlag("emit_collectives");
  ASSERT_NE(shipped, nullptr);
  EXPECT_FALSE(shipped->enabled_by_default);
  EXPECT_EQ(shipped->runtime_support_since, "2026-12-03");
  EmissionFlag switched = *shipped;
  switched.enabled_by_default = true;
  for (const char* day : {"2026-12-03", "2026-12-16"}) {
    SCOPED_TRACE(day);
    switched.enabled_since = day;
    auto early = CheckEmissionLedger({switched}, day);
    ASSERT_TRUE(early.ok());
    ASSERT_EQ(early->size(), 1u);
    EXPECT_EQ((*early)[0].rule, "EMITTED_TOO_EARLY");
  }
  switched.enabled_since = "2026-12-17";
  auto later = CheckEmissionLedger({switched}, "2026-12-17");
  ASSERT_TRUE(later.ok());
  EXPECT_TRUE(later->empty());
}

TEST(EmissionLedgerTest, OnByDefaultTenDaysAfterRuntimeSupportIsBlocked) {
  EmissionFlag f = NewThunkKind();
  f.enabled_by_default = true;
  f.enabled_since = "2026-11-11";
  auto violations = CheckEmissionLedger({f}, "2026-11-11");
  ASSERT_TRUE(violations.ok());
  ASSERT_EQ(violations->size(), 1u);
  EXPECT_EQ((*violations)[0].rule, "EMITTED_TOO_EARLY");
  EXPECT_THAT((*violations)[0].message, HasSubstr("runtime support landed on 2026-11-01"));
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
