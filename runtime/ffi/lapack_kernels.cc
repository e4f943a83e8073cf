#include "runtime/ffi/lapack_kernels.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <vector>

// The Fortran LAPACK and BLAS ABI, declared here by hand: Debian's LAPACK
// (liblapack-dev, or OpenBLAS's, through the liblapack.so alternative)
// ships no LAPACKE or other C header for the Fortran symbols, and the
// project uses none. Every argument is passed by address; INTEGER is a
// 32-bit int (the LP64 libraries); COMPLEX and COMPLEX*16 are laid out as
// std::complex<float> / std::complex<double>; each CHARACTER argument adds a
// hidden length (size_t, gfortran's convention) after the others, which
// the routines OpenBLAS implements in C simply do not read. `const` marks
// what a routine only reads (the ABI is the same).
using fcomplex = std::complex<float>;
using dcomplex = std::complex<double>;
using flen = size_t;

extern "C" {

#define AOT_LAPACK_POTRF(p, T) \
  void p##potrf_(const char* uplo, const int* n, T* a, const int* lda, int* info, flen);
AOT_LAPACK_POTRF(s, float)
AOT_LAPACK_POTRF(d, double)
AOT_LAPACK_POTRF(c, fcomplex)
AOT_LAPACK_POTRF(z, dcomplex)

#define AOT_LAPACK_GETRF(p, T) \
  void p##getrf_(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info);
AOT_LAPACK_GETRF(s, float)
AOT_LAPACK_GETRF(d, double)
AOT_LAPACK_GETRF(c, fcomplex)
AOT_LAPACK_GETRF(z, dcomplex)

#define AOT_LAPACK_GEQRF(p, T)                                                      \
  void p##geqrf_(const int* m, const int* n, T* a, const int* lda, T* tau, T* work, \
                 const int* lwork, int* info);
AOT_LAPACK_GEQRF(s, float)
AOT_LAPACK_GEQRF(d, double)
AOT_LAPACK_GEQRF(c, fcomplex)
AOT_LAPACK_GEQRF(z, dcomplex)

void sgeqp3_(const int* m, const int* n, float* a, const int* lda, int* jpvt, float* tau,
             float* work, const int* lwork, int* info);
void dgeqp3_(const int* m, const int* n, double* a, const int* lda, int* jpvt, double* tau,
             double* work, const int* lwork, int* info);
void cgeqp3_(const int* m, const int* n, fcomplex* a, const int* lda, int* jpvt, fcomplex* tau,
             fcomplex* work, const int* lwork, float* rwork, int* info);
void zgeqp3_(const int* m, const int* n, dcomplex* a, const int* lda, int* jpvt, dcomplex* tau,
             dcomplex* work, const int* lwork, double* rwork, int* info);

void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau,
             float* work, const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau,
             double* work, const int* lwork, int* info);
void cungqr_(const int* m, const int* n, const int* k, fcomplex* a, const int* lda,
             const fcomplex* tau, fcomplex* work, const int* lwork, int* info);
void zungqr_(const int* m, const int* n, const int* k, dcomplex* a, const int* lda,
             const dcomplex* tau, dcomplex* work, const int* lwork, int* info);

// BLAS.
#define AOT_BLAS_TRSM(p, T)                                                                   \
  void p##trsm_(const char* side, const char* uplo, const char* transa, const char* diag,     \
                const int* m, const int* n, const T* alpha, const T* a, const int* lda, T* b, \
                const int* ldb, flen, flen, flen, flen);
AOT_BLAS_TRSM(s, float)
AOT_BLAS_TRSM(d, double)
AOT_BLAS_TRSM(c, fcomplex)
AOT_BLAS_TRSM(z, dcomplex)

void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w,
             float* work, const int* lwork, int* iwork, const int* liwork, int* info, flen, flen);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
             double* work, const int* lwork, int* iwork, const int* liwork, int* info, flen, flen);
void cheevd_(const char* jobz, const char* uplo, const int* n, fcomplex* a, const int* lda,
             float* w, fcomplex* work, const int* lwork, float* rwork, const int* lrwork,
             int* iwork, const int* liwork, int* info, flen, flen);
void zheevd_(const char* jobz, const char* uplo, const int* n, dcomplex* a, const int* lda,
             double* w, dcomplex* work, const int* lwork, double* rwork, const int* lrwork,
             int* iwork, const int* liwork, int* info, flen, flen);

void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s,
             float* u, const int* ldu, float* vt, const int* ldvt, float* work, const int* lwork,
             int* iwork, int* info, flen);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s,
             double* u, const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork,
             int* iwork, int* info, flen);
void cgesdd_(const char* jobz, const int* m, const int* n, fcomplex* a, const int* lda, float* s,
             fcomplex* u, const int* ldu, fcomplex* vt, const int* ldvt, fcomplex* work,
             const int* lwork, float* rwork, int* iwork, int* info, flen);
void zgesdd_(const char* jobz, const int* m, const int* n, dcomplex* a, const int* lda, double* s,
             dcomplex* u, const int* ldu, dcomplex* vt, const int* ldvt, dcomplex* work,
             const int* lwork, double* rwork, int* iwork, int* info, flen);

void sgeev_(const char* jobvl, const char* jobvr, const int* n, float* a, const int* lda, float* wr,
            float* wi, float* vl, const int* ldvl, float* vr, const int* ldvr, float* work,
            const int* lwork, int* info, flen, flen);
void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda,
            double* wr, double* wi, double* vl, const int* ldvl, double* vr, const int* ldvr,
            double* work, const int* lwork, int* info, flen, flen);
void cgeev_(const char* jobvl, const char* jobvr, const int* n, fcomplex* a, const int* lda,
            fcomplex* w, fcomplex* vl, const int* ldvl, fcomplex* vr, const int* ldvr,
            fcomplex* work, const int* lwork, float* rwork, int* info, flen, flen);
void zgeev_(const char* jobvl, const char* jobvr, const int* n, dcomplex* a, const int* lda,
            dcomplex* w, dcomplex* vl, const int* ldvl, dcomplex* vr, const int* ldvr,
            dcomplex* work, const int* lwork, double* rwork, int* info, flen, flen);

#define AOT_LAPACK_GEHRD(p, T)                                                               \
  void p##gehrd_(const int* n, const int* ilo, const int* ihi, T* a, const int* lda, T* tau, \
                 T* work, const int* lwork, int* info);
AOT_LAPACK_GEHRD(s, float)
AOT_LAPACK_GEHRD(d, double)
AOT_LAPACK_GEHRD(c, fcomplex)
AOT_LAPACK_GEHRD(z, dcomplex)

void ssytrd_(const char* uplo, const int* n, float* a, const int* lda, float* d, float* e,
             float* tau, float* work, const int* lwork, int* info, flen);
void dsytrd_(const char* uplo, const int* n, double* a, const int* lda, double* d, double* e,
             double* tau, double* work, const int* lwork, int* info, flen);
void chetrd_(const char* uplo, const int* n, fcomplex* a, const int* lda, float* d, float* e,
             fcomplex* tau, fcomplex* work, const int* lwork, int* info, flen);
void zhetrd_(const char* uplo, const int* n, dcomplex* a, const int* lda, double* d, double* e,
             dcomplex* tau, dcomplex* work, const int* lwork, int* info, flen);

// SELECT is a LOGICAL FUNCTION and BWORK a LOGICAL array; with SORT = 'N'
// neither is referenced, so they are passed as null.
void sgees_(const char* jobvs, const char* sort, void* select, const int* n, float* a,
            const int* lda, int* sdim, float* wr, float* wi, float* vs, const int* ldvs,
            float* work, const int* lwork, int* bwork, int* info, flen, flen);
void dgees_(const char* jobvs, const char* sort, void* select, const int* n, double* a,
            const int* lda, int* sdim, double* wr, double* wi, double* vs, const int* ldvs,
            double* work, const int* lwork, int* bwork, int* info, flen, flen);
void cgees_(const char* jobvs, const char* sort, void* select, const int* n, fcomplex* a,
            const int* lda, int* sdim, fcomplex* w, fcomplex* vs, const int* ldvs, fcomplex* work,
            const int* lwork, float* rwork, int* bwork, int* info, flen, flen);
void zgees_(const char* jobvs, const char* sort, void* select, const int* n, dcomplex* a,
            const int* lda, int* sdim, dcomplex* w, dcomplex* vs, const int* ldvs, dcomplex* work,
            const int* lwork, double* rwork, int* bwork, int* info, flen, flen);

#define AOT_LAPACK_GTSV(p, T) \
  void p##gtsv_(const int* n, const int* nrhs, T* dl, T* d, T* du, T* b, const int* ldb, int* info);
AOT_LAPACK_GTSV(s, float)
AOT_LAPACK_GTSV(d, double)
AOT_LAPACK_GTSV(c, fcomplex)
AOT_LAPACK_GTSV(z, dcomplex)

}  // extern "C"

namespace aot {
namespace lapack {
namespace {

// The routines of one precision, by LAPACK's prefix letter.
template <typename T>
struct Fortran;

template <>
struct Fortran<float> {
  static constexpr auto potrf = spotrf_;
  static constexpr auto getrf = sgetrf_;
  static constexpr auto geqrf = sgeqrf_;
  static constexpr auto geqp3 = sgeqp3_;
  static constexpr auto orgqr = sorgqr_;
  static constexpr auto trsm = strsm_;
  static constexpr auto syevd = ssyevd_;
  static constexpr auto gesdd = sgesdd_;
  static constexpr auto geev = sgeev_;
  static constexpr auto gehrd = sgehrd_;
  static constexpr auto sytrd = ssytrd_;
  static constexpr auto gees = sgees_;
  static constexpr auto gtsv = sgtsv_;
};
template <>
struct Fortran<double> {
  static constexpr auto potrf = dpotrf_;
  static constexpr auto getrf = dgetrf_;
  static constexpr auto geqrf = dgeqrf_;
  static constexpr auto geqp3 = dgeqp3_;
  static constexpr auto orgqr = dorgqr_;
  static constexpr auto trsm = dtrsm_;
  static constexpr auto syevd = dsyevd_;
  static constexpr auto gesdd = dgesdd_;
  static constexpr auto geev = dgeev_;
  static constexpr auto gehrd = dgehrd_;
  static constexpr auto sytrd = dsytrd_;
  static constexpr auto gees = dgees_;
  static constexpr auto gtsv = dgtsv_;
};
template <>
struct Fortran<fcomplex> {
  static constexpr auto potrf = cpotrf_;
  static constexpr auto getrf = cgetrf_;
  static constexpr auto geqrf = cgeqrf_;
  static constexpr auto geqp3 = cgeqp3_;
  static constexpr auto orgqr = cungqr_;
  static constexpr auto trsm = ctrsm_;
  static constexpr auto syevd = cheevd_;
  static constexpr auto gesdd = cgesdd_;
  static constexpr auto geev = cgeev_;
  static constexpr auto gehrd = cgehrd_;
  static constexpr auto sytrd = chetrd_;
  static constexpr auto gees = cgees_;
  static constexpr auto gtsv = cgtsv_;
};
template <>
struct Fortran<dcomplex> {
  static constexpr auto potrf = zpotrf_;
  static constexpr auto getrf = zgetrf_;
  static constexpr auto geqrf = zgeqrf_;
  static constexpr auto geqp3 = zgeqp3_;
  static constexpr auto orgqr = zungqr_;
  static constexpr auto trsm = ztrsm_;
  static constexpr auto syevd = zheevd_;
  static constexpr auto gesdd = zgesdd_;
  static constexpr auto geev = zgeev_;
  static constexpr auto gehrd = zgehrd_;
  static constexpr auto sytrd = zhetrd_;
  static constexpr auto gees = zgees_;
  static constexpr auto gtsv = zgtsv_;
};

// The size a workspace query wrote into WORK(1) (a real or complex value),
// at least 1.
template <typename T>
int QueriedSize(const T& value) {
  return std::max(1, static_cast<int>(std::real(value)));
}

}  // namespace

template <typename T>
int Potrf(char uplo, int n, T* a, int lda) {
  int info = 0;
  Fortran<T>::potrf(&uplo, &n, a, &lda, &info, 1);
  return info;
}

template <typename T>
int Getrf(int m, int n, T* a, int lda, int* ipiv) {
  int info = 0;
  Fortran<T>::getrf(&m, &n, a, &lda, ipiv, &info);
  return info;
}

template <typename T>
int Geqrf(int m, int n, T* a, int lda, T* tau) {
  int info = 0, query = -1;
  T size{};
  Fortran<T>::geqrf(&m, &n, a, &lda, tau, &size, &query, &info);
  if (info != 0) return info;
  int lwork = QueriedSize(size);
  std::vector<T> work(lwork);
  Fortran<T>::geqrf(&m, &n, a, &lda, tau, work.data(), &lwork, &info);
  return info;
}

template <typename T>
int Geqp3(int m, int n, T* a, int lda, int* jpvt, T* tau) {
  int info = 0, query = -1;
  T size{};
  if constexpr (kIsComplex<T>) {
    std::vector<Real<T>> rwork(std::max(1, 2 * n));
    Fortran<T>::geqp3(&m, &n, a, &lda, jpvt, tau, &size, &query, rwork.data(), &info);
    if (info != 0) return info;
    int lwork = QueriedSize(size);
    std::vector<T> work(lwork);
    Fortran<T>::geqp3(&m, &n, a, &lda, jpvt, tau, work.data(), &lwork, rwork.data(), &info);
  } else {
    Fortran<T>::geqp3(&m, &n, a, &lda, jpvt, tau, &size, &query, &info);
    if (info != 0) return info;
    int lwork = QueriedSize(size);
    std::vector<T> work(lwork);
    Fortran<T>::geqp3(&m, &n, a, &lda, jpvt, tau, work.data(), &lwork, &info);
  }
  return info;
}

template <typename T>
int Orgqr(int m, int n, int k, T* a, int lda, const T* tau) {
  int info = 0, query = -1;
  T size{};
  Fortran<T>::orgqr(&m, &n, &k, a, &lda, tau, &size, &query, &info);
  if (info != 0) return info;
  int lwork = QueriedSize(size);
  std::vector<T> work(lwork);
  Fortran<T>::orgqr(&m, &n, &k, a, &lda, tau, work.data(), &lwork, &info);
  return info;
}

template <typename T>
void Trsm(char side, char uplo, char trans, char diag, int m, int n, T alpha, const T* a, int lda,
          T* b, int ldb) {
  Fortran<T>::trsm(&side, &uplo, &trans, &diag, &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, 1, 1);
}

template <typename T>
int Syevd(char jobz, char uplo, int n, T* a, int lda, Real<T>* w) {
  int info = 0, query = -1;
  T size{};
  int isize = 0;
  if constexpr (kIsComplex<T>) {
    Real<T> rsize{};
    Fortran<T>::syevd(&jobz, &uplo, &n, a, &lda, w, &size, &query, &rsize, &query, &isize, &query,
                      &info, 1, 1);
    if (info != 0) return info;
    int lwork = QueriedSize(size), lrwork = QueriedSize(rsize), liwork = std::max(1, isize);
    std::vector<T> work(lwork);
    std::vector<Real<T>> rwork(lrwork);
    std::vector<int> iwork(liwork);
    Fortran<T>::syevd(&jobz, &uplo, &n, a, &lda, w, work.data(), &lwork, rwork.data(), &lrwork,
                      iwork.data(), &liwork, &info, 1, 1);
  } else {
    Fortran<T>::syevd(&jobz, &uplo, &n, a, &lda, w, &size, &query, &isize, &query, &info, 1, 1);
    if (info != 0) return info;
    int lwork = QueriedSize(size), liwork = std::max(1, isize);
    std::vector<T> work(lwork);
    std::vector<int> iwork(liwork);
    Fortran<T>::syevd(&jobz, &uplo, &n, a, &lda, w, work.data(), &lwork, iwork.data(), &liwork,
                      &info, 1, 1);
  }
  return info;
}

template <typename T>
int Gesdd(char jobz, int m, int n, T* a, int lda, Real<T>* s, T* u, int ldu, T* vt, int ldvt) {
  int info = 0, query = -1;
  T size{};
  const int mn = std::min(m, n), mx = std::max(m, n);
  std::vector<int> iwork(std::max(1, 8 * mn));
  if constexpr (kIsComplex<T>) {
    // LRWORK as xGESDD documents it (LAPACK has no query for it).
    const int64_t lrwork = jobz == 'N' ? 7 * int64_t{mn}
                                       : std::max(5 * int64_t{mn} * mn + 5 * mn,
                                                  2 * int64_t{mx} * mn + 2 * int64_t{mn} * mn + mn);
    std::vector<Real<T>> rwork(std::max<int64_t>(1, lrwork));
    Fortran<T>::gesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, &size, &query, rwork.data(),
                      iwork.data(), &info, 1);
    if (info != 0) return info;
    int lwork = QueriedSize(size);
    std::vector<T> work(lwork);
    Fortran<T>::gesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work.data(), &lwork,
                      rwork.data(), iwork.data(), &info, 1);
  } else {
    Fortran<T>::gesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, &size, &query, iwork.data(),
                      &info, 1);
    if (info != 0) return info;
    int lwork = QueriedSize(size);
    std::vector<T> work(lwork);
    Fortran<T>::gesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work.data(), &lwork,
                      iwork.data(), &info, 1);
  }
  return info;
}

template <typename T>
int GeevReal(char jobvl, char jobvr, int n, T* a, int lda, T* wr, T* wi, T* vl, int ldvl, T* vr,
             int ldvr) {
  static_assert(!kIsComplex<T>);
  int info = 0, query = -1;
  T size{};
  Fortran<T>::geev(&jobvl, &jobvr, &n, a, &lda, wr, wi, vl, &ldvl, vr, &ldvr, &size, &query, &info,
                   1, 1);
  if (info != 0) return info;
  int lwork = QueriedSize(size);
  std::vector<T> work(lwork);
  Fortran<T>::geev(&jobvl, &jobvr, &n, a, &lda, wr, wi, vl, &ldvl, vr, &ldvr, work.data(), &lwork,
                   &info, 1, 1);
  return info;
}

template <typename T>
int GeevComplex(char jobvl, char jobvr, int n, T* a, int lda, T* w, T* vl, int ldvl, T* vr,
                int ldvr) {
  static_assert(kIsComplex<T>);
  int info = 0, query = -1;
  T size{};
  std::vector<Real<T>> rwork(std::max(1, 2 * n));
  Fortran<T>::geev(&jobvl, &jobvr, &n, a, &lda, w, vl, &ldvl, vr, &ldvr, &size, &query,
                   rwork.data(), &info, 1, 1);
  if (info != 0) return info;
  int lwork = QueriedSize(size);
  std::vector<T> work(lwork);
  Fortran<T>::geev(&jobvl, &jobvr, &n, a, &lda, w, vl, &ldvl, vr, &ldvr, work.data(), &lwork,
                   rwork.data(), &info, 1, 1);
  return info;
}

template <typename T>
void UnpackRealEigenvectors(int n, const T* wi, const T* packed, std::complex<T>* unpacked) {
  const int64_t ld = n;
  for (int j = 0; j < n;) {
    if (wi[j] == T(0) || std::isnan(wi[j]) || j + 1 == n) {
      for (int i = 0; i < n; ++i) unpacked[j * ld + i] = {packed[j * ld + i], T(0)};
      ++j;
    } else {
      for (int i = 0; i < n; ++i) {
        const T re = packed[j * ld + i], im = packed[(j + 1) * ld + i];
        unpacked[j * ld + i] = {re, im};
        unpacked[(j + 1) * ld + i] = {re, -im};
      }
      j += 2;
    }
  }
}

template <typename T>
int Gehrd(int n, int ilo, int ihi, T* a, int lda, T* tau) {
  int info = 0, query = -1;
  T size{};
  Fortran<T>::gehrd(&n, &ilo, &ihi, a, &lda, tau, &size, &query, &info);
  if (info != 0) return info;
  int lwork = QueriedSize(size);
  std::vector<T> work(lwork);
  Fortran<T>::gehrd(&n, &ilo, &ihi, a, &lda, tau, work.data(), &lwork, &info);
  return info;
}

template <typename T>
int Sytrd(char uplo, int n, T* a, int lda, Real<T>* d, Real<T>* e, T* tau) {
  int info = 0, query = -1;
  T size{};
  Fortran<T>::sytrd(&uplo, &n, a, &lda, d, e, tau, &size, &query, &info, 1);
  if (info != 0) return info;
  int lwork = QueriedSize(size);
  std::vector<T> work(lwork);
  Fortran<T>::sytrd(&uplo, &n, a, &lda, d, e, tau, work.data(), &lwork, &info, 1);
  return info;
}

template <typename T>
int GeesReal(char jobvs, int n, T* a, int lda, int* sdim, T* wr, T* wi, T* vs, int ldvs) {
  static_assert(!kIsComplex<T>);
  const char sort = 'N';
  int info = 0, query = -1;
  T size{};
  Fortran<T>::gees(&jobvs, &sort, nullptr, &n, a, &lda, sdim, wr, wi, vs, &ldvs, &size, &query,
                   nullptr, &info, 1, 1);
  if (info != 0) return info;
  int lwork = QueriedSize(size);
  std::vector<T> work(lwork);
  Fortran<T>::gees(&jobvs, &sort, nullptr, &n, a, &lda, sdim, wr, wi, vs, &ldvs, work.data(),
                   &lwork, nullptr, &info, 1, 1);
  return info;
}

template <typename T>
int GeesComplex(char jobvs, int n, T* a, int lda, int* sdim, T* w, T* vs, int ldvs) {
  static_assert(kIsComplex<T>);
  const char sort = 'N';
  int info = 0, query = -1;
  T size{};
  std::vector<Real<T>> rwork(std::max(1, n));
  Fortran<T>::gees(&jobvs, &sort, nullptr, &n, a, &lda, sdim, w, vs, &ldvs, &size, &query,
                   rwork.data(), nullptr, &info, 1, 1);
  if (info != 0) return info;
  int lwork = QueriedSize(size);
  std::vector<T> work(lwork);
  Fortran<T>::gees(&jobvs, &sort, nullptr, &n, a, &lda, sdim, w, vs, &ldvs, work.data(), &lwork,
                   rwork.data(), nullptr, &info, 1, 1);
  return info;
}

template <typename T>
int Gtsv(int n, int nrhs, T* dl, T* d, T* du, T* b, int ldb) {
  int info = 0;
  Fortran<T>::gtsv(&n, &nrhs, dl, d, du, b, &ldb, &info);
  return info;
}

#define AOT_LAPACK_INSTANTIATE_ALL(T)                                                 \
  template int Potrf<T>(char, int, T*, int);                                          \
  template int Getrf<T>(int, int, T*, int, int*);                                     \
  template int Geqrf<T>(int, int, T*, int, T*);                                       \
  template int Geqp3<T>(int, int, T*, int, int*, T*);                                 \
  template int Orgqr<T>(int, int, int, T*, int, const T*);                            \
  template void Trsm<T>(char, char, char, char, int, int, T, const T*, int, T*, int); \
  template int Syevd<T>(char, char, int, T*, int, Real<T>*);                          \
  template int Gesdd<T>(char, int, int, T*, int, Real<T>*, T*, int, T*, int);         \
  template int Gehrd<T>(int, int, int, T*, int, T*);                                  \
  template int Sytrd<T>(char, int, T*, int, Real<T>*, Real<T>*, T*);                  \
  template int Gtsv<T>(int, int, T*, T*, T*, T*, int);
AOT_LAPACK_INSTANTIATE_ALL(float)
AOT_LAPACK_INSTANTIATE_ALL(double)
AOT_LAPACK_INSTANTIATE_ALL(fcomplex)
AOT_LAPACK_INSTANTIATE_ALL(dcomplex)
#undef AOT_LAPACK_INSTANTIATE_ALL

template int GeevReal<float>(char, char, int, float*, int, float*, float*, float*, int, float*,
                             int);
template int GeevReal<double>(char, char, int, double*, int, double*, double*, double*, int,
                              double*, int);
template int GeevComplex<fcomplex>(char, char, int, fcomplex*, int, fcomplex*, fcomplex*, int,
                                   fcomplex*, int);
template int GeevComplex<dcomplex>(char, char, int, dcomplex*, int, dcomplex*, dcomplex*, int,
                                   dcomplex*, int);
template void UnpackRealEigenvectors<float>(int, const float*, const float*, fcomplex*);
template void UnpackRealEigenvectors<double>(int, const double*, const double*, dcomplex*);
template int GeesReal<float>(char, int, float*, int, int*, float*, float*, float*, int);
template int GeesReal<double>(char, int, double*, int, int*, double*, double*, double*, int);
template int GeesComplex<fcomplex>(char, int, fcomplex*, int, int*, fcomplex*, fcomplex*, int);
template int GeesComplex<dcomplex>(char, int, dcomplex*, int, int*, dcomplex*, dcomplex*, int);

}  // namespace lapack
}  // namespace aot
