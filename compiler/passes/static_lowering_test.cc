#include "compiler/passes/static_lowering.h"

#include <string>

#include "compiler/hlo/hlo_parser.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

int Count(const HloModule& m, HloOpcode opcode) {
  int n = 0;
  for (const HloComputation* c : m.computations()) {
    for (const HloInstruction* h : c->instructions()) n += h->opcode() == opcode;
  }
  return n;
}

TEST(StaticLoweringTest, BarriersGoAndDimensionSizesBecomeConstants) {
  auto m = ParseHloModule(R"(
HloModule m
ENTRY e {
  p = f32[3,7] parameter(0)
  q = s32[] parameter(1)
  t = (f32[3,7], s32[]) tuple(p, q)
  b = (f32[3,7], s32[]) opt-barrier(t)
  x = f32[3,7] get-tuple-element(b), index=0
  n = s32[] get-dimension-size(x), dimensions={1}
  y = s32[] get-tuple-element(b), index=1
  ROOT r = s32[] add(n, y)
})");
  ASSERT_TRUE(m.ok()) << m.status();
  auto changed = LowerStaticOpcodes(m->get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_EQ(Count(**m, HloOpcode::kOptimizationBarrier), 0);
  EXPECT_EQ(Count(**m, HloOpcode::kGetDimensionSize), 0);
  EXPECT_TRUE(VerifyHloModule(**m).ok());
  const std::string text = (*m)->ToString();
  EXPECT_NE(text.find("s32[] constant(7)"), std::string::npos) << text;
  auto again = LowerStaticOpcodes(m->get());
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
}

TEST(StaticLoweringTest, ABarrierAtTheRootHandsTheRootToItsOperand) {
  auto m = ParseHloModule(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT b = f32[4] opt-barrier(p)
})");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(LowerStaticOpcodes(m->get()).ok());
  EXPECT_EQ((*m)->entry_computation()->root_instruction()->opcode(), HloOpcode::kParameter);
}

}  // namespace
}  // namespace aot
