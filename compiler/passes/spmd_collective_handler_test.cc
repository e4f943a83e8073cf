// Collectives and manual regions (spmd_collective_handler.cc): replicas of
// partitioned programs, collectives across replicas, manual and partially
// manual regions.
#include "compiler/passes/spmd_partitioner_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace spmd_testing {
namespace {

using ::testing::HasSubstr;

// Two replicas of four partitions: the partitions' groups repeat within
// each replica (global ids r * 4 + p where use_global_device_ids says so;
// all-to-all's groups stay partitions), and each replica's assembled
// result matches the single-device program on its own arguments.
TEST(SpmdPartitionerTest, ReplicasEachRunThePartitionsOnTheirOwnData) {
  std::unique_ptr<HloModule> module = ParseFor(R"(
HloModule replicated_partitions, replica_count=2, num_partitions=$N
ENTRY main {
  x = f32[16,64] parameter(0), sharding={replicated}
  w1 = f32[64,32] parameter(1), sharding={devices=[1,$N]<=[$N]}
  w2 = f32[32,64] parameter(2), sharding={devices=[$N,1]<=[$N]}
  h = f32[16,32] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  y = f32[16,64] dot(h, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sharding={devices=[$N,1]<=[$N]}
  ROOT z = f32[16,64] negate(y), sharding={devices=[1,$N]<=[$N]}
})",
                                               4);
  ASSERT_NE(module, nullptr);
  auto partitioned = PartitionSpmd(*module, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  EXPECT_EQ(partitioned->module->config().replica_count, 2);
  int collectives = 0;
  for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
    if (h->opcode() == HloOpcode::kReduceScatter) {
      ++collectives;
      EXPECT_TRUE(h->attrs().use_global_device_ids);
      EXPECT_EQ(h->attrs().replica_groups,
                (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
    } else if (h->opcode() == HloOpcode::kAllToAll) {
      ++collectives;
      EXPECT_FALSE(h->attrs().use_global_device_ids);
      EXPECT_EQ(h->attrs().replica_groups, (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}}));
    }
  }
  EXPECT_EQ(collectives, 2);
  std::unique_ptr<HloModule> single = module->Clone();
  single->mutable_config()->num_partitions = 1;
  single->mutable_config()->replica_count = 1;
  std::vector<std::vector<Literal>> per_participant;
  std::vector<Literal> expected;
  for (int r = 0; r < 2; ++r) {
    std::vector<Literal> args = RandomArguments(*single, 5 + r);
    HloEvaluator evaluator;
    auto want = evaluator.Evaluate(*single, args);
    ASSERT_TRUE(want.ok()) << want.status();
    expected.push_back(*std::move(want));
    auto split = SplitArguments(args, *partitioned);
    ASSERT_TRUE(split.ok()) << split.status();
    for (auto& tiles : *split) per_participant.push_back(std::move(tiles));
  }
  auto results = EvaluateReplicated(*partitioned->module, per_participant, {});
  ASSERT_TRUE(results.ok()) << results.status();
  for (int r = 0; r < 2; ++r) {
    std::vector<Literal> tiles(results->begin() + 4 * r, results->begin() + 4 * (r + 1));
    auto assembled = AssembleTiles(tiles, expected[r].shape(), partitioned->result_sharding);
    ASSERT_TRUE(assembled.ok()) << assembled.status();
    EXPECT_TRUE(CompareLiteralsWithDefaultTolerance(expected[r], *assembled).ok())
        << "replica " << r << ": " << CompareLiteralsWithDefaultTolerance(expected[r], *assembled);
  }
}

// Data parallel across replicas, model parallel across partitions: an
// all-reduce across the replicas (no channel: its groups name replicas)
// of a row-split value runs on the tiles, each partition summing its tile
// with the same partition of the other replica; each replica's result
// matches the module on one device per replica.
TEST(SpmdPartitionerTest, CollectivesAcrossReplicasRunOnTheTiles) {
  auto module = ParseHloModule(R"(
HloModule dp_mp, replica_count=2, num_partitions=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[16,8] parameter(0), sharding={devices=[4,1]<=[4]}
  w = f32[8,8] parameter(1), sharding={replicated}
  y = f32[16,8] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  g = f32[16,8] all-reduce(y), replica_groups={{0,1}}, to_apply=add
  ROOT z = f32[16,8] negate(g)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto partitioned = PartitionSpmd(**module, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  int sums = 0;
  for (const HloInstruction* h :
       OnlyCollective(*partitioned->module->entry_computation(), HloOpcode::kAllReduce)) {
    ++sums;
    EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{4, 8}));
    EXPECT_FALSE(h->attrs().channel_id.has_value());
    EXPECT_EQ(h->attrs().replica_groups, (std::vector<std::vector<int64_t>>{{0, 1}}));
  }
  EXPECT_EQ(sums, 1);
  // Two replicas' arguments; the reference runs the module on one device
  // per replica.
  std::unique_ptr<HloModule> single = (*module)->Clone();
  single->mutable_config()->num_partitions = 1;
  std::vector<std::vector<Literal>> full = {RandomArguments(*single, 1),
                                            RandomArguments(*single, 2)};
  auto expected = EvaluateReplicated(*single, full, {});
  ASSERT_TRUE(expected.ok()) << expected.status();
  std::vector<std::vector<Literal>> per_participant;
  for (const auto& args : full) {
    auto split = SplitArguments(args, *partitioned);
    ASSERT_TRUE(split.ok()) << split.status();
    for (auto& tiles : *split) per_participant.push_back(std::move(tiles));
  }
  auto results = EvaluateReplicated(*partitioned->module, per_participant, {});
  ASSERT_TRUE(results.ok()) << results.status();
  for (int r = 0; r < 2; ++r) {
    std::vector<Literal> tiles(results->begin() + 4 * r, results->begin() + 4 * (r + 1));
    auto assembled = AssembleTiles(tiles, (*expected)[r].shape(), partitioned->result_sharding);
    ASSERT_TRUE(assembled.ok()) << assembled.status();
    EXPECT_TRUE(CompareLiteralsWithDefaultTolerance((*expected)[r], *assembled).ok())
        << "replica " << r;
  }
}

// A manual region (what shard_map lowers to): each partition exponentiates
// its tile and the tiles are summed across partitions inside the region.
TEST(SpmdPartitionerTest, ManualRegionsRunAsWrittenOnTiles) {
  auto module = ParseHloModule(R"(
HloModule shard_map, num_partitions=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
  s = f32[8,4] custom-call(x), custom_call_target="Sharding", sharding={devices=[4,1]<=[4]}
  m = f32[2,4] custom-call(s), custom_call_target="SPMDFullToShardShape", sharding={manual}
  e = f32[2,4] exponential(m), sharding={manual}
  r = f32[2,4] all-reduce(e), channel_id=1, replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=add, sharding={manual}
  ROOT f = f32[8,4] custom-call(r), custom_call_target="SPMDShardToFullShape", sharding={devices=[4,1]<=[4]}
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto partitioned = PartitionSpmd(**module, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  ASSERT_TRUE(VerifyHloModule(*partitioned->module).ok()) << VerifyHloModule(*partitioned->module);
  std::vector<double> values(32);
  for (int i = 0; i < 32; ++i) values[i] = 0.1 * i - 1.0;
  Literal x = Literal::FromDoubles(Shape(F32, {8, 4}), values);
  std::vector<Literal> args;
  args.push_back(x);
  auto per_partition = SplitArguments(args, *partitioned);
  ASSERT_TRUE(per_partition.ok()) << per_partition.status();
  auto results = EvaluateReplicated(*partitioned->module, *per_partition, {});
  ASSERT_TRUE(results.ok()) << results.status();
  auto full = AssembleTiles(*results, Shape(F32, {8, 4}), partitioned->result_sharding);
  ASSERT_TRUE(full.ok()) << full.status();
  // Row r of every tile: the sum over the tiles q of exp(x[2q + r % 2]).
  for (int64_t row = 0; row < 8; ++row) {
    for (int64_t col = 0; col < 4; ++col) {
      double sum = 0;
      for (int64_t q = 0; q < 4; ++q) sum += std::exp(values[(2 * q + row % 2) * 4 + col]);
      EXPECT_NEAR(full->GetAsDouble(row * 4 + col), sum, 1e-4 * sum) << row << "," << col;
    }
  }
}

TEST(SpmdPartitionerTest, PartiallyManualRegionsPartitionTheirAutomaticAxesWithinEachShard) {
  auto module = ParseHloModule(kPartialManual);
  ASSERT_TRUE(module.ok()) << module.status();
  auto partitioned = PartitionSpmd(**module, 8);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  ASSERT_TRUE(VerifyHloModule(*partitioned->module).ok()) << VerifyHloModule(*partitioned->module);
  int gathers = 0;
  for (const HloInstruction* h :
       OnlyCollective(*partitioned->module->entry_computation(), HloOpcode::kAllGather)) {
    ++gathers;
    // Devices p and p + 4 hold the two row halves of one manual shard.
    EXPECT_EQ(h->attrs().replica_groups,
              (std::vector<std::vector<int64_t>>{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
    EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{16, 8}));
  }
  EXPECT_EQ(gathers, 1);
  std::vector<double> values(16 * 32);
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.01 * static_cast<double>(i % 97) - 0.4;
  std::vector<Literal> args;
  args.push_back(Literal::FromDoubles(Shape(F32, {16, 32}), values));
  auto per_partition = SplitArguments(args, *partitioned);
  ASSERT_TRUE(per_partition.ok()) << per_partition.status();
  auto results = EvaluateReplicated(*partitioned->module, *per_partition, {});
  ASSERT_TRUE(results.ok()) << results.status();
  auto full = AssembleTiles(*results, Shape(F32, {16, 32}), partitioned->result_sharding);
  ASSERT_TRUE(full.ok()) << full.status();
  // Each column block's rows reversed: f[i][j] = exp(x[15 - i][j]).
  for (int64_t i = 0; i < 16; ++i) {
    for (int64_t j = 0; j < 32; ++j) {
      const double want = std::exp(values[(15 - i) * 32 + j]);
      EXPECT_NEAR(full->GetAsDouble(i * 32 + j), want, 1e-5 * want) << i << "," << j;
    }
  }
  // A collective written in the region, and device lists that disagree.
  auto with_collective = ParseHloModule(absl::StrReplaceAll(
      kPartialManual, {{"reverse(e), dimensions={0}",
                        "all-reduce(e), channel_id=1, replica_groups={{0,1,2,3,4,5,6,7}}, "
                        "use_global_device_ids=true, to_apply=add"},
                       {"ENTRY main {",
                        "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = "
                        "f32[] add(a, b)\n}\nENTRY main {"}}));
  ASSERT_TRUE(with_collective.ok()) << with_collective.status();
  auto refused = PartitionSpmd(**with_collective, 8);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("instruction 'r' (all-reduce)"));
  EXPECT_THAT(refused.status().message(), HasSubstr("partially manual region"));
  auto disagreeing = ParseHloModule(absl::StrReplaceAll(
      kPartialManual, {{"x = f32[16,32] parameter(0), sharding={devices=[2,4]<=[8]}",
                        "x = f32[16,32] parameter(0), sharding={devices=[2,4]<=[4,2]T(1,0)}"}}));
  ASSERT_TRUE(disagreeing.ok()) << disagreeing.status();
  auto mismatch = PartitionSpmd(**disagreeing, 8);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_THAT(mismatch.status().message(), HasSubstr("instruction 's' (custom-call)"));
  EXPECT_THAT(mismatch.status().message(), HasSubstr("holds another tile of dimension 0"));
}

}  // namespace
}  // namespace spmd_testing
}  // namespace aot
