#ifndef AOT_COMPILER_PASSES_RNG_EXPANSION_H_
#define AOT_COMPILER_PASSES_RNG_EXPANSION_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// Rewrites every rng-bit-generator into the rounds of its generator
// (Philox-4x32-10 or Threefry-2x32-20, support/counter_rng.h) built from
// integer HLO ops on one block counter per element of an iota, as XLA's
// RngBitGeneratorExpander does, so the kernels that result are ordinary
// elementwise fusions and no new op reaches an artifact. The words are laid
// out exactly as the interpreter lays them out (RngBitGeneratorWords), so
// compiled and interpreted programs draw the same bits. XLA itself
// guarantees the bits only per back end and version; these are this
// project's. Returns whether anything changed.
absl::StatusOr<bool> ExpandRngBitGenerators(HloModule* module);

// Rewrites every rng into what defines it (EvalRng,
// compiler/interpreter/evaluator_internal.h): one rng-get-and-update-state
// per computation, its first instruction, takes the executable's state for
// all the computation's draws, rng-bit-generator (Philox,
// keyed by kRngPhiloxKey) draws the bits, and elementwise ops make them
// uniform floats, integers in [a, b) or normal values (Box-Muller), each
// step the interpreter's. Run before any pass that inlines or reorders
// computations (first), and before ExpandRngBitGenerators. What remains
// for the runtime is rng-get-and-update-state, which the staged rollout
// gates (emission flag emit_rng_state). Returns whether anything changed.
absl::StatusOr<bool> ExpandRngs(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_RNG_EXPANSION_H_
