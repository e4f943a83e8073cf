// The compiled scalar programs (reducers, combiners, comparators) against
// the array kernels, bit for bit, on special and ordinary values.

#include <cmath>
#include <limits>

#include "compiler/interpreter/evaluator_internal.h"
#include "compiler/interpreter/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace interpreter_test {
namespace {

using interpreter_internal::ComputationCaller;
using interpreter_internal::ScalarFunction;

class EvaluatorCaller : public ComputationCaller {
 public:
  absl::StatusOr<Literal> Call(const HloComputation& computation,
                               absl::Span<const Literal* const> arguments) override {
    ++calls;
    return evaluator_.EvaluateComputation(computation, arguments);
  }
  int calls = 0;

 private:
  HloEvaluator evaluator_;
};

// Every op the register program supports, on (f32 a, f32 b, s32 i, s32 j,
// bf16 h, u8 u).
constexpr char kKitchenSink[] = R"(
HloModule sink

ENTRY f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  h = bf16[] parameter(4)
  u = u8[] parameter(5)
  c2 = f32[] constant(2.5)
  u0 = f32[] abs(a)
  u1 = f32[] exponential(a)
  u2 = f32[] log(u0)
  u3 = f32[] sqrt(a)
  u4 = f32[] rsqrt(b)
  u5 = f32[] tanh(a)
  u6 = f32[] logistic(b)
  u7 = f32[] sign(a)
  u8x = f32[] round-nearest-even(b)
  u9 = f32[] round-nearest-afz(b)
  u10 = f32[] floor(a)
  u11 = f32[] ceil(a)
  u12 = f32[] cosine(a)
  u13 = f32[] sine(b)
  u14 = f32[] tan(a)
  u15 = f32[] erf(a)
  u16 = f32[] exponential-minus-one(b)
  u17 = f32[] log-plus-one(a)
  u18 = f32[] cbrt(b)
  u19 = f32[] negate(a)
  u20 = f32[] reduce-precision(a), exponent_bits=5, mantissa_bits=2
  b0 = f32[] add(a, b)
  b1 = f32[] subtract(a, c2)
  b2 = f32[] multiply(a, b)
  b3 = f32[] divide(a, b)
  b4 = f32[] remainder(a, b)
  b5 = f32[] maximum(a, b)
  b6 = f32[] minimum(a, b)
  b7 = f32[] power(a, b)
  b8 = f32[] atan2(a, b)
  p0 = pred[] compare(a, b), direction=LT
  p1 = pred[] compare(a, b), direction=LE, type=TOTALORDER
  p2 = pred[] compare(i, j), direction=GT
  p3 = pred[] is-finite(a)
  p4 = pred[] and(p0, p3)
  p5 = pred[] or(p1, p2)
  p6 = pred[] xor(p4, p5)
  p7 = pred[] not(p6)
  s0 = f32[] select(p7, a, b)
  s1 = f32[] clamp(b, a, c2)
  i0 = s32[] add(i, j)
  i1 = s32[] multiply(i, j)
  i2 = s32[] divide(i, j)
  i3 = s32[] remainder(i, j)
  i4 = s32[] shift-left(i, j)
  i5 = s32[] shift-right-arithmetic(i, j)
  i6 = s32[] shift-right-logical(i, j)
  i7 = s32[] power(i, j)
  i8 = s32[] popcnt(i)
  i9 = s32[] count-leading-zeros(j)
  i10 = s32[] abs(i)
  i11 = s32[] negate(j)
  i12 = s32[] sign(i)
  i13 = s32[] and(i, j)
  i14 = s32[] not(i)
  i15 = s32[] maximum(i, j)
  c0 = s32[] convert(a)
  c1 = f32[] convert(i)
  c3 = bf16[] convert(a)
  c4 = bf16[] add(h, c3)
  c5 = f16[] convert(c4)
  c6 = f16[] multiply(c5, c5)
  c7 = u8[] convert(b)
  c8 = u8[] subtract(u, c7)
  c9 = pred[] convert(b)
  c10 = s32[] bitcast-convert(a)
  c11 = f32[] copy(b)
  c12 = f32[] reshape(c11)
  ROOT t = (f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], pred[], f32[], f32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], s32[], f32[], f16[], u8[], pred[], s32[], f32[]) tuple(u0, u1, u2, u3, u4, u5, u6, u7, u8x, u9, u10, u11, u12, u13, u14, u15, u16, u17, u18, u19, u20, b0, b1, b2, b3, b4, b5, b6, b7, b8, c1, p7, s0, s1, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, c0, c10, c12, c6, c8, c9, c10, b0)
}
)";

TEST(ScalarFunctionTest, CompiledProgramMatchesTheArrayKernelsBitForBit) {
  auto module = ParseHloModule(kKitchenSink);
  ASSERT_TRUE(module.ok()) << module.status();
  const HloComputation& f = *(*module)->entry_computation();
  std::vector<PrimitiveType> params = {F32, F32, S32, S32, BF16, U8};
  std::vector<PrimitiveType> results;
  for (const Shape& s : f.root_instruction()->shape().tuple_shapes()) {
    results.push_back(s.element_type());
  }
  EvaluatorCaller caller;
  auto function = ScalarFunction::Create(&f, params, results, caller, "test");
  ASSERT_TRUE(function.ok()) << function.status();
  ASSERT_TRUE((*function)->compiled());

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> floats = {0,    -0.0, 1,    -1,  0.5, 2.5,   -2.5, 1e-40,
                                      3e38, inf,  -inf, nan, 100, -7.25, 0.1};
  const std::vector<int64_t> ints = {
      0,  1,  -1, 7, -7, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
      31, 32, 3};
  int checked = 0;
  for (size_t x = 0; x < floats.size(); ++x) {
    for (size_t y = 0; y < floats.size(); ++y) {
      const size_t k = (x * 7 + y) % ints.size();
      const size_t l = (x + y * 3) % ints.size();
      std::vector<Literal> args = {L("f32[]", {floats[x]}),
                                   L("f32[]", {floats[y]}),
                                   LI("s32[]", {ints[k]}),
                                   LI("s32[]", {ints[l]}),
                                   L("bf16[]", {floats[(x + y) % floats.size()]}),
                                   LI("u8[]", {static_cast<int64_t>((x * 37 + y) % 256)})};
      std::vector<const Literal*> pointers;
      std::vector<const void*> raw;
      for (const Literal& a : args) {
        pointers.push_back(&a);
        raw.push_back(a.raw().data());
      }
      auto expected = caller.Call(f, pointers);
      ASSERT_TRUE(expected.ok()) << expected.status();
      ASSERT_TRUE((*function)->Call(raw.data()).ok());
      for (size_t r = 0; r < results.size(); ++r) {
        const Literal& e = expected->tuple_element(static_cast<int64_t>(r));
        ASSERT_EQ(std::memcmp((*function)->result(r), e.raw().data(), e.raw().size()), 0)
            << "result " << r << " (" << f.root_instruction()->operand(r)->name()
            << ") differs for a=" << floats[x] << " b=" << floats[y] << " i=" << ints[k]
            << " j=" << ints[l] << ": expected " << e.ToString();
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST(ScalarFunctionTest, NonStraightLineComputationsUseTheEvaluator) {
  auto module = ParseHloModule(R"(
HloModule m
inner {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY outer {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] call(a, b), to_apply=inner
})");
  ASSERT_TRUE(module.ok()) << module.status();
  EvaluatorCaller caller;
  auto function =
      ScalarFunction::Create((*module)->entry_computation(), {F32, F32}, {F32}, caller, "to_apply");
  ASSERT_TRUE(function.ok());
  EXPECT_FALSE((*function)->compiled());
  float a = 1.5f, b = 2;
  const void* args[2] = {&a, &b};
  ASSERT_TRUE((*function)->Call(args).ok());
  float r;
  std::memcpy(&r, (*function)->result(0), 4);
  EXPECT_EQ(r, 3.5f);
  EXPECT_EQ(caller.calls, 1);
  // A wrong result type is an error at the call.
  auto wrong =
      ScalarFunction::Create((*module)->entry_computation(), {F32, F32}, {S32}, caller, "to_apply");
  ASSERT_TRUE(wrong.ok());
  EXPECT_FALSE((*wrong)->Call(args).ok());
  // A wrong parameter count is an error up front.
  EXPECT_FALSE(
      ScalarFunction::Create((*module)->entry_computation(), {F32}, {F32}, caller, "to_apply")
          .ok());
}

TEST(ScalarFunctionTest, ReduceThroughACallUsesTheGeneralPath) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  z = f32[] constant(0)
  ROOT r = f32[2] reduce(p, z), dimensions={1}, to_apply=outer)",
                                    R"(
inner {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  m = f32[] multiply(y, y)
  ROOT s = f32[] add(x, m)
}
outer {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] call(a, b), to_apply=inner
})"))),
              ::testing::ElementsAre(14, 77));
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
