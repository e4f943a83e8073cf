#ifndef AOT_COMPILER_PASSES_ALGEBRAIC_SIMPLIFIER_H_
#define AOT_COMPILER_PASSES_ALGEBRAIC_SIMPLIFIER_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// Algebraic simplification [algsimp]. Every rewrite is exact (bitwise, NaN
// and signed zeros included) and keeps the instruction's shape, layout
// included; a rewrite whose result would have another layout is skipped.
// A "constant" below is a constant instruction or a broadcast of one.
//  - integers: x+0, 0+x, x-0, x*1, 1*x, x/1 -> x; x*0, 0*x -> 0;
//  - floats: x+(-0.0), (-0.0)+x, x-(+0.0), x*1, 1*x, x/1 -> x. Not x+0.0
//    (-0.0 + 0.0 is +0.0) and not x*0 (NaN, inf, -0.0);
//  - negate(negate(x)) -> x;
//  - reshape/bitcast/convert/copy to the operand's own shape -> operand;
//    reshape(reshape(x)) -> reshape(x); copy(copy(x)) -> copy(x) or x;
//  - transpose by the identity -> operand; transpose(transpose(x)) -> one
//    transpose (or x);
//  - slice of everything, pad by nothing, reverse of nothing (or only of
//    size-1 dimensions), dynamic-slice of the full operand, broadcast
//    that adds no dimension -> operand; broadcast(broadcast(x)) -> one
//    broadcast;
//  - select with a constant predicate -> the chosen operand; select(p, a,
//    a) -> a;
//  - concatenate of one operand -> operand.
// Fusion computations are left alone. Instructions left unused are removed.
class AlgebraicSimplifier : public HloPass {
 public:
  static constexpr absl::string_view kName = "algsimp";
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_ALGEBRAIC_SIMPLIFIER_H_
