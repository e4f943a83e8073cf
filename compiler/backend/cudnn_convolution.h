#ifndef AOT_COMPILER_BACKEND_CUDNN_CONVOLUTION_H_
#define AOT_COMPILER_BACKEND_CUDNN_CONVOLUTION_H_

#include <optional>

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/hlo_module.h"
#include "runtime/platform/platform.h"

namespace aot {

// The convolution thunk (cuDNN) form of `conv`, behind the emission flag
// emit_cudnn_convolution: its operands' logical dimensions in the order
// [N, C, S...], [O, C / groups, S...], [N, O, S...] with each dimension's
// element stride from the shapes' layouts, the window's strides, padding
// and filter dilation. nullopt when cuDNN's legacy API cannot take it: an
// element type other than f16, bf16, f32, f64 shared by operands and
// result, other than 2 or 3 spatial dimensions, input dilation, window
// reversal, asymmetric or negative padding, batch_group_count > 1. The
// filter's packing is not checked here (PackCudnnFilters makes it so).
std::optional<ConvolutionParams> CudnnConvolutionParams(const HloInstruction& conv);

// Gives every convolution of the module's top-level computations that
// CudnnConvolutionParams takes a filter packed the way cuDNN reads it: a
// filter that is neither (O, C, S...) nor (O, S..., C) in memory becomes a
// layout-changing copy to (O, S..., C) (as XLA's layout assignment for
// cuDNN does). Returns whether anything changed.
absl::StatusOr<bool> PackCudnnFilters(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_BACKEND_CUDNN_CONVOLUTION_H_
