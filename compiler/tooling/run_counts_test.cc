#include "compiler/tooling/run_counts.h"

#include "compiler/hlo/hlo_parser.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

// As XLA's partitioner tests write them: the count is in the test's
// config, not the header.
constexpr char kSharded[] = R"(
HloModule sharded_rows

ENTRY e {
  x = f32[8,2] parameter(0), sharding={devices=[4,1]0,1,2,3}
  ROOT y = f32[8,2] exponential(x), sharding={devices=[4,1]0,1,2,3}
}
)";

TEST(RunCountsTest, TheFlagGivesAModuleWithoutHeaderCountsItsPartitions) {
  auto module = ParseHloModule(kSharded);
  ASSERT_TRUE(module.ok()) << module.status();
  auto note = ApplyRunCounts(**module, {/*replicas=*/0, /*partitions=*/4});
  ASSERT_TRUE(note.ok()) << note.status();
  EXPECT_EQ(*note, "");
  EXPECT_EQ((*module)->config().num_partitions, 4);
  EXPECT_TRUE(VerifyHloModule(**module).ok());
}

TEST(RunCountsTest, WithoutTheFlagAShardedModuleRunsUnpartitionedWithANote) {
  auto module = ParseHloModule(kSharded);
  ASSERT_TRUE(module.ok()) << module.status();
  // As it stands, its shardings name devices a one-device run lacks.
  EXPECT_FALSE(VerifyHloModule(**module).ok());
  auto note = ApplyRunCounts(**module, {});
  ASSERT_TRUE(note.ok()) << note.status();
  EXPECT_THAT(*note, HasSubstr("ran unpartitioned on one device"));
  EXPECT_THAT(*note, HasSubstr("--num_partitions=4 partitions it"));
  EXPECT_TRUE(VerifyHloModule(**module).ok());
}

TEST(RunCountsTest, ShardingsThatFitTheReplicasAreKept) {
  auto module = ParseHloModule(R"(
HloModule two_replicas, replica_count=2

ENTRY e {
  x = f32[2] parameter(0), sharding={maximal device=1}
  ROOT y = f32[2] negate(x)
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  auto note = ApplyRunCounts(**module, {});
  ASSERT_TRUE(note.ok()) << note.status();
  EXPECT_EQ(*note, "");
  EXPECT_FALSE(
      (*module)->entry_computation()->parameter_instructions()[0]->attrs().sharding.empty());
}

TEST(RunCountsTest, ACountThatDisagreesWithTheHeaderIsRefusedNamingBoth) {
  auto module = ParseHloModule(R"(
HloModule m, replica_count=2, num_partitions=4

ENTRY e {
  ROOT x = f32[2] parameter(0)
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  auto partitions = ApplyRunCounts(**module, {0, 2});
  ASSERT_FALSE(partitions.ok());
  EXPECT_EQ(partitions.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(partitions.status().message(),
              HasSubstr("--num_partitions=2 disagrees with the module's num_partitions=4"));
  auto replicas = ApplyRunCounts(**module, {3, 0});
  ASSERT_FALSE(replicas.ok());
  EXPECT_THAT(replicas.status().message(),
              HasSubstr("--num_replicas=3 disagrees with the module's replica_count=2"));
  // Agreeing with the header is fine.
  EXPECT_TRUE(ApplyRunCounts(**module, {2, 4}).ok());
}

}  // namespace
}  // namespace aot
