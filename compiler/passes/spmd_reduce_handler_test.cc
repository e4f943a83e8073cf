// Reductions over split dimensions (spmd_reduce_handler.cc).
#include "compiler/passes/spmd_partitioner_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace spmd_testing {
namespace {

// Reductions over split dimensions: each tile reduced, one all-reduce
// within the partitions that share the kept rows.
TEST(SpmdPartitionerTest, ReducesOverSplitDimensionsCombinePartialResults) {
  constexpr char kRowSums[] = R"(
HloModule row_sums, num_partitions=$N
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY main {
  x = f32[8,16] parameter(0), sharding={devices=[2,$H]<=[$N]}
  z = f32[] constant(0)
  ninf = f32[] constant(-inf)
  s = f32[8] reduce(x, z), dimensions={1}, to_apply=add
  m = f32[8] reduce(x, ninf), dimensions={1}, to_apply=max
  ROOT t = (f32[8], f32[8]) tuple(s, m)
})";
  for (int64_t n : {4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kRowSums, n);
    ASSERT_TRUE(partitioned.has_value());
    int all_reduces = 0;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      if (h->opcode() != HloOpcode::kAllReduce) continue;
      ++all_reduces;
      // Two groups (the two row halves) of n / 2 partitions.
      EXPECT_EQ(h->attrs().replica_groups.size(), 2u);
      EXPECT_EQ(h->attrs().replica_groups[0].size(), static_cast<size_t>(n / 2));
      EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{4}));
    }
    EXPECT_EQ(all_reduces, 2);
  }
}

}  // namespace
}  // namespace spmd_testing
}  // namespace aot
