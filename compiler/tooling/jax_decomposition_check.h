#ifndef AOT_COMPILER_TOOLING_JAX_DECOMPOSITION_CHECK_H_
#define AOT_COMPILER_TOOLING_JAX_DECOMPOSITION_CHECK_H_

// JAX's back-compat tests compare three decompositions by what they are,
// not by their values (tests/export_back_compat_test.py's
// check_eigh_results, check_eig_results and check_schur_results): an
// eigenvector is unique only up to its phase, and for a repeated eigenvalue
// any basis of its space is right, so another LAPACK build returns other,
// equally right, vectors. For a data set calling one of them this checks
// the run's result the same way:
//
// - eigh (lapack_{s,d}syevd_ffi, lapack_{c,z}heevd_ffi; outputs v, w):
//   ||I - V^H V|| <= rtol, ||A V - V diag(w)|| <= rtol ||A||, and w close
//   to the expected eigenvalues;
// - eig (lapack_?geev_ffi; outputs w, vl, vr): every eigenvalue within
//   atol of one expected and back, and ||A vr - vr diag(w)|| and
//   ||A^H vl - vl diag(conj w)|| under 100 (n + 1) eps ||.||;
// - schur (lapack_?gees_ffi; outputs t, s): S T S^H close to A;
//
// with JAX's rtol / atol of those tests (1e-3 / 1e-4 for f32 and c64,
// 1e-5 / 1e-12 for f64 and c128). A is the custom call's operand as the
// program computes it (the evaluator runs the module up to the call; a
// Hermitian operand is completed from the triangle `uplo` names).

#include <optional>

#include "absl/status/status.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/literal.h"
#include "compiler/tooling/jax_test_data.h"

namespace aot {

// Nothing when the data set calls none of them (or in a form not covered:
// the call not in the entry computation, or called twice), and its
// values are compared as usual; else OK, or FailedPrecondition naming the
// property that does not hold and by how much.
std::optional<absl::Status> CheckJaxDecomposition(const JaxTestData& set, const HloModule& module,
                                                  const Literal& result);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_JAX_DECOMPOSITION_CHECK_H_
