#ifndef AOT_COMPILER_HLO_XLA_CUSTOM_CALLS_H_
#define AOT_COMPILER_HLO_XLA_CUSTOM_CALLS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_instruction.h"
#include "proto/hlo.pb.h"

namespace aot {

// The custom-call targets XLA's own passes write into HLO whose meaning on
// one device this project defines, rather than a runtime FFI handler. The
// compiler lowers them to HLO (LowerXlaCustomCalls); the interpreter
// evaluates them (its built-in custom calls):
//  - pass-through annotations, the operand's value: "Sharding",
//    "SPMDFullToShardShape" and "SPMDShardToFullShape" (one partition),
//    "MoveToHost" and "MoveToDevice" (one memory space);
//  - "TopK" (XLA's TopkRewriter): the k largest along the last dimension
//    as (values, s32 indices), k from the result, or the k smallest where
//    its comparator orders as less-than (the interpreter's
//    XlaTopKTakesLargest reads the comparator);
//  - "__cublas$gemm" and "__cublas$lt$matmul" (XLA:GPU's GemmRewriter):
//    alpha * dot(lhs, rhs) [+ beta * c] [+ bias] [then relu or GELU], from
//    the gemm_backend_config in backend_config (the _AUX epilogues also give
//    the value before the GELU);
//  - "__cudnn$convForward" and "__cudnn$convBiasActivationForward" (XLA:GPU's
//    convolution rewriters): the convolution the custom call's window,
//    dim_labels and group counts describe, times conv_result_scale
//    [+ side_input_scale * side input] [+ bias along the output's feature
//    dimension], then the activation, from the cudnn_conv_backend_config in
//    backend_config; "__cudnn$convBackwardInput" and
//    "__cudnn$convBackwardFilter", the gradients of the forward convolution
//    the attributes describe (times conv_result_scale). The other
//    "__cudnn$conv" targets (graphs, fused attention) are refused by name;
//  - "__cublas$triangularSolve" (XLA:GPU's TriangularSolveRewriter):
//    triangular-solve(a, b) with the TriangularSolveOptions in backend_config
//    [, its scratch];
//  - "__cusolver$cholesky" (XLA:GPU's CusolverRewriter): potrf's (factor,
//    workspace, info) for cholesky(a) with the CholeskyOptions in
//    backend_config: the factor's `lower` (or upper) triangle is
//    cholesky(a)'s and its other strict triangle a's (potrf leaves it), info
//    per matrix 0, or 1 + the first diagonal index where the factor is not
//    > 0 (the order of the first leading minor that is not positive
//    definite).
enum class XlaCustomCall {
  kNone,
  kPassThrough,
  kTopK,
  kGemm,
  kCudnnConvolution,
  kTriangularSolve,
  kCholesky
};
XlaCustomCall ClassifyXlaCustomCall(const HloInstruction& instruction);

// The annotation's operand has the result's dimensions and element type;
// otherwise Unimplemented naming the instruction (it needs more than one
// partition).
absl::Status CheckPassThrough(const HloInstruction& custom_call);

// TopK's k (the last dimension of the result's first element), after
// checking the operand and the result.
absl::StatusOr<int64_t> ReadXlaTopK(const HloInstruction& custom_call);

// A GEMM custom call, read from backend_config (the gemm_backend_config of
// a GpuBackendConfig, or a bare GemmBackendConfig as older XLA wrote it).
struct GemmConfig {
  DotDimensionNumbersProto dot_dimension_numbers;
  double alpha = 1;
  double beta = 0;
  // The epilogue's activation, after the bias: relu, or GELU as cuBLASLt's
  // GELU epilogues compute it (the tanh approximation).
  enum class Activation { kNone, kRelu, kGelu };
  Activation activation = Activation::kNone;
  // Operand 2 is c (the output's shape), scaled by beta, when beta != 0.
  bool has_c = false;
  // The last operand is a bias vector along the output's last dimension.
  bool has_bias = false;
  // The _AUX epilogues (GELU_AUX, BIAS_GELU_AUX): the result's second
  // element is the value before the activation, which the backward pass
  // reads.
  bool has_aux = false;
  // The result is a tuple (output[, aux], s8[N] workspace).
  bool has_workspace = false;
  Shape output;  // the output array's shape
};
absl::StatusOr<GemmConfig> ReadGemmConfig(const HloInstruction& custom_call);

// A cuDNN convolution custom call, read from its attributes and the
// cudnn_conv_backend_config of its backend_config (or a bare
// CudnnConvBackendConfig).
struct CudnnConvConfig {
  // For the gradients the window, dim_labels and group counts describe the
  // forward convolution y = conv(x, w): __cudnn$convBackwardInput(dy, w)
  // gives dx (shaped as the dim_labels' input), __cudnn$convBackwardFilter(x,
  // dy) gives dw (shaped as their kernel).
  enum class Kind { kForward, kBackwardInput, kBackwardFilter };
  Kind kind = Kind::kForward;
  double conv_result_scale = 1;
  double side_input_scale = 0;
  // XLA's fused convolutions' activations (ActivationMode's kNone, kRelu,
  // kRelu6, kElu, kLeakyRelu).
  enum class Activation { kNone, kRelu, kRelu6, kElu, kLeakyRelu };
  Activation activation = Activation::kNone;
  double leakyrelu_alpha = 0;
  bool has_bias = false;        // operand 2, a vector along the feature dimension
  bool has_side_input = false;  // operand 3, the output's shape
  bool has_scratch = false;     // the result is (output, u8[N] scratch)
  Shape output;                 // the output array's shape
  int64_t output_feature_dimension = 0;
};
absl::StatusOr<CudnnConvConfig> ReadCudnnConvConfig(const HloInstruction& custom_call);

// A __cublas$triangularSolve's options (absent fields take the proto's
// defaults; transpose_a by name or number, NO_TRANSPOSE when absent) and
// whether its result is (x, scratch).
struct TriangularSolveConfig {
  TriangularSolveAttributes options;
  bool has_scratch = false;
  Shape output;  // x's shape
};
absl::StatusOr<TriangularSolveConfig> ReadTriangularSolveConfig(const HloInstruction& custom_call);

// A __cusolver$cholesky's options and result: (factor, workspace, info),
// info an s32 array with one element per matrix.
struct CusolverCholeskyConfig {
  bool lower = false;
  Shape factor;
  Shape workspace;
  Shape info;
};
absl::StatusOr<CusolverCholeskyConfig> ReadCusolverCholeskyConfig(
    const HloInstruction& custom_call);

// Gives `to` the convolution a cuDNN custom call computes: its window,
// dimension numbers (dim_labels) and group counts.
void SetCudnnConvolutionAttributes(const HloInstruction& custom_call, HloAttributes* to);

// Applies a fused convolution's activation to one value.
double ApplyConvActivation(const CudnnConvConfig& config, double v);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_XLA_CUSTOM_CALLS_H_
