#include "compiler/passes/hlo_cse.h"
#include "compiler/passes/hlo_dce.h"
#include "compiler/passes/test_util.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::ExpectNoChange;
using testing_util::ExpectRewrite;

TEST(HloCseTest, MergesIdenticalInstructions) {
  HloCse pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (a: f32[4], b: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %x = f32[4]{0} add(%a, %b)
  %y = f32[4]{0} add(%a, %b)
  %ex = f32[4]{0} exponential(%x)
  %ey = f32[4]{0} exponential(%y), metadata={op_name="other"}
  ROOT %m = f32[4]{0} multiply(%ex, %ey)
}
)",
                R"(
HloModule m
ENTRY %main (a: f32[4], b: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %x = f32[4]{0} add(%a, %b)
  %ex = f32[4]{0} exponential(%x)
  ROOT %m = f32[4]{0} multiply(%ex, %ex)
}
)");
}

TEST(HloCseTest, ConstantsEqualByValue) {
  HloCse pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (a: f32[2]) -> (f32[2], f32[2], f32[2]) {
  %a = f32[2]{0} parameter(0)
  %c1 = f32[2]{0} constant({1, 2})
  %c2 = f32[2]{0} constant({1, 2})
  %c3 = f32[2]{0} constant({1, 3})
  %x = f32[2]{0} add(%a, %c1)
  %y = f32[2]{0} add(%a, %c2)
  %z = f32[2]{0} add(%a, %c3)
  ROOT %t = (f32[2]{0}, f32[2]{0}, f32[2]{0}) tuple(%x, %y, %z)
}
)",
                R"(
HloModule m
ENTRY %main (a: f32[2]) -> (f32[2], f32[2], f32[2]) {
  %a = f32[2]{0} parameter(0)
  %c1 = f32[2]{0} constant({1, 2})
  %c3 = f32[2]{0} constant({1, 3})
  %x = f32[2]{0} add(%a, %c1)
  %z = f32[2]{0} add(%a, %c3)
  ROOT %t = (f32[2]{0}, f32[2]{0}, f32[2]{0}) tuple(%x, %x, %z)
}
)");
}

TEST(HloCseTest, DoesNotMergeDifferentAttributesShapesOrZeros) {
  HloCse pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (a: f32[2,3], b: f32[3]) -> (f32[2,3], f32[2,3], f32[3,2], f32[3,2], f32[], f32[], pred[3], pred[3]) {
  %a = f32[2,3]{1,0} parameter(0)
  %b = f32[3]{0} parameter(1)
  %c1 = f32[2,3]{1,0} copy(%a)
  %c2 = f32[2,3]{0,1} copy(%a)
  %t1 = f32[3,2]{1,0} transpose(%a), dimensions={1,0}
  %r1 = f32[3,2]{1,0} reshape(%a)
  %z = f32[] constant(0)
  %nz = f32[] constant(-0)
  %lt = pred[3]{0} compare(%b, %b), direction=LT
  %gt = pred[3]{0} compare(%b, %b), direction=GT
  ROOT %t = (f32[2,3]{1,0}, f32[2,3]{0,1}, f32[3,2]{1,0}, f32[3,2]{1,0}, f32[], f32[], pred[3]{0}, pred[3]{0}) tuple(%c1, %c2, %t1, %r1, %z, %nz, %lt, %gt)
}
)");
}

TEST(HloCseTest, ParametersAndCustomCallsAreNotMerged) {
  HloCse pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (a: f32[2], b: f32[2]) -> (f32[2], f32[2]) {
  %a = f32[2]{0} parameter(0)
  %b = f32[2]{0} parameter(1)
  %c1 = f32[2]{0} custom-call(%a), custom_call_target="aot.gelu"
  %c2 = f32[2]{0} custom-call(%a), custom_call_target="aot.gelu"
  %x = f32[2]{0} add(%a, %c1)
  %y = f32[2]{0} add(%b, %c2)
  ROOT %t = (f32[2]{0}, f32[2]{0}) tuple(%x, %y)
}
)");
}

TEST(HloCseTest, CalledComputationsByIdentity) {
  HloCse pass;
  ExpectRewrite(pass, R"(
HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
%add2 (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (a: f32[4]) -> (f32[], f32[], f32[]) {
  %a = f32[4]{0} parameter(0)
  %z = f32[] constant(0)
  %r1 = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add
  %r2 = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add
  %r3 = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add2
  ROOT %t = (f32[], f32[], f32[]) tuple(%r1, %r2, %r3)
}
)",
                R"(
HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
%add2 (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (a: f32[4]) -> (f32[], f32[], f32[]) {
  %a = f32[4]{0} parameter(0)
  %z = f32[] constant(0)
  %r1 = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add
  %r3 = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add2
  ROOT %t = (f32[], f32[], f32[]) tuple(%r1, %r1, %r3)
}
)");
}

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
