#include "compiler/passes/conv_im2col.h"

#include "compiler/passes/test_util.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::CountOpcode;
using testing_util::EvaluateModule;
using testing_util::ExpectNoChange;
using testing_util::ExpectWellFormed;
using testing_util::Parse;
using testing_util::RunPass;

// Runs the pass on `text` and expects the convolution to be gone, replaced
// by one dot, with the interpreter's results unchanged up to the GEMM's
// summation order.
void ExpectIm2col(absl::string_view text) {
  SCOPED_TRACE(text);
  ConvIm2col pass;
  std::unique_ptr<HloModule> original = Parse(text);
  ASSERT_NE(original, nullptr);
  bool changed = false;
  std::unique_ptr<HloModule> m = RunPass(pass, text, &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);
  ExpectWellFormed(*m);
  const HloComputation& entry = *m->entry_computation();
  EXPECT_EQ(CountOpcode(entry, HloOpcode::kConvolution), 0) << m->ToString();
  EXPECT_EQ(CountOpcode(entry, HloOpcode::kDot), 1) << m->ToString();
  std::vector<Literal> args = RandomArguments(*original, 7);
  absl::StatusOr<Literal> want = EvaluateModule(*original, args);
  ASSERT_TRUE(want.ok()) << want.status();
  absl::StatusOr<Literal> got = EvaluateModule(*m, args);
  ASSERT_TRUE(got.ok()) << got.status();
  absl::Status match = CompareLiterals(*want, *got, Tolerance{1e-5, 1e-5});
  EXPECT_TRUE(match.ok()) << match;
}

TEST(ConvIm2colTest, NhwcSamePadding) {
  ExpectIm2col(R"(
HloModule m
ENTRY e {
  x = f32[1,16,16,16] parameter(0)
  w = f32[3,3,16,32] parameter(1)
  ROOT c = f32[1,16,16,32] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})");
}

TEST(ConvIm2colTest, NchwStridedDilatedUnevenPadding) {
  // Output dims in yet another order; f64 so only the summation order
  // differs.
  ExpectIm2col(R"(
HloModule m
ENTRY e {
  x = f64[2,32,21,19] parameter(0)
  w = f64[32,32,3,2] parameter(1)
  ROOT c = f64[2,32,9,10] convolution(x, w), window={size=3x2 stride=2x2 pad=1_0x0_1 rhs_dilate=2x1}, dim_labels=bf01_oi01->bf01
})");
}

TEST(ConvIm2colTest, OneSpatialDimensionAndOneByOneWindow) {
  ExpectIm2col(R"(
HloModule m
ENTRY e {
  x = f32[2,128,32] parameter(0)
  w = f32[5,32,64] parameter(1)
  ROOT c = f32[2,124,64] convolution(x, w), window={size=5}, dim_labels=b0f_0io->b0f
})");
  ExpectIm2col(R"(
HloModule m
ENTRY e {
  x = f32[1,16,16,64] parameter(0)
  w = f32[1,1,64,64] parameter(1)
  ROOT c = f32[1,16,16,64] convolution(x, w), window={size=1x1}, dim_labels=b01f_01io->b01f
})");
}

TEST(ConvIm2colTest, SmallGroupedAndIntegerConvolutionsAreLeftAlone) {
  ConvIm2col pass;
  // Under kMinMultiplyAdds.
  ExpectNoChange(pass, R"(
HloModule m
ENTRY e {
  x = f32[1,8,8,4] parameter(0)
  w = f32[3,3,4,8] parameter(1)
  ROOT c = f32[1,8,8,8] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})");
  // Feature groups.
  ExpectNoChange(pass, R"(
HloModule m
ENTRY e {
  x = f32[1,32,32,64] parameter(0)
  w = f32[3,3,32,64] parameter(1)
  ROOT c = f32[1,32,32,64] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=2
})");
  // Integers (no GEMM).
  ExpectNoChange(pass, R"(
HloModule m
ENTRY e {
  x = s32[1,32,32,64] parameter(0)
  w = s32[3,3,64,64] parameter(1)
  ROOT c = s32[1,32,32,64] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})");
}

}  // namespace
}  // namespace aot
