#include "compiler/passes/call_inliner.h"

#include <map>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// Inlines one call; returns the instruction that replaces it.
absl::StatusOr<HloInstruction*> InlineOne(HloInstruction* call) {
  HloComputation* caller = call->parent();
  const HloComputation* callee = call->to_apply();
  if (callee == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("call '", call->name(), "' has no callee"));
  }
  std::map<const HloInstruction*, HloInstruction*> mapped;
  for (int64_t i = 0; i < callee->num_parameters(); ++i) {
    mapped[callee->parameter_instruction(i)] = call->operand(i);
  }
  // Instructions are inserted before the call's position in definition
  // order: append them, then the caller's post order takes care of order.
  for (const HloInstruction* instr : callee->MakeInstructionPostOrder()) {
    if (instr->opcode() == HloOpcode::kParameter) continue;
    std::vector<HloInstruction*> operands;
    for (const HloInstruction* op : instr->operands()) operands.push_back(mapped.at(op));
    auto clone = HloInstruction::Create(instr->opcode(), instr->shape(), operands);
    clone->set_name(absl::StrCat(call->name(), ".", instr->name()));
    *clone->mutable_attrs() = instr->attrs();
    *clone->mutable_called_computations() = instr->called_computations();
    clone->set_unique_id(caller->parent()->NewUniqueId());
    mapped[instr] = caller->AddInstruction(std::move(clone));
  }
  HloInstruction* replacement = mapped.at(callee->root_instruction());
  call->ReplaceAllUsesWith(replacement);
  AOT_RETURN_IF_ERROR(caller->RemoveInstruction(call));
  return replacement;
}

// A copy of `original` in `module`, its instructions renamed with `suffix`.
HloComputation* CopyComputation(HloModule* module, const HloComputation& original,
                                absl::string_view suffix) {
  auto copy = std::make_unique<HloComputation>(absl::StrCat(original.name(), suffix));
  copy->set_unique_id(module->NewUniqueId());
  std::map<const HloInstruction*, HloInstruction*> mapped;
  for (const HloInstruction* instr : original.MakeInstructionPostOrder()) {
    std::vector<HloInstruction*> operands;
    for (const HloInstruction* op : instr->operands()) operands.push_back(mapped.at(op));
    std::unique_ptr<HloInstruction> clone = CloneWithOperands(*instr, operands);
    clone->set_name(absl::StrCat(instr->name(), suffix));
    clone->set_unique_id(module->NewUniqueId());
    mapped[instr] = copy->AddInstruction(std::move(clone));
  }
  copy->set_root_instruction(mapped.at(original.root_instruction()));
  return module->AddComputation(std::move(copy));
}

}  // namespace

absl::StatusOr<bool> FlattenCallGraph(HloModule* module) {
  if (module->entry_computation() == nullptr) return false;
  std::set<const HloComputation*> claimed;
  int copies = 0;
  std::vector<HloComputation*> work = {module->entry_computation()};
  while (!work.empty()) {
    HloComputation* computation = work.back();
    work.pop_back();
    for (HloInstruction* instr : computation->MakeInstructionPostOrder()) {
      if (instr->opcode() != HloOpcode::kConditional && instr->opcode() != HloOpcode::kWhile) {
        continue;
      }
      for (HloComputation*& callee : *instr->mutable_called_computations()) {
        if (callee == nullptr) continue;
        if (!claimed.insert(callee).second) {
          callee = CopyComputation(module, *callee, absl::StrCat(".flat", ++copies));
          claimed.insert(callee);
        }
        work.push_back(callee);
      }
    }
  }
  return copies > 0;
}

absl::StatusOr<bool> InlineCalls(HloModule* module) {
  bool changed = false;
  bool again = true;
  while (again) {
    again = false;
    for (HloComputation* computation : module->computations()) {
      for (HloInstruction* instr : computation->MakeInstructionPostOrder()) {
        if (instr->opcode() != HloOpcode::kCall) continue;
        // The clones follow the call in definition order; consumers walk
        // MakeInstructionPostOrder, which puts operands first.
        AOT_RETURN_IF_ERROR(InlineOne(instr));
        changed = again = true;
        break;
      }
      if (again) break;
    }
  }
  if (changed) module->RemoveUnreachableComputations();
  return changed;
}

}  // namespace aot
