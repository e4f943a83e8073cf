#ifndef AOT_COMPILER_PASSES_SPMD_PARTITIONER_TEST_UTIL_H_
#define AOT_COMPILER_PASSES_SPMD_PARTITIONER_TEST_UTIL_H_

// The SPMD partitioner tests' programs (the spmd suite's kinds: tensor-parallel
// MLP, attention with heads sharded, a convolution split along a spatial
// dimension, an embedding gather from a sharded table, resharding between
// dimensions, partial replication) and their checks: each partition's tile
// of every argument in, the result tiles assembled, equal to the
// unpartitioned interpreter, run by the multi-participant interpreter (the
// collectives' rendezvous as the runtime's). Shared by the
// spmd_*_test.cc files, one per op family as the partitioner is split.

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
#include "compiler/passes/spmd_partitioner.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace spmd_testing {

inline constexpr char kMlp[] = R"(
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

inline constexpr char kAttention[] = R"(
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

inline constexpr char kConv[] = R"(
HloModule conv, num_partitions=$N
ENTRY main {
  x = f32[1,16,16,2] parameter(0), sharding={devices=[1,$N,1,1]<=[$N]}
  k = f32[3,3,2,4] parameter(1), sharding={replicated}
  ROOT y = f32[1,16,16,4] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})";

inline constexpr char kEmbedding[] = R"(
HloModule embedding, num_partitions=$N
ENTRY main {
  table = f32[32,8] parameter(0), sharding={devices=[$N,1]<=[$N]}
  ids = s32[6,1] parameter(1), sharding={replicated}
  ROOT g = f32[6,8] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}
})";

inline constexpr char kReshard[] = R"(
HloModule reshard, num_partitions=$N
ENTRY main {
  a = f32[16,16] parameter(0), sharding={devices=[$N,1]<=[$N]}
  c = f32[16,16] parameter(1), sharding={devices=[1,$N]<=[$N]}
  t = f32[16,16] transpose(a), dimensions={1,0}
  b = f32[16,16] add(t, c)
  r = f32[4,4,16] reshape(b)
  ROOT n = f32[4,4,16] negate(r), sharding={devices=[1,1,$N]<=[$N]}
})";

inline constexpr char kPartialReplication[] = R"(
HloModule partial, num_partitions=$N
ENTRY main {
  a = f32[8,8] parameter(0), sharding={devices=[2,1,$H]<=[$N] last_tile_dim_replicate}
  b = f32[8,8] parameter(1), sharding={devices=[2,1,$H]<=[$N] last_tile_dim_replicate}
  m = f32[8,8] multiply(a, b)
  ROOT s = f32[8,8] add(m, a), sharding={devices=[1,$N]<=[$N]}
})";

inline constexpr char kUneven[] = R"(
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

inline std::unique_ptr<HloModule> ParseFor(const char* text, int64_t n) {
  std::string t = absl::StrReplaceAll(
      text, {{"$N", absl::StrCat(n)}, {"$H", absl::StrCat(std::max<int64_t>(n / 2, 1))}});
  auto module = ParseHloModule(t);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

// The instructions of `c` with the collective `opcode`, after checking that
// no other collective is there (each form under test needs only the ones
// it names).
inline std::vector<const HloInstruction*> OnlyCollective(const HloComputation& c,
                                                         HloOpcode opcode) {
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
inline void ExpectPartitionedMatches(const HloModule& module, int64_t n,
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
inline void ExpectMatchesTheInterpreter(const char* text, int64_t n,
                                        bool ids_out_of_range = false) {
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
inline std::optional<PartitionedModule> CheckedPartition(const char* text, int64_t n,
                                                         bool ids_out_of_range = false) {
  ExpectMatchesTheInterpreter(text, n, ids_out_of_range);
  std::unique_ptr<HloModule> module = ParseFor(text, n);
  if (module == nullptr) return std::nullopt;
  absl::StatusOr<PartitionedModule> partitioned = PartitionSpmd(*module, n);
  EXPECT_TRUE(partitioned.ok()) << partitioned.status();
  if (!partitioned.ok()) return std::nullopt;
  return *std::move(partitioned);
}

// A partially manual region (shard_map over the 'y' axis of a 2x4 mesh,
// 'x' left automatic): the columns are manual (each shard its own 16x8
// block), the rows split over 'x' inside each shard. Reversing the rows
// gathers them within each manual shard only (groups of 2); a collective
// written in such a region, or device lists that disagree, are refused by
// name.
inline constexpr char kPartialManual[] = R"(
HloModule partial_manual, num_partitions=8
ENTRY main {
  x = f32[16,32] parameter(0), sharding={devices=[2,4]<=[8]}
  s = f32[16,8] custom-call(x), custom_call_target="SPMDFullToShardShape", sharding={devices=[2,1,4]<=[8] last_tile_dims={manual}}
  e = f32[16,8] exponential(s), sharding={devices=[2,1,4]<=[8] last_tile_dims={manual}}
  r = f32[16,8] reverse(e), dimensions={0}, sharding={devices=[2,1,4]<=[8] last_tile_dims={manual}}
  ROOT f = f32[16,32] custom-call(r), custom_call_target="SPMDShardToFullShape", sharding={devices=[2,4]<=[8]}
})";

// A loop over layers (lax.scan's while) with the activations split by
// batch rows and the weight split by columns: the body runs on tiles (the
// dot on the tile, its result gathered back to the state's rows inside the
// body), the condition on the replicated counter; nothing outside the loop
// is gathered.
inline constexpr char kScan[] = R"(
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

// Resharding between dimensions with the devices in one order: one
// all-to-all each way (rows to columns, and the minor dimension of a rank-3
// value to its major one); nothing gathered, nothing summed.
inline constexpr char kAllToAll[] = R"(
HloModule all_to_all, num_partitions=$N
ENTRY main {
  a = f32[16,24] parameter(0), sharding={devices=[$N,1]<=[$N]}
  c = f32[16,24] parameter(1), sharding={devices=[1,$N]<=[$N]}
  s = f32[16,24] add(a, c), sharding={devices=[1,$N]<=[$N]}
  x = f32[8,3,16] parameter(2), sharding={devices=[1,1,$N]<=[$N]}
  y = f32[8,3,16] sine(x), sharding={devices=[$N,1,1]<=[$N]}
  ROOT t = (f32[16,24], f32[8,3,16]) tuple(s, y)
})";

}  // namespace spmd_testing
}  // namespace aot

#endif  // AOT_COMPILER_PASSES_SPMD_PARTITIONER_TEST_UTIL_H_
