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

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_RNG_EXPANSION_H_
