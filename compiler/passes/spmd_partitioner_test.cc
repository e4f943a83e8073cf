// The SPMD partitioner on programs of the spmd suite's kinds (tensor-parallel
// MLP, attention with heads sharded, a convolution split along a spatial
// dimension, an embedding gather from a sharded table, resharding between
// dimensions, partial replication) at 2, 4 and 8 partitions: each
// partition's tile of every argument in, the result tiles assembled, equal
// to the unpartitioned interpreter. Run by the multi-participant
// interpreter (the collectives' rendezvous as the runtime's).
#include "compiler/passes/spmd_partitioner.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/interpreter/replicated_evaluator.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

constexpr char kMlp[] = R"(
HloModule mlp, num_partitions=$N
ENTRY main {
  x = f32[16,64] parameter(0), sharding={replicated}
  w1 = f32[64,128] parameter(1), sharding={devices=[1,$N]<=[$N]}
  w2 = f32[128,64] parameter(2), sharding={devices=[$N,1]<=[$N]}
  h = f32[16,128] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  zero = f32[] constant(0)
  zeros = f32[16,128] broadcast(zero), dimensions={}
  r = f32[16,128] maximum(h, zeros)
  ROOT y = f32[16,64] dot(r, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";

constexpr char kAttention[] = R"(
HloModule attention, num_partitions=$N
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  q = f32[8,16,8] parameter(0), sharding={devices=[$N,1,1]<=[$N]}
  k = f32[8,16,8] parameter(1), sharding={devices=[$N,1,1]<=[$N]}
  v = f32[8,16,8] parameter(2), sharding={devices=[$N,1,1]<=[$N]}
  s = f32[8,16,16] dot(q, k), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={2}
  ninf = f32[] constant(-inf)
  mx = f32[8,16] reduce(s, ninf), dimensions={2}, to_apply=max
  mxb = f32[8,16,16] broadcast(mx), dimensions={0,1}
  d = f32[8,16,16] subtract(s, mxb)
  e = f32[8,16,16] exponential(d)
  z = f32[] constant(0)
  sum = f32[8,16] reduce(e, z), dimensions={2}, to_apply=add
  sb = f32[8,16,16] broadcast(sum), dimensions={0,1}
  p = f32[8,16,16] divide(e, sb)
  ROOT o = f32[8,16,8] dot(p, v), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
})";

constexpr char kConv[] = R"(
HloModule conv, num_partitions=$N
ENTRY main {
  x = f32[1,16,16,2] parameter(0), sharding={devices=[1,$N,1,1]<=[$N]}
  k = f32[3,3,2,4] parameter(1), sharding={replicated}
  ROOT y = f32[1,16,16,4] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})";

constexpr char kEmbedding[] = R"(
HloModule embedding, num_partitions=$N
ENTRY main {
  table = f32[32,8] parameter(0), sharding={devices=[$N,1]<=[$N]}
  ids = s32[6,1] parameter(1), sharding={replicated}
  ROOT g = f32[6,8] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}
})";

constexpr char kReshard[] = R"(
HloModule reshard, num_partitions=$N
ENTRY main {
  a = f32[16,16] parameter(0), sharding={devices=[$N,1]<=[$N]}
  c = f32[16,16] parameter(1), sharding={devices=[1,$N]<=[$N]}
  t = f32[16,16] transpose(a), dimensions={1,0}
  b = f32[16,16] add(t, c)
  r = f32[4,4,16] reshape(b)
  ROOT n = f32[4,4,16] negate(r), sharding={devices=[1,1,$N]<=[$N]}
})";

constexpr char kPartialReplication[] = R"(
HloModule partial, num_partitions=$N
ENTRY main {
  a = f32[8,8] parameter(0), sharding={devices=[2,1,$H]<=[$N] last_tile_dim_replicate}
  b = f32[8,8] parameter(1), sharding={devices=[2,1,$H]<=[$N] last_tile_dim_replicate}
  m = f32[8,8] multiply(a, b)
  ROOT s = f32[8,8] add(m, a), sharding={devices=[1,$N]<=[$N]}
})";

constexpr char kUneven[] = R"(
HloModule uneven, num_partitions=$N
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  a = f32[10,6] parameter(0), sharding={devices=[$N,1]<=[$N]}
  w = f32[6,5] parameter(1), sharding={devices=[1,$N]<=[$N]}
  e = f32[10,6] exponential(a)
  d = f32[10,5] dot(e, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  z = f32[] constant(0)
  r = f32[10] reduce(d, z), dimensions={1}, to_apply=add
  ROOT t = (f32[10,5], f32[10]) tuple(d, r)
})";

std::unique_ptr<HloModule> ParseFor(const char* text, int64_t n) {
  std::string t = absl::StrReplaceAll(
      text, {{"$N", absl::StrCat(n)}, {"$H", absl::StrCat(std::max<int64_t>(n / 2, 1))}});
  auto module = ParseHloModule(t);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

// The instructions of `c` with the collective `opcode`, after checking that
// no other collective is there (each form under test needs only the ones
// it names).
std::vector<const HloInstruction*> OnlyCollective(const HloComputation& c, HloOpcode opcode) {
  std::vector<const HloInstruction*> out;
  for (const HloInstruction* h : c.instructions()) {
    if (h->opcode() == opcode) {
      out.push_back(h);
    } else {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
    }
  }
  return out;
}

// Partitions `module` for `n` partitions, runs every partition on its
// tiles of `args` in the multi-participant interpreter (the collectives'
// rendezvous as the runtime's), assembles the result and compares it with
// the module on one device. Each partition's parameter is 1/tiles of the
// full array (of the array padded to whole tiles where they are uneven).
void ExpectPartitionedMatches(const HloModule& module, int64_t n,
                              const std::vector<Literal>& args) {
  std::unique_ptr<HloModule> single = module.Clone();
  single->mutable_config()->num_partitions = 1;
  HloEvaluator evaluator;
  auto expected = evaluator.Evaluate(*single, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  auto partitioned = PartitionSpmd(module, n);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  ASSERT_TRUE(VerifyHloModule(*partitioned->module).ok()) << VerifyHloModule(*partitioned->module);
  const HloComputation* entry = partitioned->module->entry_computation();
  for (int64_t i = 0; i < entry->num_parameters(); ++i) {
    const HloSharding& s = partitioned->parameter_shardings[i];
    const int64_t local = entry->parameter_instruction(i)->shape().ElementCount();
    int64_t padded = 1;
    for (int64_t d = 0; d < static_cast<int64_t>(args[i].shape().dimensions().size()); ++d) {
      const int64_t tiles = s.IsTiled() ? s.tile_dims()[d] : 1;
      padded *= (args[i].shape().dimensions()[d] + tiles - 1) / tiles * tiles;
    }
    EXPECT_EQ(local * s.DataTileCount(), padded) << "parameter " << i;
  }
  auto per_partition = SplitArguments(args, *partitioned);
  ASSERT_TRUE(per_partition.ok()) << per_partition.status();
  auto results = EvaluateReplicated(*partitioned->module, *per_partition, {});
  ASSERT_TRUE(results.ok()) << results.status();
  auto assembled = AssembleTiles(*results, expected->shape(), partitioned->result_sharding);
  ASSERT_TRUE(assembled.ok()) << assembled.status();
  EXPECT_TRUE(CompareLiteralsWithDefaultTolerance(*expected, *assembled).ok())
      << CompareLiteralsWithDefaultTolerance(*expected, *assembled);
}

// `text` at `n` partitions on seeded arguments, its integer arguments
// (embedding ids) in [0, 32), or with `ids_out_of_range` in [-20, 60).
void ExpectMatchesTheInterpreter(const char* text, int64_t n, bool ids_out_of_range = false) {
  SCOPED_TRACE(absl::StrCat(n, " partitions"));
  std::unique_ptr<HloModule> module = ParseFor(text, n);
  ASSERT_NE(module, nullptr);
  std::vector<Literal> args = RandomArguments(*module, 3);
  for (Literal& a : args) {
    if (a.shape().element_type() != S32 && a.shape().element_type() != S64) continue;
    for (int64_t i = 0; i < a.element_count(); ++i) {
      a.SetFromInt64(i, ids_out_of_range ? (i * 37) % 80 - 20 : (i * 7) % 32);
    }
  }
  ExpectPartitionedMatches(*module, n, args);
}

// Checks `text` at `n` partitions against the interpreter, then returns
// it partitioned (nullopt after a failure it reported).
std::optional<PartitionedModule> CheckedPartition(const char* text, int64_t n,
                                                  bool ids_out_of_range = false) {
  ExpectMatchesTheInterpreter(text, n, ids_out_of_range);
  std::unique_ptr<HloModule> module = ParseFor(text, n);
  if (module == nullptr) return std::nullopt;
  absl::StatusOr<PartitionedModule> partitioned = PartitionSpmd(*module, n);
  EXPECT_TRUE(partitioned.ok()) << partitioned.status();
  if (!partitioned.ok()) return std::nullopt;
  return *std::move(partitioned);
}

TEST(SpmdPartitionerTest, EveryProgramMatchesTheInterpreterAt2And4And8Partitions) {
  for (const char* program : {kMlp, kAttention, kConv, kEmbedding, kReshard}) {
    for (int64_t n : {2, 4, 8}) ExpectMatchesTheInterpreter(program, n);
  }
  for (int64_t n : {4, 8}) ExpectMatchesTheInterpreter(kPartialReplication, n);
  // Tiles that do not divide 10, 6 or 5 evenly: padded.
  for (int64_t n : {4, 8}) ExpectMatchesTheInterpreter(kUneven, n);
}

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

// What each partition communicates, as aot-run reports it: per kind, the
// count and the bytes of the results.
TEST(SpmdPartitionerTest, DescribeCollectivesCountsKindsAndBytes) {
  std::unique_ptr<HloModule> mlp = ParseFor(kMlp, 4);
  ASSERT_NE(mlp, nullptr);
  auto partitioned = PartitionSpmd(*mlp, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  EXPECT_EQ(DescribeCollectives(*partitioned->module), "1 all-reduce (4 KiB)");  // f32[16,64]
  std::unique_ptr<HloModule> conv = ParseFor(kConv, 4);
  ASSERT_NE(conv, nullptr);
  auto halos = PartitionSpmd(*conv, 4);
  ASSERT_TRUE(halos.ok()) << halos.status();
  // Two f32[1,1,16,2] rows.
  EXPECT_EQ(DescribeCollectives(*halos->module), "2 collective-permute (256 B)");
  std::unique_ptr<HloModule> attention = ParseFor(kAttention, 4);
  ASSERT_NE(attention, nullptr);
  auto heads = PartitionSpmd(*attention, 4);
  ASSERT_TRUE(heads.ok()) << heads.status();
  EXPECT_EQ(DescribeCollectives(*heads->module), "no collectives");
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

// Resharding between dimensions with the devices in one order: one
// all-to-all each way (rows to columns, and the minor dimension of a rank-3
// value to its major one); nothing gathered, nothing summed.
constexpr char kAllToAll[] = R"(
HloModule all_to_all, num_partitions=$N
ENTRY main {
  a = f32[16,24] parameter(0), sharding={devices=[$N,1]<=[$N]}
  c = f32[16,24] parameter(1), sharding={devices=[1,$N]<=[$N]}
  s = f32[16,24] add(a, c), sharding={devices=[1,$N]<=[$N]}
  x = f32[8,3,16] parameter(2), sharding={devices=[1,1,$N]<=[$N]}
  y = f32[8,3,16] sine(x), sharding={devices=[$N,1,1]<=[$N]}
  ROOT t = (f32[16,24], f32[8,3,16]) tuple(s, y)
})";

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
    int64_t permutes = 0;
    for (const HloInstruction* h :
         OnlyCollective(*partitioned->module->entry_computation(), HloOpcode::kCollectivePermute)) {
      ++permutes;
    }
    EXPECT_EQ(permutes, c.permutes);
    EXPECT_EQ(partitioned->module->entry_computation()->root_instruction()->shape().dimensions(),
              (std::vector<int64_t>{16 / c.n, 4}));
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

// A loop over layers (lax.scan's while) with the activations split by
// batch rows and the weight split by columns: the body runs on tiles (the
// dot on the tile, its result gathered back to the state's rows inside the
// body), the condition on the replicated counter; nothing outside the loop
// is gathered.
constexpr char kScan[] = R"(
HloModule scan, num_partitions=$N
body {
  p = (s32[], f32[16,32], f32[32,32]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[16,32] get-tuple-element(p), index=1
  w = f32[32,32] get-tuple-element(p), index=2
  one = s32[] constant(1)
  next = s32[] add(i, one)
  y = f32[16,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[16,32] tanh(y)
  ROOT r = (s32[], f32[16,32], f32[32,32]) tuple(next, t, w)
}
cond {
  p = (s32[], f32[16,32], f32[32,32]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}
ENTRY main {
  x = f32[16,32] parameter(0), sharding={devices=[$N,1]<=[$N]}
  w = f32[32,32] parameter(1), sharding={replicated}
  zero = s32[] constant(0)
  init = (s32[], f32[16,32], f32[32,32]) tuple(zero, x, w)
  loop = (s32[], f32[16,32], f32[32,32]) while(init), condition=cond, body=body
  ROOT out = f32[16,32] get-tuple-element(loop), index=1
})";

TEST(SpmdPartitionerTest, LoopBodiesArePartitionedWithTheLoopState) {
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kScan, n);
    ASSERT_TRUE(partitioned.has_value());
    const HloInstruction* loop = nullptr;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      if (h->opcode() == HloOpcode::kWhile) loop = h;
    }
    ASSERT_NE(loop, nullptr);
    // The state's activations are the batch tile.
    EXPECT_EQ(loop->shape().tuple_shapes()[1].dimensions(), (std::vector<int64_t>{16 / n, 32}));
    std::vector<std::vector<int64_t>> dots;
    for (const HloInstruction* h : loop->while_body()->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      if (h->opcode() == HloOpcode::kDot) dots.push_back(h->shape().dimensions());
    }
    EXPECT_THAT(dots, ::testing::ElementsAre(std::vector<int64_t>{16 / n, 32}));
  }
  // The weight split by columns instead (the state keeps it so): the body
  // gathers only the weight (one all-gather) and multiplies its rows' tile
  // by it; the activations are never gathered.
  const std::string by_columns = absl::StrReplaceAll(
      kScan, {{"w = f32[32,32] parameter(1), sharding={replicated}",
               "w = f32[32,32] parameter(1), sharding={devices=[1,$N]<=[$N]}"}});
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(by_columns.c_str(), n);
    ASSERT_TRUE(partitioned.has_value());
    const HloComputation* body = nullptr;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      if (h->opcode() == HloOpcode::kWhile) body = h->while_body();
    }
    ASSERT_NE(body, nullptr);
    std::vector<std::vector<int64_t>> gathered, dots;
    for (const HloInstruction* h : body->instructions()) {
      if (h->opcode() == HloOpcode::kAllGather)
        gathered.push_back(h->operand(0)->shape().dimensions());
      if (h->opcode() == HloOpcode::kDot) dots.push_back(h->shape().dimensions());
    }
    EXPECT_THAT(gathered, ::testing::ElementsAre(std::vector<int64_t>{32, 32 / n}));
    EXPECT_THAT(dots, ::testing::ElementsAre(std::vector<int64_t>{16 / n, 32}));
  }
}

// A conditional's branches run on the tiles of their operands.
TEST(SpmdPartitionerTest, ConditionalBranchesArePartitionedWithTheirOperands) {
  constexpr char kBranches[] = R"(
HloModule branches, num_partitions=$N
double {
  p = f32[16,8] parameter(0)
  ROOT d = f32[16,8] add(p, p)
}
negate {
  p = f32[16,8] parameter(0)
  ROOT n = f32[16,8] negate(p)
}
ENTRY main {
  x = f32[16,8] parameter(0), sharding={devices=[$N,1]<=[$N]}
  k = s32[] parameter(1), sharding={replicated}
  ROOT r = f32[16,8] conditional(k, x, x), branch_computations={double, negate}
})";
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kBranches, n);
    ASSERT_TRUE(partitioned.has_value());
    for (const HloComputation* c : partitioned->module->computations()) {
      for (const HloInstruction* h : c->instructions()) {
        EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
        if (h->opcode() == HloOpcode::kConditional || h->opcode() == HloOpcode::kNegate) {
          EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{16 / n, 8})) << h->name();
        }
      }
    }
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

// A partially manual region (shard_map over the 'y' axis of a 2x4 mesh,
// 'x' left automatic): the columns are manual (each shard its own 16x8
// block), the rows split over 'x' inside each shard. Reversing the rows
// gathers them within each manual shard only (groups of 2); a collective
// written in such a region, or device lists that disagree, are refused by
// name.
constexpr char kPartialManual[] = R"(
HloModule partial_manual, num_partitions=8
ENTRY main {
  x = f32[16,32] parameter(0), sharding={devices=[2,4]<=[8]}
  s = f32[16,8] custom-call(x), custom_call_target="SPMDFullToShardShape", sharding={devices=[2,1,4]<=[8] last_tile_dims={manual}}
  e = f32[16,8] exponential(s), sharding={devices=[2,1,4]<=[8] last_tile_dims={manual}}
  r = f32[16,8] reverse(e), dimensions={0}, sharding={devices=[2,1,4]<=[8] last_tile_dims={manual}}
  ROOT f = f32[16,32] custom-call(r), custom_call_target="SPMDShardToFullShape", sharding={devices=[2,4]<=[8]}
})";

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

TEST(SpmdPartitionerTest, WrongDeviceCountsAreRefusedNamingTheInstruction) {
  auto wrong = ParseHloModule(R"(
HloModule m, num_partitions=8
ENTRY main {
  ROOT a = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
})");
  ASSERT_TRUE(wrong.ok());
  auto q = PartitionSpmd(**wrong, 8);
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.status().message(), HasSubstr("names 4 devices; the program runs on 8"));
}

// A module without any sharding whose collectives are written out is a
// per-device program (XLA's output after SPMD partitioning): refused with
// the way to run it; with shardings elsewhere, the plain refusal.
TEST(SpmdPartitionerTest, AlreadyPartitionedProgramsAreRefusedWithTheWayToRunThem) {
  constexpr char kPerDevice[] = R"(
HloModule per_device, num_partitions=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[4,8] parameter(0)$S
  ROOT r = f32[4,8] all-reduce(x), channel_id=1, replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=add
})";
  auto bare = ParseHloModule(absl::StrReplaceAll(kPerDevice, {{"$S", ""}}));
  ASSERT_TRUE(bare.ok()) << bare.status();
  auto p = PartitionSpmd(**bare, 4);
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("instruction 'r' (all-reduce)"));
  EXPECT_THAT(p.status().message(), HasSubstr("looks partitioned already"));
  EXPECT_THAT(p.status().message(), HasSubstr("without --num_partitions"));
  auto annotated =
      ParseHloModule(absl::StrReplaceAll(kPerDevice, {{"$S", ", sharding={replicated}"}}));
  ASSERT_TRUE(annotated.ok()) << annotated.status();
  auto q = PartitionSpmd(**annotated, 4);
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.status().message(), HasSubstr("collectives outside a manual region"));
  EXPECT_THAT(q.status().message(), ::testing::Not(HasSubstr("partitioned already")));
}

// A random sharding of a value of `dims` over `n` devices (a power of
// two): each dimension split 1, 2, 4 or 8 ways (evenly or not), the
// remaining factor replicated, the devices in order or shuffled.
std::string RandomSharding(const std::vector<int64_t>& dims, int64_t n, std::mt19937& rng) {
  if (dims.empty() || rng() % 5 == 0) return "{replicated}";
  std::vector<int64_t> tiles(dims.size(), 1);
  int64_t left = n;
  for (size_t d = 0; d < dims.size() && left > 1; ++d) {
    const int64_t split = int64_t{1} << (rng() % 4);  // 1, 2, 4, 8
    if (split <= left && split <= dims[d]) {
      tiles[d] = split;
      left /= split;
    }
  }
  std::vector<int64_t> devices(n);
  std::iota(devices.begin(), devices.end(), 0);
  if (rng() % 2 == 0) std::shuffle(devices.begin(), devices.end(), rng);
  if (left > 1) tiles.push_back(left);
  return absl::StrCat("{devices=[", absl::StrJoin(tiles, ","), "]", absl::StrJoin(devices, ","),
                      left > 1 ? " last_tile_dim_replicate}" : "}");
}

// Every module of the spmd corpus with its parameters, or any of its entry
// instructions, sharded at random (uneven tiles, partial replication and
// shuffled devices among them; the other shardings written in the module
// kept), at 8 partitions:
// partitioned, run in the multi-participant interpreter and assembled, it
// matches the single-device interpreter. Seeded: the same trials every run.
TEST(SpmdPartitionerTest, CorpusModulesWithRandomParameterShardingsMatchTheInterpreter) {
  std::mt19937 rng(20261206);
  int checked = 0;
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator("golden/modules/spmd")) {
    if (entry.path().extension() == ".hlo") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  ASSERT_GE(paths.size(), 14u);
  for (const std::filesystem::path& path : paths) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    for (int trial = 0; trial < 24; ++trial) {
      auto module = ParseHloModule(text.str());
      ASSERT_TRUE(module.ok()) << path << ": " << module.status();
      // Even trials: the parameters; odd ones: any entry instruction (two
      // in three), so every rule meets operands and results sharded in
      // ways no propagation would choose.
      std::vector<std::string> chosen;
      const bool everywhere = trial % 2 == 1;
      std::vector<HloInstruction*> targets =
          everywhere ? (*module)->entry_computation()->MakeInstructionPostOrder()
                     : (*module)->entry_computation()->parameter_instructions();
      for (HloInstruction* h : targets) {
        if (!h->shape().IsArray() || (everywhere && rng() % 3 == 0)) continue;
        h->mutable_attrs()->sharding = RandomSharding(h->shape().dimensions(), 8, rng);
        chosen.push_back(absl::StrCat(h->name(), "=", h->attrs().sharding));
      }
      SCOPED_TRACE(absl::StrCat(path.string(), " with ", absl::StrJoin(chosen, " ")));
      ExpectPartitionedMatches(**module, 8, RandomArguments(**module, 100 + trial));
      ++checked;
    }
  }
  EXPECT_GE(checked, 14 * 24);
}

}  // namespace
}  // namespace aot
