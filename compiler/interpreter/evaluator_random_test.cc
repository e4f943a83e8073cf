// The interpreter's rng-bit-generator: its stream is the counter-based
// generators' blocks in order (checked against support/counter_rng.h,
// itself checked against the published known answers) and the next state
// advances the counter by the blocks used. Shape checks: ShapeInferenceTest.

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

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
