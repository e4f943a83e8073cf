// The interpreter's rng-bit-generator: its stream is the counter-based
// generators' blocks in order (checked against support/counter_rng.h,
// itself checked against the published known answers) and the next state
// advances the counter by the blocks used. Shape checks: ShapeInferenceTest.

#include <set>

#include "compiler/interpreter/test_util.h"
#include "support/counter_rng.h"

namespace aot {
namespace interpreter_test {
namespace {

Literal State(std::vector<uint64_t> words) {
  Literal l(Shape(U64, {static_cast<int64_t>(words.size())}));
  for (size_t i = 0; i < words.size(); ++i) l.SetFromUint64(static_cast<int64_t>(i), words[i]);
  return l;
}

std::vector<uint64_t> Words(const Literal& l) {
  std::vector<uint64_t> out;
  for (int64_t i = 0; i < l.element_count(); ++i) out.push_back(l.GetAsUint64(i));
  return out;
}

TEST(RngBitGeneratorTest, PhiloxIsTheDefaultAndFillsBlocksInOrder) {
  // Six u32 values: block 0 (counter 7) and the first two words of block 1.
  Literal r = RunHlo(Hlo(R"(
ENTRY main {
  s = u64[2] parameter(0)
  ROOT r = (u64[2], u32[2,3]) rng-bit-generator(s)
})"),
                     {State({0x0000000500000009ull, 7})});
  const std::array<uint32_t, 4> b0 = Philox4x32({7, 0, 0, 0}, {9, 5});
  const std::array<uint32_t, 4> b1 = Philox4x32({8, 0, 0, 0}, {9, 5});
  EXPECT_EQ(Words(r.tuple_element(1)),
            (std::vector<uint64_t>{b0[0], b0[1], b0[2], b0[3], b1[0], b1[1]}));
  EXPECT_EQ(Words(r.tuple_element(0)), (std::vector<uint64_t>{0x0000000500000009ull, 9}));
}

TEST(RngBitGeneratorTest, PhiloxThreeWordStateIsTheCountersHighHalf) {
  Literal r = RunHlo(Hlo(R"(
ENTRY main {
  s = u64[3] parameter(0)
  ROOT r = (u64[3], u64[2]) rng-bit-generator(s), algorithm=rng_philox
})"),
                     {State({1, 0xffffffffffffffffull, 0x0000000300000004ull})});
  // 64-bit values take two words, low first; the counter wraps.
  const std::array<uint32_t, 4> b = Philox4x32({0xffffffff, 0xffffffff, 4, 3}, {1, 0});
  EXPECT_EQ(Words(r.tuple_element(1)),
            (std::vector<uint64_t>{b[0] | (uint64_t{b[1]} << 32), b[2] | (uint64_t{b[3]} << 32)}));
  EXPECT_EQ(Words(r.tuple_element(0)), (std::vector<uint64_t>{1, 0, 0x0000000300000004ull}));
}

TEST(RngBitGeneratorTest, ThreefryAndNarrowSignedValues) {
  Literal r = RunHlo(Hlo(R"(
ENTRY main {
  s = u64[2] parameter(0)
  ROOT r = (u64[2], s8[3]) rng-bit-generator(s), algorithm=rng_three_fry
})"),
                     {State({0x1234, 40})});
  const std::array<uint32_t, 2> b0 = Threefry2x32({40, 0}, {0x1234, 0});
  const std::array<uint32_t, 2> b1 = Threefry2x32({41, 0}, {0x1234, 0});
  const Literal& bits = r.tuple_element(1);
  EXPECT_EQ(bits.GetAsInt64(0), static_cast<int8_t>(b0[0]));
  EXPECT_EQ(bits.GetAsInt64(1), static_cast<int8_t>(b0[1]));
  EXPECT_EQ(bits.GetAsInt64(2), static_cast<int8_t>(b1[0]));
  EXPECT_EQ(Words(r.tuple_element(0)), (std::vector<uint64_t>{0x1234, 42}));
}

TEST(StochasticConvertTest, RoundsUpWhereTheRandomBitsAreBelowTheFraction) {
  const std::string hlo = Hlo(R"(
ENTRY main {
  x = f32[9] parameter(0)
  r = u32[9] parameter(1)
  ROOT s = s8[9] stochastic-convert(x, r)
})");
  // 2.25: the fraction 0.25 is 2^30 of 2^32. Up below it, down at it.
  Literal x = L("f32[9]", {2.25, 2.25, -2.25, -2.25, 126.5, 127.5, -129, 1e10, std::nan("")});
  Literal r(Shape(U32, {9}));
  const uint64_t bits[9] = {(1u << 30) - 1, 1u << 30, 0, 0xffffffffu, 0, 0, 0, 0, 0};
  for (int i = 0; i < 9; ++i) r.SetFromUint64(i, bits[i]);
  Literal s = RunHlo(hlo, {x, r});
  std::vector<int64_t> got;
  for (int i = 0; i < 9; ++i) got.push_back(s.GetAsInt64(i));
  EXPECT_EQ(got, (std::vector<int64_t>{3, 2, -3, -2, 127, 127, -128, 127, 0}));
}

// rng and rng-get-and-update-state draw from the evaluator's state, which
// starts at 0 and is carried across evaluations as a loaded executable's.
std::unique_ptr<HloModule> ParsedModule(absl::string_view text) {
  auto module = ParseHloModule(Hlo(text));
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

TEST(RngStateTest, GetAndUpdateStateReturnsTheStateThenAdvancesIt) {
  auto m = ParsedModule(R"(
ENTRY main {
  ROOT s = u64[2] rng-get-and-update-state(), delta=5
})");
  ASSERT_NE(m, nullptr);
  HloEvaluator evaluator;
  for (uint64_t expected : {0, 5, 10}) {
    auto s = evaluator.Evaluate(*m, {});
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(Words(*s), (std::vector<uint64_t>{expected, 0}));
  }
  HloEvaluator fresh;  // a new executable starts at 0
  auto s = fresh.Evaluate(*m, {});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Words(*s), (std::vector<uint64_t>{0, 0}));
}

TEST(RngTest, UniformDrawsPhiloxWordsKeyedByTheProjectKeyAtTheState) {
  // f32[6] takes 6 words: blocks 0 and 1, so the state advances by 2.
  auto m = ParsedModule(R"(
ENTRY main {
  a = f32[] constant(-2)
  b = f32[] constant(6)
  r = f32[6] rng(a, b), distribution=rng_uniform
  s = u64[2] rng-get-and-update-state(), delta=1
  ROOT t = (f32[6], u64[2]) tuple(r, s)
})");
  ASSERT_NE(m, nullptr);
  HloEvaluator evaluator;
  auto t = evaluator.Evaluate(*m, {});
  ASSERT_TRUE(t.ok()) << t.status();
  const std::array<uint32_t, 2> key = {static_cast<uint32_t>(kRngPhiloxKey),
                                       static_cast<uint32_t>(kRngPhiloxKey >> 32)};
  const std::array<uint32_t, 4> b0 = Philox4x32({0, 0, 0, 0}, key);
  const std::array<uint32_t, 4> b1 = Philox4x32({1, 0, 0, 0}, key);
  const uint32_t words[6] = {b0[0], b0[1], b0[2], b0[3], b1[0], b1[1]};
  for (int i = 0; i < 6; ++i) {
    // The high 23 bits as the mantissa of [1, 2), minus 1, scaled to [-2, 6).
    const float u = static_cast<float>(words[i] >> 9) / static_cast<float>(1 << 23);
    EXPECT_EQ(t->tuple_element(0).GetAsDouble(i), static_cast<double>(u * 8.0f + -2.0f)) << i;
  }
  EXPECT_EQ(Words(t->tuple_element(1)), (std::vector<uint64_t>{2, 0}));
  // The next evaluation continues from the state (3), so it differs.
  auto again = evaluator.Evaluate(*m, {});
  ASSERT_TRUE(again.ok());
  EXPECT_NE(again->tuple_element(0).GetAsDouble(0), t->tuple_element(0).GetAsDouble(0));
  EXPECT_EQ(Words(again->tuple_element(1)), (std::vector<uint64_t>{5, 0}));
}

TEST(RngTest, UniformValuesStayInTheirRangeForEveryType) {
  for (const char* type :
       {"f16", "bf16", "f32", "f64", "s8", "u8", "s16", "s32", "u32", "s64", "u64"}) {
    SCOPED_TRACE(type);
    const bool is_float = type[0] == 'f' || type[0] == 'b';
    const double lo = type[0] == 'u' ? 3 : -5, hi = 9;
    auto m = ParsedModule(absl::StrCat(
        "ENTRY main {\n  a = ", type, "[] constant(", lo, ")\n  b = ", type, "[] constant(", hi,
        ")\n  ROOT r = ", type, "[1000] rng(a, b), distribution=rng_uniform\n}\n"));
    ASSERT_NE(m, nullptr);
    HloEvaluator evaluator;
    auto r = evaluator.Evaluate(*m, {});
    ASSERT_TRUE(r.ok()) << r.status();
    std::set<double> seen;
    for (int64_t i = 0; i < 1000; ++i) {
      const double v = r->GetAsDouble(i);
      EXPECT_GE(v, lo);
      // A float rounded to f16/bf16 may round up to b; integers stay below.
      if (is_float) {
        EXPECT_LE(v, hi);
      } else {
        EXPECT_LT(v, hi);
      }
      seen.insert(v);
    }
    if (!is_float) {
      EXPECT_EQ(seen.size(), static_cast<size_t>(hi - lo)) << "every integer of [a, b) drawn";
    } else {
      EXPECT_GT(seen.size(), 100u);
    }
  }
}

TEST(RngTest, AnEmptyIntegerRangeGivesA) {
  Literal r = RunHlo(Hlo(R"(
ENTRY main {
  a = s32[] constant(-7)
  ROOT r = s32[16] rng(a, a), distribution=rng_uniform
})"));
  for (int64_t i = 0; i < 16; ++i) EXPECT_EQ(r.GetAsInt64(i), -7);
}

TEST(RngTest, NormalValuesHaveTheGivenMeanAndDeviation) {
  for (const char* type : {"f32", "f64", "bf16"}) {
    SCOPED_TRACE(type);
    Literal r = RunHlo(Hlo(absl::StrCat(
        "ENTRY main {\n  m = ", type, "[] constant(3)\n  s = ", type,
        "[] constant(2)\n  ROOT r = ", type, "[64,64] rng(m, s), distribution=rng_normal\n}\n")));
    double sum = 0, squares = 0;
    for (int64_t i = 0; i < 4096; ++i) {
      const double v = r.GetAsDouble(i);
      ASSERT_TRUE(std::isfinite(v));
      sum += v;
      squares += v * v;
    }
    const double mean = sum / 4096, variance = squares / 4096 - mean * mean;
    // Standard errors: 2/64 for the mean, about 0.09 for the variance.
    EXPECT_NEAR(mean, 3, 0.15);
    EXPECT_NEAR(variance, 4, 0.5);
  }
}

TEST(RngTest, EachIterationOfALoopDrawsAfresh) {
  Literal r = RunHlo(Hlo(R"(
cond {
  t = (s32[], f32[4,3]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant(4)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  t = (s32[], f32[4,3]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  acc = f32[4,3] get-tuple-element(t), index=1
  a = f32[] constant(0)
  b = f32[] constant(1)
  u = f32[3] rng(a, b), distribution=rng_uniform
  row = f32[1,3] reshape(u)
  z = s32[] constant(0)
  next = f32[4,3] dynamic-update-slice(acc, row, i, z)
  ROOT o = (s32[], f32[4,3]) tuple(j, next)
}
ENTRY main {
  z = s32[] constant(0)
  f = f32[] constant(0)
  acc = f32[4,3] broadcast(f), dimensions={}
  init = (s32[], f32[4,3]) tuple(z, acc)
  ROOT w = (s32[], f32[4,3]) while(init), condition=cond, body=body
})"));
  const Literal& rows = r.tuple_element(1);
  std::set<double> seen;
  for (int64_t i = 0; i < 12; ++i) seen.insert(rows.GetAsDouble(i));
  EXPECT_EQ(seen.size(), 12u);
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
