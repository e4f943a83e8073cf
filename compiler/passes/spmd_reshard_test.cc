// Resharding (spmd_reshard.cc): gathers of any tiling, all-to-all between
// dimensions, local refinement.
#include "compiler/passes/spmd_partitioner_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace spmd_testing {
namespace {

// A value split along one dimension with its devices in order is gathered
// by one all-gather where an instruction needs it whole (a reverse of the
// split dimension); no sums of whole arrays.
TEST(SpmdPartitionerTest, OneDimensionalSplitsAreGatheredByAllGather) {
  auto module = ParseHloModule(R"(
HloModule m, num_partitions=4
ENTRY main {
  a = f32[16,8] parameter(0), sharding={devices=[4,1]<=[4]}
  ROOT r = f32[16,8] reverse(a), dimensions={0}, sharding={replicated}
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto partitioned = PartitionSpmd(**module, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  int gathers = 0, sums = 0;
  for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
    if (h->opcode() == HloOpcode::kAllGather) {
      ++gathers;
      EXPECT_EQ(h->attrs().dimensions, (std::vector<int64_t>{0}));
      EXPECT_EQ(h->operand(0)->shape().dimensions(), (std::vector<int64_t>{4, 8}));
    }
    if (h->opcode() == HloOpcode::kAllReduce) ++sums;
  }
  EXPECT_EQ(gathers, 1);
  EXPECT_EQ(sums, 0);
}

// Any tiling is gathered by one all-gather of the tiles in device order:
// a 2x2 grid with each tile on two devices (an iota list transposed), and
// an uneven 4x2 grid over a shuffled device list, both reversed whole.
TEST(SpmdPartitionerTest, AnyTilingIsGatheredByOneAllGather) {
  constexpr char kGrids[] = R"(
HloModule grids, num_partitions=8
ENTRY main {
  a = f32[8,6] parameter(0), sharding={devices=[2,2,2]<=[2,2,2]T(2,1,0) last_tile_dim_replicate}
  ra = f32[8,6] reverse(a), dimensions={0,1}, sharding={replicated}
  c = pred[7,5] parameter(1), sharding={devices=[4,2]3,1,0,2,7,5,4,6}
  rc = pred[7,5] reverse(c), dimensions={0,1}, sharding={replicated}
  ROOT t = (f32[8,6], pred[7,5]) tuple(ra, rc)
})";
  std::optional<PartitionedModule> partitioned = CheckedPartition(kGrids, 8);
  ASSERT_TRUE(partitioned.has_value());
  std::vector<std::vector<int64_t>> gathered;
  for (const HloInstruction* h :
       OnlyCollective(*partitioned->module->entry_computation(), HloOpcode::kAllGather)) {
    gathered.push_back(h->shape().dimensions());
    EXPECT_EQ(h->attrs().replica_groups.size(), 1u);
  }
  // Eight tiles stacked each: [4,3] tiles of a, [2,3] (padded) of c.
  EXPECT_THAT(gathered, ::testing::UnorderedElementsAre(std::vector<int64_t>{8, 4, 3},
                                                        std::vector<int64_t>{8, 2, 3}));
}

TEST(SpmdPartitionerTest, ResplittingBetweenDimensionsIsOneAllToAll) {
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kAllToAll, n);
    ASSERT_TRUE(partitioned.has_value());
    std::vector<std::vector<int64_t>> moved;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      if (h->opcode() == HloOpcode::kAllToAll) {
        moved.push_back(h->shape().dimensions());
        EXPECT_EQ(h->attrs().replica_groups.size(), 1u);
      } else {
        EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      }
      if (h->opcode() == HloOpcode::kAdd) {
        EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{16, 24 / n}));
      }
    }
    // a's row tile [16/n, 24] cut into n column blocks; x's tile
    // [8, 3, 16/n] cut into n blocks of its rows.
    EXPECT_THAT(moved, ::testing::UnorderedElementsAre(std::vector<int64_t>{16 / n, n, 24 / n},
                                                       std::vector<int64_t>{n, 8 / n, 3, 16 / n}));
  }
}

// A finer tiling inside a coarser one (partial replication refined, a
// replicated value split) is cut from the local value: no collective.
TEST(SpmdPartitionerTest, RefiningATilingIsALocalCut) {
  constexpr char kRefine[] = R"(
HloModule refine, num_partitions=$N
ENTRY main {
  a = f32[8,8] parameter(0), sharding={devices=[2,1,$H]<=[$N] last_tile_dim_replicate}
  b = f32[8,8] copy(a), sharding={devices=[2,$H]<=[$N]}
  r = f32[8,8] parameter(1), sharding={replicated}
  c = f32[8,8] custom-call(r), custom_call_target="Sharding", sharding={devices=[$H,2]<=[$N]}
  ROOT t = (f32[8,8], f32[8,8]) tuple(b, c)
})";
  for (int64_t n : {4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kRefine, n);
    ASSERT_TRUE(partitioned.has_value());
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
    }
  }
}

}  // namespace
}  // namespace spmd_testing
}  // namespace aot
