// Reduce and reduce-window on tiles.
#include "compiler/passes/spmd_partitioner_internal.h"

namespace aot {
namespace spmd_internal {

std::optional<HloInstruction*> Partitioner::ReduceWindowOnTiles(const HloInstruction& h,
                                                                const HloSharding& s) {
  if (h.opcode() != HloOpcode::kReduceWindow || h.operand_count() != 2 || !s.IsTiled() ||
      !h.shape().IsArray() || !h.attrs().window || !(sharding_.at(h.operand(0)) == s) ||
      sharding_.at(h.operand(1)).IsTiled()) {
    return std::nullopt;
  }
  for (int64_t d = 0; d < s.DataRank(); ++d) {
    if (s.tile_dims()[d] == 1) continue;
    if (d >= h.attrs().window->dimensions_size()) return std::nullopt;
    const WindowDimensionProto& w = h.attrs().window->dimensions(d);
    if (w.size() != 1 || w.stride() > 1 || w.padding_low() != 0 || w.padding_high() != 0 ||
        w.window_dilation() > 1 || w.base_dilation() > 1) {
      return std::nullopt;
    }
  }
  absl::StatusOr<Shape> local = Local(h.shape(), s, DescribeInstruction(h));
  if (!local.ok()) return std::nullopt;
  return Again(h, {local_.at(h.operand(0)), local_.at(h.operand(1))}, *local);
}

absl::StatusOr<std::optional<HloInstruction*>> Partitioner::PartitionSplitReduce(
    InstructionBuilder& b, const HloInstruction& h, const HloSharding& s, const std::string& what) {
  const HloSharding& in = sharding_.at(h.operand(0));
  const HloInstruction* init = h.operand(1);
  const HloComputation* reducer = h.to_apply();
  if (!in.IsTiled() || sharding_.at(init).IsTiled() || reducer == nullptr ||
      !IsEven(h.operand(0)->shape(), in) || init->opcode() != HloOpcode::kConstant ||
      !init->attrs().literal) {
    return std::optional<HloInstruction*>();
  }
  bool splits_reduced = false;
  for (int64_t d : h.attrs().dimensions) splits_reduced |= in.tile_dims()[d] > 1;
  if (!splits_reduced) return std::optional<HloInstruction*>();
  const HloInstruction* root = reducer->root_instruction();
  if (root->operand_count() != 2 || root->operand(0)->opcode() != HloOpcode::kParameter ||
      root->operand(1)->opcode() != HloOpcode::kParameter) {
    return std::optional<HloInstruction*>();
  }
  const double v = init->attrs().literal->GetAsDouble(0);
  const bool identity = (root->opcode() == HloOpcode::kAdd && v == 0) ||
                        (root->opcode() == HloOpcode::kMultiply && v == 1) ||
                        (root->opcode() == HloOpcode::kMaximum && v == -HUGE_VAL) ||
                        (root->opcode() == HloOpcode::kMinimum && v == HUGE_VAL);
  std::optional<std::vector<int64_t>> m = OperandToResultMapping(h, 0);
  if (!identity || !m) return std::optional<HloInstruction*>();
  std::optional<HloSharding> mapped =
      MapSharding(in, static_cast<int64_t>(h.operand(0)->shape().dimensions().size()), *m);
  if (!mapped || !(*mapped == s) || !IsEven(h.shape(), s)) {
    return std::optional<HloInstruction*>();
  }
  // Groups: the partitions whose coordinates differ only in the reduced
  // dimensions.
  std::map<std::vector<int64_t>, std::vector<int64_t>> groups;
  for (int64_t p = 0; p < n_; ++p) {
    std::vector<int64_t> subgroup;
    std::vector<int64_t> key = *TileCoordinates(in, p, &subgroup);
    for (int64_t d : h.attrs().dimensions) key[d] = -1;
    key.insert(key.end(), subgroup.begin(), subgroup.end());
    groups[key].push_back(p);
  }
  AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
  HloInstruction* partial = Again(h, {local_.at(h.operand(0)), local_.at(h.operand(1))}, local);
  HloInstruction* sum = b.Op(HloOpcode::kAllReduce, local, {partial});
  std::vector<std::vector<int64_t>> members;
  for (const auto& [key, group] : groups) members.push_back(group);
  Groups(sum, members);
  *sum->mutable_called_computations() = {h.called_computations()[0]};
  return std::optional<HloInstruction*>(sum);
}

}  // namespace spmd_internal
}  // namespace aot
