#include "compiler/passes/constant_folding.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

bool IsFoldableOpcode(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kIota:
    case HloOpcode::kBroadcast:
    case HloOpcode::kCustomCall:
    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
    case HloOpcode::kCall:
    case HloOpcode::kFusion:
    case HloOpcode::kTuple:
    case HloOpcode::kReplicaId:
    case HloOpcode::kPartitionId:
      return false;
    default:
      return true;
  }
}

bool ShouldFold(const HloInstruction& h, const ConstantFoldingOptions& options) {
  // A collective's value depends on the other participants.
  if (IsCollectiveOpcode(h.opcode()) || DrawsRandomState(h)) return false;
  if (!IsFoldableOpcode(h.opcode()) || h.operand_count() == 0) return false;
  if (!h.shape().IsArray()) return false;
  if (h.shape().ElementCount() > options.max_result_elements) return false;
  for (const HloInstruction* op : h.operands()) {
    if (op->opcode() != HloOpcode::kConstant || !op->attrs().literal ||
        op->attrs().literal_was_elided) {
      return false;
    }
  }
  return true;
}

// The value of `h` from its constant operands, or an error.
absl::StatusOr<Literal> Evaluate(const HloInstruction& h, HloEvaluator& evaluator) {
  HloComputation scratch("constant_folding");
  std::vector<HloInstruction*> parameters;
  std::vector<const Literal*> arguments;
  for (int64_t i = 0; i < h.operand_count(); ++i) {
    const HloInstruction* op = h.operand(i);
    parameters.push_back(scratch.AddInstruction(
        HloInstruction::CreateParameter(i, op->shape(), absl::StrCat("operand.", i))));
    arguments.push_back(&op->literal());
  }
  HloInstruction* clone = scratch.AddInstruction(CloneWithOperands(h, parameters));
  scratch.set_root_instruction(clone);
  return evaluator.EvaluateComputation(scratch, arguments);
}

}  // namespace

absl::StatusOr<bool> ConstantFolding::Run(HloModule* module) {
  HloEvaluator evaluator;
  // What folding leaves unused goes; then the canonical order.
  auto fold = [&](HloComputation* c) -> absl::StatusOr<bool> {
    NameUniquer names = NameUniquer::ForInstructions(*c);
    bool c_changed = false;
    for (HloInstruction* h : c->instructions()) {
      if (h->user_count() == 0 && h != c->root_instruction()) continue;
      if (!ShouldFold(*h, options_)) continue;
      absl::StatusOr<Literal> value = Evaluate(*h, evaluator);
      if (!value.ok()) continue;  // Not foldable here; leave it.
      if (!value->shape().IsArray() || value->shape().dimensions() != h->shape().dimensions() ||
          value->shape().element_type() != h->shape().element_type()) {
        continue;
      }
      Literal literal = *std::move(value);
      literal.set_layout(h->shape().LayoutOrDefault());
      auto constant = HloInstruction::CreateConstant(std::move(literal));
      *constant->mutable_shape() = h->shape();
      constant->set_name(names.GetUniqueName("constant"));
      HloInstruction* added = AddWithNewId(c, std::move(constant));
      h->ReplaceAllUsesWith(added);
      c_changed = true;
    }
    return c_changed;
  };
  return RewriteUnfusedComputations(module, AfterRewrite::kRemoveDeadAndReorder, fold);
}

}  // namespace aot
