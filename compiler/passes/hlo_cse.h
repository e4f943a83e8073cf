#ifndef AOT_COMPILER_PASSES_HLO_CSE_H_
#define AOT_COMPILER_PASSES_HLO_CSE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// Common subexpression elimination [cse]: within each computation (fusion
// computations excepted), an instruction identical to an earlier one is
// replaced by it. Identical means: same opcode, the same operands in the
// same order, the same shape including layouts, the same attributes
// (metadata aside), constants equal bit for bit (so 0.0 and -0.0 differ,
// and NaNs are equal only with the same bits), and the very same called
// computations. Parameters, side-effecting custom-calls and random draws
// (rng, rng-get-and-update-state) are never merged. Iterates in definition order, so the kept
// instruction is always the earlier one.
class HloCse : public HloPass {
 public:
  static constexpr absl::string_view kName = "cse";
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

// Whether `a` and `b` compute the same value by the rules above (operands
// compared by identity).
bool InstructionsAreIdentical(const HloInstruction& a, const HloInstruction& b);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_HLO_CSE_H_
