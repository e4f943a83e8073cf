#ifndef AOT_COMPILER_PASSES_CONSTANT_FOLDING_H_
#define AOT_COMPILER_PASSES_CONSTANT_FOLDING_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// Constant folding [constant-folding]: an instruction whose operands are
// all constants is replaced by a constant holding its value, computed by
// the reference interpreter (HloEvaluator), so folding is bit-exact with
// the interpreter's semantics. Folding cascades within one run.
// Never folded:
//  - results with a tuple shape or more than max_result_elements elements;
//  - parameter, constant, iota and broadcast (they would only materialize
//    big constants from small ones), instructions without operands
//    (replica-id, partition-id), rng (it draws from the executable's
//    state), custom-call, while, conditional, call,
//    fusion, tuple, and anything reading a constant whose data was elided
//    in the HLO text (constant({...}));
//  - instructions the interpreter rejects (left as they are).
// Fusion computations are left alone.
class ConstantFolding : public HloPass {
 public:
  static constexpr absl::string_view kName = "constant-folding";
  ConstantFolding() = default;
  explicit ConstantFolding(const ConstantFoldingOptions& options) : options_(options) {}
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;

 private:
  ConstantFoldingOptions options_;
};

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_CONSTANT_FOLDING_H_
