#ifndef AOT_COMPILER_INTERPRETER_EVALUATOR_H_
#define AOT_COMPILER_INTERPRETER_EVALUATOR_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/literal.h"
#include "compiler/interpreter/custom_call_registry.h"

namespace aot {

// The reference interpreter: evaluates HLO with XLA's semantics, one
// instruction at a time, on Literals (row-major logical data, so layouts
// never change a result). It is the oracle compiled results are checked
// against, in the role of XLA's HloEvaluator / Interpreter platform.
//
// Semantics worth knowing (the details are in the kernels):
//  - f16/bf16 arithmetic is done in float and rounded back to nearest even
//    after every op; f32 in float; f64 in double.
//  - Integer arithmetic wraps; x/0 = -1 (signed) or all ones (unsigned),
//    x%0 = x, INT_MIN/-1 = INT_MIN, INT_MIN%-1 = 0; shifts by >= the bit
//    width give 0 (or -1 for a negative arithmetic right shift).
//  - maximum/minimum propagate NaN; compare is IEEE unless the instruction
//    says comparison_type=TOTALORDER.
//  - reduce/reduce-window fold sequentially from the init value in
//    row-major order (reduce-window skips padding and base-dilation holes,
//    which equals padding with an identity init value); dot and
//    convolution accumulate in the result type (f16/bf16 in float, rounded
//    once).
//  - select-and-scatter: the first element of a window wins unless
//    select(selected, candidate) is false; then
//    out[selected] = scatter(out[selected], source), the order the CPU/GPU
//    emitters use (XLA's HloEvaluator passes (source, out) instead).
//  - convolution batch_group_count follows StableHLO: output feature f
//    belongs to group f / (features / groups), which reads input batches
//    [group * batch / groups, ...).
//  - dynamic-slice/dynamic-update-slice/gather clamp start indices; scatter
//    skips an update window that does not fit in the operand.
//  - replica-id and partition-id are 0 (one replica, one partition).
//  - custom-call dispatches on custom_call_target through the registry.
// Errors name the instruction: "instruction 'gather.4' (gather): ...".
//
// Not thread-safe: use one evaluator per thread.
class HloEvaluator {
 public:
  explicit HloEvaluator(const CustomCallRegistry* registry = &CustomCallRegistry::Global());
  ~HloEvaluator();
  HloEvaluator(const HloEvaluator&) = delete;
  HloEvaluator& operator=(const HloEvaluator&) = delete;

  // Evaluates the module's entry computation. The arguments must match the
  // entry parameters in number and shape (layouts are ignored); an error
  // names the mismatching parameter.
  absl::StatusOr<Literal> Evaluate(const HloModule& module, absl::Span<const Literal> arguments);

  // Evaluates one computation on the given arguments.
  absl::StatusOr<Literal> EvaluateComputation(const HloComputation& computation,
                                              absl::Span<const Literal* const> arguments);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aot

#endif  // AOT_COMPILER_INTERPRETER_EVALUATOR_H_
