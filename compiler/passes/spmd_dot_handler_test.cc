// Dots (spmd_dot_handler.cc): tensor-parallel and 2-D mesh MLPs, attention
// with heads sharded, row-parallel dots reduce-scattered.
#include "compiler/passes/spmd_partitioner_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace spmd_testing {
namespace {

// The tensor-parallel MLP (column- then row-parallel weights): both dots
// on tiles, one all-reduce of the second dot's partial sums, nothing
// gathered.
TEST(SpmdPartitionerTest, TensorParallelMlpRunsOnTilesWithOneAllReduce) {
  std::unique_ptr<HloModule> module = ParseFor(kMlp, 4);
  ASSERT_NE(module, nullptr);
  auto partitioned = PartitionSpmd(*module, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  int all_reduces = 0;
  std::vector<std::vector<int64_t>> dots;
  for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
    if (h->opcode() == HloOpcode::kAllReduce) ++all_reduces;
    if (h->opcode() == HloOpcode::kDot) dots.push_back(h->shape().dimensions());
  }
  EXPECT_EQ(all_reduces, 1);
  // x [16,64] by the w1 tile [64,32]; the r tile [16,32] by the w2 tile
  // [32,64] (a partial sum of the full shape).
  EXPECT_THAT(dots,
              ::testing::ElementsAre(std::vector<int64_t>{16, 32}, std::vector<int64_t>{16, 64}));
}

// The MLP on a 4x2 mesh (batch over 'x', the hidden units over 'y', each
// operand replicated over the axis it does not use): the first dot runs on
// tiles with no collective (the propagated result splits both ways), the
// second sums its partial results by one all-reduce within each pair of
// partitions holding the same rows.
TEST(SpmdPartitionerTest, TwoDimensionalMeshMlpNeedsOneAllReduceWithinPairs) {
  constexpr char kMesh[] = R"(
HloModule mesh_mlp, num_partitions=8
ENTRY main {
  x = f32[16,32] parameter(0), sharding={devices=[4,1,2]<=[8] last_tile_dim_replicate}
  w1 = f32[32,64] parameter(1), sharding={devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}
  w2 = f32[64,32] parameter(2), sharding={devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}
  h = f32[16,64] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  g = f32[16,64] tanh(h)
  ROOT y = f32[16,32] dot(g, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  std::optional<PartitionedModule> partitioned = CheckedPartition(kMesh, 8);
  ASSERT_TRUE(partitioned.has_value());
  std::vector<std::vector<int64_t>> dots;
  int sums = 0;
  for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
    if (h->opcode() == HloOpcode::kDot) dots.push_back(h->shape().dimensions());
    if (h->opcode() == HloOpcode::kAllReduce) {
      ++sums;
      EXPECT_EQ(h->attrs().replica_groups,
                (std::vector<std::vector<int64_t>>{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
      EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{4, 32}));
    } else {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
    }
  }
  EXPECT_EQ(sums, 1);
  EXPECT_THAT(dots,
              ::testing::ElementsAre(std::vector<int64_t>{4, 32}, std::vector<int64_t>{4, 32}));
}

// Attention with its heads sharded: every instruction runs on the
// partition's heads (dots, reductions, broadcasts), with no collective.
TEST(SpmdPartitionerTest, AttentionWithHeadsShardedNeedsNoCollective) {
  std::unique_ptr<HloModule> module = ParseFor(kAttention, 4);
  ASSERT_NE(module, nullptr);
  auto partitioned = PartitionSpmd(*module, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
    EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
    if (h->shape().IsArray() && !h->shape().dimensions().empty() &&
        h->opcode() != HloOpcode::kConstant) {
      EXPECT_EQ(h->shape().dimensions()[0], 2) << h->name() << " runs on 8 heads, not 2";
    }
  }
}

// The row-parallel dot with its result split by rows (sequence
// parallelism): the partial sums reduced and scattered by one
// reduce-scatter, each partition receiving its rows only.
TEST(SpmdPartitionerTest, RowParallelDotsWithSplitResultsReduceScatter) {
  constexpr char kSequenceParallel[] = R"(
HloModule mlp_sp, num_partitions=$N
ENTRY main {
  x = f32[16,64] parameter(0), sharding={replicated}
  w1 = f32[64,128] parameter(1), sharding={devices=[1,$N]<=[$N]}
  w2 = f32[128,64] parameter(2), sharding={devices=[$N,1]<=[$N]}
  h = f32[16,128] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[16,128] tanh(h)
  ROOT y = f32[16,64] dot(t, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sharding={devices=[$N,1]<=[$N]}
})";
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kSequenceParallel, n);
    ASSERT_TRUE(partitioned.has_value());
    int scatters = 0;
    for (const HloInstruction* h :
         OnlyCollective(*partitioned->module->entry_computation(), HloOpcode::kReduceScatter)) {
      ++scatters;
      EXPECT_EQ(h->operand(0)->shape().dimensions(), (std::vector<int64_t>{16, 64}));
      EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{16 / n, 64}));
      EXPECT_EQ(h->attrs().replica_groups.size(), 1u);
    }
    EXPECT_EQ(scatters, 1);
  }
}

}  // namespace
}  // namespace spmd_testing
}  // namespace aot
