// Sort on tiles.
#include "compiler/passes/spmd_partitioner_internal.h"

namespace aot {
namespace spmd_internal {

std::optional<HloInstruction*> Partitioner::SortOnTiles(const HloInstruction& h,
                                                        const HloSharding& s) {
  if (h.opcode() != HloOpcode::kSort || h.attrs().dimensions.size() != 1) return std::nullopt;
  const HloSharding& a = sharding_.at(h.operand(0));
  const int64_t d = h.attrs().dimensions[0];
  if (!a.IsTiled() || d >= a.DataRank() || a.tile_dims()[d] != 1) return std::nullopt;
  std::vector<HloInstruction*> operands;
  for (const HloInstruction* o : h.operands()) {
    if (!(sharding_.at(o) == a) || !IsEven(o->shape(), a)) return std::nullopt;
    operands.push_back(local_.at(o));
  }
  for (const HloSharding& leaf : LeafShardings(s, h.shape())) {
    if (!(leaf == a)) return std::nullopt;
  }
  absl::StatusOr<Shape> local = Local(h.shape(), s, DescribeInstruction(h));
  if (!local.ok()) return std::nullopt;
  return Again(h, operands, *local);
}

}  // namespace spmd_internal
}  // namespace aot
