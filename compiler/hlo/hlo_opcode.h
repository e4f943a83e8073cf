#ifndef AOT_COMPILER_HLO_HLO_OPCODE_H_
#define AOT_COMPILER_HLO_HLO_OPCODE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot {

// X(enum name, text spelling, arity: -1 = variadic, kind)
// kind: U = elementwise unary, B = elementwise binary, O = other.
#define AOT_HLO_OPCODE_LIST(X)                                 \
  X(kAbs, "abs", 1, U)                                         \
  X(kAcos, "acos", 1, U)                                       \
  X(kAcosh, "acosh", 1, U)                                     \
  X(kAdd, "add", 2, B)                                         \
  X(kAddDependency, "add-dependency", 2, O)                    \
  X(kAfterAll, "after-all", -1, O)                             \
  X(kAllGather, "all-gather", -1, O)                           \
  X(kAllGatherDone, "all-gather-done", 1, O)                   \
  X(kAllGatherStart, "all-gather-start", -1, O)                \
  X(kAllReduce, "all-reduce", -1, O)                           \
  X(kAllReduceDone, "all-reduce-done", 1, O)                   \
  X(kAllReduceStart, "all-reduce-start", -1, O)                \
  X(kAllToAll, "all-to-all", -1, O)                            \
  X(kAnd, "and", 2, B)                                         \
  X(kAsin, "asin", 1, U)                                       \
  X(kAsinh, "asinh", 1, U)                                     \
  X(kAsyncDone, "async-done", 1, O)                            \
  X(kAsyncStart, "async-start", -1, O)                         \
  X(kAsyncUpdate, "async-update", 1, O)                        \
  X(kAtan, "atan", 1, U)                                       \
  X(kAtan2, "atan2", 2, B)                                     \
  X(kAtanh, "atanh", 1, U)                                     \
  X(kBatchNormGrad, "batch-norm-grad", 5, O)                   \
  X(kBatchNormInference, "batch-norm-inference", 5, O)         \
  X(kBatchNormTraining, "batch-norm-training", 3, O)           \
  X(kBitcast, "bitcast", 1, O)                                 \
  X(kBitcastConvert, "bitcast-convert", 1, O)                  \
  X(kBroadcast, "broadcast", 1, O)                             \
  X(kCall, "call", -1, O)                                      \
  X(kCbrt, "cbrt", 1, U)                                       \
  X(kCeil, "ceil", 1, U)                                       \
  X(kCholesky, "cholesky", 1, O)                               \
  X(kClamp, "clamp", 3, O)                                     \
  X(kClz, "count-leading-zeros", 1, U)                         \
  X(kCollectiveBroadcast, "collective-broadcast", -1, O)       \
  X(kCollectivePermute, "collective-permute", 1, O)            \
  X(kCollectivePermuteDone, "collective-permute-done", 1, O)   \
  X(kCollectivePermuteStart, "collective-permute-start", 1, O) \
  X(kCompare, "compare", 2, O)                                 \
  X(kComplex, "complex", 2, O)                                 \
  X(kConcatenate, "concatenate", -1, O)                        \
  X(kConditional, "conditional", -1, O)                        \
  X(kConstant, "constant", 0, O)                               \
  X(kConvert, "convert", 1, O)                                 \
  X(kConvolution, "convolution", 2, O)                         \
  X(kCopy, "copy", 1, U)                                       \
  X(kCopyDone, "copy-done", 1, O)                              \
  X(kCopyStart, "copy-start", 1, O)                            \
  X(kCos, "cosine", 1, U)                                      \
  X(kCosh, "cosh", 1, U)                                       \
  X(kCustomCall, "custom-call", -1, O)                         \
  X(kDivide, "divide", 2, B)                                   \
  X(kDomain, "domain", 1, O)                                   \
  X(kDot, "dot", 2, O)                                         \
  X(kDynamicReshape, "dynamic-reshape", -1, O)                 \
  X(kDynamicSlice, "dynamic-slice", -1, O)                     \
  X(kDynamicUpdateSlice, "dynamic-update-slice", -1, O)        \
  X(kErf, "erf", 1, U)                                         \
  X(kExp, "exponential", 1, U)                                 \
  X(kExpm1, "exponential-minus-one", 1, U)                     \
  X(kFft, "fft", 1, O)                                         \
  X(kFloor, "floor", 1, U)                                     \
  X(kFusion, "fusion", -1, O)                                  \
  X(kGather, "gather", 2, O)                                   \
  X(kGetDimensionSize, "get-dimension-size", 1, O)             \
  X(kGetTupleElement, "get-tuple-element", 1, O)               \
  X(kImag, "imag", 1, O)                                       \
  X(kIota, "iota", 0, O)                                       \
  X(kIsFinite, "is-finite", 1, O)                              \
  X(kLog, "log", 1, U)                                         \
  X(kLog1p, "log-plus-one", 1, U)                              \
  X(kLogistic, "logistic", 1, U)                               \
  X(kMap, "map", -1, O)                                        \
  X(kMaximum, "maximum", 2, B)                                 \
  X(kMinimum, "minimum", 2, B)                                 \
  X(kMulhi, "mulhi", 2, B)                                     \
  X(kMultiply, "multiply", 2, B)                               \
  X(kNegate, "negate", 1, U)                                   \
  X(kNot, "not", 1, U)                                         \
  X(kOptimizationBarrier, "opt-barrier", 1, O)                 \
  X(kOr, "or", 2, B)                                           \
  X(kPad, "pad", 2, O)                                         \
  X(kParameter, "parameter", 0, O)                             \
  X(kPartitionId, "partition-id", 0, O)                        \
  X(kPopulationCount, "popcnt", 1, U)                          \
  X(kPower, "power", 2, B)                                     \
  X(kRaggedDot, "ragged-dot", 3, O)                            \
  X(kReal, "real", 1, O)                                       \
  X(kReduce, "reduce", -1, O)                                  \
  X(kReducePrecision, "reduce-precision", 1, U)                \
  X(kReduceScatter, "reduce-scatter", -1, O)                   \
  X(kReduceWindow, "reduce-window", -1, O)                     \
  X(kRemainder, "remainder", 2, B)                             \
  X(kReplicaId, "replica-id", 0, O)                            \
  X(kReshape, "reshape", 1, O)                                 \
  X(kReverse, "reverse", 1, O)                                 \
  X(kRng, "rng", 2, O)                                         \
  X(kRngBitGenerator, "rng-bit-generator", 1, O)               \
  X(kRngGetAndUpdateState, "rng-get-and-update-state", 0, O)   \
  X(kRoundNearestAfz, "round-nearest-afz", 1, U)               \
  X(kRoundNearestEven, "round-nearest-even", 1, U)             \
  X(kRsqrt, "rsqrt", 1, U)                                     \
  X(kScaledDot, "scaled-dot", 4, O)                            \
  X(kScan, "scan", -1, O)                                      \
  X(kScatter, "scatter", -1, O)                                \
  X(kSelect, "select", 3, O)                                   \
  X(kSelectAndScatter, "select-and-scatter", 3, O)             \
  X(kSetDimensionSize, "set-dimension-size", 2, O)             \
  X(kShiftLeft, "shift-left", 2, B)                            \
  X(kShiftRightArithmetic, "shift-right-arithmetic", 2, B)     \
  X(kShiftRightLogical, "shift-right-logical", 2, B)           \
  X(kShuffle, "shuffle", 1, O)                                 \
  X(kSign, "sign", 1, U)                                       \
  X(kSin, "sine", 1, U)                                        \
  X(kSinh, "sinh", 1, U)                                       \
  X(kSlice, "slice", 1, O)                                     \
  X(kSort, "sort", -1, O)                                      \
  X(kSqrt, "sqrt", 1, U)                                       \
  X(kStochasticConvert, "stochastic-convert", 2, O)            \
  X(kSubtract, "subtract", 2, B)                               \
  X(kTan, "tan", 1, U)                                         \
  X(kTanh, "tanh", 1, U)                                       \
  X(kTopK, "topk", 1, O)                                       \
  X(kTranspose, "transpose", 1, O)                             \
  X(kTriangularSolve, "triangular-solve", 2, O)                \
  X(kTuple, "tuple", -1, O)                                    \
  X(kWhile, "while", 1, O)                                     \
  X(kXor, "xor", 2, B)

enum class HloOpcode : uint8_t {
#define AOT_DECLARE_OPCODE(enum_name, text, arity, kind) enum_name,
  AOT_HLO_OPCODE_LIST(AOT_DECLARE_OPCODE)
#undef AOT_DECLARE_OPCODE
};

// The text spelling ("dynamic-slice").
absl::string_view HloOpcodeString(HloOpcode opcode);
// XLA's opcode spellings: every entry of XLA's HloOpcode list (as of
// 2025), supported here or not. A fact about XLA, kept so that an opcode
// XLA writes and this compiler lacks is named as such, not as a typo.
const std::vector<std::string>& XlaOpcodeNames();
// Parses a spelling; accepts XLA's aliases ("clz" for count-leading-zeros).
// An XLA opcode this compiler lacks is Unimplemented; any other unknown
// spelling InvalidArgument.
absl::StatusOr<HloOpcode> StringToHloOpcode(absl::string_view text);
// Fixed operand count, or -1 when variadic.
int HloOpcodeArity(HloOpcode opcode);
// Elementwise unary (abs, exp, ..., copy, reduce-precision).
bool IsElementwiseUnary(HloOpcode opcode);
// Elementwise binary arithmetic/logic (add, ..., shift-*); compare is not.
bool IsElementwiseBinary(HloOpcode opcode);
// Any elementwise op: the above plus compare, select, clamp, convert,
// is-finite.
bool IsElementwise(HloOpcode opcode);
// The elementwise ops XLA defines on complex values besides abs (whose
// result is real): the transcendental unary ones that keep the type
// (exponential, log, sqrt, sine, tanh, ... negate, sign, copy) and add,
// subtract, multiply, divide, power.
bool IsComplexUnaryOpcode(HloOpcode opcode);
// Ops whose result only rearranges elements of their array operands
// (broadcast, reshape, bitcast, transpose, slice, dynamic-slice,
// dynamic-update-slice, concatenate, pad, reverse, gather, select): the
// same op moves the real and the imaginary parts of a complex value.
bool RearrangesElementsOnly(HloOpcode opcode);
// Ops that hand values on without computing on them: those above, and
// parameter, constant, tuple, get-tuple-element, copy, while, conditional,
// optimization-barrier, after-all and add-dependency. The expansions of
// element types no kernel computes on (complex, narrow) leave them as they
// are.
bool PassesValuesOn(HloOpcode opcode);
bool IsComplexBinaryOpcode(HloOpcode opcode);
// Number of opcodes.
int HloOpcodeCount();

}  // namespace aot

#endif  // AOT_COMPILER_HLO_HLO_OPCODE_H_
