#include "compiler/passes/composite_expansion.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/passes/test_util.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::EvaluateModule;
using testing_util::ExpectExpansionKeepsValues;
using testing_util::Parse;

int CountInModule(const HloModule& m, HloOpcode opcode) {
  int n = 0;
  for (const HloComputation* c : m.computations()) {
    for (const HloInstruction* h : c->instructions()) n += h->opcode() == opcode;
  }
  return n;
}

// Expands `text`, expects `opcode` gone and the interpreter's value (on
// `args`, or random ones) unchanged within `tolerance`.
void ExpectExpandsTo(absl::string_view text, HloOpcode opcode, Tolerance tolerance,
                     std::vector<Literal> args = {}) {
  SCOPED_TRACE(text);
  std::unique_ptr<HloModule> m =
      ExpectExpansionKeepsValues(text, ExpandCompositeOpcodes, tolerance, std::move(args), 3);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(CountInModule(*m, opcode), 0) << m->ToString();
}

TEST(CompositeExpansionTest, MapBecomesItsBodyAtTheOperandShape) {
  ExpectExpandsTo(R"(
HloModule m
clipped_mix {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  half = f32[] constant(0.5)
  s = f32[] multiply(a, half)
  t = f32[] add(s, b)
  c = pred[] compare(t, half), direction=GT
  ROOT r = f32[] select(c, half, t)
}
ENTRY e {
  x = f32[3,5] parameter(0)
  y = f32[3,5] parameter(1)
  ROOT m = f32[3,5] map(x, y), dimensions={0,1}, to_apply=clipped_mix
})",
                  HloOpcode::kMap, {});
}

TEST(CompositeExpansionTest, MapOfAParameterAndToAnotherType) {
  ExpectExpandsTo(R"(
HloModule m
first {
  a = s32[] parameter(0)
  ROOT b = s32[] parameter(1)
}
to_f32 {
  a = s32[] parameter(0)
  ROOT c = f32[] convert(a)
}
ENTRY e {
  x = s32[4] parameter(0)
  y = s32[4] parameter(1)
  k = s32[4] map(x, y), dimensions={0}, to_apply=first
  ROOT f = f32[4] map(k), to_apply=to_f32
})",
                  HloOpcode::kMap, {});
}

TEST(CompositeExpansionTest, MapOfANonElementwiseBodyIsRefusedByName) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
reducing {
  a = f32[] parameter(0)
  v = f32[2] broadcast(a), dimensions={}
  z = f32[] constant(0)
  ROOT r = f32[] reduce(v, z), dimensions={0}, to_apply=add
}
ENTRY e {
  x = f32[4] parameter(0)
  ROOT m = f32[4] map(x), dimensions={0}, to_apply=reducing
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<bool> changed = ExpandCompositeOpcodes(m.get());
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(changed.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(changed.status().message()),
              ::testing::HasSubstr("instruction 'm' (map): its to_apply computation 'reducing' "
                                   "holds 'v' (broadcast), which is not elementwise"));
}

TEST(CompositeExpansionTest, TopKLargestAndSmallestWithTiesAndNaN) {
  for (const char* largest : {"true", "false"}) {
    const std::string text = absl::StrCat(R"(
HloModule m
ENTRY e {
  x = f32[2,6] parameter(0)
  ROOT t = (f32[2,3], s32[2,3]) topk(x), k=3, largest=)",
                                          largest, "\n}");
    Literal x = Literal::FromDoubles(Shape(F32, {2, 6}),
                                     {1, 5, 5, -0.0, 0.0, 2, NAN, 3, -INFINITY, 3, 7, 1});
    std::vector<Literal> args;
    args.push_back(x);
    ExpectExpandsTo(text, HloOpcode::kTopK, {}, std::move(args));
    // The reference itself: stable, totally ordered.
    std::unique_ptr<HloModule> m = Parse(text);
    std::vector<Literal> again;
    again.push_back(x);
    absl::StatusOr<Literal> got = EvaluateModule(*m, again);
    ASSERT_TRUE(got.ok()) << got.status();
    const Literal& index = got->tuple_element(1);
    std::vector<int64_t> indices;
    for (int64_t i = 0; i < 6; ++i) indices.push_back(index.GetAsInt64(i));
    if (std::string(largest) == "true") {
      EXPECT_EQ(indices, (std::vector<int64_t>{1, 2, 5, 0, 4, 1})) << got->ToString();
    } else {
      EXPECT_EQ(indices, (std::vector<int64_t>{3, 4, 0, 2, 5, 1})) << got->ToString();
    }
  }
}

TEST(CompositeExpansionTest, TopKOfIntegersInThreeDimensions) {
  ExpectExpandsTo(R"(
HloModule m
ENTRY e {
  x = s32[2,3,9] parameter(0)
  ROOT t = (s32[2,3,4], s32[2,3,4]) topk(x), k=4, largest=true
})",
                  HloOpcode::kTopK, {});
}

TEST(CompositeExpansionTest, BatchNormTrainingInferenceAndGrad) {
  ExpectExpandsTo(R"(
HloModule m
ENTRY e {
  x = f32[4,3,5,2] parameter(0)
  scale = f32[3] parameter(1)
  offset = f32[3] parameter(2)
  ROOT t = (f32[4,3,5,2], f32[3], f32[3]) batch-norm-training(x, scale, offset), epsilon=0.001, feature_index=1
})",
                  HloOpcode::kBatchNormTraining, {1e-5, 1e-4});
  ExpectExpandsTo(R"(
HloModule m
ENTRY e {
  x = f32[6,4] parameter(0)
  scale = f32[4] parameter(1)
  offset = f32[4] parameter(2)
  mean = f32[4] parameter(3)
  v = f32[4] parameter(4)
  var = f32[4] abs(v)
  ROOT y = f32[6,4] batch-norm-inference(x, scale, offset, mean, var), epsilon=0.01, feature_index=1
})",
                  HloOpcode::kBatchNormInference, {1e-5, 1e-4});
  ExpectExpandsTo(R"(
HloModule m
ENTRY e {
  x = f32[5,2,3] parameter(0)
  scale = f32[5] parameter(1)
  mean = f32[5] parameter(2)
  v = f32[5] parameter(3)
  var = f32[5] abs(v)
  dy = f32[5,2,3] parameter(4)
  ROOT t = (f32[5,2,3], f32[5], f32[5]) batch-norm-grad(x, scale, mean, var, dy), epsilon=0.5, feature_index=0
})",
                  HloOpcode::kBatchNormGrad, {1e-5, 1e-4});
}

TEST(CompositeExpansionTest, HalfPrecisionBatchNormIsComputedInF32) {
  ExpectExpandsTo(R"(
HloModule m
ENTRY e {
  x = bf16[8,3] parameter(0)
  scale = bf16[3] parameter(1)
  offset = bf16[3] parameter(2)
  ROOT t = (bf16[8,3], bf16[3], bf16[3]) batch-norm-training(x, scale, offset), epsilon=0.001, feature_index=1
})",
                  HloOpcode::kBatchNormTraining, {1e-2, 2e-2});
}

// stochastic-convert over each operand type and result width, on values
// that reach every branch: fractions both ways, negatives, the bounds as
// the operand's type holds them, beyond them, infinities, NaN.
TEST(CompositeExpansionTest, StochasticConvertMatchesTheInterpreterBitForBit) {
  struct Case {
    const char* type;
    const char* random;
    const char* out;
  } cases[] = {{"f32", "u32", "s32"}, {"f32", "u32", "s8"},  {"f16", "u16", "s16"},
               {"bf16", "u16", "s8"}, {"f64", "u64", "s64"}, {"f64", "u64", "s32"}};
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> values = {0.0,   -0.0,   0.5,  -0.5,  2.25,    -2.25,    126.75,
                                127.5, -128.5, 1e3,  -1e3,  32767.5, -32768.7, 2147483520.0,
                                3e9,   -3e9,   1e19, -1e19, inf,     -inf,     std::nan("")};
  for (int i = 0; i < 43; ++i) values.push_back((i - 21) * 0.37);
  const int64_t n = static_cast<int64_t>(values.size());
  for (const Case& c : cases) {
    const std::string text = absl::StrCat(
        "HloModule sc\nENTRY e {\n  x = ", c.type, "[", n, "] parameter(0)\n  r = ", c.random, "[",
        n, "] parameter(1)\n  ROOT s = ", c.out, "[", n, "] stochastic-convert(x, r)\n}\n");
    std::vector<Literal> args;
    args.push_back(Literal::FromDoubles(*ParseShape(absl::StrCat(c.type, "[", n, "]")), values));
    std::unique_ptr<HloModule> m = Parse(text);
    ASSERT_NE(m, nullptr) << text;
    args.push_back(RandomArguments(*m, 9)[1]);
    ExpectExpandsTo(text, HloOpcode::kStochasticConvert, Tolerance{0, 0}, std::move(args));
  }
}

// ragged-dot, mixture-of-experts style: rows in runs of group_sizes (with
// an empty group, a negative size and rows past the last run), and a 3-D
// lhs whose ragged dimension is in the middle.
TEST(CompositeExpansionTest, RaggedDotIsOneDotPerGroupSelectedByRow) {
  const char* text = R"(HloModule moe
ENTRY e {
  x = f32[10,6] parameter(0)
  w = f32[4,6,3] parameter(1)
  s = s32[4] parameter(2)
  ROOT r = f32[10,3] ragged-dot(x, w, s), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}
})";
  std::unique_ptr<HloModule> m = Parse(text);
  ASSERT_NE(m, nullptr);
  std::vector<Literal> args = RandomArguments(*m, 4);
  args[2] = Literal::FromInt64s(Shape(S32, {4}), {3, 0, -2, 5});
  ExpectExpandsTo(text, HloOpcode::kRaggedDot, Tolerance{0, 0}, std::move(args));
  const char* middle = R"(HloModule moe3
ENTRY e {
  x = f32[2,7,5] parameter(0)
  w = f32[5,3,2] parameter(1)
  s = s64[2] parameter(2)
  ROOT r = f32[2,7,3] ragged-dot(x, w, s), lhs_contracting_dims={2}, rhs_contracting_dims={0}, lhs_ragged_dims={1}, rhs_group_dims={2}
})";
  m = Parse(middle);
  ASSERT_NE(m, nullptr);
  args = RandomArguments(*m, 5);
  args[2] = Literal::FromInt64s(Shape(S64, {2}), {4, 3});
  ExpectExpandsTo(middle, HloOpcode::kRaggedDot, Tolerance{0, 0}, std::move(args));
}

// mulhi at every integer width, on the values where the high half is
// decided: zero, one, -1, the extremes and their neighbours, and powers of
// two, every pair of them (64-bit values go through 32-bit halves).
TEST(CompositeExpansionTest, MulhiMatchesTheInterpreterAtEveryWidth) {
  for (const char* type : {"s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64"}) {
    const Shape scalar = *ParseShape(absl::StrCat(type, "[]"));
    const bool is_signed = type[0] == 's';
    const int bits = 8 * static_cast<int>(ByteWidth(scalar.element_type()));
    std::vector<int64_t> values = {0, 1, 2, 3, 7, 12345};
    // As the type's bit patterns: max, max - 1, min, min + 1, -1, -2 (for
    // unsigned types: the top values).
    const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const uint64_t top = mask >> (is_signed ? 1 : 0);
    for (uint64_t pattern : {top, top - 1, top + 1, top + 2, mask, mask - 1, mask / 3,
                             uint64_t{1} << (bits - 1), uint64_t{1} << (bits / 2)}) {
      values.push_back(static_cast<int64_t>(pattern & mask));
    }
    const int64_t n = static_cast<int64_t>(values.size());
    std::vector<int64_t> lhs, rhs;
    for (int64_t a : values) {
      for (int64_t b : values) {
        lhs.push_back(a);
        rhs.push_back(b);
      }
    }
    const Shape shape(scalar.element_type(), {n * n});
    std::vector<Literal> args;
    args.push_back(Literal(shape));
    args.push_back(Literal(shape));
    for (int64_t i = 0; i < n * n; ++i) {
      // Bit patterns: store the low `bits` bits whatever the signedness.
      const uint64_t a = static_cast<uint64_t>(lhs[i]);
      const uint64_t b = static_cast<uint64_t>(rhs[i]);
      std::memcpy(args[0].raw_data() + i * (bits / 8), &a, static_cast<size_t>(bits / 8));
      std::memcpy(args[1].raw_data() + i * (bits / 8), &b, static_cast<size_t>(bits / 8));
    }
    const std::string text = absl::StrCat(
        "HloModule mh\nENTRY e {\n  a = ", type, "[", n * n, "] parameter(0)\n  b = ", type, "[",
        n * n, "] parameter(1)\n  ROOT m = ", type, "[", n * n, "] mulhi(a, b)\n}\n");
    ExpectExpandsTo(text, HloOpcode::kMulhi, Tolerance{0, 0}, std::move(args));
  }
}

TEST(CompositeExpansionTest, MulhiOfASubByteIntegerIsRefusedByName) {
  std::unique_ptr<HloModule> m = Parse(R"(HloModule mh4
ENTRY e {
  a = s4[4] parameter(0)
  ROOT m = s4[4] mulhi(a, a)
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<bool> r = ExpandCompositeOpcodes(m.get());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), ::testing::HasSubstr("instruction 'm' (mulhi) on s4"));
}

// scaled-dot: f8 operands with e8m0 block scales (MX form, blocks along
// the contracting dimension), and bf16 operands with f32 scales blocked in
// both dimensions, a batch dimension and a bf16 result.
TEST(CompositeExpansionTest, ScaledDotDequantizesBlockByBlock) {
  ExpectExpandsTo(R"(HloModule mx
ENTRY e {
  a = f8e4m3fn[4,64] parameter(0)
  b = f8e5m2[64,3] parameter(1)
  sa = f8e8m0fnu[4,2] parameter(2)
  sb = f8e8m0fnu[2,3] parameter(3)
  ROOT r = f32[4,3] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
                  HloOpcode::kScaledDot, Tolerance{0, 0});
  ExpectExpandsTo(R"(HloModule blocked
ENTRY e {
  a = bf16[2,6,8] parameter(0)
  b = bf16[2,3,8] parameter(1)
  sa = f32[1,3,4] parameter(2)
  sb = f32[2,3,2] parameter(3)
  ROOT r = bf16[2,6,3] scaled-dot(a, b, sa, sb), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={2}
})",
                  HloOpcode::kScaledDot, Tolerance{0, 0});
}

// scan: a running sum with a second output (forward), a reversed scan with
// two inputs and two carries of different shapes, scanned along an inner
// dimension.
TEST(CompositeExpansionTest, ScanBecomesACountedLoop) {
  ExpectExpandsTo(R"(HloModule cumsum
running {
  x = f32[3] parameter(0)
  c = f32[3] parameter(1)
  s = f32[3] add(c, x)
  m = f32[3] multiply(s, x)
  ROOT t = (f32[3], f32[3], f32[3]) tuple(s, m, s)
}
ENTRY e {
  x = f32[5,3] parameter(0)
  z = f32[3] constant({0, 0, 0})
  ROOT r = (f32[5,3], f32[5,3], f32[3]) scan(x, z), dimensions={0}, num_carries=1, to_apply=running
})",
                  HloOpcode::kScan, Tolerance{0, 0});
  ExpectExpandsTo(R"(HloModule reversed
step {
  x = f32[2] parameter(0)
  k = s32[2] parameter(1)
  h = f32[2] parameter(2)
  n = s32[] parameter(3)
  kx = f32[2] convert(k)
  a = f32[2] multiply(h, x)
  h2 = f32[2] add(a, kx)
  one = s32[] constant(1)
  n2 = s32[] add(n, one)
  ROOT t = (f32[2], f32[2], s32[]) tuple(h2, h2, n2)
}
ENTRY e {
  x = f32[2,4] parameter(0)
  k = s32[2,4] parameter(1)
  h = f32[2] parameter(2)
  n = s32[] constant(0)
  ROOT r = (f32[2,4], f32[2], s32[]) scan(x, k, h, n), dimensions={1}, num_carries=2, is_reverse=true, is_associative=false, to_apply=step
})",
                  HloOpcode::kScan, Tolerance{0, 0});
}

// ragged-dot's other modes: a ragged contracting dimension (runs cut by
// k, an empty and a negative group), a ragged batch dimension, and a ragged
// free dimension with batch dimensions.
TEST(CompositeExpansionTest, RaggedDotContractingBatchAndBatchedModes) {
  const char* contracting = R"(HloModule rc
ENTRY e {
  x = f32[2,5,9] parameter(0)
  w = f32[2,9,3] parameter(1)
  s = s32[4] parameter(2)
  ROOT r = f32[4,2,5,3] ragged-dot(x, w, s), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}, lhs_ragged_dims={2}
})";
  std::unique_ptr<HloModule> m = Parse(contracting);
  ASSERT_NE(m, nullptr);
  std::vector<Literal> args = RandomArguments(*m, 6);
  args[2] = Literal::FromInt64s(Shape(S32, {4}), {4, 0, -1, 7});
  ExpectExpandsTo(contracting, HloOpcode::kRaggedDot, Tolerance{0, 0}, std::move(args));
  ExpectExpandsTo(R"(HloModule rb
ENTRY e {
  x = f32[3,4,5] parameter(0)
  w = f32[3,5,2] parameter(1)
  s = s64[2] parameter(2)
  ROOT r = f32[3,4,2] ragged-dot(x, w, s), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}, lhs_ragged_dims={0}
})",
                  HloOpcode::kRaggedDot, Tolerance{0, 0});
  const char* batched = R"(HloModule rn
ENTRY e {
  x = f32[2,7,5] parameter(0)
  w = f32[2,3,5,4] parameter(1)
  s = s32[3] parameter(2)
  ROOT r = f32[2,7,4] ragged-dot(x, w, s), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={2}, lhs_ragged_dims={1}, rhs_group_dims={1}
})";
  m = Parse(batched);
  ASSERT_NE(m, nullptr);
  args = RandomArguments(*m, 7);
  args[2] = Literal::FromInt64s(Shape(S32, {3}), {2, 4, 1});
  ExpectExpandsTo(batched, HloOpcode::kRaggedDot, Tolerance{0, 0}, std::move(args));
}

// Each shuffle of an operand holding 0, 1, 2, ... (its elements' own
// row-major positions), so the result lists the position each element came
// from: checked against hand-computed positions in the interpreter's
// reading, then the expansion against the interpreter.
struct ShuffleCase {
  const char* operand;
  const char* attributes;
  std::vector<int64_t> sources;
};

void ExpectShuffleTakes(const ShuffleCase& c) {
  absl::StatusOr<Shape> shape = ParseShape(c.operand);
  ASSERT_TRUE(shape.ok()) << shape.status();
  const std::string text =
      absl::StrCat("HloModule m\nENTRY e {\n  x = ", c.operand,
                   " parameter(0)\n  ROOT s = ", c.operand, " shuffle(x), ", c.attributes, "\n}");
  SCOPED_TRACE(text);
  std::vector<int64_t> positions(shape->ElementCount());
  for (size_t i = 0; i < positions.size(); ++i) positions[i] = static_cast<int64_t>(i);
  const Literal x = Literal::FromInt64s(*shape, positions);
  std::unique_ptr<HloModule> m = Parse(text);
  ASSERT_NE(m, nullptr);
  std::vector<Literal> args;
  args.push_back(x);
  absl::StatusOr<Literal> got = EvaluateModule(*m, args);
  ASSERT_TRUE(got.ok()) << got.status();
  std::vector<int64_t> sources;
  for (int64_t i = 0; i < got->element_count(); ++i) sources.push_back(got->GetAsInt64(i));
  EXPECT_EQ(sources, c.sources);
  ExpectExpandsTo(text, HloOpcode::kShuffle, {}, std::move(args));
}

TEST(CompositeExpansionTest, ShuffleRotatesEachDimensionByItsShift) {
  for (const ShuffleCase& c : std::vector<ShuffleCase>{
           // result[i] = x[(i - 2) mod 5].
           {"f32[5]", "dimensions={0}, mode=rotate, shifts={-2}", {3, 4, 0, 1, 2}},
           // Rows by 1, columns by 4 = 1 (mod 3).
           {"s32[2,3]", "dimensions={0,1}, mode=rotate, shifts={1,4}", {4, 5, 3, 1, 2, 0}},
           // A zero shift and a whole turn move nothing.
           {"f32[2,3]", "dimensions={1,0}, mode=rotate, shifts={0,2}", {0, 1, 2, 3, 4, 5}},
           // A layout other than the default.
           {"f32[2,3]{0,1}", "dimensions={1}, mode=rotate, shifts={1}", {1, 2, 0, 4, 5, 3}},
       }) {
    ExpectShuffleTakes(c);
  }
}

TEST(CompositeExpansionTest, ShufflePermutesByItsIndices) {
  for (const ShuffleCase& c : std::vector<ShuffleCase>{
           {"s32[4]", "dimensions={0}, mode=permute, indices=s8[4]{0} {3, 1, 0, 2}", {3, 1, 0, 2}},
           // Rows only, shared along the columns.
           {"f32[3,2]",
            "dimensions={0}, mode=permute, indices=s32[3,1]{1,0} { {2}, {0}, {1} }",
            {4, 5, 0, 1, 2, 3}},
           // Both dimensions, the coordinates listed column first.
           {"f32[2,3]",
            "dimensions={1,0}, mode=permute, indices=s32[2,3,2]{2,1,0} { { {2,1}, {0,0}, {1,1} }, "
            "{ "
            "{0,1}, {2,0}, {1,0} } }",
            {5, 0, 4, 3, 2, 1}},
           // Dimensions 0 and 2, shared along dimension 1.
           {"bf16[2,2,3]",
            "dimensions={0,2}, mode=permute, indices=u16[2,1,3,2]{3,2,1,0} { { { {1,2}, {0,0}, "
            "{1,1} } }, "
            "{ { {0,1}, {1,0}, {0,2} } } }",
            {8, 0, 7, 11, 3, 10, 1, 6, 2, 4, 9, 5}},
       }) {
    ExpectShuffleTakes(c);
  }
}

TEST(CompositeExpansionTest, ShuffleMultiRotatesEachSliceByItsOwnShift) {
  for (const ShuffleCase& c : std::vector<ShuffleCase>{
           // Column 0 down by 1, column 1 by -1 = 2 (mod 3).
           {"f32[3,2]",
            "dimensions={0}, mode=multi_rotate, multi_shifts=s32[1,2]{1,0} { {1, -1} }",
            {2, 5, 4, 1, 0, 3}},
           // Each row along the columns: 1, 0 and 7 = 1 (mod 2).
           {"s32[3,2]",
            "dimensions={1}, mode=multi_rotate, multi_shifts=s64[3,1]{1,0} { {1}, {0}, {7} }",
            {1, 0, 2, 3, 5, 4}},
           {"f32[4]",
            "dimensions={0}, mode=multi_rotate, multi_shifts=s32[1]{0} {-1}",
            {3, 0, 1, 2}},
           // Both dimensions, the same shifts for every element.
           {"f32[2,3]",
            "dimensions={0,1}, mode=multi_rotate, multi_shifts=s32[1,1,2]{2,1,0} { { {1, 2} } }",
            {5, 3, 4, 2, 0, 1}},
       }) {
    ExpectShuffleTakes(c);
  }
}

TEST(CompositeExpansionTest, ShuffleOfAZeroShiftOrAnEmptyOperandIsItsOperand) {
  for (const char* text : {R"(
HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  ROOT s = f32[4] shuffle(x), dimensions={0}, mode=rotate, shifts={8}
})",
                           R"(
HloModule m
ENTRY e {
  x = f32[0,3] parameter(0)
  ROOT s = f32[0,3] shuffle(x), dimensions={1}, mode=permute, indices=s32[0,3]{1,0} {}
})"}) {
    std::unique_ptr<HloModule> m = Parse(text);
    ASSERT_NE(m, nullptr);
    ASSERT_TRUE(ExpandCompositeOpcodes(m.get()).ok());
    EXPECT_EQ(m->entry_computation()->root_instruction()->opcode(), HloOpcode::kParameter)
        << m->ToString();
  }
}

}  // namespace
}  // namespace aot
