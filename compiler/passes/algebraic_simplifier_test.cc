#include "compiler/passes/algebraic_simplifier.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "compiler/passes/test_util.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::ExpectNoChange;
using testing_util::ExpectRewrite;

TEST(AlgebraicSimplifierTest, FloatAddOfNegativeZeroFolds) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %nz = f32[] constant(-0)
  %b = f32[4]{0} broadcast(%nz), dimensions={}
  %a = f32[4]{0} add(%x, %b)
  ROOT %r = f32[4]{0} add(%b, %a)
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[4]) -> f32[4] {
  ROOT %x = f32[4]{0} parameter(0)
}
)");
}

// -0.0 + 0.0 is +0.0, so x + 0.0 is not x for floats.
TEST(AlgebraicSimplifierTest, FloatAddOfPositiveZeroIsKept) {
  AlgebraicSimplifier pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %z = f32[] constant(0)
  %b = f32[4]{0} broadcast(%z), dimensions={}
  ROOT %a = f32[4]{0} add(%x, %b)
}
)");
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (x: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %z = f32[] constant(0)
  ROOT %a = f32[] add(%z, %x)
}
)");
}

// x - (-0.0) = x + 0.0: not x for x = -0.0. x - 0.0 is x.
TEST(AlgebraicSimplifierTest, FloatSubtractOnlyOfPositiveZero) {
  AlgebraicSimplifier pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (x: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %z = f32[] constant(-0)
  ROOT %s = f32[] subtract(%x, %z)
}
)");
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f64[3]) -> f64[3] {
  %x = f64[3]{0} parameter(0)
  %z = f64[3]{0} constant({0, 0, 0})
  ROOT %s = f64[3]{0} subtract(%x, %z)
}
)",
                R"(
HloModule m
ENTRY %main (x: f64[3]) -> f64[3] {
  ROOT %x = f64[3]{0} parameter(0)
}
)");
}

TEST(AlgebraicSimplifierTest, IntegerIdentities) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: s32[4]) -> s32[4] {
  %x = s32[4]{0} parameter(0)
  %zero = s32[] constant(0)
  %zeros = s32[4]{0} broadcast(%zero), dimensions={}
  %one = s32[] constant(1)
  %ones = s32[4]{0} broadcast(%one), dimensions={}
  %a = s32[4]{0} add(%zeros, %x)
  %b = s32[4]{0} add(%a, %zeros)
  %c = s32[4]{0} subtract(%b, %zeros)
  %d = s32[4]{0} multiply(%ones, %c)
  %e = s32[4]{0} multiply(%d, %ones)
  ROOT %f = s32[4]{0} divide(%e, %ones)
}
)",
                R"(
HloModule m
ENTRY %main (x: s32[4]) -> s32[4] {
  ROOT %x = s32[4]{0} parameter(0)
}
)");
}

TEST(AlgebraicSimplifierTest, IntegerMultiplyByZero) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: u8[4], y: s64[2]) -> (u8[4], s64[2]) {
  %x = u8[4]{0} parameter(0)
  %y = s64[2]{0} parameter(1)
  %zero = u8[] constant(0)
  %zeros = u8[4]{0} broadcast(%zero), dimensions={}
  %m = u8[4]{0} multiply(%x, %zeros)
  %z64 = s64[] constant(0)
  %m64 = s64[] multiply(%z64, %z64)
  %zz = s64[2]{0} constant({0, 0})
  %n = s64[2]{0} multiply(%zz, %y)
  ROOT %t = (u8[4]{0}, s64[2]{0}) tuple(%m, %n)
}
)",
                R"(
HloModule m
ENTRY %main (x: u8[4], y: s64[2]) -> (u8[4], s64[2]) {
  %x = u8[4]{0} parameter(0)
  %y = s64[2]{0} parameter(1)
  %zero = u8[] constant(0)
  %zeros = u8[4]{0} broadcast(%zero), dimensions={}
  %zz = s64[2]{0} constant({0, 0})
  ROOT %t = (u8[4]{0}, s64[2]{0}) tuple(%zeros, %zz)
}
)");
}

// NaN * 0 = NaN, inf * 0 = NaN, -1 * 0 = -0: x * 0 is not 0 for floats.
TEST(AlgebraicSimplifierTest, FloatMultiplyByZeroIsKept) {
  AlgebraicSimplifier pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %z = f32[] constant(0)
  %b = f32[4]{0} broadcast(%z), dimensions={}
  ROOT %m = f32[4]{0} multiply(%x, %b)
}
)");
}

TEST(AlgebraicSimplifierTest, FloatMultiplyAndDivideByOne) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: bf16[4]) -> bf16[4] {
  %x = bf16[4]{0} parameter(0)
  %one = bf16[] constant(1)
  %ones = bf16[4]{0} broadcast(%one), dimensions={}
  %m = bf16[4]{0} multiply(%ones, %x)
  ROOT %d = bf16[4]{0} divide(%m, %ones)
}
)",
                R"(
HloModule m
ENTRY %main (x: bf16[4]) -> bf16[4] {
  ROOT %x = bf16[4]{0} parameter(0)
}
)");
  // Not all ones: kept.
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (x: f32[2]) -> f32[2] {
  %x = f32[2]{0} parameter(0)
  %c = f32[2]{0} constant({1, 2})
  ROOT %m = f32[2]{0} multiply(%x, %c)
}
)");
}

TEST(AlgebraicSimplifierTest, NegateNegate) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[3]) -> f32[3] {
  %x = f32[3]{0} parameter(0)
  %n = f32[3]{0} negate(%x)
  %nn = f32[3]{0} negate(%n)
  ROOT %e = f32[3]{0} exponential(%nn)
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[3]) -> f32[3] {
  %x = f32[3]{0} parameter(0)
  ROOT %e = f32[3]{0} exponential(%x)
}
)");
}

TEST(AlgebraicSimplifierTest, ReshapeOfReshape) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[2,6]) -> f32[4,3] {
  %x = f32[2,6]{1,0} parameter(0)
  %r1 = f32[12]{0} reshape(%x)
  %r2 = f32[3,4]{1,0} reshape(%r1)
  %r3 = f32[3,4]{1,0} reshape(%r2)
  ROOT %r4 = f32[4,3]{1,0} reshape(%r3)
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[2,6]) -> f32[4,3] {
  %x = f32[2,6]{1,0} parameter(0)
  ROOT %reshape.1 = f32[4,3]{1,0} reshape(%x)
}
)");
  // Back to the operand's shape: the operand itself.
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[2,6]) -> f32[2,6] {
  %x = f32[2,6]{1,0} parameter(0)
  %r1 = f32[12]{0} reshape(%x)
  ROOT %r2 = f32[2,6]{1,0} reshape(%r1)
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[2,6]) -> f32[2,6] {
  ROOT %x = f32[2,6]{1,0} parameter(0)
}
)");
}

TEST(AlgebraicSimplifierTest, TransposeOfTranspose) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[2,3,4]) -> f32[3,4,2] {
  %x = f32[2,3,4]{2,1,0} parameter(0)
  %t1 = f32[4,2,3]{2,1,0} transpose(%x), dimensions={2,0,1}
  ROOT %t2 = f32[3,4,2]{2,1,0} transpose(%t1), dimensions={2,0,1}
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[2,3,4]) -> f32[3,4,2] {
  %x = f32[2,3,4]{2,1,0} parameter(0)
  ROOT %transpose = f32[3,4,2]{2,1,0} transpose(%x), dimensions={1,2,0}
}
)");
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[2,3]) -> f32[2,3] {
  %x = f32[2,3]{1,0} parameter(0)
  %t1 = f32[3,2]{1,0} transpose(%x), dimensions={1,0}
  %t2 = f32[2,3]{1,0} transpose(%t1), dimensions={1,0}
  ROOT %t3 = f32[2,3]{1,0} transpose(%t2), dimensions={0,1}
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[2,3]) -> f32[2,3] {
  ROOT %x = f32[2,3]{1,0} parameter(0)
}
)");
}

TEST(AlgebraicSimplifierTest, BroadcastOfBroadcast) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[3]) -> f32[2,3,4] {
  %x = f32[3]{0} parameter(0)
  %b1 = f32[3,4]{1,0} broadcast(%x), dimensions={0}
  ROOT %b2 = f32[2,3,4]{2,1,0} broadcast(%b1), dimensions={1,2}
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[3]) -> f32[2,3,4] {
  %x = f32[3]{0} parameter(0)
  ROOT %broadcast = f32[2,3,4]{2,1,0} broadcast(%x), dimensions={1}
}
)");
}

TEST(AlgebraicSimplifierTest, NoOpShapeOps) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[2,3]) -> f32[2,3] {
  %x = f32[2,3]{1,0} parameter(0)
  %s = f32[2,3]{1,0} slice(%x), slice={[0:2], [0:3]}
  %z = f32[] constant(0)
  %p = f32[2,3]{1,0} pad(%s, %z), padding=0_0x0_0
  %b = f32[2,3]{1,0} broadcast(%p), dimensions={0,1}
  %c = f32[2,3]{1,0} convert(%b)
  %cp = f32[2,3]{1,0} copy(%c)
  %t = f32[2,3]{1,0} transpose(%cp), dimensions={0,1}
  %r = f32[2,3]{1,0} reshape(%t)
  %bc = f32[2,3]{1,0} bitcast(%r)
  %cat = f32[2,3]{1,0} concatenate(%bc), dimensions={0}
  ROOT %e = f32[2,3]{1,0} exponential(%cat)
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[2,3]) -> f32[2,3] {
  %x = f32[2,3]{1,0} parameter(0)
  ROOT %e = f32[2,3]{1,0} exponential(%x)
}
)");
}

TEST(AlgebraicSimplifierTest, ReverseAndDynamicSliceNoOps) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[1,3], i: s32[]) -> f32[1,3] {
  %x = f32[1,3]{1,0} parameter(0)
  %i = s32[] parameter(1)
  %r = f32[1,3]{1,0} reverse(%x), dimensions={0}
  ROOT %d = f32[1,3]{1,0} dynamic-slice(%r, %i, %i), dynamic_slice_sizes={1,3}
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[1,3], i: s32[]) -> f32[1,3] {
  ROOT %x = f32[1,3]{1,0} parameter(0)
  %i = s32[] parameter(1)
}
)");
  // Reversing a dimension of size 3 is real work.
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (x: f32[1,3]) -> f32[1,3] {
  %x = f32[1,3]{1,0} parameter(0)
  ROOT %r = f32[1,3]{1,0} reverse(%x), dimensions={1}
}
)");
}

// A copy or reshape that changes the layout moves data: kept.
TEST(AlgebraicSimplifierTest, LayoutChangingOpsAreKept) {
  AlgebraicSimplifier pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (x: f32[2,3]) -> (f32[2,3], f32[2,3]) {
  %x = f32[2,3]{0,1} parameter(0)
  %c = f32[2,3]{1,0} copy(%x)
  %r = f32[2,3]{1,0} reshape(%x)
  ROOT %t = (f32[2,3]{1,0}, f32[2,3]{1,0}) tuple(%c, %r)
}
)");
}

TEST(AlgebraicSimplifierTest, CopyOfCopy) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[2,3]) -> f32[2,3] {
  %x = f32[2,3]{0,1} parameter(0)
  %c1 = f32[2,3]{1,0} copy(%x)
  ROOT %c2 = f32[2,3]{0,1} copy(%c1)
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[2,3]) -> f32[2,3] {
  ROOT %x = f32[2,3]{0,1} parameter(0)
}
)");
}

TEST(AlgebraicSimplifierTest, SelectWithConstantPredicate) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (a: f32[4], b: f32[4], p: pred[4]) -> (f32[4], f32[4], f32[4]) {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %p = pred[4]{0} parameter(2)
  %t = pred[] constant(true)
  %bt = pred[4]{0} broadcast(%t), dimensions={}
  %s1 = f32[4]{0} select(%bt, %a, %b)
  %f = pred[4]{0} constant({false, false, false, false})
  %s2 = f32[4]{0} select(%f, %a, %b)
  %s3 = f32[4]{0} select(%p, %b, %b)
  ROOT %tuple = (f32[4]{0}, f32[4]{0}, f32[4]{0}) tuple(%s1, %s2, %s3)
}
)",
                R"(
HloModule m
ENTRY %main (a: f32[4], b: f32[4], p: pred[4]) -> (f32[4], f32[4], f32[4]) {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %p = pred[4]{0} parameter(2)
  ROOT %tuple = (f32[4]{0}, f32[4]{0}, f32[4]{0}) tuple(%a, %b, %b)
}
)");
  // A predicate that is not all-equal stays.
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (a: f32[2], b: f32[2]) -> f32[2] {
  %a = f32[2]{0} parameter(0)
  %b = f32[2]{0} parameter(1)
  %p = pred[2]{0} constant({true, false})
  ROOT %s = f32[2]{0} select(%p, %a, %b)
}
)");
}

TEST(AlgebraicSimplifierTest, SimplifiesInsideCalledComputations) {
  AlgebraicSimplifier pass;
  ExpectRewrite(pass, R"(
HloModule m
%body (x: s32[2]) -> s32[2] {
  %x = s32[2]{0} parameter(0)
  %n = s32[2]{0} negate(%x)
  ROOT %nn = s32[2]{0} negate(%n)
}
ENTRY %main (x: s32[2]) -> s32[2] {
  %x = s32[2]{0} parameter(0)
  ROOT %c = s32[2]{0} call(%x), to_apply=%body
}
)",
                R"(
HloModule m
%body (x: s32[2]) -> s32[2] {
  ROOT %x = s32[2]{0} parameter(0)
}
ENTRY %main (x: s32[2]) -> s32[2] {
  %x = s32[2]{0} parameter(0)
  ROOT %c = s32[2]{0} call(%x), to_apply=%body
}
)");
}

// The rewrites are exact on signed zeros, NaN and infinities; the ones
// that would not be (x+0.0, x*0.0, x-(-0.0)) are left alone.
TEST(AlgebraicSimplifierTest, SpecialValuesAreBitExact) {
  for (const std::string type : {"f32", "bf16", "f16", "f64"}) {
    SCOPED_TRACE(type);
    const std::string text = absl::StrReplaceAll(R"(
HloModule m
ENTRY %main (x: T[8]) -> (T[8], T[8], T[8], T[8], T[8], T[8], T[8], T[8]) {
  %x = T[8]{0} parameter(0)
  %nz = T[] constant(-0)
  %z = T[] constant(0)
  %one = T[] constant(1)
  %bnz = T[8]{0} broadcast(%nz), dimensions={}
  %bz = T[8]{0} broadcast(%z), dimensions={}
  %bone = T[8]{0} broadcast(%one), dimensions={}
  %a = T[8]{0} add(%x, %bnz)
  %b = T[8]{0} add(%bnz, %x)
  %c = T[8]{0} subtract(%x, %bz)
  %d = T[8]{0} multiply(%x, %bone)
  %e = T[8]{0} divide(%x, %bone)
  %f = T[8]{0} add(%x, %bz)
  %g = T[8]{0} multiply(%x, %bz)
  %h = T[8]{0} subtract(%x, %bnz)
  ROOT %t = (T[8]{0}, T[8]{0}, T[8]{0}, T[8]{0}, T[8]{0}, T[8]{0}, T[8]{0}, T[8]{0}) tuple(%a, %b, %c, %d, %e, %f, %g, %h)
}
)",
                                                 {{"T[", type + "["}});
    auto original = testing_util::Parse(text);
    ASSERT_NE(original, nullptr);
    AlgebraicSimplifier pass;
    bool changed = false;
    auto m = testing_util::RunPass(pass, text, &changed);
    ASSERT_NE(m, nullptr);
    EXPECT_TRUE(changed);
    testing_util::ExpectWellFormed(*m);
    const HloInstruction* root = m->entry_computation()->root_instruction();
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(root->operand(i)->opcode(), HloOpcode::kParameter) << i;
    }
    EXPECT_EQ(root->operand(5)->opcode(), HloOpcode::kAdd);
    EXPECT_EQ(root->operand(6)->opcode(), HloOpcode::kMultiply);
    EXPECT_EQ(root->operand(7)->opcode(), HloOpcode::kSubtract);
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Literal x =
        Literal::FromDoubles(original->entry_computation()->parameter_instruction(0)->shape(),
                             {-0.0, 0.0, nan, -nan, inf, -inf, 1.5, -2.0});
    std::vector<Literal> args;
    args.push_back(std::move(x));
    absl::StatusOr<Literal> want = testing_util::EvaluateModule(*original, args);
    absl::StatusOr<Literal> got = testing_util::EvaluateModule(*m, args);
    ASSERT_TRUE(want.ok()) << want.status();
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*want, *got) << want->ToString() << "\n" << got->ToString();
  }
}

TEST(AlgebraicSimplifierTest, NothingToDo) {
  AlgebraicSimplifier pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (a: f32[4], b: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %add = f32[4]{0} add(%a, %b)
  ROOT %m = f32[4]{0} multiply(%add, %a)
}
)");
}

}  // namespace
}  // namespace aot
