#ifndef AOT_COMPILER_PASSES_STATIC_LOWERING_H_
#define AOT_COMPILER_PASSES_STATIC_LOWERING_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// Rewrites the XLA opcodes whose meaning on one device is static into what
// the module already holds, so they never reach an artifact (and need no
// runtime support, hence no staged rollout):
//  - opt-barrier(x) -> x: an optimization barrier orders nothing in a
//    compiled thunk sequence;
//  - get-dimension-size(x), dimensions={d} -> s32[] constant(size of d):
//    shapes are static here.
// Runs before the pass pipeline, always. Returns whether anything changed.
absl::StatusOr<bool> LowerStaticOpcodes(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_STATIC_LOWERING_H_
