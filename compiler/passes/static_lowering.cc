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
      }
    }
    return changed;
  };
  return RewriteUnfusedComputations(module, AfterRewrite::kRemoveDeadAndReorder, lower);
}

}  // namespace aot
