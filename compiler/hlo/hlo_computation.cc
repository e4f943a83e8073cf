#include "compiler/hlo/hlo_computation.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace aot {

HloInstruction* HloComputation::AddInstruction(std::unique_ptr<HloInstruction> instruction) {
  HloInstruction* raw = instruction.get();
  raw->set_parent(this);
  if (raw->opcode() == HloOpcode::kParameter) {
    int64_t n = raw->parameter_number();
    if (n >= 0) {
      if (static_cast<int64_t>(parameters_.size()) <= n) {
        parameters_.resize(n + 1, nullptr);
      }
      parameters_[n] = raw;
    }
  }
  instructions_.push_back(std::move(instruction));
  return raw;
}

absl::Status HloComputation::RemoveInstruction(HloInstruction* instruction) {
  if (instruction == root_) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot remove root instruction '", instruction->name(), "'"));
  }
  if (instruction->user_count() > 0) {
    return absl::FailedPreconditionError(absl::StrCat("cannot remove instruction '",
                                                      instruction->name(), "': it has ",
                                                      instruction->user_count(), " users"));
  }
  if (instruction->opcode() == HloOpcode::kParameter) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot remove parameter '", instruction->name(), "'"));
  }
  auto it = std::find_if(instructions_.begin(), instructions_.end(),
                         [&](const auto& p) { return p.get() == instruction; });
  if (it == instructions_.end()) {
    return absl::NotFoundError(absl::StrCat("instruction '", instruction->name(),
                                            "' is not in computation '", name_, "'"));
  }
  instruction->DetachFromOperands();
  instructions_.erase(it);
  return absl::OkStatus();
}

std::vector<HloInstruction*> HloComputation::instructions() const {
  std::vector<HloInstruction*> out;
  out.reserve(instructions_.size());
  for (const auto& i : instructions_) out.push_back(i.get());
  return out;
}

std::vector<HloInstruction*> HloComputation::MakeInstructionPostOrder() const {
  // A depth-first post order started from every instruction in definition
  // order: each instruction comes after its operands, instructions already
  // in topological order keep their order, and instructions added out of
  // order (by passes) move after their operands.
  std::vector<HloInstruction*> order;
  order.reserve(instructions_.size());
  absl::flat_hash_set<const HloInstruction*> visited;
  std::vector<std::pair<HloInstruction*, size_t>> stack;
  for (const auto& start : instructions_) {
    if (!visited.insert(start.get()).second) continue;
    stack.push_back({start.get(), 0});
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->operands().size()) {
        HloInstruction* op = node->operand(next++);
        if (op->parent() == this && visited.insert(op).second) stack.push_back({op, 0});
      } else {
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
  return order;
}

HloInstruction* HloComputation::FindInstruction(absl::string_view name) const {
  for (const auto& i : instructions_) {
    if (i->name() == name) return i.get();
  }
  return nullptr;
}

std::string HloComputation::ToString() const {
  std::vector<std::string> params;
  for (const HloInstruction* p : parameters_) {
    if (p == nullptr) continue;
    params.push_back(absl::StrCat(p->name(), ": ", p->shape().ToString()));
  }
  std::string out = absl::StrCat("%", name_, " (", absl::StrJoin(params, ", "), ") -> ",
                                 root_ != nullptr ? root_->shape().ToString() : "()", " {\n");
  // Topological order (operands before users, whatever order instructions
  // were added in), so the text always parses back.
  for (const HloInstruction* i : MakeInstructionPostOrder()) {
    absl::StrAppend(&out, "  ", i == root_ ? "ROOT " : "", i->ToString(), "\n");
  }
  absl::StrAppend(&out, "}\n");
  return out;
}

HloComputationProto HloComputation::ToProto() const {
  HloComputationProto p;
  p.set_name(name_);
  p.set_id(unique_id_);
  for (const HloInstruction* i : MakeInstructionPostOrder()) {
    *p.add_instructions() = i->ToProto();
  }
  if (root_ != nullptr) p.set_root_id(root_->unique_id());
  ProgramShapeProto* ps = p.mutable_program_shape();
  for (const HloInstruction* param : parameters_) {
    if (param == nullptr) continue;
    *ps->add_parameters() = param->shape().ToProto();
    ps->add_parameter_names(param->name());
  }
  if (root_ != nullptr) *ps->mutable_result() = root_->shape().ToProto();
  p.set_is_fusion_computation(is_fusion_computation_);
  return p;
}

bool AddsItsTwoParameters(const HloComputation* computation) {
  if (computation == nullptr || computation->num_parameters() != 2) return false;
  const HloInstruction* root = computation->root_instruction();
  return root != nullptr && root->opcode() == HloOpcode::kAdd && root->operand_count() == 2 &&
         root->operand(0)->opcode() == HloOpcode::kParameter &&
         root->operand(1)->opcode() == HloOpcode::kParameter &&
         root->operand(0) != root->operand(1);
}

}  // namespace aot
