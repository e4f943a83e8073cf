#ifndef AOT_COMPILER_PASSES_CONV_IM2COL_H_
#define AOT_COMPILER_PASSES_CONV_IM2COL_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// Rewrites a large f32/f64 convolution (at least kMinMultiplyAdds
// multiply-adds; one feature and batch group, no base dilation or window
// reversal, non-negative padding, default layouts) as im2col plus a GEMM:
//   input  -> transpose to [N, spatial..., C] -> pad -> one strided slice
//             per kernel position -> concatenate on C: [N, out..., P*C]
//             -> reshape [N*out, P*C]
//   kernel -> transpose to [spatial..., I, O] -> reshape [P*I, O]
//   dot    -> [N*out, O] -> reshape [N, out..., O] -> transpose to the
//             output's dimension order.
// The dot becomes a BLAS GEMM (thunk emitter) and the patch construction
// one fused kernel. The sum over the window and features is reassociated
// (a GEMM's order), so float results differ from the direct loop by
// rounding. Runs before fusion, on the top-level computations.
class ConvIm2col : public HloPass {
 public:
  static constexpr absl::string_view kName = "conv-im2col";
  static constexpr int64_t kMinMultiplyAdds = 1 << 18;
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_CONV_IM2COL_H_
