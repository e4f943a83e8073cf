// Sharding propagation per op family, with the expected shardings worked
// out by hand in the comments (device d holds the tile the tile assignment
// puts it at).
#include "compiler/passes/sharding_propagation.h"

#include <map>
#include <optional>
#include <string>

#include "compiler/hlo/hlo_parser.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gtest/gtest.h"
#include "support/testing/status_testing.h"

namespace aot {
namespace {

// Runs the pass; returns each instruction's sharding text by name ("" when
// none).
std::map<std::string, std::string> Propagate(const std::string& text) {
  std::unique_ptr<HloModule> module = testing::ValueOrFailure(ParseHloModule(text), text);
  if (module == nullptr) return {};  // failed already
  ShardingPropagation pass;
  auto changed = pass.Run(module.get());
  EXPECT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(VerifyHloModule(*module).ok()) << VerifyHloModule(*module);
  std::map<std::string, std::string> out;
  for (const HloComputation* c : module->computations()) {
    for (const HloInstruction* h : c->instructions()) out[h->name()] = h->attrs().sharding;
  }
  return out;
}

TEST(ShardingPropagationTest, ElementwiseForwardAndBackward) {
  auto s = Propagate(R"(
HloModule m, num_partitions=4
ENTRY main {
  a = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
  b = f32[8,4] parameter(1)
  c = f32[8,4] add(a, b)
  ROOT n = f32[8,4] negate(c)
})");
  EXPECT_EQ(s["c"], "{devices=[4,1]<=[4]}");
  EXPECT_EQ(s["n"], "{devices=[4,1]<=[4]}");
  EXPECT_EQ(s["b"], "{devices=[4,1]<=[4]}");  // backward from c
}

TEST(ShardingPropagationTest, TheOperandThatSplitsMostWinsThenTheFirst) {
  auto s = Propagate(R"(
HloModule m, num_partitions=4
ENTRY main {
  a = f32[8,4] parameter(0), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}
  b = f32[8,4] parameter(1), sharding={devices=[1,4]<=[4]}
  c = f32[8,4] parameter(2), sharding={devices=[4,1]<=[4]}
  ROOT m = f32[8,4] maximum(a, b)
  d = f32[8,4] subtract(b, c)
})");
  EXPECT_EQ(s["m"], "{devices=[1,4]<=[4]}");  // b: 4 tiles against a's 2
  EXPECT_EQ(s["d"], "{devices=[1,4]<=[4]}");  // b and c tie at 4: the first
  EXPECT_EQ(s["a"], "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");  // written, kept
}

TEST(ShardingPropagationTest, BroadcastAddsOneTileAndBackwardReplicatesWhatTheOperandLacks) {
  auto s = Propagate(R"(
HloModule m, num_partitions=4
ENTRY main {
  x = f32[8] parameter(0), sharding={devices=[4]<=[4]}
  bx = f32[8,16] broadcast(x), dimensions={0}
  y = f32[16] parameter(1)
  by = f32[8,16] broadcast(y), dimensions={1}, sharding={devices=[2,2]<=[4]}
  ROOT t = (f32[8,16], f32[8,16]) tuple(bx, by)
})");
  EXPECT_EQ(s["bx"], "{devices=[4,1]<=[4]}");
  // by's tile (i, j) is on device 2i + j; y is split like by's dimension 1:
  // tile j on devices {j, 2 + j}.
  EXPECT_EQ(s["y"], "{devices=[2,2]0,2,1,3 last_tile_dim_replicate}");
  EXPECT_EQ(s["t"], "{{devices=[4,1]<=[4]}, {devices=[2,2]<=[4]}}");
}

TEST(ShardingPropagationTest, TransposeAndReshapePermuteAndKeepTheirDimensions) {
  auto s = Propagate(R"(
HloModule m, num_partitions=4
ENTRY main {
  a = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
  t = f32[4,8] transpose(a), dimensions={1,0}
  b = f32[8,4,4] parameter(1), sharding={devices=[4,1,1]<=[4]}
  r = f32[8,16] reshape(b)
  c = f32[8,4] parameter(2), sharding={devices=[1,4]<=[4]}
  merged = f32[32] reshape(c)
  ROOT out = (f32[4,8], f32[8,16], f32[32]) tuple(t, r, merged)
})");
  EXPECT_EQ(s["t"], "{devices=[1,4]<=[4]}");
  EXPECT_EQ(s["r"], "{devices=[4,1]<=[4]}");
  // c's split dimension is merged into another: nothing propagates through
  // the reshape; the root tuple's second round takes the element as
  // replicated, which is what it becomes.
  EXPECT_EQ(s["merged"], "{replicated}");
}

TEST(ShardingPropagationTest, ReduceDropsReducedDimensionsIntoReplication) {
  auto s = Propagate(R"(
HloModule m, num_partitions=4
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY main {
  a = f32[8,16] parameter(0), sharding={devices=[2,2]<=[4]}
  z = f32[] constant(0)
  ROOT r = f32[8] reduce(a, z), dimensions={1}, to_apply=add
})");
  // Row tile i on devices 2i and 2i + 1, each with a partial sum.
  EXPECT_EQ(s["r"], "{devices=[2,2]<=[4] last_tile_dim_replicate}");
}

TEST(ShardingPropagationTest, DotMapsBatchAndFreeDimensionsAndReplicatesContracting) {
  auto s = Propagate(R"(
HloModule m, num_partitions=4
ENTRY main {
  lhs = f32[8,16] parameter(0), sharding={devices=[2,2]<=[4]}
  rhs = f32[16,32] parameter(1)
  d = f32[8,32] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bl = f32[4,8,16] parameter(2), sharding={devices=[4,1,1]<=[4]}
  br = f32[4,16,32] parameter(3)
  bd = f32[4,8,32] dot(bl, br), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  ROOT t = (f32[8,32], f32[4,8,32]) tuple(d, bd)
})");
  // lhs rows split in 2 (devices {0,1} and {2,3}), contraction split in 2.
  EXPECT_EQ(s["d"], "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  // rhs takes the result's tiles of its own dimensions: none are split.
  EXPECT_EQ(s["rhs"], "{replicated}");
  EXPECT_EQ(s["bd"], "{devices=[4,1,1]<=[4]}");
  EXPECT_EQ(s["br"], "{devices=[4,1,1]<=[4]}");  // batch from the result
}

// A dot of rows split over one mesh axis by columns split over the other
// (each replicated over the other axis) is split both ways: device d keeps
// its row tile d / 2 and its column tile d % 2.
TEST(ShardingPropagationTest, DotOperandsSplitOverTwoMeshAxesMerge) {
  auto s = Propagate(R"(
HloModule m, num_partitions=8
ENTRY main {
  x = f32[16,32] parameter(0), sharding={devices=[4,1,2]<=[8] last_tile_dim_replicate}
  w = f32[32,64] parameter(1), sharding={devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}
  ROOT h = f32[16,64] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_EQ(s["h"], "{devices=[4,2]<=[8]}");
}

TEST(ShardingPropagationTest, MergeShardingsCombinesAxesOrRefuses) {
  auto parse = [](const char* text) { return *HloSharding::Parse(text); };
  // Rows over 2 (replicated over 2) with columns over 2 (replicated over
  // 2), devices 0..3: rows from d / 2, columns from d % 2.
  std::optional<HloSharding> both =
      MergeShardings(parse("{devices=[2,1,2]<=[4] last_tile_dim_replicate}"),
                     parse("{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"));
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ(both->ToString(), "{devices=[2,2]<=[4]}");
  // One split left for a third axis: [2,1] x [1,2] over 8 devices keeps 2
  // copies of each tile.
  std::optional<HloSharding> partial =
      MergeShardings(parse("{devices=[2,1,4]<=[8] last_tile_dim_replicate}"),
                     parse("{devices=[1,2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"));
  ASSERT_TRUE(partial.has_value());
  EXPECT_EQ(partial->ReplicationFactor(), 2);
  EXPECT_EQ(partial->DataTileCount(), 4);
  // Different tile counts along one dimension, or devices that disagree on
  // a shared split: nothing.
  EXPECT_FALSE(MergeShardings(parse("{devices=[2,1]<=[2]}"), parse("{devices=[4,1]<=[4]}")));
  EXPECT_FALSE(MergeShardings(parse("{devices=[4,1]<=[4]}"), parse("{devices=[4,1]3,2,1,0}")));
}

TEST(ShardingPropagationTest, ConvolutionKeepsBatchAndSpatialDimensions) {
  auto s = Propagate(R"(
HloModule m, num_partitions=2
ENTRY main {
  x = f32[8,16,16,4] parameter(0), sharding={devices=[1,2,1,1]<=[2]}
  k = f32[3,3,4,8] parameter(1)
  ROOT y = f32[8,16,16,8] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})");
  EXPECT_EQ(s["y"], "{devices=[1,2,1,1]<=[2]}");  // split along spatial 0
}

// Gather: the table's columns (taken whole by every slice) go to the
// offset dimension, the indices' rows to the result's rows; the table's
// gathered rows (collapsed) do not pass through.
TEST(ShardingPropagationTest, GatherPassesItsPassthroughDimensions) {
  auto s = Propagate(R"(
HloModule m, num_partitions=4
ENTRY main {
  table = f32[32,8] parameter(0), sharding={devices=[1,4]<=[4]}
  ids = s32[6,1] parameter(1), sharding={replicated}
  g = f32[6,8] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}
  rows = s32[8,1] parameter(2), sharding={devices=[4,1]<=[4]}
  full = f32[32,8] parameter(3), sharding={replicated}
  r = f32[8,8] gather(full, rows), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}
  split = f32[32,8] parameter(4), sharding={devices=[4,1]<=[4]}
  c = f32[6,8] gather(split, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}
  ROOT t = (f32[6,8], f32[8,8], f32[6,8]) tuple(g, r, c)
})");
  EXPECT_EQ(s["g"], "{devices=[1,4]<=[4]}");  // table dim 1 -> offset dim 1
  EXPECT_EQ(s["r"], "{devices=[4,1]<=[4]}");  // index rows -> result dim 0
  EXPECT_EQ(s["c"], "{replicated}");          // gathered rows: replicated ids win
}

// Scatter: the operand's sharding is the result's; updates whose window
// spans the operand's columns take them going back.
TEST(ShardingPropagationTest, ScatterKeepsTheOperandShardingAndSplitsUpdateWindows) {
  auto s = Propagate(R"(
HloModule m, num_partitions=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[32,8] parameter(0), sharding={devices=[1,4]<=[4]}
  ids = s32[6,1] parameter(1), sharding={replicated}
  u = f32[6,8] parameter(2)
  ROOT y = f32[32,8] scatter(x, ids, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})");
  EXPECT_EQ(s["y"], "{devices=[1,4]<=[4]}");
  EXPECT_EQ(s["u"], "{devices=[1,4]<=[4]}");  // backward: window dim 1 <- y dim 1
}

// Each branch's parameter takes its operand's sharding, the result the
// first branch root's (two branches on one operand: the second's parameter
// was once set from a reference into the map being inserted into).
TEST(ShardingPropagationTest, ConditionalBranchesTakeTheirOperandsShardings) {
  auto s = Propagate(R"(
HloModule m, num_partitions=4
twice {
  p = f32[16,8] parameter(0)
  ROOT d = f32[16,8] add(p, p)
}
negate {
  q = f32[16,8] parameter(0)
  ROOT n = f32[16,8] negate(q)
}
ENTRY main {
  x = f32[16,8] parameter(0), sharding={devices=[4,1]<=[4]}
  k = s32[] parameter(1), sharding={replicated}
  ROOT r = f32[16,8] conditional(k, x, x), branch_computations={twice, negate}
})");
  EXPECT_EQ(s["p"], "{devices=[4,1]<=[4]}");
  EXPECT_EQ(s["q"], "{devices=[4,1]<=[4]}");
  EXPECT_EQ(s["n"], "{devices=[4,1]<=[4]}");
  EXPECT_EQ(s["r"], "{devices=[4,1]<=[4]}");
}

TEST(ShardingPropagationTest, WhileBodiesTakeTheLoopStateSharding) {
  auto s = Propagate(R"(
HloModule m, num_partitions=2
cond {
  p = (f32[8], s32[]) parameter(0)
  i = s32[] get-tuple-element(p), index=1
  n = s32[] constant(4)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (f32[8], s32[]) parameter(0)
  x = f32[8] get-tuple-element(p), index=0
  i = s32[] get-tuple-element(p), index=1
  y = f32[8] multiply(x, x)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (f32[8], s32[]) tuple(y, j)
}
ENTRY main {
  x = f32[8] parameter(0), sharding={devices=[2]<=[2]}
  i = s32[] parameter(1), sharding={replicated}
  init = (f32[8], s32[]) tuple(x, i)
  ROOT w = (f32[8], s32[]) while(init), condition=cond, body=body
})");
  EXPECT_EQ(s["init"], "{{devices=[2]<=[2]}, {replicated}}");
  EXPECT_EQ(s["w"], "{{devices=[2]<=[2]}, {replicated}}");
  // Inside the body: the parameter, its element, and what is computed.
  EXPECT_EQ(s["y"], "{devices=[2]<=[2]}");
}

TEST(ShardingPropagationTest, MapShardingReordersTheDevices) {
  // A 2x2 assignment [[0,1],[2,3]] transposed: [[0,2],[1,3]].
  auto s = HloSharding::Parse("{devices=[2,2]<=[4]}");
  ASSERT_TRUE(s.ok());
  std::optional<HloSharding> t = MapSharding(*s, 2, {1, 0});
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->ToString(), "{devices=[2,2]0,2,1,3}");
  // A manual subgroup cannot be remapped.
  auto manual = HloSharding::Parse("{devices=[2,2]<=[4] last_tile_dims={manual}}");
  ASSERT_TRUE(manual.ok());
  EXPECT_FALSE(MapSharding(*manual, 1, {0}).has_value());
}

}  // namespace
}  // namespace aot
