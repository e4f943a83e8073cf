#ifndef AOT_RUNTIME_FFI_LAPACK_KERNELS_H_
#define AOT_RUNTIME_FFI_LAPACK_KERNELS_H_

// One LAPACK (or BLAS) routine on one matrix, in LAPACK's own terms:
// column-major buffers with a leading dimension, 32-bit LAPACK integers,
// the routine's INFO returned. T is float, double, std::complex<float> or
// std::complex<double> (LAPACK's s, d, c and z). Workspaces are sized by
// LAPACK's own query (LWORK = -1) and allocated here. The numerics are the
// system LAPACK's (lapack_kernels.cc declares the Fortran symbols); these
// wrappers only call it. The typed-FFI handlers (lapack_handlers.h) and the
// interpreter's references to them both reach LAPACK through these.
//
// Arguments must be valid for the routine (the callers check shapes
// first): LAPACK reports a bad argument through XERBLA, which may print and
// even stop the process.

#include <complex>
#include <cstdint>
#include <type_traits>

namespace aot {
namespace lapack {

template <typename T>
struct RealOf {
  using type = T;
};
template <typename T>
struct RealOf<std::complex<T>> {
  using type = T;
};
template <typename T>
using Real = typename RealOf<T>::type;
template <typename T>
inline constexpr bool kIsComplex = !std::is_same_v<T, Real<T>>;

// xPOTRF: the Cholesky factor of a Hermitian positive definite matrix in
// the `uplo` ('L' or 'U') triangle of `a`; the other triangle is untouched.
template <typename T>
int Potrf(char uplo, int n, T* a, int lda);

// xGETRF: P L U with partial pivoting; `ipiv` (min(m, n)) 1-based rows.
template <typename T>
int Getrf(int m, int n, T* a, int lda, int* ipiv);

// xGEQRF: Householder QR; R above the diagonal, the reflectors below and
// `tau` (min(m, n)).
template <typename T>
int Geqrf(int m, int n, T* a, int lda, T* tau);

// xGEQP3: QR with column pivoting; `jpvt` (n, 1-based) in: nonzero pins a
// column to the front, out: the permutation.
template <typename T>
int Geqp3(int m, int n, T* a, int lda, int* jpvt, T* tau);

// xORGQR / xUNGQR: the m x n Q of k reflectors (m >= n >= k).
template <typename T>
int Orgqr(int m, int n, int k, T* a, int lda, const T* tau);

// xTRSM (BLAS): B := alpha op(A)^-1 B (side 'L') or alpha B op(A)^-1
// ('R'); A triangular ('L'/'U'), op 'N', 'T' or 'C', diag 'N' or 'U'.
template <typename T>
void Trsm(char side, char uplo, char trans, char diag, int m, int n, T alpha, const T* a, int lda,
          T* b, int ldb);

// xSYEVD / xHEEVD: eigenvalues `w` (ascending) and, with jobz 'V', the
// eigenvectors in `a`, from the `uplo` triangle.
template <typename T>
int Syevd(char jobz, char uplo, int n, T* a, int lda, Real<T>* w);

// xGESDD: singular values `s` (min(m, n), descending) and, with jobz 'A' or
// 'S', U (ldu) and V^H (ldvt); `a` is destroyed.
template <typename T>
int Gesdd(char jobz, int m, int n, T* a, int lda, Real<T>* s, T* u, int ldu, T* vt, int ldvt);

// xGEEV of a real matrix: eigenvalues wr + i wi; eigenvectors (jobvl /
// jobvr 'V') in LAPACK's packed real form (UnpackRealEigenvectors).
template <typename T>
int GeevReal(char jobvl, char jobvr, int n, T* a, int lda, T* wr, T* wi, T* vl, int ldvl, T* vr,
             int ldvr);
// xGEEV of a complex matrix.
template <typename T>
int GeevComplex(char jobvl, char jobvr, int n, T* a, int lda, T* w, T* vl, int ldvl, T* vr,
                int ldvr);

// geev's packed real eigenvectors (n x n, column-major, leading dimension
// n) as complex vectors: a column whose eigenvalue has imaginary part 0 (or
// NaN) is real; a conjugate pair j, j+1 is stored as the real part in
// column j and the imaginary part in column j+1 (LAPACK's documented form).
template <typename T>
void UnpackRealEigenvectors(int n, const T* wi, const T* packed, std::complex<T>* unpacked);

// xGEHRD: Hessenberg reduction of rows/columns ilo..ihi (1-based); `tau`
// (n - 1).
template <typename T>
int Gehrd(int n, int ilo, int ihi, T* a, int lda, T* tau);

// xSYTRD / xHETRD: tridiagonal reduction; diagonal `d` (n), off-diagonal
// `e` (n - 1), `tau` (n - 1).
template <typename T>
int Sytrd(char uplo, int n, T* a, int lda, Real<T>* d, Real<T>* e, T* tau);

// xGEES without sorting (SORT = 'N', so SDIM is 0): the Schur form in `a`,
// the Schur vectors in `vs` with jobvs 'V'. Real: eigenvalues wr + i wi.
template <typename T>
int GeesReal(char jobvs, int n, T* a, int lda, int* sdim, T* wr, T* wi, T* vs, int ldvs);
template <typename T>
int GeesComplex(char jobvs, int n, T* a, int lda, int* sdim, T* w, T* vs, int ldvs);

// xGTSV: solves the tridiagonal system (subdiagonal dl (n - 1), diagonal d
// (n), superdiagonal du (n - 1)) for the nrhs columns of b, overwriting all
// four.
template <typename T>
int Gtsv(int n, int nrhs, T* dl, T* d, T* du, T* b, int ldb);

}  // namespace lapack
}  // namespace aot

#endif  // AOT_RUNTIME_FFI_LAPACK_KERNELS_H_
