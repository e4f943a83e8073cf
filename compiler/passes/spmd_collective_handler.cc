// The program's own collectives across replicas, on tiles.
#include "compiler/passes/spmd_partitioner_internal.h"

namespace aot {
namespace spmd_internal {

std::optional<HloInstruction*> Partitioner::AcrossReplicasOnTiles(InstructionBuilder& b,
                                                                  const HloInstruction& h,
                                                                  const HloSharding& s) {
  const HloOpcode op = h.opcode();
  if ((op != HloOpcode::kAllReduce && op != HloOpcode::kAllGather &&
       op != HloOpcode::kReduceScatter && op != HloOpcode::kCollectivePermute &&
       op != HloOpcode::kAllToAll) ||
      h.attrs().channel_id || h.attrs().use_global_device_ids || h.operand_count() != 1 ||
      !h.shape().IsArray() || s.kind() == HloSharding::Kind::kManual ||
      s.kind() == HloSharding::Kind::kTuple || manual_ != nullptr) {
    return std::nullopt;
  }
  for (int64_t d : h.attrs().dimensions) {
    if (s.IsTiled() && (d >= s.DataRank() || s.tile_dims()[d] > 1)) return std::nullopt;
  }
  const HloInstruction* o = h.operand(0);
  // The operand on the result's tiles (its shape differs only along the
  // collective's dimension, which is not split).
  absl::StatusOr<HloInstruction*> tile =
      Reshard(b, local_.at(o), o->shape(), sharding_.at(o), s, DescribeInstruction(h));
  absl::StatusOr<Shape> local = Local(h.shape(), s, DescribeInstruction(h));
  if (!tile.ok() || !local.ok()) return std::nullopt;
  return Again(h, {*tile}, *local);
}

}  // namespace spmd_internal
}  // namespace aot
