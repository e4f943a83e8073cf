// Dot and convolution against hand-computed values, plus the speed the
// reference interpreter needs for modest models.

#include <chrono>

#include "compiler/interpreter/test_util.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace interpreter_test {
namespace {

using ::testing::ElementsAre;

// The speed targets hold for optimized builds; sanitizer and debug builds
// only check that the work completes.
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
constexpr double kTimeLimitSeconds = 1.0;
#else
constexpr double kTimeLimitSeconds = 60.0;
#endif

TEST(DotTest, MatrixMatrix) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  b = f32[3,2] constant({{7, 8}, {9, 10}, {11, 12}})
  ROOT r = f32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0})"))),
              ElementsAre(58, 64, 139, 154));
}

TEST(DotTest, VectorsAndTransposedContraction) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f32[3] constant({1, 2, 3})
  b = f32[3] constant({4, 5, 6})
  ROOT r = f32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0})"))),
              ElementsAre(32));
  // lhs contracts its first dimension: r = a^T b.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f32[3,2] constant({{1, 4}, {2, 5}, {3, 6}})
  b = f32[3,2] constant({{7, 8}, {9, 10}, {11, 12}})
  ROOT r = f32[2,2] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0})"))),
              ElementsAre(58, 64, 139, 154));
  // Outer product: no contracting dimensions.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f32[2] constant({1, 2})
  b = f32[3] constant({3, 4, 5})
  ROOT r = f32[2,3] dot(a, b))"))),
              ElementsAre(3, 4, 5, 6, 8, 10));
}

TEST(DotTest, BatchDimensionsComeFirst) {
  // Batch 0: [[1,2,3],[4,5,6]] . [1,1,1]^T = [6, 15];
  // batch 1: [[1,0,0],[0,1,0]] . [2,3,4]^T = [2, 3].
  Literal r = RunHlo(Module(R"(
  a = f32[2,2,3] constant({{{1, 2, 3}, {4, 5, 6}}, {{1, 0, 0}, {0, 1, 0}}})
  b = f32[2,3,1] constant({{{1}, {1}, {1}}, {{2}, {3}, {4}}})
  ROOT r = f32[2,2,1] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1})"));
  EXPECT_EQ(ShapeOf(r), "f32[2,2,1]");
  EXPECT_THAT(Doubles(r), ElementsAre(6, 15, 2, 3));
  // Batch dimension in the middle of the rhs, last in the lhs.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f32[3,2] constant({{1, 1}, {2, 0}, {3, 1}})
  b = f32[3,2,2] constant({{{1, 2}, {3, 4}}, {{1, 1}, {1, 1}}, {{5, 6}, {7, 8}}})
  ROOT r = f32[2,2] dot(a, b), lhs_batch_dims={1}, rhs_batch_dims={1}, lhs_contracting_dims={0}, rhs_contracting_dims={0})"))),
              // batch 0: a[:,0]=[1,2,3] . b[:,0,:]=[[1,2],[1,1],[5,6]] = [18, 22]
              // batch 1: a[:,1]=[1,0,1] . b[:,1,:]=[[3,4],[1,1],[7,8]] = [10, 12]
              ElementsAre(18, 22, 10, 12));
}

TEST(DotTest, MixedIntegerTypesAccumulateInTheResultType) {
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  a = s8[2] constant({100, 100})
  b = s8[2] constant({100, -128})
  ROOT r = s32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0})"))),
              ElementsAre(10000 - 12800));
  // s32 accumulation wraps.
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  a = s32[2] constant({2147483647, 1})
  b = s32[2] constant({1, 1})
  ROOT r = s32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0})"))),
              ElementsAre(-2147483648LL));
}

TEST(DotTest, Bf16AccumulatesInFloatAndRoundsOnce) {
  // In float: 1 + 2^-8 + 2^-8 = 1 + 2^-7, exact in bf16. Rounding after
  // every step would give 1.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = bf16[3] constant({1, 0.00390625, 0.00390625})
  b = bf16[3] constant({1, 1, 1})
  ROOT r = bf16[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0})"))),
              ElementsAre(1.0078125));
  // bf16 operands, f32 result.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = bf16[2] constant({1.5, 2})
  b = bf16[2] constant({2, 0.25})
  ROOT r = f32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0})"))),
              ElementsAre(3.5));
}

// 1-D convolution, input [1,2,3,4,5], kernel [1,2,3] (no reversal: a
// correlation): out[i] = x[i] + 2 x[i+1] + 3 x[i+2] over the padded,
// dilated input.
std::string Conv1D(absl::string_view out_shape, absl::string_view window) {
  return Module(absl::StrCat(R"(
  x = f32[1,1,5] constant({{{1, 2, 3, 4, 5}}})
  k = f32[1,1,3] constant({{{1, 2, 3}}})
  ROOT r = )",
                             out_shape, " convolution(x, k), window={", window,
                             "}, dim_labels=bf0_oi0->bf0"));
}

TEST(ConvolutionTest, OneDimensionalPaddingStrideDilation) {
  EXPECT_THAT(Doubles(RunHlo(Conv1D("f32[1,1,3]", "size=3"))), ElementsAre(14, 20, 26));
  EXPECT_THAT(Doubles(RunHlo(Conv1D("f32[1,1,5]", "size=3 pad=1_1"))),
              ElementsAre(8, 14, 20, 26, 14));
  EXPECT_THAT(Doubles(RunHlo(Conv1D("f32[1,1,3]", "size=3 stride=2 pad=1_1"))),
              ElementsAre(8, 20, 14));
  // lhs (base) dilation 2: [1,0,2,0,3,0,4,0,5].
  EXPECT_THAT(Doubles(RunHlo(Conv1D("f32[1,1,7]", "size=3 lhs_dilate=2"))),
              ElementsAre(7, 4, 11, 6, 15, 8, 19));
  // rhs (window) dilation 2: x0 + 2 x2 + 3 x4.
  EXPECT_THAT(Doubles(RunHlo(Conv1D("f32[1,1,1]", "size=3 rhs_dilate=2"))), ElementsAre(22));
  // Window reversal flips the kernel: out[i] = 3 x[i] + 2 x[i+1] + x[i+2].
  EXPECT_THAT(Doubles(RunHlo(Conv1D("f32[1,1,3]", "size=3 rhs_reversal=1"))),
              ElementsAre(10, 16, 22));
  // Negative padding crops.
  EXPECT_THAT(Doubles(RunHlo(Conv1D("f32[1,1,2]", "size=3 pad=-1_0"))), ElementsAre(20, 26));
}

TEST(ConvolutionTest, TwoDimensionalNhwc) {
  // 3x3 input 1..9, 2x2 kernel of ones.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  i = f32[9] iota(), iota_dimension=0
  c1 = f32[] constant(1)
  one = f32[9] broadcast(c1), dimensions={}
  x0 = f32[9] add(i, one)
  x = f32[1,3,3,1] reshape(x0)
  k = f32[2,2,1,1] broadcast(c1), dimensions={}
  ROOT r = f32[1,2,2,1] convolution(x, k), window={size=2x2}, dim_labels=b01f_01io->b01f)"))),
              ElementsAre(12, 16, 24, 28));
  // Two input features, two output features, 1x1 kernel: a matmul.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  x = f32[1,1,2,2] constant({{{{1, 2}, {3, 4}}}})
  k = f32[1,1,2,2] constant({{{{1, 10}, {100, 1000}}}})
  ROOT r = f32[1,1,2,2] convolution(x, k), window={size=1x1}, dim_labels=b01f_01io->b01f)"))),
              ElementsAre(201, 2010, 403, 4030));
}

TEST(ConvolutionTest, FeatureGroups) {
  // 4 input features in 2 groups; group 0 -> output 0 uses features 0,1 with
  // kernel column 0; group 1 -> output 1 uses features 2,3 with column 1.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  x = f32[1,1,1,4] constant({{{{1, 2, 3, 4}}}})
  k = f32[1,1,2,2] constant({{{{1, 10}, {100, 1000}}}})
  ROOT r = f32[1,1,1,2] convolution(x, k), window={size=1x1}, dim_labels=b01f_01io->b01f, feature_group_count=2)"))),
              ElementsAre(1 * 1 + 2 * 100, 3 * 10 + 4 * 1000));
}

TEST(ConvolutionTest, BatchGroups) {
  // Batch 2 split in 2 groups; output feature g uses batch g.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  x = f32[2,1,1,1] constant({{{{1}}}, {{{2}}}})
  k = f32[1,1,1,2] constant({{{{3, 5}}}})
  ROOT r = f32[1,1,1,2] convolution(x, k), window={size=1x1}, dim_labels=b01f_01io->b01f, batch_group_count=2)"))),
              ElementsAre(3, 10));
}

TEST(ConvolutionTest, IntegerConvolution) {
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  x = s32[1,1,4] constant({{{1, 2, 3, 4}}})
  k = s32[1,1,2] constant({{{1, -1}}})
  ROOT r = s32[1,1,3] convolution(x, k), window={size=2}, dim_labels=bf0_oi0->bf0)"))),
              ElementsAre(-1, -1, -1));
}

TEST(PerformanceTest, Dot256RunsWellUnderASecond) {
  const std::string hlo = Module(R"(
  a = f32[256,256] parameter(0)
  b = f32[256,256] parameter(1)
  ROOT r = f32[256,256] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0})");
  auto shape = ParseShape("f32[256,256]");
  ASSERT_TRUE(shape.ok());
  std::vector<Literal> args = {RandomLiteral(*shape, 1), RandomLiteral(*shape, 2)};
  const auto start = std::chrono::steady_clock::now();
  Literal r = RunHlo(hlo, args);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.element_count(), 256 * 256);
  EXPECT_LT(seconds, kTimeLimitSeconds);
  // Spot check one element against a direct sum.
  float expected = 0;
  for (int k = 0; k < 256; ++k) {
    expected += args[0].Get<float>(5 * 256 + k) * args[1].Get<float>(k * 256 + 7);
  }
  EXPECT_EQ(r.Get<float>(5 * 256 + 7), expected);
}

TEST(PerformanceTest, SmallCnnRunsWellUnderASecond) {
  const std::string hlo = Module(R"(
  x = f32[2,32,32,16] parameter(0)
  k1 = f32[3,3,16,32] parameter(1)
  c1 = f32[2,32,32,32] convolution(x, k1), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  zero = f32[] constant(0)
  zeros = f32[2,32,32,32] broadcast(zero), dimensions={}
  relu = f32[2,32,32,32] maximum(c1, zeros)
  ninf = f32[] constant(-inf)
  pool = f32[2,16,16,32] reduce-window(relu, ninf), window={size=1x2x2x1 stride=1x2x2x1}, to_apply=max_f32
  k2 = f32[3,3,32,32] parameter(2)
  c2 = f32[2,16,16,32] convolution(pool, k2), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  s = f32[2,32] reduce(c2, zero), dimensions={1,2}, to_apply=add_f32
  w = f32[32,10] parameter(3)
  ROOT logits = f32[2,10] dot(s, w), lhs_contracting_dims={1}, rhs_contracting_dims={0})",
                                 absl::StrCat(kMaxF32, kAddF32));
  std::vector<Literal> args;
  int seed = 0;
  for (const char* s : {"f32[2,32,32,16]", "f32[3,3,16,32]", "f32[3,3,32,32]", "f32[32,10]"}) {
    args.push_back(RandomLiteral(*ParseShape(s), seed++));
  }
  const auto start = std::chrono::steady_clock::now();
  Literal r = RunHlo(hlo, args);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(ShapeOf(r), "f32[2,10]");
  EXPECT_LT(seconds, kTimeLimitSeconds);
}

TEST(RaggedDotTest, EachRowUsesItsGroupsMatrix) {
  // Rows 0-1 in group 0 (scale by 1), row 2 in group 1 (by 10), row 3 past
  // the runs: 0.
  Literal r = RunHlo(Hlo(R"(
ENTRY main {
  x = f32[4,2] parameter(0)
  w = f32[2,2,2] parameter(1)
  s = s32[2] parameter(2)
  ROOT r = f32[4,2] ragged-dot(x, w, s), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}
})"),
                     {L("f32[4,2]", {1, 2, 3, 4, 5, 6, 7, 8}),
                      L("f32[2,2,2]", {1, 0, 0, 1, 10, 0, 0, 10}), L("s32[2]", {2, 1})});
  EXPECT_EQ(Doubles(r), (std::vector<double>{1, 2, 3, 4, 50, 60, 0, 0}));
}

// scaled-dot: each block of an operand multiplied by its scale, then the
// dot.
TEST(ScaledDotTest, EachBlockIsScaledBeforeTheDot) {
  Literal r = RunHlo(R"(HloModule sd
ENTRY e {
  a = f32[1,4] parameter(0)
  b = f32[4,1] parameter(1)
  sa = f32[1,2] parameter(2)
  sb = f32[1,1] parameter(3)
  ROOT r = f32[1,1] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
                     {L("f32[1,4]", {1, 2, 3, 4}), L("f32[4,1]", {1, 1, 1, 1}),
                      L("f32[1,2]", {10, 100}), L("f32[1,1]", {2})});
  // (10 + 20 + 300 + 400) * 2
  EXPECT_THAT(Doubles(r), ElementsAre(1460));
  // MX form: e4m3fn values with e8m0 power-of-two scales (2^-1 and 2^3).
  Literal mx = RunHlo(R"(HloModule mx
ENTRY e {
  a = f8e4m3fn[1,4] parameter(0)
  b = f8e4m3fn[4,1] parameter(1)
  sa = f8e8m0fnu[1,2] parameter(2)
  sb = f8e8m0fnu[1,1] parameter(3)
  ROOT r = f32[1,1] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
                      {L("f8e4m3fn[1,4]", {1, 2, 3, 4}), L("f8e4m3fn[4,1]", {1, 1, 1, -1}),
                       L("f8e8m0fnu[1,2]", {0.5, 8}), L("f8e8m0fnu[1,1]", {1})});
  // 0.5 + 1 + 24 - 32
  EXPECT_THAT(Doubles(mx), ElementsAre(-6.5));
}

// A ragged contracting dimension: each group's dot over its run alone,
// the groups leading the result; a ragged batch dimension: the dot.
TEST(RaggedDotTest, ContractingAndBatchModes) {
  Literal r = RunHlo(R"(HloModule rc
ENTRY e {
  x = f32[1,4] parameter(0)
  w = f32[4,2] parameter(1)
  s = s32[3] parameter(2)
  ROOT r = f32[3,1,2] ragged-dot(x, w, s), lhs_contracting_dims={1}, rhs_contracting_dims={0}, lhs_ragged_dims={1}
})",
                     {L("f32[1,4]", {1, 2, 3, 4}), L("f32[4,2]", {1, 10, 1, 10, 1, 10, 1, 10}),
                      LI("s32[3]", {1, 2, 5})});
  // Runs [0,1), [1,3), [3,4): 1, 2 + 3, 4 (the last run is cut by k = 4).
  EXPECT_THAT(Doubles(r), ElementsAre(1, 10, 5, 50, 4, 40));
  Literal batch =
      RunHlo(R"(HloModule rb
ENTRY e {
  x = f32[2,1,2] parameter(0)
  w = f32[2,2,1] parameter(1)
  s = s32[2] parameter(2)
  ROOT r = f32[2,1,1] ragged-dot(x, w, s), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}, lhs_ragged_dims={0}
})",
             {L("f32[2,1,2]", {1, 2, 3, 4}), L("f32[2,2,1]", {5, 6, 7, 8}), LI("s32[2]", {2, 0})});
  EXPECT_THAT(Doubles(batch), ElementsAre(17, 53));
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
