// Convolutions and pooling (spmd_convolution_handler.cc): halo exchange, batch
// and feature splits, strided and dilated windows.
#include "compiler/passes/spmd_partitioner_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace spmd_testing {
namespace {

// The convolution split into strips exchanges one halo row with each
// neighbour (two collective-permutes) and convolves its extended strip:
// nothing gathered.
TEST(SpmdPartitionerTest, ConvolutionStripsExchangeHalosWithTheirNeighbours) {
  std::unique_ptr<HloModule> module = ParseFor(kConv, 4);
  ASSERT_NE(module, nullptr);
  auto partitioned = PartitionSpmd(*module, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  int permutes = 0, others = 0;
  for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
    if (h->opcode() == HloOpcode::kCollectivePermute) {
      ++permutes;
      EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{1, 1, 16, 2}));  // one row
      EXPECT_EQ(h->attrs().source_target_pairs.size(), 3u);
    } else if (IsCollectiveOpcode(h->opcode())) {
      ++others;
    }
    if (h->opcode() == HloOpcode::kConvolution) {
      EXPECT_EQ(h->operand(0)->shape().dimensions(), (std::vector<int64_t>{1, 6, 16, 2}));
      EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{1, 4, 16, 4}));
    }
  }
  EXPECT_EQ(permutes, 2);
  EXPECT_EQ(others, 0);
}

// Convolutions split by batch (data parallel; a depthwise one too) or by
// the kernel's output features run on the tiles with no collective.
TEST(SpmdPartitionerTest, ConvolutionsSplitByBatchOrOutputFeaturesRunOnTiles) {
  constexpr char kConvs[] = R"(
HloModule convs, num_partitions=$N
ENTRY main {
  x = f32[8,8,8,2] parameter(0), sharding={devices=[$N,1,1,1]<=[$N]}
  k = f32[3,3,2,8] parameter(1), sharding={replicated}
  by_batch = f32[8,8,8,8] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  r = f32[8,8,8,2] parameter(2), sharding={replicated}
  kf = f32[3,3,2,8] parameter(3), sharding={devices=[1,1,1,$N]<=[$N]}
  by_feature = f32[8,8,8,8] convolution(r, kf), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  kd = f32[3,3,1,2] parameter(4), sharding={replicated}
  depthwise = f32[8,8,8,2] convolution(x, kd), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=2
  ROOT t = (f32[8,8,8,8], f32[8,8,8,8], f32[8,8,8,2]) tuple(by_batch, by_feature, depthwise)
})";
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kConvs, n);
    ASSERT_TRUE(partitioned.has_value());
    std::vector<std::vector<int64_t>> convs;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      if (h->opcode() == HloOpcode::kConvolution) convs.push_back(h->shape().dimensions());
    }
    EXPECT_THAT(convs, ::testing::UnorderedElementsAre(std::vector<int64_t>{8 / n, 8, 8, 8},
                                                       std::vector<int64_t>{8, 8, 8, 8 / n},
                                                       std::vector<int64_t>{8 / n, 8, 8, 2}));
  }
}

// Max pooling of a batch split (the window one image wide along the
// batch) runs on each partition's images; pooling across the split rows
// of a strip would need halos, so that one gathers (and still matches).
TEST(SpmdPartitionerTest, PoolingABatchSplitRunsOnTiles) {
  constexpr char kPool[] = R"(
HloModule pool, num_partitions=$N
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY main {
  x = f32[8,8,8,4] parameter(0), sharding={devices=[$N,1,1,1]<=[$N]}
  ninf = f32[] constant(-inf)
  ROOT p = f32[8,4,4,4] reduce-window(x, ninf), window={size=1x2x2x1 stride=1x2x2x1}, to_apply=max
})";
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kPool, n);
    ASSERT_TRUE(partitioned.has_value());
    int pools = 0;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      if (h->opcode() == HloOpcode::kReduceWindow) {
        ++pools;
        EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{8 / n, 4, 4, 4}));
      }
    }
    EXPECT_EQ(pools, 1);
  }
  const std::string rows = absl::StrReplaceAll(
      kPool, {{"sharding={devices=[$N,1,1,1]<=[$N]}", "sharding={devices=[1,$N,1,1]<=[$N]}"}});
  for (int64_t n : {2, 4}) ExpectMatchesTheInterpreter(rows.c_str(), n);
}

// Strided, dilated and 1x1 convolutions on strips: a stride-2 window
// needs one row from the left, a dilated one two rows each way, a strided
// 1x1 none (its strip cut short): at most two collective-permutes each,
// nothing gathered.
TEST(SpmdPartitionerTest, StridedAndDilatedConvolutionStripsExchangeTheirHalos) {
  constexpr char kConvs[] = R"(
HloModule convs, num_partitions=$N
ENTRY main {
  x = f32[1,16,16,2] parameter(0), sharding={devices=[1,$N,1,1]<=[$N]}
  k = f32[3,3,2,4] parameter(1), sharding={replicated}
  k1 = f32[1,1,2,4] parameter(2), sharding={replicated}
  a = f32[1,8,8,4] convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  d = f32[1,16,16,4] convolution(x, k), window={size=3x3 pad=2_2x2_2 rhs_dilate=2x2}, dim_labels=b01f_01io->b01f
  p = f32[1,8,8,4] convolution(x, k1), window={size=1x1 stride=2x2}, dim_labels=b01f_01io->b01f
  ROOT t = (f32[1,8,8,4], f32[1,16,16,4], f32[1,8,8,4]) tuple(a, d, p)
})";
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kConvs, n);
    ASSERT_TRUE(partitioned.has_value());
    std::vector<int64_t> halo_rows;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      if (h->opcode() == HloOpcode::kCollectivePermute) {
        halo_rows.push_back(h->shape().dimensions()[1]);
      } else {
        EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      }
      if (h->opcode() == HloOpcode::kConvolution) {
        EXPECT_EQ(h->shape().dimensions()[1], h->shape().dimensions()[2] / n) << h->name();
      }
    }
    EXPECT_THAT(halo_rows, ::testing::UnorderedElementsAre(1, 2, 2));
  }
}

}  // namespace
}  // namespace spmd_testing
}  // namespace aot
