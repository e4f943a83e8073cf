// Gathers, scatters and sorts (spmd_gather_scatter_handler.cc,
// spmd_sort_handler.cc).
#include "compiler/passes/spmd_partitioner_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace spmd_testing {
namespace {

// An embedding lookup from a table split by rows: each partition looks up
// in its own rows (the gather's operand is the table's tile), and one
// all-reduce of the result's size combines them; the table is never
// gathered. Indices outside the table are clamped as gather clamps them.
TEST(SpmdPartitionerTest, EmbeddingLookupsFromASplitTableSumMaskedLocalLookups) {
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned =
        CheckedPartition(kEmbedding, n, /*ids_out_of_range=*/true);
    ASSERT_TRUE(partitioned.has_value());
    int sums = 0;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      if (h->opcode() == HloOpcode::kAllReduce) {
        ++sums;
        EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{6, 8}));
      } else {
        EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      }
      if (h->opcode() == HloOpcode::kGather) {
        EXPECT_EQ(h->operand(0)->shape().dimensions(), (std::vector<int64_t>{32 / n, 8}));
      }
    }
    EXPECT_EQ(sums, 1);
  }
  // s64 indices with an implicit index vector, the result split along its
  // embedding dimension: the partial lookups reduced and scattered.
  constexpr char kScattered[] = R"(
HloModule embedding_scattered, num_partitions=$N
ENTRY main {
  table = f32[40,16] parameter(0), sharding={devices=[$N,1]<=[$N]}
  ids = s64[3,2] parameter(1), sharding={replicated}
  ROOT g = f32[3,2,16] gather(table, ids), offset_dims={2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=2, slice_sizes={1,16}, sharding={devices=[1,1,$N]<=[$N]}
})";
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned =
        CheckedPartition(kScattered, n, /*ids_out_of_range=*/true);
    ASSERT_TRUE(partitioned.has_value());
    int scatters = 0;
    for (const HloInstruction* h :
         OnlyCollective(*partitioned->module->entry_computation(), HloOpcode::kReduceScatter)) {
      ++scatters;
      EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{3, 2, 16 / n}));
      EXPECT_EQ(h->attrs().dimensions, (std::vector<int64_t>{2}));
    }
    EXPECT_EQ(scatters, 1);
  }
}

// Gathers along passthrough dimensions run on tiles with no collective: a
// table split by columns (each slice cut to the tile's columns), and
// indices split by rows.
TEST(SpmdPartitionerTest, GathersOnPassthroughDimensionsRunOnTiles) {
  constexpr char kPassthrough[] = R"(
HloModule gathers, num_partitions=$N
ENTRY main {
  table = f32[32,16] parameter(0), sharding={devices=[1,$N]<=[$N]}
  ids = s32[6,1] parameter(1), sharding={replicated}
  g = f32[6,16] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,16}
  rows = s32[8,1] parameter(2), sharding={devices=[$N,1]<=[$N]}
  full = f32[32,16] parameter(3), sharding={replicated}
  r = f32[8,16] gather(full, rows), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,16}
  ROOT t = (f32[6,16], f32[8,16]) tuple(g, r)
})";
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned =
        CheckedPartition(kPassthrough, n, /*ids_out_of_range=*/true);
    ASSERT_TRUE(partitioned.has_value());
    std::vector<std::vector<int64_t>> gathers;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      if (h->opcode() == HloOpcode::kGather) gathers.push_back(h->shape().dimensions());
    }
    EXPECT_THAT(gathers, ::testing::UnorderedElementsAre(std::vector<int64_t>{6, 16 / n},
                                                         std::vector<int64_t>{8 / n, 16}));
  }
}

// A sort along columns of row tiles (values and their indices, as top-k
// sorts them) and a scatter-add into rows whose columns are split (the
// updates' windows split alike) run on tiles with no collective; the
// result, a nested tuple, assembles element by element.
TEST(SpmdPartitionerTest, SortsAndScattersAlongWholeDimensionsRunOnTiles) {
  constexpr char kSortScatter[] = R"(
HloModule sort_scatter, num_partitions=$N
greater {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT gt = pred[] compare(a, b), direction=GT
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[16,12] parameter(0), sharding={devices=[$N,1]<=[$N]}
  iota = s32[16,12] iota(), iota_dimension=1, sharding={devices=[$N,1]<=[$N]}
  sorted = (f32[16,12], s32[16,12]) sort(x, iota), dimensions={1}, is_stable=true, to_apply=greater, sharding={{devices=[$N,1]<=[$N]}, {devices=[$N,1]<=[$N]}}
  table = f32[10,16] parameter(1), sharding={devices=[1,$N]<=[$N]}
  ids = s32[5,1] parameter(2), sharding={replicated}
  u = f32[5,16] parameter(3), sharding={devices=[1,$N]<=[$N]}
  added = f32[10,16] scatter(table, ids, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  ROOT t = ((f32[16,12], s32[16,12]), f32[10,16]) tuple(sorted, added)
})";
  // The result is a nested tuple: the sort's pair inside the root's.
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned =
        CheckedPartition(kSortScatter, n, /*ids_out_of_range=*/true);
    ASSERT_TRUE(partitioned.has_value());
    int cuts = 0;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      if (h->opcode() == HloOpcode::kSort) {
        ++cuts;
        EXPECT_EQ(h->shape().tuple_shapes()[0].dimensions(), (std::vector<int64_t>{16 / n, 12}));
      }
      if (h->opcode() == HloOpcode::kScatter) {
        ++cuts;
        EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{10, 16 / n}));
      }
    }
    EXPECT_EQ(cuts, 2);
  }
}

}  // namespace
}  // namespace spmd_testing
}  // namespace aot
