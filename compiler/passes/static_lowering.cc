#include "compiler/passes/static_lowering.h"

#include <memory>
#include <utility>

#include "compiler/passes/pass_utils.h"

namespace aot {

absl::StatusOr<bool> LowerStaticOpcodes(HloModule* module) {
  auto lower = [](HloComputation* c) -> absl::StatusOr<bool> {
    NameUniquer names = NameUniquer::ForInstructions(*c);
    bool changed = false;
    for (HloInstruction* h : c->instructions()) {
      if (h->opcode() == HloOpcode::kOptimizationBarrier) {
        h->ReplaceAllUsesWith(h->operand(0));
        changed = true;
      } else if (h->opcode() == HloOpcode::kGetDimensionSize) {
        // The verifier has checked the one dimension against the rank.
        Literal size(Shape::Scalar(S32));
        size.SetFromInt64(0, h->operand(0)->shape().dimensions(h->attrs().dimensions[0]));
        auto constant = HloInstruction::CreateConstant(std::move(size));
        constant->set_name(names.GetUniqueName(h->name()));
        h->ReplaceAllUsesWith(AddWithNewId(c, std::move(constant)));
        changed = true;
      } else if (h->opcode() == HloOpcode::kAddDependency || h->opcode() == HloOpcode::kDomain) {
        h->ReplaceAllUsesWith(h->operand(0));
        changed = true;
      } else if (h->opcode() == HloOpcode::kCopyDone &&
                 h->operand(0)->opcode() == HloOpcode::kCopyStart) {
        h->ReplaceAllUsesWith(h->operand(0)->operand(0));
        changed = true;
      } else if (h->opcode() == HloOpcode::kAsyncDone) {
        // The verifier has checked the chain down to its async-start.
        const HloInstruction* start = h->operand(0);
        while (start->opcode() == HloOpcode::kAsyncUpdate) start = start->operand(0);
        auto call = HloInstruction::Create(HloOpcode::kCall, h->shape(), start->operands());
        *call->mutable_called_computations() = start->called_computations();
        call->set_name(names.GetUniqueName(h->name()));
        h->ReplaceAllUsesWith(AddWithNewId(c, std::move(call)));
        changed = true;
      }
    }
    return changed;
  };
  return RewriteUnfusedComputations(module, AfterRewrite::kRemoveDeadAndReorder, lower);
}

}  // namespace aot
