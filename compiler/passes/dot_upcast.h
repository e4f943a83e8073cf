#ifndef AOT_COMPILER_PASSES_DOT_UPCAST_H_
#define AOT_COMPILER_PASSES_DOT_UPCAST_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// Host: a dot of bf16 or f16 operands (result bf16, f16 or f32) with at
// least kMinMultiplyAdds multiply-adds becomes converts of its operands to
// f32, an f32 dot (which the thunk emitter makes a BLAS GEMM) and, for a
// 16-bit result, a convert back (as XLA:CPU does). The elemental dot
// already accumulates in f32, so results differ only by summation order.
// Smaller dots stay generated kernels (the GEMM's threshold is lower, but
// the converts cost two more kernels). Runs on the top-level computations
// of a fused module (Compile runs it after the pipeline, host only).
class DotUpcast : public HloPass {
 public:
  static constexpr absl::string_view kName = "dot-upcast";
  static constexpr int64_t kMinMultiplyAdds = 64 * 1024;
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_DOT_UPCAST_H_
