#ifndef AOT_COMPILER_PASSES_XLA_CUSTOM_CALL_LOWERING_H_
#define AOT_COMPILER_PASSES_XLA_CUSTOM_CALL_LOWERING_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// Rewrites the custom calls XLA's own passes write (compiler/hlo/
// xla_custom_calls.h) into the HLO they stand for, so dumps taken after
// XLA's SPMD partitioner, TopkRewriter or GemmRewriter compile: the
// annotations become their operand, TopK a topk instruction (expanded
// later), a GEMM a dot scaled by alpha, plus beta * c and the bias, then
// the relu (its workspace, when the result has one, zeros). Other custom
// calls stay (runtime FFI handlers). Returns whether anything changed.
absl::StatusOr<bool> LowerXlaCustomCalls(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_XLA_CUSTOM_CALL_LOWERING_H_
