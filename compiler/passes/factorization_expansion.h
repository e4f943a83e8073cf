#ifndef AOT_COMPILER_PASSES_FACTORIZATION_EXPANSION_H_
#define AOT_COMPILER_PASSES_FACTORIZATION_EXPANSION_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// Expands cholesky and triangular-solve into loops of ops every backend
// compiles, as XLA's CholeskyExpander and TriangularSolveExpander do (so
// no artifact holds them and the runtime needs no support: no staged
// rollout). Each matrix of the batch (the two minor dimensions) is done
// one column (cholesky) or one row (the solve) per while-loop iteration,
// the sums as batched dots:
//  - cholesky, lower: column j of L is (a[:, j] - L L[j, :]^T) scaled by
//    1 / sqrt of its diagonal entry, zero above it (upper: the transpose
//    of the lower factor of a's transpose);
//  - triangular-solve becomes forward substitution on a lower triangular
//    M = op(the given triangle of a, unit diagonal if asked): a right-side
//    solve through transposes, an upper M through reversing rows and
//    columns; row i of x is (b[i, :] - M[i, :] x) / M[i, i].
// f16/bf16 are computed in f32 and rounded once. Complex values are
// refused by name. Returns whether anything changed.
absl::StatusOr<bool> ExpandFactorizations(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_FACTORIZATION_EXPANSION_H_
