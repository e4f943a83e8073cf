#ifndef AOT_COMPILER_INTERPRETER_CUSTOM_CALL_REGISTRY_H_
#define AOT_COMPILER_INTERPRETER_CUSTOM_CALL_REGISTRY_H_

#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/literal.h"

namespace aot {

// The reference implementation of a custom-call target: gets the operand
// values and the instruction (for its shape, backend_config, ...) and
// returns a value of the instruction's shape (the evaluator checks it).
using CustomCallHandler = std::function<absl::StatusOr<Literal>(
    absl::Span<const Literal* const> operands, const HloInstruction& instruction)>;

// Maps custom_call_target names to reference implementations; the
// interpreter dispatches custom-call instructions through it. Thread-safe.
//
// Global() comes with these built-ins (they become FFI handlers in the
// runtime later; their semantics here are the reference):
//
//   "aot.topk"  operand: one array T[..., n] (any float or integer type).
//               backend_config: k as a decimal integer ("3"); when empty, k
//               is the last dimension of the result's first element.
//               Result: a tuple (T[..., k] values, s32[..., k] indices), the
//               k largest elements of each row along the last dimension in
//               descending order; equal values keep ascending index order.
//               Floats compare in total order, so NaN sorts above +inf and
//               +0 above -0.
//   "aot.gelu"  operand: one floating-point array; result: the same shape,
//               0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
//               (the tanh approximation), computed in float for
//               f16/bf16/f32 (rounded once to the element type) and in
//               double for f64.
//
// and the targets XLA's own passes write, with the meaning
// compiler/hlo/xla_custom_calls.h gives them (the compiler lowers these to
// HLO instead): the annotations "Sharding", "SPMDFullToShardShape",
// "SPMDShardToFullShape", "MoveToHost" and "MoveToDevice" (the operand's
// value), "TopK" (the k largest or smallest, see XlaTopKTakesLargest; k
// from the result), "__cublas$gemm" and "__cublas$lt$matmul" (the dot,
// alpha, beta * c, bias and relu or GELU in double, rounded once), the
// cuDNN convolutions (the gradients by their definition),
// "__cublas$triangularSolve" and "__cusolver$cholesky"; and JAX's CPU
// LAPACK custom calls ("lapack_spotrf_ffi", ...; RegisterLapackCustomCalls
// below).
class CustomCallRegistry {
 public:
  CustomCallRegistry() = default;
  CustomCallRegistry(const CustomCallRegistry&) = delete;
  CustomCallRegistry& operator=(const CustomCallRegistry&) = delete;

  // The process-wide registry, with the built-ins above.
  static CustomCallRegistry& Global();

  // Registers `handler` for `target`; AlreadyExists if the name is taken,
  // InvalidArgument for an empty name or handler. With `takes_complex` the
  // handler gets complex operands and returns complex values itself;
  // otherwise the evaluator refuses a call that has any.
  absl::Status Register(absl::string_view target, CustomCallHandler handler,
                        bool takes_complex = false);
  // The handler of `target`; NotFound naming the target when unknown.
  absl::StatusOr<CustomCallHandler> Lookup(absl::string_view target) const;
  bool Contains(absl::string_view target) const;
  // Whether `target` was registered with takes_complex.
  bool TakesComplex(absl::string_view target) const;
  // Registered names, sorted.
  std::vector<std::string> Targets() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, CustomCallHandler, std::less<>> handlers_;
  std::set<std::string, std::less<>> takes_complex_;
};

// Registers the built-ins listed above into `registry` (Global() already
// has them); for tests building their own registry.
absl::Status RegisterBuiltinCustomCalls(CustomCallRegistry& registry);

// JAX's CPU LAPACK custom calls (runtime/ffi/lapack_handlers.h lists them):
// the runtime's own handlers run on the operands' values, so the
// interpreter and the host compute the same thing; the typed-FFI
// attributes come from the instruction's backend_config dictionary
// (compiler/hlo/ffi_attributes.h). RegisterBuiltinCustomCalls registers
// them (lapack_custom_calls.cc).
absl::Status RegisterLapackCustomCalls(CustomCallRegistry& registry);

// Whether XLA's "TopK" custom call takes the k largest (true) or the k
// smallest (false). Its comparator (to_apply), when it has one, is run on
// probe pairs of its element type and must order every pair of distinct
// ordinary values (not NaN) as greater-than does, or every one as less-than
// does; ties, -0/+0 and NaN then order totally, as topk's do. That takes the
// comparators XLA writes and rewrites into TopK (compare GT or LT, with
// type=TOTALORDER or not, and the NaN-safe forms on the values' bits)
// whatever their spelling; any other is Unimplemented, naming a pair it
// orders otherwise.
absl::StatusOr<bool> XlaTopKTakesLargest(const HloInstruction& custom_call);

}  // namespace aot

#endif  // AOT_COMPILER_INTERPRETER_CUSTOM_CALL_REGISTRY_H_
