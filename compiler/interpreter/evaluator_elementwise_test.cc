// Elementwise ops: arithmetic per type, integer edge cases, NaN handling,
// 16-bit float rounding, convert, bitcast-convert, reduce-precision.

#include <cmath>
#include <limits>

#include "absl/strings/str_replace.h"
#include "compiler/interpreter/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace interpreter_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kMinS32 = std::numeric_limits<int32_t>::min();
constexpr int64_t kMaxS32 = std::numeric_limits<int32_t>::max();

// Evaluates `op` on two parameters of `shape`.
Literal Binary(absl::string_view op, absl::string_view shape, Literal a, Literal b,
               absl::string_view extra = "") {
  return RunHlo(Module(absl::StrCat("  a = ", shape, " parameter(0)\n  b = ", shape,
                                    " parameter(1)\n  ROOT r = ", shape, " ", op, "(a, b)", extra)),
                {std::move(a), std::move(b)});
}
Literal Unary(absl::string_view op, absl::string_view shape, absl::string_view result_shape,
              Literal a, absl::string_view extra = "") {
  return RunHlo(Module(absl::StrCat("  a = ", shape, " parameter(0)\n  ROOT r = ", result_shape,
                                    " ", op, "(a)", extra)),
                {std::move(a)});
}

TEST(ElementwiseTest, AddsFloatsAndRank0) {
  EXPECT_THAT(Doubles(Binary("add", "f32[3]", L("f32[3]", {1, 2, 3}), L("f32[3]", {4, 5, 6.5}))),
              ElementsAre(5, 7, 9.5));
  EXPECT_THAT(Doubles(Binary("multiply", "f64[]", L("f64[]", {1.5}), L("f64[]", {-2}))),
              ElementsAre(-3));
}

TEST(ElementwiseTest, EmptyShapesProduceEmptyResults) {
  Literal r = Binary("add", "f32[0,3]", L("f32[0,3]", {}), L("f32[0,3]", {}));
  EXPECT_EQ(ShapeOf(r), "f32[0,3]");
  EXPECT_EQ(r.element_count(), 0);
}

TEST(ElementwiseTest, F32ArithmeticIsDoneInFloatAndF64InDouble) {
  // 2^24 + 1 is not a float: in float, (2^24 + 1) - 2^24 is 0; in double 1.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f32[] constant(16777216)
  b = f32[] constant(1)
  s = f32[] add(a, b)
  ROOT r = f32[] subtract(s, a))"))),
              ElementsAre(0));
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f64[] constant(16777216)
  b = f64[] constant(1)
  s = f64[] add(a, b)
  ROOT r = f64[] subtract(s, a))"))),
              ElementsAre(1));
}

TEST(ElementwiseTest, IntegerOverflowWraps) {
  EXPECT_THAT(
      Ints(Binary("add", "s32[2]", LI("s32[2]", {kMaxS32, kMinS32}), LI("s32[2]", {1, -1}))),
      ElementsAre(kMinS32, kMaxS32));
  EXPECT_THAT(Ints(Binary("multiply", "s8[2]", LI("s8[2]", {100, -128}), LI("s8[2]", {3, -1}))),
              ElementsAre(44, -128));
  // 65535 * 65535 = 2^32 - 2^17 + 1 = 1 (mod 2^16); no signed-int overflow.
  EXPECT_THAT(Ints(Binary("multiply", "u16[1]", LI("u16[1]", {65535}), LI("u16[1]", {65535}))),
              ElementsAre(1));
  EXPECT_THAT(Ints(Binary("subtract", "u8[1]", LI("u8[1]", {0}), LI("u8[1]", {1}))),
              ElementsAre(255));
  EXPECT_THAT(Ints(Unary("negate", "s32[2]", "s32[2]", LI("s32[2]", {kMinS32, 5}))),
              ElementsAre(kMinS32, -5));
  EXPECT_THAT(Ints(Unary("abs", "s32[3]", "s32[3]", LI("s32[3]", {kMinS32, -5, 5}))),
              ElementsAre(kMinS32, 5, 5));
}

TEST(ElementwiseTest, IntegerDivisionEdgeCases) {
  Literal a = LI("s32[6]", {7, -7, 7, kMinS32, kMinS32, 5});
  Literal b = LI("s32[6]", {2, 2, 0, -1, 0, -3});
  EXPECT_THAT(Ints(Binary("divide", "s32[6]", a, b)), ElementsAre(3, -3, -1, kMinS32, -1, -1));
  EXPECT_THAT(Ints(Binary("remainder", "s32[6]", a, b)), ElementsAre(1, -1, 7, 0, kMinS32, 2));
  Literal ua = LI("u32[2]", {7, 9});
  Literal ub = LI("u32[2]", {0, 4});
  EXPECT_THAT(Ints(Binary("divide", "u32[2]", ua, ub)), ElementsAre(4294967295, 2));
  EXPECT_THAT(Ints(Binary("remainder", "u32[2]", ua, ub)), ElementsAre(7, 1));
  EXPECT_THAT(Ints(Binary("divide", "s8[1]", LI("s8[1]", {-128}), LI("s8[1]", {-1}))),
              ElementsAre(-128));
}

TEST(ElementwiseTest, ShiftsByAtLeastTheBitWidth) {
  EXPECT_THAT(Ints(Binary("shift-left", "s32[4]", LI("s32[4]", {1, 1, 1, -1}),
                          LI("s32[4]", {31, 32, -1, 4}))),
              ElementsAre(kMinS32, 0, 0, -16));
  EXPECT_THAT(Ints(Binary("shift-right-logical", "s32[3]", LI("s32[3]", {-1, -1, 8}),
                          LI("s32[3]", {28, 32, 1}))),
              ElementsAre(15, 0, 4));
  EXPECT_THAT(Ints(Binary("shift-right-arithmetic", "s32[4]", LI("s32[4]", {-8, -8, 8, 8}),
                          LI("s32[4]", {1, 40, 40, -1}))),
              ElementsAre(-4, -1, 0, 0));
  EXPECT_THAT(Ints(Binary("shift-left", "u8[3]", LI("u8[3]", {1, 1, 3}), LI("u8[3]", {7, 8, 255}))),
              ElementsAre(128, 0, 0));
  // Arithmetic shift of an unsigned value sign-extends its top bit.
  EXPECT_THAT(Ints(Binary("shift-right-arithmetic", "u8[2]", LI("u8[2]", {0x80, 0x80}),
                          LI("u8[2]", {1, 9}))),
              ElementsAre(0xC0, 0xFF));
}

TEST(ElementwiseTest, IntegerPower) {
  EXPECT_THAT(Ints(Binary("power", "s32[8]", LI("s32[8]", {2, 2, 1, -1, -1, 0, 3, 2}),
                          LI("s32[8]", {10, -1, -5, -3, -4, 0, 40, 31}))),
              ElementsAre(1024, 0, 1, -1, 1, 1, 689956897, kMinS32));
  EXPECT_THAT(
      Doubles(Binary("power", "f32[3]", L("f32[3]", {4, kNaN, 4}), L("f32[3]", {0.5, 0, -0.5}))),
      ElementsAre(2, 1, 0.5));
}

TEST(ElementwiseTest, MaximumAndMinimumPropagateNaN) {
  Literal a = L("f32[4]", {kNaN, 1, -0.0, 2});
  Literal b = L("f32[4]", {1, kNaN, 0.0, kInf});
  std::vector<double> mx = Doubles(Binary("maximum", "f32[4]", a, b));
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_TRUE(std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 0);
  EXPECT_FALSE(std::signbit(mx[2]));
  EXPECT_EQ(mx[3], kInf);
  std::vector<double> mn = Doubles(Binary("minimum", "f32[4]", a, b));
  EXPECT_TRUE(std::isnan(mn[0]));
  EXPECT_TRUE(std::isnan(mn[1]));
  EXPECT_TRUE(std::signbit(mn[2]));
  EXPECT_EQ(mn[3], 2);
  // Integers and pred.
  EXPECT_THAT(Ints(Binary("maximum", "s32[2]", LI("s32[2]", {-3, 4}), LI("s32[2]", {2, -9}))),
              ElementsAre(2, 4));
  EXPECT_THAT(Bools(Binary("minimum", "pred[2]", LI("pred[2]", {1, 1}), LI("pred[2]", {0, 1}))),
              ElementsAre(false, true));
}

TEST(ElementwiseTest, CompareFloatAndTotalOrder) {
  Literal a = L("f32[4]", {-0.0, kNaN, -kNaN, 1});
  Literal b = L("f32[4]", {0.0, kInf, -kInf, 1});
  EXPECT_THAT(Bools(RunHlo(Module(R"(
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT r = pred[4] compare(a, b), direction=LT, type=TOTALORDER)"),
                           {a, b})),
              ElementsAre(true, false, true, false));
  EXPECT_THAT(Bools(RunHlo(Module(R"(
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT r = pred[4] compare(a, b), direction=LT)"),
                           {a, b})),
              ElementsAre(false, false, false, false));
  EXPECT_THAT(Bools(RunHlo(Module(R"(
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT r = pred[4] compare(a, b), direction=EQ)"),
                           {a, b})),
              ElementsAre(true, false, false, true));
  EXPECT_THAT(Bools(RunHlo(Module(R"(
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT r = pred[4] compare(a, b), direction=NE)"),
                           {a, b})),
              ElementsAre(false, true, true, false));
  // Unsigned compares as unsigned.
  EXPECT_THAT(Bools(RunHlo(Module(R"(
  a = u32[2] parameter(0)
  b = u32[2] parameter(1)
  ROOT r = pred[2] compare(a, b), direction=GT)"),
                           {LI("u32[2]", {4294967295, 1}), LI("u32[2]", {1, 2})})),
              ElementsAre(true, false));
}

TEST(ElementwiseTest, Bf16RoundsToNearestEven) {
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even gives 1.
  EXPECT_THAT(Doubles(Binary("add", "bf16[2]", L("bf16[2]", {1, 1}),
                             L("bf16[2]", {0.00390625, 0.01171875}))),
              ElementsAre(1, 1.015625));
  EXPECT_THAT(Doubles(Unary("convert", "f32[2]", "bf16[2]", L("f32[2]", {1.00390625, 1.01171875}))),
              ElementsAre(1, 1.015625));
}

TEST(ElementwiseTest, F16OverflowsToInfinity) {
  EXPECT_THAT(
      Doubles(Binary("multiply", "f16[2]", L("f16[2]", {300, -300}), L("f16[2]", {300, 300}))),
      ElementsAre(kInf, -kInf));
  // 65504 is the largest half; 65519 rounds down to it, 65520 up to inf.
  EXPECT_THAT(Doubles(Binary("add", "f16[2]", L("f16[2]", {65504, 65504}), L("f16[2]", {8, 16}))),
              ElementsAre(65504, kInf));
}

TEST(ElementwiseTest, FloatUnaryOps) {
  std::vector<double> sign =
      Doubles(Unary("sign", "f32[4]", "f32[4]", L("f32[4]", {-0.0, kNaN, -3, 0.25})));
  EXPECT_EQ(sign[0], 0);
  EXPECT_TRUE(std::signbit(sign[0]));
  EXPECT_TRUE(std::isnan(sign[1]));
  EXPECT_EQ(sign[2], -1);
  EXPECT_EQ(sign[3], 1);
  Literal halves = L("f32[6]", {0.5, 1.5, 2.5, -0.5, -2.5, 2.4});
  EXPECT_THAT(Doubles(Unary("round-nearest-afz", "f32[6]", "f32[6]", halves)),
              ElementsAre(1, 2, 3, -1, -3, 2));
  std::vector<double> even = Doubles(Unary("round-nearest-even", "f32[6]", "f32[6]", halves));
  EXPECT_THAT(even, ElementsAre(0, 2, 2, -0.0, -2, 2));
  EXPECT_TRUE(std::signbit(even[3]));
  EXPECT_THAT(Doubles(Unary("logistic", "f32[3]", "f32[3]", L("f32[3]", {0, -200, 200}))),
              ElementsAre(0.5, 0, 1));
  EXPECT_THAT(Doubles(Unary("floor", "f32[2]", "f32[2]", L("f32[2]", {-1.5, 1.5}))),
              ElementsAre(-2, 1));
  EXPECT_THAT(Doubles(Unary("ceil", "f32[2]", "f32[2]", L("f32[2]", {-1.5, 1.5}))),
              ElementsAre(-1, 2));
  EXPECT_THAT(Doubles(Unary("rsqrt", "f32[2]", "f32[2]", L("f32[2]", {4, 0.25}))),
              ElementsAre(0.5, 2));
  EXPECT_THAT(Doubles(Unary("abs", "f16[2]", "f16[2]", L("f16[2]", {-2.5, 3}))),
              ElementsAre(2.5, 3));
  EXPECT_THAT(Doubles(Unary("sqrt", "bf16[1]", "bf16[1]", L("bf16[1]", {2}))),
              ElementsAre(1.4140625));  // sqrt(2) = 1.41421... rounded to bf16
  EXPECT_THAT(Doubles(Binary("remainder", "f32[2]", L("f32[2]", {5.5, -5.5}), L("f32[2]", {2, 2}))),
              ElementsAre(1.5, -1.5));
  EXPECT_THAT(Doubles(Binary("atan2", "f64[1]", L("f64[1]", {1}), L("f64[1]", {1}))),
              ElementsAre(std::atan2(1.0, 1.0)));
  EXPECT_THAT(Bools(Unary("is-finite", "f32[3]", "pred[3]", L("f32[3]", {kInf, kNaN, 1}))),
              ElementsAre(false, false, true));
}

TEST(ElementwiseTest, IntegerUnaryOps) {
  EXPECT_THAT(Ints(Unary("sign", "s32[3]", "s32[3]", LI("s32[3]", {-5, 0, 7}))),
              ElementsAre(-1, 0, 1));
  EXPECT_THAT(Ints(Unary("popcnt", "s32[3]", "s32[3]", LI("s32[3]", {-1, 7, 0}))),
              ElementsAre(32, 3, 0));
  EXPECT_THAT(Ints(Unary("count-leading-zeros", "u8[3]", "u8[3]", LI("u8[3]", {1, 0, 128}))),
              ElementsAre(7, 8, 0));
  EXPECT_THAT(Ints(Unary("not", "s32[2]", "s32[2]", LI("s32[2]", {0, 5}))), ElementsAre(-1, -6));
  EXPECT_THAT(Bools(Unary("not", "pred[2]", "pred[2]", LI("pred[2]", {1, 0}))),
              ElementsAre(false, true));
  EXPECT_THAT(Ints(Binary("xor", "u8[1]", LI("u8[1]", {0xF0}), LI("u8[1]", {0xFF}))),
              ElementsAre(0x0F));
  EXPECT_THAT(Bools(Binary("and", "pred[2]", LI("pred[2]", {1, 1}), LI("pred[2]", {1, 0}))),
              ElementsAre(true, false));
}

TEST(ElementwiseTest, TypeErrorsNameTheInstruction) {
  auto r = TryRun(Module(R"(
  a = f32[2] parameter(0)
  ROOT r = f32[2] popcnt(a))"),
                  {L("f32[2]", {1, 2})});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("instruction 'r' (popcnt): popcnt is not defined for element type f32"));
}

TEST(ElementwiseTest, SelectAndClamp) {
  EXPECT_THAT(
      Doubles(RunHlo(Module(R"(
  p = pred[3] parameter(0)
  a = f32[3] parameter(1)
  b = f32[3] parameter(2)
  ROOT r = f32[3] select(p, a, b))"),
                     {LI("pred[3]", {1, 0, 1}), L("f32[3]", {1, 2, 3}), L("f32[3]", {4, 5, 6})})),
      ElementsAre(1, 5, 3));
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  lo = s32[] constant(0)
  hi = s32[] constant(10)
  x = s32[3] parameter(0)
  ROOT r = s32[3] clamp(lo, x, hi))"),
                          {LI("s32[3]", {-5, 5, 15})})),
              ElementsAre(0, 5, 10));
  std::vector<double> c = Doubles(RunHlo(Module(R"(
  lo = f32[2] constant({0, 0})
  hi = f32[2] constant({1, 1})
  x = f32[2] parameter(0)
  ROOT r = f32[2] clamp(lo, x, hi))"),
                                         {L("f32[2]", {kNaN, 3})}));
  EXPECT_TRUE(std::isnan(c[0]));
  EXPECT_EQ(c[1], 1);
}

TEST(ConvertTest, FloatToIntSaturatesAndNaNIsZero) {
  EXPECT_THAT(
      Ints(Unary("convert", "f32[6]", "s32[6]", L("f32[6]", {1e10, -1e10, kNaN, 2.7, -2.7, kInf}))),
      ElementsAre(kMaxS32, kMinS32, 0, 2, -2, kMaxS32));
  EXPECT_THAT(Ints(Unary("convert", "f32[2]", "u8[2]", L("f32[2]", {-1, 300}))),
              ElementsAre(0, 255));
}

TEST(ConvertTest, IntToIntWrapsAndPredIsNonZero) {
  EXPECT_THAT(Ints(Unary("convert", "s32[3]", "s8[3]", LI("s32[3]", {300, -129, -1}))),
              ElementsAre(44, 127, -1));
  EXPECT_THAT(Ints(Unary("convert", "s32[1]", "u32[1]", LI("s32[1]", {-1}))),
              ElementsAre(4294967295));
  EXPECT_THAT(Bools(Unary("convert", "f32[4]", "pred[4]", L("f32[4]", {0, -0.0, kNaN, 0.5}))),
              ElementsAre(false, false, true, true));
  EXPECT_THAT(Ints(Unary("convert", "pred[2]", "s32[2]", LI("pred[2]", {1, 0}))),
              ElementsAre(1, 0));
  // int -> float rounds to nearest even.
  EXPECT_THAT(Doubles(Unary("convert", "s32[1]", "f32[1]", LI("s32[1]", {16777217}))),
              ElementsAre(16777216));
}

TEST(ConvertTest, BitcastConvertReinterpretsBits) {
  EXPECT_THAT(Ints(Unary("bitcast-convert", "f32[2]", "s32[2]", L("f32[2]", {1, -0.0}))),
              ElementsAre(1065353216, kMinS32));
  // Narrower result: a new minor dimension, little-endian pieces.
  EXPECT_THAT(Ints(Unary("bitcast-convert", "f32[1]", "u16[1,2]", L("f32[1]", {1}))),
              ElementsAre(0, 16256));
  // Wider result: the minor dimension goes away.
  EXPECT_THAT(Doubles(Unary("bitcast-convert", "u16[2]", "f32[]", LI("u16[2]", {0, 16256}))),
              ElementsAre(1));
}

TEST(ReducePrecisionTest, RoundsMantissaAndClampsExponent) {
  // To f16's format: 5 exponent and 10 mantissa bits.
  std::vector<double> r =
      Doubles(Unary("reduce-precision", "f32[7]", "f32[7]",
                    L("f32[7]", {1 + std::ldexp(1, -11), 1 + 3 * std::ldexp(1, -11), 70000, 1e-5,
                                 -1e-5, kNaN, 65519}),
                    ", exponent_bits=5, mantissa_bits=10"));
  EXPECT_EQ(r[0], 1);                      // tie -> even
  EXPECT_EQ(r[1], 1 + std::ldexp(1, -9));  // tie -> even (up)
  EXPECT_EQ(r[2], kInf);                   // exponent overflow
  EXPECT_EQ(r[3], 0);                      // below the smallest normal
  EXPECT_TRUE(std::signbit(r[4]) && r[4] == 0);
  EXPECT_TRUE(std::isnan(r[5]));
  EXPECT_EQ(r[6], 65504);
}

TEST(LayoutTest, NonDefaultLayoutsDoNotChangeValues) {
  const Literal a = L("f32[2,3]", {1, 2, 3, 4, 5, 6});
  Literal col_major = RunHlo(Module(R"(
  p = f32[2,3]{0,1} parameter(0)
  t = f32[3,2]{0,1} transpose(p), dimensions={1,0}
  ROOT r = f32[3,2]{1,0} add(t, t))"),
                             {a});
  Literal row_major = RunHlo(Module(R"(
  p = f32[2,3]{1,0} parameter(0)
  t = f32[3,2]{1,0} transpose(p), dimensions={1,0}
  ROOT r = f32[3,2]{1,0} add(t, t))"),
                             {a});
  EXPECT_THAT(Doubles(col_major), ElementsAre(2, 8, 4, 10, 6, 12));
  EXPECT_EQ(col_major, row_major);
}

// The element types of 2026-12-03: computed in a wider type, rounded back
// once per instruction.
TEST(NarrowTypesTest, EightBitFloatsRoundOncePerInstruction) {
  // 1 + 0.0625 is halfway between the f8e4m3fn neighbours 1 and 1.125:
  // ties to even (1); 1 + 0.125 is exact.
  EXPECT_THAT(Doubles(Binary("add", "f8e4m3fn[2]", L("f8e4m3fn[2]", {1, 1}),
                             L("f8e4m3fn[2]", {0.0625, 0.125}))),
              ElementsAre(1, 1.125));
  // Converting from f32 rounds once; beyond 448 there is only NaN.
  Literal c = Unary("convert", "f32[4]", "f8e4m3fn[4]", L("f32[4]", {1.0625, 1.07, 464, 500}));
  std::vector<double> v = Doubles(c);
  EXPECT_EQ(v[0], 1);
  EXPECT_EQ(v[1], 1.125);
  EXPECT_EQ(v[2], 448);
  EXPECT_TRUE(std::isnan(v[3]));
  // f8e5m2 has infinities.
  EXPECT_THAT(Doubles(Unary("convert", "f32[1]", "f8e5m2[1]", L("f32[1]", {1e6}))),
              ElementsAre(kInf));
  // An FP8 GEMM as XLA writes it: f8 operands, an f32 result.
  Literal d = RunHlo(Module(R"(
  a = f8e4m3fn[2,2] parameter(0)
  b = f8e5m2[2,2] parameter(1)
  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0})"),
                     {L("f8e4m3fn[2,2]", {1, 2, 0.5, -3}), L("f8e5m2[2,2]", {0.5, 4, 0.25, -1})});
  EXPECT_THAT(Doubles(d), ElementsAre(1, 2, -0.5, 5));
  // Bit patterns through bitcast-convert, one byte each.
  Literal bits = Unary("bitcast-convert", "f8e5m2[2]", "u8[2]", L("f8e5m2[2]", {1, -2}));
  EXPECT_THAT(Doubles(bits), ElementsAre(0x3c, 0xc0));
}

TEST(NarrowTypesTest, SubByteIntegersWrapAndConvertsSaturate) {
  EXPECT_THAT(Doubles(Binary("add", "s4[3]", LI("s4[3]", {7, -8, 3}), LI("s4[3]", {1, -1, 2}))),
              ElementsAre(-8, 7, 5));
  EXPECT_THAT(Doubles(Binary("multiply", "u4[2]", LI("u4[2]", {5, 15}), LI("u4[2]", {4, 15}))),
              ElementsAre(4, 1));
  // Float to integer saturates; integer to integer wraps.
  EXPECT_THAT(Doubles(Unary("convert", "f32[3]", "s4[3]", L("f32[3]", {9.7, -100, -2.5}))),
              ElementsAre(7, -8, -2));
  EXPECT_THAT(Doubles(Unary("convert", "s32[2]", "s4[2]", LI("s32[2]", {9, -9}))),
              ElementsAre(-7, 7));
  EXPECT_THAT(Doubles(Unary("convert", "s4[2]", "u2[2]", LI("s4[2]", {-1, 6}))), ElementsAre(3, 2));
  // Ops that would see the carrier's width are refused by name.
  auto refused = TryRun(Module("  a = s4[2] parameter(0)\n  ROOT r = s4[2] popcnt(a)"),
                        {LI("s4[2]", {-1, 1})});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("'popcnt'"));
}

TEST(NarrowTypesTest, ComputationsAreCalledOnNarrowScalarsRoundingPerStep) {
  // The reducer adds in f8e5m2, rounding each step: 4 + 0.5 ties to 4
  // twice (not the 5 of a wider sum); max and sort order as the values.
  Literal sums = RunHlo(Hlo(R"(
add8 {
  x = f8e5m2[] parameter(0)
  y = f8e5m2[] parameter(1)
  ROOT s = f8e5m2[] add(x, y)
}
mx {
  x = f8e4m3fn[] parameter(0)
  y = f8e4m3fn[] parameter(1)
  ROOT m = f8e4m3fn[] maximum(x, y)
}
lt {
  x = s4[] parameter(0)
  y = s4[] parameter(1)
  ROOT l = pred[] compare(x, y), direction=LT
}
ENTRY main {
  a = f8e5m2[3] parameter(0)
  z = f8e5m2[] constant(0)
  s = f8e5m2[] reduce(a, z), dimensions={0}, to_apply=add8
  w = f8e4m3fn[4] parameter(1)
  lo = f8e4m3fn[] constant(-448)
  m = f8e4m3fn[] reduce(w, lo), dimensions={0}, to_apply=mx
  q = s4[4] parameter(2)
  o = s4[4] sort(q), dimensions={0}, to_apply=lt
  ROOT t = (f8e5m2[], f8e4m3fn[], s4[4]) tuple(s, m, o)
})"),
                        {L("f8e5m2[3]", {4, 0.5, 0.5}), L("f8e4m3fn[4]", {1, 3, -2, 0.5}),
                         LI("s4[4]", {3, -8, 7, -1})});
  ASSERT_EQ(sums.tuple_elements().size(), 3u);
  EXPECT_THAT(Doubles(sums.tuple_element(0)), ElementsAre(4));
  EXPECT_THAT(Doubles(sums.tuple_element(1)), ElementsAre(3));
  EXPECT_THAT(Doubles(sums.tuple_element(2)), ElementsAre(-8, -1, 3, 7));
}

// mulhi: the high half of the product at twice the width, signed or
// unsigned as the type is.
TEST(MulhiTest, HighHalfOfTheDoubleWidthProduct) {
  const char* text = R"(HloModule mh
ENTRY e {
  a = %s[5] parameter(0)
  b = %s[5] parameter(1)
  ROOT m = %s[5] mulhi(a, b)
})";
  auto run = [&](const char* type, std::vector<int64_t> a, std::vector<int64_t> b) {
    std::string hlo = absl::StrReplaceAll(text, {{"%s", type}});
    const std::string shape = absl::StrCat(type, "[5]");
    return Ints(RunHlo(hlo, {LI(shape, a), LI(shape, b)}));
  };
  const int64_t s32_min = -2147483648LL;
  EXPECT_THAT(run("s32", {-1, -1, 1 << 30, s32_min, 2147483647}, {-1, 1, 4, s32_min, 2147483647}),
              ElementsAre(0, -1, 1, 1073741824, 1073741823));
  EXPECT_THAT(run("u32", {4294967295LL, 2147483648LL, 7, 65536, 0}, {4294967295LL, 2, 9, 65536, 5}),
              ElementsAre(4294967294LL, 1, 0, 1, 0));
  const int64_t s64_min = std::numeric_limits<int64_t>::min();
  const int64_t s64_max = std::numeric_limits<int64_t>::max();
  EXPECT_THAT(
      run("s64", {s64_min, int64_t{1} << 62, -3, s64_max, s64_min}, {2, 4, 5, s64_max, s64_min}),
      ElementsAre(-1, 1, -1, 4611686018427387903LL, int64_t{1} << 62));
  EXPECT_THAT(run("s8", {-128, 127, -1, 16, 100}, {-128, 127, 1, 16, -100}),
              ElementsAre(64, 63, -1, 1, -40));
}

TEST(MulhiTest, FloatsAreRefused) {
  auto r = TryRun(R"(HloModule mh
ENTRY e {
  a = f32[2] parameter(0)
  ROOT m = f32[2] mulhi(a, a)
})",
                  {L("f32[2]", {1, 2})});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("mulhi"));
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
