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
//    shapes are static here;
//  - add-dependency(x, token) and domain(x) -> x, and after-all, then
//    unused, goes: tokens order nothing in a thunk sequence;
//  - copy-done(copy-start(x)) -> x: values are immutable, so the
//    asynchronous copy is the value itself;
//  - async-done(async-update*(async-start(args), calls=f)) -> call(args),
//    to_apply=f (inlined afterwards): one device runs it in order.
// A start whose value is used other than by its updates and done stays,
// and the emitter refuses it by name.
// Runs before calls are inlined and before the pass pipeline, always. Returns whether anything
// changed.
absl::StatusOr<bool> LowerStaticOpcodes(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_STATIC_LOWERING_H_
