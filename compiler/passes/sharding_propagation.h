#ifndef AOT_COMPILER_PASSES_SHARDING_PROPAGATION_H_
#define AOT_COMPILER_PASSES_SHARDING_PROPAGATION_H_

// Sharding propagation (XLA's ShardingPropagation, simplified): from the
// instructions a program annotates (sharding={...}) to the others, forward
// (from operands) and backward (from users), until nothing changes. The
// SPMD partitioner reads the result; it is not in the default pipeline
// (`aotc --passes=sharding-propagation` runs it alone).
//
// Per op family, how a sharding maps between an instruction and its
// operand (MapSharding below does the device bookkeeping):
// - elementwise, copy, convert, clamp, select, slice, pad, reverse,
//   dynamic-slice's operand, a one-operand sort, a one-operand
//   reduce-window (pooling), a one-operand all-reduce or
//   collective-permute (across replicas: elementwise): the same sharding;
// - broadcast: the operand's dimensions go to their `dimensions`; split
//   result dimensions the operand lacks become replication going back;
// - transpose: the tiles permuted;
// - reshape: where each split dimension keeps its size and order (a split
//   dimension merged or split by the reshape stops the propagation);
// - reduce: the reduced dimensions dropped (their tiles become replication:
//   each partition holds a partial result), and added back as 1 going back;
// - dot: batch and free dimensions map to the result; split contracting
//   dimensions become replication (partial sums); operands split along
//   different result dimensions merge (MergeShardings); going back, each
//   operand takes the result's tiles of its own dimensions;
// - convolution: batch and feature dimensions as dot's, spatial dimensions
//   kept (the partitioner adds halos);
// - concatenate: the same sharding, all operands alike;
// - gather: passthrough dimensions only: the table's dimensions each slice
//   takes whole map to the offset dimensions, the indices' batch
//   dimensions to the result's other dimensions;
// - scatter: the operand's sharding is the result's; the updates' window
//   dimensions that span an operand dimension map to it;
// - get-tuple-element, tuple: the element's sharding (a tuple waits for
//   its elements', scalars counting as replicated; once nothing else
//   changes, a second round takes elements still unknown as replicated);
// - while, conditional, call: the operands' shardings to the parameters of
//   the bodies, the body roots' to the results.
// Tuple-shaped sorts and other families are left to a later pass (their
// values stay unannotated, which the partitioner treats as replicated).
//
// Ties are resolved deterministically: forward before backward; among
// operands, the one whose sharding splits the data into the most tiles,
// then the first in operand order; among users, the first in the order
// they were added to the instruction. A sharding the program wrote is never changed.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_sharding.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// `source` (of a value of rank `source_rank`) as the sharding of a value of
// rank `mapping.size()` whose dimension j is source dimension mapping[j]
// (-1: a dimension the source lacks, one tile). Split source dimensions no
// j names become replication. Replicated and maximal shardings map to
// themselves; nullopt where the mapping cannot be expressed (manual
// subgroups).
std::optional<HloSharding> MapSharding(const HloSharding& source, int64_t source_rank,
                                       const std::vector<int64_t>& mapping);

// The sharding that splits each data dimension as whichever of `a` and `b`
// splits it (both of the same rank and device count), each device keeping
// its tile coordinates from both: a value split by rows over one mesh axis
// and by columns over the other combines into the 2-D split. nullopt where
// they split a dimension differently or the devices do not form an even
// grid.
std::optional<HloSharding> MergeShardings(const HloSharding& a, const HloSharding& b);

// How operand `k` of `instruction` maps to its result: result dimension j
// is operand dimension mapping[j] (-1: none). nullopt for the families the
// propagation does not go through.
std::optional<std::vector<int64_t>> OperandToResultMapping(const HloInstruction& instruction,
                                                           int64_t k);

class ShardingPropagation : public HloPass {
 public:
  static constexpr absl::string_view kName = "sharding-propagation";
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_SHARDING_PROPAGATION_H_
