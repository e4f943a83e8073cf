#ifndef AOT_COMPILER_PASSES_COMPOSITE_EXPANSION_H_
#define AOT_COMPILER_PASSES_COMPOSITE_EXPANSION_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// Expands the XLA opcodes that are compositions of others, as XLA's own
// expanders do, so no artifact holds them (and the runtime needs no support
// for them, hence no staged rollout):
//  - map(x...), to_apply=f -> f's scalar body applied at the operands'
//    shape (its constants broadcast); f must be elementwise, else the
//    compile fails naming the instruction of f that is not;
//  - topk(x), k, largest -> a stable sort of (x, iota) along the last
//    dimension (floats in total order), sliced to k;
//  - batch-norm-inference, -training and -grad -> their formulas with
//    per-feature reductions (f16/bf16 computed in f32 and rounded once).
//  - stochastic-convert(x, random) -> XLA's decomposition into floor,
//    compare with the scaled fraction, select, negate and clamps.
//  - ragged-dot -> with a ragged free dimension (mixture-of-experts style),
//    one dot per group, each selected where the ragged index lies in the
//    group's run of group_sizes; with a ragged contracting dimension, one
//    dot per group over its run (the rest of lhs zeroed), stacked; with a
//    ragged batch dimension, the dot.
//  - mulhi(a, b) -> the product at twice the width, shifted down (64-bit
//    values from their 32-bit halves);
//  - scaled-dot -> the operands dequantized (converted to the result's
//    type, multiplied by their block's scale), then a dot;
//  - scan -> a counted while loop taking one slice of each input per
//    iteration, running to_apply's instructions on it and the carries, and
//    writing the outputs' slices by dynamic-update-slice.
//  - shuffle -> for mode=rotate, two slices and a concatenate per shuffled
//    dimension; for permute and multi_rotate, one gather of an element per
//    result element (start indices from the table and iotas).
// Runs before the pass pipeline, always. Returns whether anything changed.
absl::StatusOr<bool> ExpandCompositeOpcodes(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_COMPOSITE_EXPANSION_H_
