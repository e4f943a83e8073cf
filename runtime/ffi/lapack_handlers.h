#ifndef AOT_RUNTIME_FFI_LAPACK_HANDLERS_H_
#define AOT_RUNTIME_FFI_LAPACK_HANDLERS_H_

// JAX's CPU LAPACK custom calls (API_VERSION_TYPED_FFI), as JAX's exports
// name and call them: host handlers over the system LAPACK
// (lapack_kernels.h). The interpreter's references for the same names call
// these handlers on its values (compiler/interpreter/lapack_custom_calls.cc),
// so both compute the same thing.
//
// Every buffer may come in any layout its shape says: the handler copies
// each one into LAPACK's order (the leading dimensions are batch
// dimensions, row-major; the two minor ones of a matrix column-major),
// runs the routine on each batch element, and copies the results out in
// their shapes' layouts. Operands may alias results. "[...]" below are the
// batch dimensions, the same for every operand and result; T is the
// element type of the target's letter (s f32, d f64, c c64, z c128) and R
// its real type; info is LAPACK's INFO per matrix (s32[...]). Attributes are
// the ASCII code of a LAPACK character (JAX writes them as ui8), unless
// said otherwise.
//
//   lapack_?potrf_ffi  (x T[..., n, n]) uplo -> (x_out, info): the Cholesky
//                      factor in the uplo triangle; the other is x's.
//   lapack_?getrf_ffi  (x T[..., m, n]) -> (x_out, ipiv s32[..., min(m,
//                      n)], info): L and U with partial pivoting, ipiv
//                      1-based.
//   lapack_?geqrf_ffi  (x T[..., m, n]) -> (x_out, tau T[..., min(m, n)]).
//   lapack_?orgqr_ffi / lapack_?ungqr_ffi  (x T[..., m, n], tau T[..., k])
//                      -> x_out: Q from k reflectors (m >= n >= k).
//   lapack_?trsm_ffi   (x T[..., k, k], y T[..., m, n]) side uplo trans_x
//                      diag -> y_out: op(x)^-1 y (side 'L', k = m) or
//                      y op(x)^-1 ('R', k = n).
//   lapack_?syevd_ffi / lapack_?heevd_ffi  (x T[..., n, n]) uplo mode ->
//                      (x_out, w R[..., n], info): eigenvalues ascending,
//                      with mode 'V' the eigenvectors in x_out's columns.
//   lapack_?gesdd_ffi  (x T[..., m, n]) mode ('A', 'S' or 'N') -> (x_out,
//                      s R[..., min(m, n)], u T[..., m, m | min(m, n)], vt
//                      T[..., n | min(m, n), n], info).
//   lapack_?geev_ffi   (x T[..., n, n]) compute_left compute_right: real T
//                      -> (wr T[..., n], wi T[..., n], vl C[..., n, n], vr
//                      C[..., n, n], info) with C the complex type;
//                      complex -> (w, vl, vr, info). A matrix with a
//                      non-finite element gets info -4 (as JAX's kernel).
//   lapack_?gehrd_ffi  (x T[..., n, n]) low high (i32, 1-based ilo, ihi) ->
//                      (x_out, tau T[..., n - 1], info).
//   lapack_?sytrd_ffi / lapack_?hetrd_ffi  (x T[..., n, n]) uplo -> (x_out,
//                      d R[..., n], e R[..., n - 1], tau T[..., n - 1],
//                      info).
//   lapack_?gees_ffi   (x T[..., n, n]) mode sort ('N' only, as JAX's
//                      kernel): real T -> (x_out, vs, wr T[..., n], wi, sdim
//                      s32[...], info); complex -> (x_out, vs, w, sdim,
//                      info).
//   lapack_?gtsv_ffi   (dl T[..., n], d T[..., n], du T[..., n], b T[..., n,
//                      nrhs]) -> (dl_out, d_out, du_out, b_out, info): dl[0]
//                      and du[n - 1] are not read.
//   lapack_?geqp3_ffi  (x T[..., m, n], jpvt s32[..., n]) -> (x_out,
//                      jpvt_out, tau T[..., min(m, n)]).
//
// What LAPACK leaves unwritten (vectors not asked for, outputs of a failed
// geev) is zero.

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "runtime/ffi/ffi_registry.h"

namespace aot {

// Registers the handlers above into `registry` (FfiRegistry::Global() has
// them).
void RegisterLapackFfiHandlers(FfiRegistry& registry);

// Their names, sorted.
const std::vector<std::string>& LapackFfiTargets();

// The handler of `target`; nullptr when it is not one of them.
const FfiHandler* FindLapackFfiHandler(absl::string_view target);

}  // namespace aot

#endif  // AOT_RUNTIME_FFI_LAPACK_HANDLERS_H_
