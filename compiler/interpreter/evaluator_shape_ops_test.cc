// Data movement: broadcast, reshape, bitcast, transpose, slices, concatenate,
// pad, reverse, iota, gather, scatter.

#include "compiler/interpreter/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace interpreter_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ShapeOpsTest, Broadcast) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[3] parameter(0)
  ROOT r = f32[2,3] broadcast(p), dimensions={1})"),
                             {L("f32[3]", {1, 2, 3})})),
              ElementsAre(1, 2, 3, 1, 2, 3));
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2] parameter(0)
  ROOT r = f32[2,3] broadcast(p), dimensions={0})"),
                             {L("f32[2]", {1, 2})})),
              ElementsAre(1, 1, 1, 2, 2, 2));
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  p = s32[] constant(7)
  ROOT r = s32[2,2] broadcast(p), dimensions={})"))),
              ElementsAre(7, 7, 7, 7));
  Literal empty = RunHlo(Module(R"(
  p = f32[] constant(7)
  ROOT r = f32[0,4] broadcast(p), dimensions={})"));
  EXPECT_EQ(ShapeOf(empty), "f32[0,4]");
}

TEST(ShapeOpsTest, ReshapeAndBitcastKeepRowMajorOrder) {
  Literal a = L("f32[2,3]", {1, 2, 3, 4, 5, 6});
  Literal r = RunHlo(Module(R"(
  p = f32[2,3] parameter(0)
  ROOT r = f32[3,2] reshape(p))"),
                     {a});
  EXPECT_EQ(ShapeOf(r), "f32[3,2]");
  EXPECT_THAT(Doubles(r), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2,3] parameter(0)
  ROOT r = f32[6]{0} bitcast(p))"),
                             {a})),
              ElementsAre(1, 2, 3, 4, 5, 6));
}

TEST(ShapeOpsTest, Transpose) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2,3] parameter(0)
  ROOT r = f32[3,2] transpose(p), dimensions={1,0})"),
                             {L("f32[2,3]", {1, 2, 3, 4, 5, 6})})),
              ElementsAre(1, 4, 2, 5, 3, 6));
  // result dim i = operand dim perm[i]: r[k][i][j] = p[i][j][k].
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  p = s32[2,2,3] parameter(0)
  ROOT r = s32[3,2,2] transpose(p), dimensions={2,0,1})"),
                          {LI("s32[2,2,3]", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})})),
              ElementsAre(0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11));
}

TEST(ShapeOpsTest, SliceWithStrides) {
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  i = s32[10] iota(), iota_dimension=0
  ROOT r = s32[3] slice(i), slice={[1:8:3]})"))),
              ElementsAre(1, 4, 7));
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  i = s32[12] iota(), iota_dimension=0
  p = s32[3,4] reshape(i)
  ROOT r = s32[2,2] slice(p), slice={[1:3], [0:4:2]})"))),
              ElementsAre(4, 6, 8, 10));
}

TEST(ShapeOpsTest, DynamicSliceClampsStartIndices) {
  const std::string hlo = Module(R"(
  i = s32[5] iota(), iota_dimension=0
  s = s32[] parameter(0)
  ROOT r = s32[3] dynamic-slice(i, s), dynamic_slice_sizes={3})");
  EXPECT_THAT(Ints(RunHlo(hlo, {LI("s32[]", {1})})), ElementsAre(1, 2, 3));
  EXPECT_THAT(Ints(RunHlo(hlo, {LI("s32[]", {3})})), ElementsAre(2, 3, 4));
  EXPECT_THAT(Ints(RunHlo(hlo, {LI("s32[]", {-1})})), ElementsAre(0, 1, 2));
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  i = s32[12] iota(), iota_dimension=0
  p = s32[3,4] reshape(i)
  a = u32[] constant(4000000000)
  b = s32[] constant(1)
  ROOT r = s32[2,2] dynamic-slice(p, a, b), dynamic_slice_sizes={2,2})"))),
              ElementsAre(5, 6, 9, 10));
}

TEST(ShapeOpsTest, DynamicUpdateSliceClampsStartIndices) {
  const std::string hlo = Module(R"(
  c0 = s32[] constant(0)
  z = s32[5] broadcast(c0), dimensions={}
  u = s32[2] constant({7, 8})
  s = s32[] parameter(0)
  ROOT r = s32[5] dynamic-update-slice(z, u, s))");
  EXPECT_THAT(Ints(RunHlo(hlo, {LI("s32[]", {1})})), ElementsAre(0, 7, 8, 0, 0));
  EXPECT_THAT(Ints(RunHlo(hlo, {LI("s32[]", {4})})), ElementsAre(0, 0, 0, 7, 8));
  EXPECT_THAT(Ints(RunHlo(hlo, {LI("s32[]", {-3})})), ElementsAre(7, 8, 0, 0, 0));
}

TEST(ShapeOpsTest, Concatenate) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f32[2,2] constant({{1, 2}, {3, 4}})
  b = f32[2,1] constant({{5}, {6}})
  e = f32[2,0] constant({{}, {}})
  ROOT r = f32[2,3] concatenate(a, e, b), dimensions={1})"))),
              ElementsAre(1, 2, 5, 3, 4, 6));
}

TEST(ShapeOpsTest, PadWithNegativeAndInteriorPadding) {
  // interior 1: [1,0,2,0,3]; low -1 drops the 1; high 2 appends two zeros.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f32[3] constant({1, 2, 3})
  z = f32[] constant(0)
  ROOT r = f32[6] pad(a, z), padding=-1_2_1)"))),
              ElementsAre(0, 2, 0, 3, 0, 0));
  // Both edges negative: crop.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f32[4] constant({1, 2, 3, 4})
  z = f32[] constant(9)
  ROOT r = f32[2] pad(a, z), padding=-1_-1)"))),
              ElementsAre(2, 3));
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  a = s32[2,2] constant({{1, 2}, {3, 4}})
  z = s32[] constant(0)
  ROOT r = s32[3,5] pad(a, z), padding=1_0x0_1_2)"))),
              ElementsAre(0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 3, 0, 0, 4, 0));
  // Padding an empty operand gives just the padding.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  a = f32[0] constant({})
  z = f32[] constant(5)
  ROOT r = f32[3] pad(a, z), padding=1_2_3)"))),
              ElementsAre(5, 5, 5));
}

TEST(ShapeOpsTest, Reverse) {
  const Literal a = L("f32[2,3]", {1, 2, 3, 4, 5, 6});
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2,3] parameter(0)
  ROOT r = f32[2,3] reverse(p), dimensions={1})"),
                             {a})),
              ElementsAre(3, 2, 1, 6, 5, 4));
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  p = f32[2,3] parameter(0)
  ROOT r = f32[2,3] reverse(p), dimensions={0,1})"),
                             {a})),
              ElementsAre(6, 5, 4, 3, 2, 1));
}

TEST(ShapeOpsTest, IotaOfAnyType) {
  EXPECT_THAT(Doubles(RunHlo(Module("  ROOT r = f32[2,3] iota(), iota_dimension=1"))),
              ElementsAre(0, 1, 2, 0, 1, 2));
  EXPECT_THAT(Ints(RunHlo(Module("  ROOT r = u8[2,3] iota(), iota_dimension=0"))),
              ElementsAre(0, 0, 0, 1, 1, 1));
  // bf16 has 8 significant bits: 257 rounds to 256.
  Literal big = RunHlo(Module("  ROOT r = bf16[258] iota(), iota_dimension=0"));
  EXPECT_EQ(big.GetAsDouble(257), 256);
}

constexpr char kGatherRows[] = R"(
  o = f32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  i = s32[2] parameter(0)
  ROOT g = f32[2,3] gather(o, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3})";

TEST(GatherTest, GathersRowsAndClampsOutOfRangeIndices) {
  EXPECT_THAT(Doubles(RunHlo(Module(kGatherRows), {LI("s32[2]", {0, 2})})),
              ElementsAre(1, 2, 3, 7, 8, 9));
  EXPECT_THAT(Doubles(RunHlo(Module(kGatherRows), {LI("s32[2]", {5, -3})})),
              ElementsAre(7, 8, 9, 1, 2, 3));
}

TEST(GatherTest, IndexVectorsAndWindows) {
  // Points: collapse both dims.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  o = f32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  i = s32[2,2] constant({{1, 1}, {2, 0}})
  ROOT g = f32[2] gather(o, i), offset_dims={}, collapsed_slice_dims={0,1}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={1,1})"))),
              ElementsAre(5, 7));
  // 2x2 windows; the second start (2,2) is clamped to (1,1).
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  o = f32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  i = s32[2,2] constant({{0, 1}, {2, 2}})
  ROOT g = f32[2,2,2] gather(o, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={2,2})"))),
              ElementsAre(2, 3, 5, 6, 5, 6, 8, 9));
  // index_vector_dim = 0: the vectors run along the first dimension.
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  o = f32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  i = s32[2,2] constant({{1, 2}, {1, 0}})
  ROOT g = f32[2] gather(o, i), offset_dims={}, collapsed_slice_dims={0,1}, start_index_map={0,1}, index_vector_dim=0, slice_sizes={1,1})"))),
              ElementsAre(5, 7));
}

TEST(GatherTest, BatchingDimensions) {
  // out[b] = o[b, i[b]].
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  o = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  i = s32[2,1] constant({{2}, {0}})
  ROOT g = s32[2] gather(o, i), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=1, slice_sizes={1,1})"))),
              ElementsAre(3, 4));
}

constexpr char kScatterAdd[] = R"(
  o = f32[5] parameter(0)
  i = s32[4] parameter(1)
  u = f32[4] parameter(2)
  ROOT s = f32[5] scatter(o, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f32)";

TEST(ScatterTest, AddsAndSkipsOutOfRangeIndices) {
  EXPECT_THAT(Doubles(RunHlo(Module(kScatterAdd, kAddF32),
                             {L("f32[5]", {0, 0, 0, 0, 0}), LI("s32[4]", {1, 3, 1, 7}),
                              L("f32[4]", {1, 2, 3, 4})})),
              ElementsAre(0, 4, 0, 2, 0));
  EXPECT_THAT(Doubles(RunHlo(Module(kScatterAdd, kAddF32),
                             {L("f32[5]", {1, 1, 1, 1, 1}), LI("s32[4]", {-1, 4, 5, 0}),
                              L("f32[4]", {1, 2, 3, 4})})),
              ElementsAre(5, 1, 1, 1, 3));
}

TEST(ScatterTest, SkipsAWindowThatDoesNotFit) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  o = f32[5] constant({0, 0, 0, 0, 0})
  i = s32[2,1] constant({{3}, {1}})
  u = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  ROOT s = f32[5] scatter(o, i, u), update_window_dims={1}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f32)",
                                    kAddF32))),
              ElementsAre(0, 4, 5, 6, 0));
}

TEST(ScatterTest, ReplaceCombinerAndGeneralCombiner) {
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  o = s32[3] constant({0, 0, 0})
  i = s32[3] constant({2, 0, 2})
  u = s32[3] constant({7, 8, 9})
  ROOT s = s32[3] scatter(o, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=assign)",
                                 R"(
assign {
  a = s32[] parameter(0)
  ROOT b = s32[] parameter(1)
})"))),
              ElementsAre(8, 0, 9));
  // (old + update) * 2, applied in order: 0 -> (0+1)*2 = 2 -> (2+3)*2 = 10.
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  o = s32[2] constant({0, 0})
  i = s32[2] constant({1, 1})
  u = s32[2] constant({1, 3})
  ROOT s = s32[2] scatter(o, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=twice)",
                                 R"(
twice {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  s = s32[] add(a, b)
  two = s32[] constant(2)
  ROOT m = s32[] multiply(s, two)
})"))),
              ElementsAre(0, 10));
}

TEST(ScatterTest, VariadicScatter) {
  Literal r = RunHlo(Module(R"(
  a = s32[3] constant({0, 0, 0})
  b = f32[3] constant({1, 1, 1})
  i = s32[2] constant({0, 2})
  ua = s32[2] constant({5, 6})
  ub = f32[2] constant({2, 3})
  ROOT s = (s32[3], f32[3]) scatter(a, b, i, ua, ub), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=both)",
                            R"(
both {
  a0 = s32[] parameter(0)
  b0 = f32[] parameter(1)
  a1 = s32[] parameter(2)
  b1 = f32[] parameter(3)
  sa = s32[] add(a0, a1)
  mb = f32[] multiply(b0, b1)
  ROOT t = (s32[], f32[]) tuple(sa, mb)
})"));
  ASSERT_TRUE(r.shape().IsTuple());
  EXPECT_THAT(Ints(r.tuple_element(0)), ElementsAre(5, 0, 6));
  EXPECT_THAT(Doubles(r.tuple_element(1)), ElementsAre(2, 1, 3));
}

TEST(ScatterTest, BatchingDimensions) {
  // out[b, i[b]] += u[b].
  EXPECT_THAT(Ints(RunHlo(Module(R"(
  o = s32[2,3] constant({{0, 0, 0}, {0, 0, 0}})
  i = s32[2,1] constant({{2}, {0}})
  u = s32[2] constant({7, 9})
  ROOT s = s32[2,3] scatter(o, i, u), update_window_dims={}, inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, index_vector_dim=1, to_apply=add_s32)",
                                 kAddS32))),
              ElementsAre(0, 0, 7, 9, 0, 0));
}

TEST(ScatterTest, InvalidDimensionNumbersAreAnError) {
  auto r =
      TryRun(Module(R"(
  o = f32[5] parameter(0)
  i = s32[4] parameter(1)
  u = f32[4] parameter(2)
  ROOT s = f32[5] scatter(o, i, u), update_window_dims={}, inserted_window_dims={3}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f32)",
                    kAddF32),
             {L("f32[5]", {0, 0, 0, 0, 0}), LI("s32[4]", {0, 0, 0, 0}), L("f32[4]", {1, 2, 3, 4})});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("instruction 's' (scatter)"));
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
