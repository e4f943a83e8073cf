// Reductions: reduce (several dimensions, variadic, order), reduce-window,
// select-and-scatter, sort.

#include <cmath>
#include <limits>

#include "compiler/interpreter/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace interpreter_test {
namespace {

using ::testing::ElementsAre;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(ReduceTest, OneAndSeveralDimensions) {
  const Literal a = L("f32[2,3]", {1, 2, 3, 4, 5, 6});
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2,3] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2] reduce(p, z), dimensions={1}, to_apply=add_f32)",
                                    kAddF32),
                             {a})),
              ElementsAre(6, 15));
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2,3] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[3] reduce(p, z), dimensions={0}, to_apply=add_f32)",
                                    kAddF32),
                             {a})),
              ElementsAre(5, 7, 9));
  Literal all = RunHlo(Module(R"(
  p = f32[2,3] parameter(0)
  z = f32[] constant(100)
  ROOT r = f32[] reduce(p, z), dimensions={0,1}, to_apply=add_f32)",
                              kAddF32),
                       {a});
  EXPECT_EQ(ShapeOf(all), "f32[]");
  EXPECT_THAT(Doubles(all), ElementsAre(121));
  // Dimensions {0, 2} of [2,3,4] holding 0..23: out[j] = 32j + 60.
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  i = s32[24] iota(), iota_dimension=0
  p = s32[2,3,4] reshape(i)
  z = s32[] constant(0)
  ROOT r = s32[3] reduce(p, z), dimensions={2,0}, to_apply=add_s32)",
                                 kAddS32))),
              ElementsAre(60, 92, 124));
}

TEST(ReduceTest, EmptyInputGivesTheInitValue) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[0,3] parameter(0)
  z = f32[] constant(10)
  ROOT r = f32[3] reduce(p, z), dimensions={0}, to_apply=add_f32)",
                                    kAddF32),
                             {L("f32[0,3]", {})})),
              ElementsAre(10, 10, 10));
}

TEST(ReduceTest, FoldsSequentiallyFromTheInitValueInFloat) {
  // ((((0 + 1e8) + 1) - 1e8) + 1) in float: 1e8 + 1 rounds back to 1e8.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=add_f32)",
                                    kAddF32),
                             {L("f32[4]", {1e8, 1, -1e8, 1})})),
              ElementsAre(1));
  // Non-commutative reducers see (accumulator, element) in that order.
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  p = s32[3] constant({1, 2, 3})
  z = s32[] constant(0)
  ROOT r = s32[] reduce(p, z), dimensions={0}, to_apply=sub)",
                                 R"(
sub {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT r = s32[] subtract(a, b)
})"))),
              ElementsAre(-6));
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  p = s32[3] constant({1, 2, 3})
  z = s32[] constant(0)
  ROOT r = s32[] reduce(p, z), dimensions={0}, to_apply=rsub)",
                                 R"(
rsub {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT r = s32[] subtract(b, a)
})"))),
              ElementsAre(2));  // 1-0=1, 2-1=1, 3-1=2
}

TEST(ReduceTest, GeneralReducerComputation) {
  // Sum of squares through a two-instruction reducer (no fast path).
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  z = f32[] constant(0)
  ROOT r = f32[2] reduce(p, z), dimensions={1}, to_apply=sumsq)",
                                    R"(
sumsq {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  m = f32[] multiply(b, b)
  ROOT r = f32[] add(a, m)
})"))),
              ElementsAre(14, 77));
}

constexpr char kArgmax[] = R"(
argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v0, v1), direction=GT
  eq = pred[] compare(v0, v1), direction=EQ
  lt = pred[] compare(i0, i1), direction=LT
  tie = pred[] and(eq, lt)
  keep = pred[] or(gt, tie)
  v = f32[] select(keep, v0, v1)
  i = s32[] select(keep, i0, i1)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
)";

TEST(ReduceTest, VariadicArgmax) {
  Literal r = RunHlo(Module(R"(
  v = f32[2,4] parameter(0)
  i = s32[2,4] iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  ROOT r = (f32[2], s32[2]) reduce(v, i, ninf, zero), dimensions={1}, to_apply=argmax)",
                            kArgmax),
                     {L("f32[2,4]", {1, 5, 5, 2, 7, -1, 7, 9})});
  ASSERT_TRUE(r.shape().IsTuple());
  EXPECT_THAT(Doubles(r.tuple_element(0)), ElementsAre(5, 9));
  EXPECT_THAT(Ints(r.tuple_element(1)), ElementsAre(1, 3));
}

TEST(ReduceTest, MaxPropagatesNaN) {
  std::vector<double> r = Doubles(RunHlo(Module(R"(
  p = f32[2,2] parameter(0)
  z = f32[] constant(-inf)
  ROOT r = f32[2] reduce(p, z), dimensions={1}, to_apply=max_f32)",
                                                kMaxF32),
                                         {L("f32[2,2]", {1, kNaN, -kInf, 2})}));
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_EQ(r[1], 2);
}

TEST(ReduceWindowTest, StridesAndPadding) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[4] constant({1, 2, 3, 4})
  z = f32[] constant(0)
  ROOT r = f32[3] reduce-window(p, z), window={size=2 stride=1}, to_apply=add_f32)",
                                    kAddF32))),
              ElementsAre(3, 5, 7));
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[4] constant({1, 2, 3, 4})
  z = f32[] constant(0)
  ROOT r = f32[5] reduce-window(p, z), window={size=2 stride=1 pad=1_1}, to_apply=add_f32)",
                                    kAddF32))),
              ElementsAre(1, 3, 5, 7, 4));
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[5] constant({1, 2, 3, 4, 5})
  z = f32[] constant(0)
  ROOT r = f32[3] reduce-window(p, z), window={size=2 stride=2 pad=1_1}, to_apply=add_f32)",
                                    kAddF32))),
              ElementsAre(1, 5, 9));
  // 2x2 max pooling with stride 2.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  i = f32[16] iota(), iota_dimension=0
  p = f32[4,4] reshape(i)
  z = f32[] constant(-inf)
  ROOT r = f32[2,2] reduce-window(p, z), window={size=2x2 stride=2x2}, to_apply=max_f32)",
                                    kMaxF32))),
              ElementsAre(5, 7, 13, 15));
}

TEST(ReduceWindowTest, BaseAndWindowDilation) {
  // Base dilation 2: [1,_,2,_,3]; windows of 2 skip the holes.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[3] constant({1, 2, 3})
  z = f32[] constant(0)
  ROOT r = f32[4] reduce-window(p, z), window={size=2 lhs_dilate=2}, to_apply=add_f32)",
                                    kAddF32))),
              ElementsAre(1, 2, 2, 3));
  // Window dilation 2: windows {0,2}, {1,3}, {2,4}.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[5] constant({1, 2, 3, 4, 5})
  z = f32[] constant(0)
  ROOT r = f32[3] reduce-window(p, z), window={size=2 rhs_dilate=2}, to_apply=add_f32)",
                                    kAddF32))),
              ElementsAre(4, 6, 8));
}

TEST(ReduceWindowTest, Variadic) {
  Literal r = RunHlo(Module(R"(
  v = f32[4] constant({3, 1, 4, 1})
  i = s32[4] iota(), iota_dimension=0
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  ROOT r = (f32[3], s32[3]) reduce-window(v, i, ninf, zero), window={size=2}, to_apply=argmax)",
                            kArgmax));
  ASSERT_TRUE(r.shape().IsTuple());
  EXPECT_THAT(Doubles(r.tuple_element(0)), ElementsAre(3, 4, 4));
  EXPECT_THAT(Ints(r.tuple_element(1)), ElementsAre(0, 2, 2));
}

TEST(SelectAndScatterTest, NonOverlappingWindows) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  o = f32[6] constant({1, 9, 3, 4, 8, 2})
  s = f32[3] constant({10, 20, 30})
  z = f32[] constant(0)
  ROOT r = f32[6] select-and-scatter(o, s, z), window={size=2 stride=2}, select=ge_f32, scatter=add_f32)",
                                    absl::StrCat(kGeF32, kAddF32)))),
              ElementsAre(0, 10, 0, 20, 30, 0));
}

TEST(SelectAndScatterTest, OverlappingWindowsAndTies) {
  // Windows [1,5,2] and [5,2,5]. GE keeps the first maximum (index 1) in
  // both; GT moves to the later 5 (index 3) in the second.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  o = f32[4] constant({1, 5, 2, 5})
  s = f32[2] constant({1, 2})
  z = f32[] constant(0)
  ROOT r = f32[4] select-and-scatter(o, s, z), window={size=3 stride=1}, select=ge_f32, scatter=add_f32)",
                                    absl::StrCat(kGeF32, kAddF32)))),
              ElementsAre(0, 3, 0, 0));
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  o = f32[4] constant({1, 5, 2, 5})
  s = f32[2] constant({1, 2})
  z = f32[] constant(0)
  ROOT r = f32[4] select-and-scatter(o, s, z), window={size=3 stride=1}, select=gt_f32, scatter=add_f32)",
                                    absl::StrCat(R"(
gt_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=GT
}
)",
                                                 kAddF32)))),
              ElementsAre(0, 1, 0, 2));
}

TEST(SelectAndScatterTest, PaddingAndInitValue) {
  // 2x2 windows, stride 2, padding 1 on the 3x3 operand's low edges.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  o = f32[3,3] constant({{1, 2, 3}, {4, 9, 6}, {7, 8, 5}})
  s = f32[2,2] constant({{1, 2}, {3, 4}})
  z = f32[] constant(100)
  ROOT r = f32[3,3] select-and-scatter(o, s, z), window={size=2x2 stride=2x2 pad=1_0x1_0}, select=ge_f32, scatter=add_f32)",
                                    absl::StrCat(kGeF32, kAddF32)))),
              // windows: {1} -> (0,0); {2,3} -> (0,2); {4,7} -> (2,0);
              // {9,6,8,5} -> (1,1).
              ElementsAre(101, 100, 102, 100, 104, 100, 103, 100, 100));
}

constexpr char kLessF32[] = R"(
less_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=LT
}
)";

TEST(SortTest, SortsAlongADimension) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[5] constant({3, 1, 2, 1, 0})
  ROOT r = f32[5] sort(p), dimensions={0}, to_apply=less_f32)",
                                    kLessF32))),
              ElementsAre(0, 1, 1, 2, 3));
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2,3] constant({{3, 1, 2}, {0, 5, 4}})
  ROOT r = f32[2,3] sort(p), dimensions={1}, to_apply=less_f32)",
                                    kLessF32))),
              ElementsAre(1, 2, 3, 0, 4, 5));
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2,3] constant({{3, 1, 2}, {0, 5, 4}})
  ROOT r = f32[2,3] sort(p), dimensions={0}, to_apply=less_f32)",
                                    kLessF32))),
              ElementsAre(0, 1, 2, 3, 5, 4));
}

TEST(SortTest, MultiOperandStable) {
  Literal r = RunHlo(Module(R"(
  k = s32[5] constant({3, 1, 2, 1, 3})
  v = s32[5] iota(), iota_dimension=0
  ROOT r = (s32[5], s32[5]) sort(k, v), dimensions={0}, is_stable=true, to_apply=less)",
                            R"(
less {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT r = pred[] compare(a, b), direction=LT
})"));
  ASSERT_TRUE(r.shape().IsTuple());
  EXPECT_THAT(Ints(r.tuple_element(0)), ElementsAre(1, 1, 2, 3, 3));
  EXPECT_THAT(Ints(r.tuple_element(1)), ElementsAre(1, 3, 2, 0, 4));
}

TEST(SortTest, GeneralComparatorOnSeveralKeys) {
  // Key descending, then value ascending.
  Literal r = RunHlo(Module(R"(
  k = s32[5] constant({1, 2, 1, 2, 0})
  v = f32[5] constant({5, 4, 3, 2, 1})
  ROOT r = (s32[5], f32[5]) sort(k, v), dimensions={0}, to_apply=cmp)",
                            R"(
cmp {
  k0 = s32[] parameter(0)
  k1 = s32[] parameter(1)
  v0 = f32[] parameter(2)
  v1 = f32[] parameter(3)
  gt = pred[] compare(k0, k1), direction=GT
  eq = pred[] compare(k0, k1), direction=EQ
  lt = pred[] compare(v0, v1), direction=LT
  tie = pred[] and(eq, lt)
  ROOT r = pred[] or(gt, tie)
})"));
  ASSERT_TRUE(r.shape().IsTuple());
  EXPECT_THAT(Ints(r.tuple_element(0)), ElementsAre(2, 2, 1, 1, 0));
  EXPECT_THAT(Doubles(r.tuple_element(1)), ElementsAre(2, 4, 3, 5, 1));
}

TEST(SortTest, TotalOrderPutsNaNLast) {
  std::vector<double> r = Doubles(RunHlo(Module(R"(
  p = f32[5] parameter(0)
  ROOT r = f32[5] sort(p), dimensions={0}, to_apply=lt_total)",
                                                R"(
lt_total {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=LT, type=TOTALORDER
})"),
                                         {L("f32[5]", {kNaN, 1, -kInf, 0.0, -0.0})}));
  EXPECT_EQ(r[0], -kInf);
  EXPECT_TRUE(r[1] == 0 && std::signbit(r[1]));
  EXPECT_TRUE(r[2] == 0 && !std::signbit(r[2]));
  EXPECT_EQ(r[3], 1);
  EXPECT_TRUE(std::isnan(r[4]));
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
