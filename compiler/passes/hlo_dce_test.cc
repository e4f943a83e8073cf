#include "compiler/passes/hlo_dce.h"

#include "compiler/passes/test_util.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::ExpectNoChange;
using testing_util::ExpectRewrite;

TEST(HloDceTest, RemovesDeadInstructionsAndComputations) {
  HloDce pass;
  ExpectRewrite(pass, R"(
HloModule m
%unused (x: f32[]) -> f32[] {
  ROOT %x = f32[] parameter(0)
}
%used (x: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  ROOT %n = f32[] negate(%x)
}
ENTRY %main (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  %dead1 = f32[] exponential(%b)
  %dead2 = f32[] call(%dead1), to_apply=%unused
  %live = f32[] call(%a), to_apply=%used
  ROOT %r = f32[] add(%live, %a)
}
)",
                R"(
HloModule m
%used (x: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  ROOT %n = f32[] negate(%x)
}
ENTRY %main (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  %live = f32[] call(%a), to_apply=%used
  ROOT %r = f32[] add(%live, %a)
}
)");
}

TEST(HloDceTest, KeepsSideEffectsAndParameters) {
  HloDce pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (a: f32[2], b: f32[2]) -> f32[2] {
  %a = f32[2]{0} parameter(0)
  %b = f32[2]{0} parameter(1)
  %log = f32[2]{0} custom-call(%b), custom_call_target="log_it", custom_call_has_side_effect=true
  ROOT %n = f32[2]{0} negate(%a)
}
)");
}

TEST(HloDceTest, DeadCodeInNestedComputations) {
  HloDce pass;
  bool changed = false;
  auto m = testing_util::RunPass(pass, R"(
HloModule m
%body (s: (s32[], f32[2])) -> (s32[], f32[2]) {
  %s = (s32[], f32[2]{0}) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %v = f32[2]{0} get-tuple-element(%s), index=1
  %one = s32[] constant(1)
  %two = s32[] constant(2)
  %unused = s32[] multiply(%i, %two)
  %next = s32[] add(%i, %one)
  ROOT %t = (s32[], f32[2]{0}) tuple(%next, %v)
}
%cond (s: (s32[], f32[2])) -> pred[] {
  %s = (s32[], f32[2]{0}) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(3)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}
ENTRY %main (x: f32[2]) -> f32[2] {
  %x = f32[2]{0} parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[2]{0}) tuple(%zero, %x)
  %w = (s32[], f32[2]{0}) while(%init), condition=%cond, body=%body
  ROOT %out = f32[2]{0} get-tuple-element(%w), index=1
}
)",
                                 &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);
  const HloComputation* body = m->FindComputation("body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->FindInstruction("unused"), nullptr);
  EXPECT_EQ(body->FindInstruction("two"), nullptr);
  EXPECT_NE(body->FindInstruction("next"), nullptr);
  testing_util::ExpectWellFormed(*m);
}

}  // namespace
}  // namespace aot
