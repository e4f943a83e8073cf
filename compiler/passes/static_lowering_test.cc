#include "compiler/passes/static_lowering.h"

#include <string>

#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
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

TEST(StaticLoweringTest, WrappersAndTokensLowerToWhatTheyWrap) {
  const char* text = R"(
HloModule m
wrapped {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT s = f32[4] subtract(a, b)
}, execution_thread="parallel_thread"
ENTRY e {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  start = ((f32[4], f32[4]), f32[4], u32[]) async-start(p, q), async_execution_thread="parallel_thread", calls=wrapped
  update = ((f32[4], f32[4]), f32[4], u32[]) async-update(start), calls=wrapped
  done = f32[4] async-done(update), calls=wrapped
  cs = (f32[4], f32[4], u32[]) copy-start(done), cross_program_prefetch_index=0
  cd = f32[4] copy-done(cs)
  tok = token[] after-all()
  dep = f32[4] add-dependency(cd, tok)
  ROOT d = f32[4] domain(dep), domain={kind="sharding", entry={maximal device=0}, exit={replicated}}
})";
  auto m = ParseHloModule(text);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(VerifyHloModule(**m).ok()) << VerifyHloModule(**m);
  // The printed form parses back to itself, attributes and calls= included.
  auto printed = ParseHloModule((*m)->ToString());
  ASSERT_TRUE(printed.ok()) << printed.status() << (*m)->ToString();
  EXPECT_EQ((*printed)->ToString(), (*m)->ToString());
  std::vector<Literal> args = {Literal::FromDoubles(Shape(F32, {4}), {1, 2, 3, 4}),
                               Literal::FromDoubles(Shape(F32, {4}), {0.5, 0.5, 4, -1})};
  HloEvaluator evaluator;
  auto before = evaluator.Evaluate(**m, args);
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_EQ(before->ToString(), "f32[4]{0} {0.5, 1.5, -1, 5}");

  auto changed = LowerStaticOpcodes(m->get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  for (HloOpcode gone : {HloOpcode::kAsyncStart, HloOpcode::kAsyncUpdate, HloOpcode::kAsyncDone,
                         HloOpcode::kCopyStart, HloOpcode::kCopyDone, HloOpcode::kAfterAll,
                         HloOpcode::kAddDependency, HloOpcode::kDomain}) {
    EXPECT_EQ(Count(**m, gone), 0) << HloOpcodeString(gone) << "\n" << (*m)->ToString();
  }
  EXPECT_EQ(Count(**m, HloOpcode::kCall), 1) << (*m)->ToString();
  ASSERT_TRUE(VerifyHloModule(**m).ok()) << VerifyHloModule(**m);
  auto after = evaluator.Evaluate(**m, args);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(*after, *before);
}

TEST(StaticLoweringTest, AsyncDoneMustCompleteAnAsyncStartOfTheSameComputation) {
  auto m = ParseHloModule(R"(
HloModule m
one {
  ROOT a = f32[4] parameter(0)
}
two {
  a = f32[4] parameter(0)
  ROOT n = f32[4] negate(a)
}
ENTRY e {
  p = f32[4] parameter(0)
  start = ((f32[4]), f32[4], u32[]) async-start(p), calls=one
  ROOT done = f32[4] async-done(start), calls=two
})");
  ASSERT_TRUE(m.ok()) << m.status();
  absl::Status v = VerifyHloModule(**m);
  EXPECT_FALSE(v.ok());
  EXPECT_NE(v.message().find("calls=two is not the computation of 'start'"), std::string::npos)
      << v;
}

}  // namespace
}  // namespace aot
