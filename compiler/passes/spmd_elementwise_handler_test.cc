// Elementwise and shape ops on tiles (spmd_elementwise_handler.cc): aligned
// operands, replicated operands cut first, uneven tiles, slices along and
// across tiles.
#include "compiler/passes/spmd_partitioner_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace spmd_testing {
namespace {

// Elementwise work on aligned tiles needs no communication: the
// per-partition tiles of the add are 1/N of the full array.
TEST(SpmdPartitionerTest, AlignedElementwiseOpsRunOnTilesWithoutCollectives) {
  auto module = ParseHloModule(R"(
HloModule m, num_partitions=4
ENTRY main {
  a = f32[16,8] parameter(0), sharding={devices=[4,1]<=[4]}
  b = f32[16,8] parameter(1), sharding={devices=[4,1]<=[4]}
  ROOT c = f32[16,8] add(a, b)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto partitioned = PartitionSpmd(**module, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  const HloComputation* entry = partitioned->module->entry_computation();
  EXPECT_EQ(entry->root_instruction()->shape().dimensions(), (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(entry->parameter_instruction(0)->shape().dimensions(), (std::vector<int64_t>{4, 8}));
  for (const HloInstruction* h : entry->instructions()) {
    EXPECT_NE(h->opcode(), HloOpcode::kAllReduce) << h->name();
  }
  EXPECT_EQ(partitioned->module->config().num_partitions, 4);
}

// Replicated operands of elementwise work whose result is split are cut
// to the result's tile first: the work runs on the tile, no collective.
TEST(SpmdPartitionerTest, ReplicatedOperandsAreCutBeforeElementwiseWork) {
  auto module = ParseHloModule(R"(
HloModule m, num_partitions=4
ENTRY main {
  a = f32[16,8] parameter(0), sharding={replicated}
  b = f32[16,8] parameter(1), sharding={replicated}
  ROOT c = f32[16,8] multiply(a, b), sharding={devices=[4,1]<=[4]}
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto partitioned = PartitionSpmd(**module, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  int multiplies = 0;
  for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
    EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
    if (h->opcode() == HloOpcode::kMultiply) {
      ++multiplies;
      EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{4, 8}));
    }
  }
  EXPECT_EQ(multiplies, 1);
}

// Uneven tiles keep their padding in place through a reduce over other
// dimensions, a transpose and a broadcast: all three on the tiles (the
// padded rows give padded results), no collective.
TEST(SpmdPartitionerTest, UnevenTilesReduceTransposeAndBroadcastOnTiles) {
  constexpr char kUnevenRows[] = R"(
HloModule uneven_rows, num_partitions=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[10,6] parameter(0), sharding={devices=[4,1]<=[4]}
  z = f32[] constant(0)
  r = f32[10] reduce(x, z), dimensions={1}, to_apply=add
  t = f32[6,10] transpose(x), dimensions={1,0}
  b = f32[10,3] broadcast(r), dimensions={0}
  ROOT o = (f32[10], f32[6,10], f32[10,3]) tuple(r, t, b)
})";
  std::optional<PartitionedModule> partitioned = CheckedPartition(kUnevenRows, 4);
  ASSERT_TRUE(partitioned.has_value());
  for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
    EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
    if (h->opcode() == HloOpcode::kReduce) {
      EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{3}));
    }
    if (h->opcode() == HloOpcode::kTranspose) {
      EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{6, 3}));
    }
  }
}

// Slices, dynamic slices, pads, reverses, concatenations and dynamic
// updates along dimensions that are not split run on the tiles: no
// collective, every result a row tile.
TEST(SpmdPartitionerTest, SlicingAlongWholeDimensionsRunsOnTiles) {
  constexpr char kCuts[] = R"(
HloModule cuts, num_partitions=$N
ENTRY main {
  x = f32[16,12] parameter(0), sharding={devices=[$N,1]<=[$N]}
  i = s32[] parameter(1), sharding={replicated}
  u = f32[16,3] parameter(2), sharding={devices=[$N,1]<=[$N]}
  z = s32[] constant(0)
  c0 = f32[] constant(0)
  sl = f32[16,6] slice(x), slice={[0:16], [2:8]}
  ds = f32[16,4] dynamic-slice(x, z, i), dynamic_slice_sizes={16,4}
  pd = f32[16,15] pad(x, c0), padding=0_0x1_2
  rv = f32[16,12] reverse(x), dimensions={1}
  cc = f32[16,24] concatenate(x, rv), dimensions={1}
  du = f32[16,12] dynamic-update-slice(x, u, z, i)
  ROOT t = (f32[16,6], f32[16,4], f32[16,15], f32[16,12], f32[16,24], f32[16,12]) tuple(sl, ds, pd, rv, cc, du)
})";
  for (int64_t n : {2, 4, 8}) {
    ExpectMatchesTheInterpreter(kCuts, n);
    std::optional<PartitionedModule> partitioned =
        CheckedPartition(kCuts, n, /*ids_out_of_range=*/true);
    ASSERT_TRUE(partitioned.has_value());
    int cuts = 0;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      switch (h->opcode()) {
        case HloOpcode::kSlice:
        case HloOpcode::kPad:
        case HloOpcode::kReverse:
        case HloOpcode::kConcatenate:
        case HloOpcode::kDynamicUpdateSlice:
          ++cuts;
          EXPECT_EQ(h->shape().dimensions()[0], 16 / n) << h->name();
          break;
        case HloOpcode::kDynamicSlice:
          if (h->operand(0)->opcode() == HloOpcode::kParameter) {
            ++cuts;
            EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{16 / n, 4}));
          }
          break;
        default:
          break;
      }
    }
    EXPECT_EQ(cuts, 6);
  }
}

// Slices of the split dimension whose result tiles keep the operand's
// tile size move rows between neighbours: x[1:] receives one row from
// the right (one collective-permute), x[:-1] is each partition's own
// tile, x[5:] (at 8 partitions) takes rows from two and three tiles to
// the right (two permutes); columns are sliced on the tile first.
TEST(SpmdPartitionerTest, SlicesAcrossTilesShiftRowsByCollectivePermutes) {
  constexpr char kShift[] = R"(
HloModule shift, num_partitions=$N
ENTRY main {
  x = f32[16,6] parameter(0), sharding={devices=[$N,1]<=[$N]}
  ROOT y = f32[$R,4] slice(x), slice={[$S:16], [1:5]}
})";
  struct Case {
    int64_t n, start, permutes;
  };
  for (const Case& c :
       {Case{2, 1, 1}, Case{4, 1, 1}, Case{8, 1, 1}, Case{8, 0, 0}, Case{4, 0, 0}, Case{8, 5, 2}}) {
    const std::string text = absl::StrReplaceAll(
        kShift, {{"$R", absl::StrCat(16 - c.start)}, {"$S", absl::StrCat(c.start)}});
    SCOPED_TRACE(absl::StrCat("x[", c.start, ":] at ", c.n));
    std::optional<PartitionedModule> partitioned = CheckedPartition(text.c_str(), c.n);
    ASSERT_TRUE(partitioned.has_value());
    const int64_t permutes = static_cast<int64_t>(
        OnlyCollective(*partitioned->module->entry_computation(), HloOpcode::kCollectivePermute)
            .size());
    EXPECT_EQ(permutes, c.permutes);
    EXPECT_EQ(partitioned->module->entry_computation()->root_instruction()->shape().dimensions(),
              (std::vector<int64_t>{16 / c.n, 4}));
  }
}

}  // namespace
}  // namespace spmd_testing
}  // namespace aot
