// Bounded dynamic dimensions: the interpreter's reading (on the module as
// written) and LowerDynamicDimensions' static module must both give the
// hand-computed values.

#include "compiler/passes/dynamic_padder.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "compiler/passes/test_util.h"

namespace aot {
namespace {

using testing_util::ExpectWellFormed;
using testing_util::Parse;

Literal Floats(std::vector<int64_t> dims, std::vector<double> values) {
  return Literal::FromDoubles(Shape(F32, std::move(dims)), values);
}
Literal S32Scalar(int64_t v) { return Literal::FromInt64s(Shape::Scalar(S32), {v}); }

int Count(const HloModule& m, HloOpcode opcode) {
  int n = 0;
  for (const HloComputation* c : m.computations()) {
    for (const HloInstruction* h : c->instructions()) n += h->opcode() == opcode;
  }
  return n;
}

// A module header and the scalar add the reductions below call.
const std::string kModuleWithAdd = R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

// The module's value as the interpreter reads it and after the lowering
// (which must leave no dynamic opcode), checked equal to `want`.
void ExpectValue(const std::string& text, const std::vector<Literal>& args,
                 const std::vector<double>& want) {
  std::unique_ptr<HloModule> original = Parse(text);
  ASSERT_NE(original, nullptr);
  HloEvaluator evaluator;
  absl::StatusOr<Literal> interpreted = evaluator.Evaluate(*original, args);
  ASSERT_TRUE(interpreted.ok()) << interpreted.status();
  std::unique_ptr<HloModule> lowered = Parse(text);
  absl::StatusOr<bool> changed = LowerDynamicDimensions(lowered.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  ExpectWellFormed(*lowered);
  EXPECT_EQ(Count(*lowered, HloOpcode::kSetDimensionSize), 0);
  EXPECT_EQ(Count(*lowered, HloOpcode::kDynamicReshape), 0);
  EXPECT_EQ(Count(*lowered, HloOpcode::kGetDimensionSize), 0);
  absl::StatusOr<Literal> compiled = evaluator.Evaluate(*lowered, args);
  ASSERT_TRUE(compiled.ok()) << compiled.status() << "\n" << lowered->ToString();
  // The values of every leaf, in order.
  auto values = [](const Literal& l) {
    std::vector<double> v;
    for (const Literal& leaf : l.FlattenLeaves()) {
      for (int64_t i = 0; i < leaf.element_count(); ++i) v.push_back(leaf.GetAsDouble(i));
    }
    return v;
  };
  EXPECT_EQ(values(*interpreted), want) << "interpreter";
  EXPECT_EQ(values(*compiled), want) << "lowered";
}

// Both readings refuse the module, naming `what`.
void ExpectRefused(const std::string& text, const std::vector<Literal>& args,
                   const std::string& what) {
  std::unique_ptr<HloModule> m = Parse(text);
  ASSERT_NE(m, nullptr);
  HloEvaluator evaluator;
  absl::StatusOr<Literal> interpreted = evaluator.Evaluate(*m, args);
  ASSERT_FALSE(interpreted.ok());
  EXPECT_EQ(interpreted.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(interpreted.status().message().find(what), std::string::npos) << interpreted.status();
  absl::StatusOr<bool> lowered = LowerDynamicDimensions(m.get());
  ASSERT_FALSE(lowered.ok());
  EXPECT_EQ(lowered.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(lowered.status().message().find(what), std::string::npos) << lowered.status();
}

const std::string kRowSum = kModuleWithAdd + R"(
ENTRY e {
  p = f32[4,3] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=4,3] set-dimension-size(p, n), dimensions={0}
  z = f32[] constant(0)
  ROOT r = f32[3] reduce(d, z), dimensions={0}, to_apply=add
})";

TEST(DynamicDimensionsTest, AReduceFoldsOnlyTheValidRows) {
  const Literal p = Floats({4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  ExpectValue(kRowSum, {p, S32Scalar(2)}, {5, 7, 9});
  ExpectValue(kRowSum, {p, S32Scalar(0)}, {0, 0, 0});
  // Sizes are clamped to [0, bound].
  ExpectValue(kRowSum, {p, S32Scalar(9)}, {22, 26, 30});
  ExpectValue(kRowSum, {p, S32Scalar(-3)}, {0, 0, 0});
}

TEST(DynamicDimensionsTest, SizesFlowThroughElementwiseBroadcastTransposeAndReshape) {
  // mean over the valid columns of x^T, computed after a transpose, a
  // reshape that adds a unit dimension and a broadcast.
  const std::string text = kModuleWithAdd + R"(
ENTRY e {
  p = f32[2,4] parameter(0)
  n = s32[] parameter(1)
  d = f32[2,<=4] set-dimension-size(p, n), dimensions={1}
  t = f32[<=4,2] transpose(d), dimensions={1,0}
  u = f32[1,<=4,2] reshape(t)
  two = f32[] constant(2)
  b2 = f32[1,<=4,2] broadcast(two), dimensions={}
  m = f32[1,<=4,2] multiply(u, b2)
  z = f32[] constant(0)
  s = f32[1,2] reduce(m, z), dimensions={1}, to_apply=add
  k = s32[] get-dimension-size(u), dimensions={1}
  kf = f32[] convert(k)
  kb = f32[1,2] broadcast(kf), dimensions={}
  ROOT mean = f32[1,2] divide(s, kb)
})";
  const Literal p = Floats({2, 4}, {1, 2, 3, 100, 5, 6, 7, 100});
  // 2 * (1 + 2 + 3) / 3 and 2 * (5 + 6 + 7) / 3.
  ExpectValue(text, {p, S32Scalar(3)}, {4, 12});
}

TEST(DynamicDimensionsTest, ReshapeMergingTheMajorDynamicDimensionKeepsAPrefix) {
  const std::string text = kModuleWithAdd + R"(
ENTRY e {
  p = f32[3,2] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=3,2] set-dimension-size(p, n), dimensions={0}
  f = f32[<=6] reshape(d)
  z = f32[] constant(0)
  s = f32[] reduce(f, z), dimensions={0}, to_apply=add
  k = s32[] get-dimension-size(f), dimensions={0}
  kf = f32[] convert(k)
  ROOT r = (f32[], f32[]) tuple(s, kf)
})";
  // The sum of the first 2 rows, and their 4 elements.
  ExpectValue(text, {Floats({3, 2}, {1, 2, 3, 4, 50, 60}), S32Scalar(2)}, {10, 4});
}

TEST(DynamicDimensionsTest, SizesSetOneAfterAnotherAllHold) {
  // Rows sized first, then columns, then the rows again: the sum covers
  // the last sizes of both.
  const std::string text = kModuleWithAdd + R"(
ENTRY e {
  p = f32[3,4] parameter(0)
  n = s32[] parameter(1)
  m = s32[] parameter(2)
  rows = f32[<=3,4] set-dimension-size(p, n), dimensions={0}
  both = f32[<=3,<=4] set-dimension-size(rows, m), dimensions={1}
  one = s32[] constant(1)
  again = f32[<=3,<=4] set-dimension-size(both, one), dimensions={0}
  z = f32[] constant(0)
  s = f32[] reduce(again, z), dimensions={0,1}, to_apply=add
  t = f32[] reduce(both, z), dimensions={0,1}, to_apply=add
  ROOT r = (f32[], f32[]) tuple(s, t)
})";
  const Literal p = Floats({3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  // again: row 0, columns 0-2 = 6; both: rows 0-1, columns 0-2 = 6 + 18.
  ExpectValue(text, {p, S32Scalar(2), S32Scalar(3)}, {6, 24});
}

TEST(DynamicDimensionsTest, ADotContractsOnlyTheValidElementsEvenNextToInfinities) {
  const std::string text = R"(
HloModule m
ENTRY e {
  a = f32[2,4] parameter(0)
  b = f32[4,2] parameter(1)
  n = s32[] parameter(2)
  d = f32[2,<=4] set-dimension-size(a, n), dimensions={1}
  ROOT r = f32[2,2] dot(d, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  const Literal a = Floats({2, 4}, {1, 2, 3, NAN, 4, 5, 6, NAN});
  const double inf = INFINITY;
  const Literal b = Floats({4, 2}, {1, 0, 0, 1, 1, 1, inf, inf});
  // rows of a (first 3) times b's first 3 rows: [1+3, 2+3], [4+6, 5+6].
  ExpectValue(text, {a, b, S32Scalar(3)}, {4, 5, 10, 11});
}

TEST(DynamicDimensionsTest, DynamicReshapeCompactsTheValidElementsInRowMajorOrder) {
  // The valid 3x2 block of a 3x4 value (columns 0 and 1), flattened: its
  // elements weighted by their position 1..6 show the order.
  const std::string text = kModuleWithAdd + R"(
ENTRY e {
  p = f32[3,4] parameter(0)
  n = s32[] parameter(1)
  d = f32[3,<=4] set-dimension-size(p, n), dimensions={1}
  r0 = s32[] get-dimension-size(d), dimensions={0}
  r1 = s32[] get-dimension-size(d), dimensions={1}
  count = s32[] multiply(r0, r1)
  f = f32[<=12] dynamic-reshape(d, count)
  i = f32[12] iota(), iota_dimension=0
  one = f32[] constant(1)
  ones = f32[12] broadcast(one), dimensions={}
  w = f32[12] add(i, ones)
  fw = f32[<=12] multiply(f, w)
  z = f32[] constant(0)
  ROOT s = f32[] reduce(fw, z), dimensions={0}, to_apply=add
})";
  const Literal p = Floats({3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  // 1*1 + 2*2 + 5*3 + 6*4 + 9*5 + 10*6
  ExpectValue(text, {p, S32Scalar(2)}, {149});
  ExpectValue(text, {p, S32Scalar(4)}, {650});  // sum of k*k for k = 1..12
}

TEST(DynamicDimensionsTest, DynamicReshapeIntoTwoDimensionsFillsRowsAndZeroesTheRest) {
  // Four valid elements of a vector of bound 6 laid out as 2 rows of 3 with
  // the first row full: the second row gets one element, then zeros; the
  // row sums show it.
  const std::string text = kModuleWithAdd + R"(
ENTRY e {
  p = f32[6] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=6] set-dimension-size(p, n), dimensions={0}
  rows = s32[] constant(2)
  cols = s32[] constant(3)
  g = f32[<=2,3] dynamic-reshape(d, rows, cols)
  z = f32[] constant(0)
  ROOT s = f32[2] reduce(g, z), dimensions={1}, to_apply=add
})";
  const Literal p = Floats({6}, {1, 2, 3, 4, 50, 60});
  ExpectValue(text, {p, S32Scalar(4)}, {6, 4});
}

TEST(DynamicDimensionsTest, AVariadicReduceMasksEveryInputAlongTheDynamicDimension) {
  // argmax over the valid prefix: the padding holds the largest value.
  const std::string text = R"(
HloModule m
argmax {
  av = f32[] parameter(0)
  ai = s32[] parameter(1)
  bv = f32[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(av, bv), direction=GE
  v = f32[] select(gt, av, bv)
  i = s32[] select(gt, ai, bi)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  p = f32[5] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=5] set-dimension-size(p, n), dimensions={0}
  i = s32[5] iota(), iota_dimension=0
  lo = f32[] constant(-inf)
  none = s32[] constant(-1)
  ROOT r = (f32[], s32[]) reduce(d, i, lo, none), dimensions={0}, to_apply=argmax
})";
  ExpectValue(text, {Floats({5}, {3, 7, 5, 100, 200}), S32Scalar(3)}, {7, 1});
}

TEST(DynamicDimensionsTest, OpsAlongOtherDimensionsKeepTheSize) {
  // A [3,<=4] value (dimension 1 dynamic) goes through ops that work on
  // whole rows: the slice takes rows 0-1, the pad adds a zero row, the
  // reverse flips the rows, the concatenation adds a row of ones, the sort
  // orders each column, the dynamic-slice and dynamic-update-slice move
  // whole rows; the row sums over the valid columns show the size
  // survived.
  const std::string text = kModuleWithAdd + R"(
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT l = pred[] compare(a, b), direction=LT
}
ENTRY e {
  p = f32[3,4] parameter(0)
  n = s32[] parameter(1)
  d = f32[3,<=4] set-dimension-size(p, n), dimensions={1}
  s = f32[2,<=4] slice(d), slice={[0:2], [0:4]}
  z = f32[] constant(0)
  padded = f32[3,<=4] pad(s, z), padding=0_1x0_0
  flipped = f32[3,<=4] reverse(padded), dimensions={0}
  one = f32[] constant(1)
  ones = f32[1,4] broadcast(one), dimensions={}
  joined = f32[4,<=4] concatenate(flipped, ones), dimensions={0}
  sorted = f32[4,<=4] sort(joined), dimensions={0}, to_apply=less
  i0 = s32[] constant(1)
  i1 = s32[] constant(0)
  rows = f32[2,<=4] dynamic-slice(sorted, i0, i1), dynamic_slice_sizes={2,4}
  tens = f32[1,4] broadcast(z), dimensions={}
  updated = f32[2,<=4] dynamic-update-slice(rows, tens, i1, i1)
  ROOT r = f32[2] reduce(updated, z), dimensions={1}, to_apply=add
})";
  // d's valid columns 0-1: rows [1,2], [5,6], [9,10]. s: rows 0-1. padded:
  // + a zero row. flipped: [0,0], [5,6], [1,2]. joined: + [1,1]. sorted
  // by column: [0,0], [1,1], [1,2], [5,6]. rows 1-2: [1,1], [1,2]; the
  // update zeroes row 0: sums 0 and 3.
  const Literal p = Floats({3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  ExpectValue(text, {p, S32Scalar(2)}, {0, 3});
}

TEST(DynamicDimensionsTest, OpsAlongTheDynamicDimensionAreRefusedSayingWhy) {
  ExpectRefused(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=4] set-dimension-size(p, n), dimensions={0}
  ROOT r = f32[4] reverse(d), dimensions={0}
})",
                {Floats({4}, {1, 2, 3, 4}), S32Scalar(2)},
                "the reverse moves its padding to the front");
  ExpectRefused(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=4] set-dimension-size(p, n), dimensions={0}
  ROOT r = f32[8] concatenate(d, p), dimensions={0}
})",
                {Floats({4}, {1, 2, 3, 4}), S32Scalar(2)},
                "the concatenation joins the operands along it");
}

TEST(DynamicDimensionsTest, AnOpOutsideTheRuleSetIsRefusedByName) {
  ExpectRefused(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=4] set-dimension-size(p, n), dimensions={0}
  ROOT r = (f32[<=4]) tuple(d)
})",
                {Floats({4}, {1, 2, 3, 4}), S32Scalar(2)},
                "instruction 'r' (tuple): operand 0 ('d') has dynamic dimension 0");
}

TEST(DynamicDimensionsTest, ADynamicResultIsRefused) {
  ExpectRefused(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=4] set-dimension-size(p, n), dimensions={0}
  ROOT r = f32[<=4] negate(d)
})",
                {Floats({4}, {1, 2, 3, 4}), S32Scalar(2)},
                "instruction 'r' (negate), the root of computation 'e'");
}

TEST(DynamicDimensionsTest, AReshapeSplittingADynamicDimensionIsRefused) {
  ExpectRefused(kModuleWithAdd + R"(
ENTRY e {
  p = f32[6] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=6] set-dimension-size(p, n), dimensions={0}
  g = f32[2,3] reshape(d)
  z = f32[] constant(0)
  ROOT s = f32[] reduce(g, z), dimensions={0,1}, to_apply=add
})",
                {Floats({6}, {1, 2, 3, 4, 5, 6}), S32Scalar(2)},
                "splits it across result dimensions");
}

TEST(DynamicDimensionsTest, AStaticModuleIsLeftAlone) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule m
ENTRY e {
  p = f32[<=4] parameter(0)
  ROOT n = s32[] get-dimension-size(p), dimensions={0}
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<bool> changed = LowerDynamicDimensions(m.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
}

}  // namespace
}  // namespace aot
