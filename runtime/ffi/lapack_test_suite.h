#ifndef AOT_RUNTIME_FFI_LAPACK_TEST_SUITE_H_
#define AOT_RUNTIME_FFI_LAPACK_TEST_SUITE_H_

// Tests of JAX's LAPACK custom calls (lapack_handlers.h) by the defining
// property of each result, over a Runner that executes one call: the
// runtime's handlers on buffers in a layout (lapack_handlers_test.cc) and
// the interpreter's references on literals
// (compiler/interpreter/lapack_custom_calls_test.cc) share them. Values are
// in row-major logical order here whatever the layout the runner uses.
// Test-only (gtest).

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "proto/hlo.pb.h"

namespace aot {
namespace lapack_testing {

// One operand or result: its element type, dimensions and (for operands,
// and what a run returns) its values' bytes in row-major logical order.
struct Arg {
  PrimitiveType type = F32;
  std::vector<int64_t> dims;
  std::vector<uint8_t> logical;
};

struct Attr {
  std::string name;
  int64_t value = 0;
  bool i32 = false;  // written as i32 (low, high); otherwise as ui8
};

// How a runner lays out the buffers: row-major; JAX's column-major
// matrices (the arrays of the greatest operand rank, as JAX's
// operand_layouts); every array's dimensions reversed (the batch
// dimensions most minor).
enum class Layout { kRowMajor, kColumnMajor, kReversed };
inline const char* LayoutName(Layout l) {
  return l == Layout::kRowMajor      ? "row-major"
         : l == Layout::kColumnMajor ? "column-major"
                                     : "reversed";
}
inline constexpr Layout kLayouts[] = {Layout::kRowMajor, Layout::kColumnMajor, Layout::kReversed};

// The layout (minor_to_major) `layout` gives an array of `rank` when the
// greatest operand rank is `max_rank`.
inline std::vector<int64_t> MinorToMajor(Layout layout, int64_t rank, int64_t max_rank) {
  std::vector<int64_t> m2m;
  if (layout == Layout::kReversed) {
    for (int64_t d = 0; d < rank; ++d) m2m.push_back(d);
  } else if (layout == Layout::kColumnMajor && rank == max_rank && rank >= 2) {
    m2m = {rank - 2, rank - 1};
    for (int64_t d = rank - 3; d >= 0; --d) m2m.push_back(d);
  } else {
    for (int64_t d = rank - 1; d >= 0; --d) m2m.push_back(d);
  }
  return m2m;
}

// Runs `target` on `operands`; `results` give the result types and
// dimensions. The values of the results, or the call's error.
using Runner = std::function<absl::StatusOr<std::vector<Arg>>(
    const std::string& target, const std::vector<Arg>& operands, const std::vector<Arg>& results,
    const std::vector<Attr>& attrs, Layout layout)>;

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
inline constexpr bool kComplex = !std::is_same_v<T, Real<T>>;

template <typename T>
PrimitiveType TypeOf() {
  if constexpr (std::is_same_v<T, float>) return F32;
  if constexpr (std::is_same_v<T, double>) return F64;
  if constexpr (std::is_same_v<T, std::complex<float>>) return C64;
  if constexpr (std::is_same_v<T, std::complex<double>>) return C128;
  if constexpr (std::is_same_v<T, int32_t>) return S32;
}
template <typename T>
std::string Target(const char* real, const char* complex) {
  const char* letter = std::is_same_v<T, float>                 ? "s"
                       : std::is_same_v<T, double>              ? "d"
                       : std::is_same_v<T, std::complex<float>> ? "c"
                                                                : "z";
  return absl::StrCat("lapack_", letter, kComplex<T> ? complex : real, "_ffi");
}
// A tolerance relative to the magnitude of the values compared.
template <typename T>
double Tol() {
  return std::is_same_v<Real<T>, float> ? 2e-4 : 1e-10;
}
template <typename T>
T Conj(T x) {
  if constexpr (kComplex<T>) {
    return std::conj(x);
  } else {
    return x;
  }
}

template <typename T>
Arg Make(std::vector<int64_t> dims, const std::vector<T>& values) {
  Arg a{TypeOf<T>(), std::move(dims), {}};
  a.logical.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(a.logical.data(), values.data(), a.logical.size());
  return a;
}
inline Arg Out(PrimitiveType type, std::vector<int64_t> dims) {
  return Arg{type, std::move(dims), {}};
}
template <typename T>
std::vector<T> Values(const Arg& a) {
  std::vector<T> v(a.logical.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), a.logical.data(), a.logical.size());
  return v;
}

// A row-major matrix.
template <typename T>
struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<T> v;
  Matrix() = default;
  Matrix(int64_t r, int64_t c) : rows(r), cols(c), v(r * c, T(0)) {}
  T& operator()(int64_t i, int64_t j) { return v[i * cols + j]; }
  const T& operator()(int64_t i, int64_t j) const { return v[i * cols + j]; }
};

template <typename T>
Matrix<T> Identity(int64_t n) {
  Matrix<T> m(n, n);
  for (int64_t i = 0; i < n; ++i) m(i, i) = T(1);
  return m;
}
template <typename T>
Matrix<T> operator*(const Matrix<T>& a, const Matrix<T>& b) {
  Matrix<T> c(a.rows, b.cols);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = 0; k < a.cols; ++k) {
      for (int64_t j = 0; j < b.cols; ++j) c(i, j) += a(i, k) * b(k, j);
    }
  }
  return c;
}
template <typename T>
Matrix<T> Adjoint(const Matrix<T>& a) {
  Matrix<T> t(a.cols, a.rows);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t j = 0; j < a.cols; ++j) t(j, i) = Conj(a(i, j));
  }
  return t;
}
template <typename T>
Matrix<T> Transpose(const Matrix<T>& a) {
  Matrix<T> t(a.cols, a.rows);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t j = 0; j < a.cols; ++j) t(j, i) = a(i, j);
  }
  return t;
}
template <typename T>
Matrix<T> Block(const Matrix<T>& a, int64_t rows, int64_t cols) {
  Matrix<T> b(rows, cols);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) b(i, j) = a(i, j);
  }
  return b;
}

// Expects |a - b| <= tol * max(1, max |b|) element by element.
template <typename T>
void ExpectNear(const Matrix<T>& a, const Matrix<T>& b, double tol, const std::string& what) {
  ASSERT_EQ(a.rows, b.rows) << what;
  ASSERT_EQ(a.cols, b.cols) << what;
  double scale = 1;
  for (const T& x : b.v) scale = std::max(scale, static_cast<double>(std::abs(x)));
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t j = 0; j < a.cols; ++j) {
      EXPECT_LE(std::abs(a(i, j) - b(i, j)), tol * scale)
          << what << " at (" << i << ", " << j << ")";
    }
  }
}

// Matrix `b` of a batch of r x c matrices in logical order.
template <typename T>
Matrix<T> At(const std::vector<T>& flat, int64_t b, int64_t r, int64_t c) {
  Matrix<T> m(r, c);
  std::copy(flat.begin() + b * r * c, flat.begin() + (b + 1) * r * c, m.v.begin());
  return m;
}
template <typename T>
std::vector<T> Flatten(const std::vector<Matrix<T>>& ms) {
  std::vector<T> flat;
  for (const Matrix<T>& m : ms) flat.insert(flat.end(), m.v.begin(), m.v.end());
  return flat;
}

template <typename T>
T RandomValue(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  if constexpr (kComplex<T>) {
    return T(static_cast<Real<T>>(u(rng)), static_cast<Real<T>>(u(rng)));
  } else {
    return static_cast<T>(u(rng));
  }
}
template <typename T>
Matrix<T> Random(int64_t r, int64_t c, std::mt19937& rng) {
  Matrix<T> m(r, c);
  for (T& x : m.v) x = RandomValue<T>(rng);
  return m;
}
// A Hermitian positive definite matrix.
template <typename T>
Matrix<T> RandomSpd(int64_t n, std::mt19937& rng) {
  Matrix<T> m = Random<T>(n, n, rng);
  Matrix<T> a = m * Adjoint(m);
  for (int64_t i = 0; i < n; ++i) a(i, i) += T(static_cast<Real<T>>(n));
  return a;
}
template <typename T>
Matrix<T> RandomHermitian(int64_t n, std::mt19937& rng) {
  Matrix<T> m = Random<T>(n, n, rng);
  Matrix<T> a(n, n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) a(i, j) = (m(i, j) + Conj(m(j, i))) / T(2);
  }
  return a;
}

// The Hermitian matrix the `uplo` triangle of `a` stands for.
template <typename T>
Matrix<T> FromTriangle(const Matrix<T>& a, char uplo) {
  Matrix<T> h(a.rows, a.cols);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t j = 0; j < a.cols; ++j) {
      const bool in = uplo == 'L' ? i >= j : i <= j;
      h(i, j) = in ? a(i, j) : Conj(a(j, i));
    }
    h(i, i) = T(std::real(a(i, i)));
  }
  return h;
}

// Q = H(first) H(first+1) ... H(last) (0-based reflector indices) of
// n-vectors: H(i) = I - tau[i] v v^H, v from `vector(i)`.
template <typename T>
Matrix<T> Reflectors(int64_t n, int64_t first, int64_t last, const std::vector<T>& tau,
                     const std::function<std::vector<T>(int64_t)>& vector, bool reverse = false) {
  Matrix<T> q = Identity<T>(n);
  for (int64_t s = first; s <= last; ++s) {
    const int64_t i = reverse ? last - (s - first) : s;
    std::vector<T> v = vector(i);
    Matrix<T> h = Identity<T>(n);
    for (int64_t r = 0; r < n; ++r) {
      for (int64_t c = 0; c < n; ++c) h(r, c) -= tau[i] * v[r] * Conj(v[c]);
    }
    q = q * h;
  }
  return q;
}

#define AOT_LAPACK_RUN(result, runner, ...)              \
  auto result##_or = (runner)(__VA_ARGS__);              \
  ASSERT_TRUE(result##_or.ok()) << result##_or.status(); \
  const std::vector<Arg>& result = *result##_or

// ---------------------------------------------------------------------------
// potrf: L L^H = A (uplo 'L') or U^H U = A ('U'), the other triangle kept;
// info 0, or the order of the first non-positive leading minor.
template <typename T>
void CheckPotrf(const Runner& run) {
  std::mt19937 rng(1);
  const int64_t n = 3;
  std::vector<Matrix<T>> a = {RandomSpd<T>(n, rng), RandomSpd<T>(n, rng)};
  for (Layout layout : kLayouts) {
    for (char uplo : {'L', 'U'}) {
      SCOPED_TRACE(absl::StrCat(LayoutName(layout), " uplo=", std::string(1, uplo)));
      AOT_LAPACK_RUN(r, run, Target<T>("potrf", "potrf"), {Make<T>({2, n, n}, Flatten(a))},
                     {Out(TypeOf<T>(), {2, n, n}), Out(S32, {2})}, {{"uplo", uplo}}, layout);
      const std::vector<T> f = Values<T>(r[0]);
      EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{0, 0}));
      for (int64_t b = 0; b < 2; ++b) {
        Matrix<T> out = At(f, b, n, n), t(n, n);
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            const bool in = uplo == 'L' ? i >= j : i <= j;
            if (in) {
              t(i, j) = out(i, j);
            } else {
              EXPECT_EQ(out(i, j), a[b](i, j)) << "the other triangle is kept";
            }
          }
        }
        ExpectNear(uplo == 'L' ? t * Adjoint(t) : Adjoint(t) * t, a[b], Tol<T>(), "factor");
      }
    }
  }
  // Not positive definite: the second leading minor of diag(1, -1, 1).
  Matrix<T> bad = Identity<T>(n);
  bad(1, 1) = T(-1);
  for (Layout layout : kLayouts) {
    AOT_LAPACK_RUN(r, run, Target<T>("potrf", "potrf"),
                   {Make<T>({2, n, n}, Flatten<T>({a[0], bad}))},
                   {Out(TypeOf<T>(), {2, n, n}), Out(S32, {2})}, {{"uplo", 'L'}}, layout);
    EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{0, 2})) << LayoutName(layout);
  }
  // No batch dimension.
  AOT_LAPACK_RUN(r, run, Target<T>("potrf", "potrf"), {Make<T>({n, n}, a[0].v)},
                 {Out(TypeOf<T>(), {n, n}), Out(S32, {})}, {{"uplo", 'L'}}, Layout::kColumnMajor);
  EXPECT_EQ(Values<int32_t>(r[1]), std::vector<int32_t>{0});
}

// getrf: P L U = A, ipiv 1-based row interchanges; info > 0 when U is
// exactly singular.
template <typename T>
void CheckGetrf(const Runner& run) {
  std::mt19937 rng(2);
  for (auto [m, n] : {std::pair<int64_t, int64_t>{3, 3}, {3, 4}, {4, 3}}) {
    const int64_t k = std::min(m, n);
    std::vector<Matrix<T>> a = {Random<T>(m, n, rng), Random<T>(m, n, rng)};
    for (Layout layout : kLayouts) {
      SCOPED_TRACE(absl::StrCat(LayoutName(layout), " ", m, "x", n));
      AOT_LAPACK_RUN(r, run, Target<T>("getrf", "getrf"), {Make<T>({2, m, n}, Flatten(a))},
                     {Out(TypeOf<T>(), {2, m, n}), Out(S32, {2, k}), Out(S32, {2})}, {}, layout);
      const std::vector<T> f = Values<T>(r[0]);
      const std::vector<int32_t> ipiv = Values<int32_t>(r[1]);
      EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{0, 0}));
      for (int64_t b = 0; b < 2; ++b) {
        Matrix<T> lu = At(f, b, m, n), l(m, k), u(k, n);
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < k; ++j) l(i, j) = i == j ? T(1) : i > j ? lu(i, j) : T(0);
        }
        for (int64_t i = 0; i < k; ++i) {
          for (int64_t j = i; j < n; ++j) u(i, j) = lu(i, j);
        }
        Matrix<T> plu = l * u;
        for (int64_t i = k - 1; i >= 0; --i) {
          const int64_t p = ipiv[b * k + i] - 1;
          ASSERT_GE(p, i);
          ASSERT_LT(p, m);
          for (int64_t j = 0; j < n; ++j) std::swap(plu(i, j), plu(p, j));
        }
        ExpectNear(plu, a[b], Tol<T>(), "P L U");
      }
    }
  }
  // A zero first column: U(1, 1) = 0.
  Matrix<T> singular = Random<T>(3, 3, rng);
  for (int64_t i = 0; i < 3; ++i) singular(i, 0) = T(0);
  AOT_LAPACK_RUN(r, run, Target<T>("getrf", "getrf"), {Make<T>({3, 3}, singular.v)},
                 {Out(TypeOf<T>(), {3, 3}), Out(S32, {3}), Out(S32, {})}, {}, Layout::kColumnMajor);
  EXPECT_EQ(Values<int32_t>(r[2]), std::vector<int32_t>{1});
}

// geqrf then orgqr / ungqr: Q R = A, Q^H Q = I; Q of the first k
// reflectors keeps the first k columns of Q of all of them.
template <typename T>
void CheckQr(const Runner& run) {
  std::mt19937 rng(3);
  const std::string geqrf = Target<T>("geqrf", "geqrf"), orgqr = Target<T>("orgqr", "ungqr");
  for (auto [m, n] : {std::pair<int64_t, int64_t>{4, 3}, {3, 4}, {3, 3}}) {
    const int64_t k = std::min(m, n);
    std::vector<Matrix<T>> a = {Random<T>(m, n, rng), Random<T>(m, n, rng)};
    for (Layout layout : kLayouts) {
      SCOPED_TRACE(absl::StrCat(LayoutName(layout), " ", m, "x", n));
      AOT_LAPACK_RUN(qr, run, geqrf, {Make<T>({2, m, n}, Flatten(a))},
                     {Out(TypeOf<T>(), {2, m, n}), Out(TypeOf<T>(), {2, k})}, {}, layout);
      const std::vector<T> f = Values<T>(qr[0]);
      // The reflectors: the first k columns (all n when m >= n).
      std::vector<Matrix<T>> v;
      for (int64_t b = 0; b < 2; ++b) v.push_back(Block(At(f, b, m, n), m, k));
      AOT_LAPACK_RUN(q, run, orgqr, {Make<T>({2, m, k}, Flatten(v)), qr[1]},
                     {Out(TypeOf<T>(), {2, m, k})}, {}, layout);
      for (int64_t b = 0; b < 2; ++b) {
        Matrix<T> qb = At(Values<T>(q[0]), b, m, k), rb(k, n), fb = At(f, b, m, n);
        for (int64_t i = 0; i < k; ++i) {
          for (int64_t j = i; j < n; ++j) rb(i, j) = fb(i, j);
        }
        ExpectNear(qb * rb, a[b], Tol<T>(), "Q R");
        ExpectNear(Adjoint(qb) * qb, Identity<T>(k), Tol<T>(), "Q^H Q");
      }
      if (k >= 2) {
        // k - 1 reflectors.
        std::vector<T> tau = Values<T>(qr[1]), fewer;
        for (int64_t b = 0; b < 2; ++b) {
          fewer.insert(fewer.end(), tau.begin() + b * k, tau.begin() + b * k + k - 1);
        }
        AOT_LAPACK_RUN(q2, run, orgqr, {Make<T>({2, m, k}, Flatten(v)), Make<T>({2, k - 1}, fewer)},
                       {Out(TypeOf<T>(), {2, m, k})}, {}, layout);
        for (int64_t b = 0; b < 2; ++b) {
          ExpectNear(Block(At(Values<T>(q2[0]), b, m, k), m, k - 1),
                     Block(At(Values<T>(q[0]), b, m, k), m, k - 1), Tol<T>(), "first k columns");
        }
      }
    }
  }
}

// trsm: op(A) X = B (side 'L') or X op(A) = B ('R') with A the uplo
// triangle of x (unit diagonal with diag 'U').
template <typename T>
void CheckTrsm(const Runner& run) {
  std::mt19937 rng(4);
  const int64_t m = 3, n = 2;
  for (char side : {'L', 'R'}) {
    const int64_t k = side == 'L' ? m : n;
    std::vector<Matrix<T>> a, y;
    for (int b = 0; b < 2; ++b) {
      a.push_back(Random<T>(k, k, rng));
      for (int64_t i = 0; i < k; ++i) a.back()(i, i) += T(3);
      y.push_back(Random<T>(m, n, rng));
    }
    for (char uplo : {'L', 'U'}) {
      for (char trans : {'N', 'T', 'C'}) {
        for (char diag : {'N', 'U'}) {
          for (Layout layout : kLayouts) {
            SCOPED_TRACE(absl::StrCat(
                LayoutName(layout), " side=", std::string(1, side), " uplo=", std::string(1, uplo),
                " trans=", std::string(1, trans), " diag=", std::string(1, diag)));
            AOT_LAPACK_RUN(r, run, Target<T>("trsm", "trsm"),
                           {Make<T>({2, k, k}, Flatten(a)), Make<T>({2, m, n}, Flatten(y))},
                           {Out(TypeOf<T>(), {2, m, n})},
                           {{"side", side}, {"uplo", uplo}, {"trans_x", trans}, {"diag", diag}},
                           layout);
            for (int64_t b = 0; b < 2; ++b) {
              Matrix<T> t(k, k);
              for (int64_t i = 0; i < k; ++i) {
                for (int64_t j = 0; j < k; ++j) {
                  if (uplo == 'L' ? i >= j : i <= j) t(i, j) = a[b](i, j);
                }
                if (diag == 'U') t(i, i) = T(1);
              }
              if (trans == 'T') t = Transpose(t);
              if (trans == 'C') t = Adjoint(t);
              Matrix<T> x = At(Values<T>(r[0]), b, m, n);
              ExpectNear(side == 'L' ? t * x : x * t, y[b], Tol<T>(), "op(A) X = B");
            }
          }
        }
      }
    }
  }
}

// syevd / heevd: A V = V diag(w), V^H V = I, w ascending, from the uplo
// triangle alone; mode 'N' the same eigenvalues.
template <typename T>
void CheckSyevd(const Runner& run) {
  std::mt19937 rng(5);
  const int64_t n = 4;
  const std::string target = Target<T>("syevd", "heevd");
  std::vector<Matrix<T>> a = {RandomHermitian<T>(n, rng), RandomHermitian<T>(n, rng)};
  for (char uplo : {'L', 'U'}) {
    // The other triangle is not read.
    std::vector<Matrix<T>> given = a;
    for (Matrix<T>& g : given) {
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          if (uplo == 'L' ? i < j : i > j) g(i, j) = T(100);
        }
      }
    }
    for (Layout layout : kLayouts) {
      SCOPED_TRACE(absl::StrCat(LayoutName(layout), " uplo=", std::string(1, uplo)));
      AOT_LAPACK_RUN(r, run, target, {Make<T>({2, n, n}, Flatten(given))},
                     {Out(TypeOf<T>(), {2, n, n}), Out(TypeOf<Real<T>>(), {2, n}), Out(S32, {2})},
                     {{"uplo", uplo}, {"mode", 'V'}}, layout);
      EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{0, 0}));
      const std::vector<Real<T>> w = Values<Real<T>>(r[1]);
      for (int64_t b = 0; b < 2; ++b) {
        Matrix<T> v = At(Values<T>(r[0]), b, n, n), d(n, n);
        for (int64_t i = 0; i < n; ++i) d(i, i) = T(w[b * n + i]);
        for (int64_t i = 1; i < n; ++i) EXPECT_LE(w[b * n + i - 1], w[b * n + i]);
        ExpectNear(a[b] * v, v * d, Tol<T>(), "A V = V diag(w)");
        ExpectNear(Adjoint(v) * v, Identity<T>(n), Tol<T>(), "V^H V");
      }
      AOT_LAPACK_RUN(e, run, target, {Make<T>({2, n, n}, Flatten(given))},
                     {Out(TypeOf<T>(), {2, n, n}), Out(TypeOf<Real<T>>(), {2, n}), Out(S32, {2})},
                     {{"uplo", uplo}, {"mode", 'N'}}, layout);
      const std::vector<Real<T>> w2 = Values<Real<T>>(e[1]);
      for (int64_t i = 0; i < 2 * n; ++i) EXPECT_NEAR(w2[i], w[i], Tol<T>() * 10);
    }
  }
}

// gesdd: U diag(s) V^H = A with orthonormal U and V, s descending and
// non-negative; modes 'A', 'S' and 'N' (singular values alone).
template <typename T>
void CheckGesdd(const Runner& run) {
  std::mt19937 rng(6);
  const std::string target = Target<T>("gesdd", "gesdd");
  for (auto [m, n] : {std::pair<int64_t, int64_t>{3, 4}, {4, 3}}) {
    const int64_t k = std::min(m, n);
    std::vector<Matrix<T>> a = {Random<T>(m, n, rng), Random<T>(m, n, rng)};
    for (Layout layout : kLayouts) {
      std::vector<Real<T>> full_s;
      for (char mode : {'A', 'S', 'N'}) {
        SCOPED_TRACE(
            absl::StrCat(LayoutName(layout), " ", m, "x", n, " mode=", std::string(1, mode)));
        const int64_t uc = mode == 'A' ? m : k, vr = mode == 'A' ? n : k;
        AOT_LAPACK_RUN(r, run, target, {Make<T>({2, m, n}, Flatten(a))},
                       {Out(TypeOf<T>(), {2, m, n}), Out(TypeOf<Real<T>>(), {2, k}),
                        Out(TypeOf<T>(), {2, m, uc}), Out(TypeOf<T>(), {2, vr, n}), Out(S32, {2})},
                       {{"mode", mode}}, layout);
        EXPECT_EQ(Values<int32_t>(r[4]), (std::vector<int32_t>{0, 0}));
        const std::vector<Real<T>> s = Values<Real<T>>(r[1]);
        if (mode == 'A') full_s = s;
        for (int64_t b = 0; b < 2; ++b) {
          for (int64_t i = 0; i < k; ++i) {
            EXPECT_GE(s[b * k + i], 0);
            if (i > 0) EXPECT_LE(s[b * k + i], s[b * k + i - 1]);
            EXPECT_NEAR(s[b * k + i], full_s[b * k + i], Tol<T>() * 10);
          }
          if (mode == 'N') continue;
          Matrix<T> u = At(Values<T>(r[2]), b, m, uc), vt = At(Values<T>(r[3]), b, vr, n);
          Matrix<T> sigma(uc, vr);
          for (int64_t i = 0; i < k; ++i) sigma(i, i) = T(s[b * k + i]);
          ExpectNear(u * sigma * vt, a[b], Tol<T>(), "U S V^H");
          ExpectNear(Adjoint(u) * u, Identity<T>(uc), Tol<T>(), "U^H U");
          ExpectNear(vt * Adjoint(vt), Identity<T>(vr), Tol<T>(), "V^H V");
        }
      }
    }
  }
}

// geev: A v_j = w_j v_j and u_j^H A = w_j u_j^H for the right (vr) and left
// (vl) eigenvectors; a non-finite matrix gets info -4.
template <typename T>
void CheckGeev(const Runner& run) {
  using C = std::complex<Real<T>>;
  constexpr bool kReal = !kComplex<T>;
  std::mt19937 rng(7);
  const int64_t n = 3;
  const std::string target = Target<T>("geev", "geev");
  // A rotation block (a conjugate pair for real matrices) and a random one.
  Matrix<T> rot(n, n);
  rot(0, 1) = T(-2);
  rot(1, 0) = T(1);
  rot(2, 2) = T(0.5);
  rot(0, 2) = T(0.25);
  std::vector<Matrix<T>> a = {rot, Random<T>(n, n, rng)};
  std::vector<Arg> results;
  if (kReal) {
    results = {Out(TypeOf<T>(), {2, n}), Out(TypeOf<T>(), {2, n})};
  } else {
    results = {Out(TypeOf<T>(), {2, n})};
  }
  results.push_back(Out(TypeOf<C>(), {2, n, n}));
  results.push_back(Out(TypeOf<C>(), {2, n, n}));
  results.push_back(Out(S32, {2}));
  const int vl = kReal ? 2 : 1;
  for (Layout layout : kLayouts) {
    for (char left : {'V', 'N'}) {
      SCOPED_TRACE(absl::StrCat(LayoutName(layout), " compute_left=", std::string(1, left)));
      AOT_LAPACK_RUN(r, run, target, {Make<T>({2, n, n}, Flatten(a))}, results,
                     {{"compute_left", left}, {"compute_right", 'V'}}, layout);
      EXPECT_EQ(Values<int32_t>(r[vl + 2]), (std::vector<int32_t>{0, 0}));
      std::vector<C> w;
      if constexpr (kReal) {
        std::vector<T> wr = Values<T>(r[0]), wi = Values<T>(r[1]);
        for (size_t i = 0; i < wr.size(); ++i) w.push_back(C(wr[i], wi[i]));
      } else {
        w = Values<C>(r[0]);
      }
      for (int64_t b = 0; b < 2; ++b) {
        Matrix<C> ac(n, n);
        for (int64_t i = 0; i < n * n; ++i) ac.v[i] = C(a[b].v[i]);
        Matrix<C> d(n, n);
        for (int64_t i = 0; i < n; ++i) d(i, i) = w[b * n + i];
        Matrix<C> vr = At(Values<C>(r[vl + 1]), b, n, n), ul = At(Values<C>(r[vl]), b, n, n);
        ExpectNear(ac * vr, vr * d, Tol<T>() * 10, "A V = V diag(w)");
        if (left == 'V') {
          ExpectNear(Adjoint(ul) * ac, d * Adjoint(ul), Tol<T>() * 10, "U^H A = diag(w) U^H");
        } else {
          ExpectNear(ul, Matrix<C>(n, n), 0, "no left eigenvectors asked for");
        }
      }
      // The rotation block's pair, +-i sqrt(2).
      double imag = 0;
      for (int64_t i = 0; i < n; ++i) imag = std::max(imag, double{std::abs(w[i].imag())});
      EXPECT_NEAR(imag, std::sqrt(2.0), Tol<T>() * 10);
    }
  }
  Matrix<T> nan = a[1];
  nan(1, 2) = T(std::numeric_limits<Real<T>>::quiet_NaN());
  AOT_LAPACK_RUN(r, run, target, {Make<T>({2, n, n}, Flatten<T>({a[0], nan}))}, results,
                 {{"compute_left", 'V'}, {"compute_right", 'V'}}, Layout::kColumnMajor);
  EXPECT_EQ(Values<int32_t>(r[vl + 2]), (std::vector<int32_t>{0, -4}));
}

// gehrd: A Q = Q H with H upper Hessenberg and Q the reflectors ilo..ihi-1
// (v(i+1) = 1, v(i+2:ihi) below H's subdiagonal).
template <typename T>
void CheckGehrd(const Runner& run) {
  std::mt19937 rng(8);
  const int64_t n = 4;
  const std::string target = Target<T>("gehrd", "gehrd");
  std::vector<Matrix<T>> a = {Random<T>(n, n, rng), Random<T>(n, n, rng)};
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    AOT_LAPACK_RUN(r, run, target, {Make<T>({2, n, n}, Flatten(a))},
                   {Out(TypeOf<T>(), {2, n, n}), Out(TypeOf<T>(), {2, n - 1}), Out(S32, {2})},
                   {{"low", 1, true}, {"high", n, true}}, layout);
    EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{0, 0}));
    const std::vector<T> tau = Values<T>(r[1]);
    for (int64_t b = 0; b < 2; ++b) {
      Matrix<T> f = At(Values<T>(r[0]), b, n, n), h(n, n);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = std::max<int64_t>(0, i - 1); j < n; ++j) h(i, j) = f(i, j);
      }
      std::vector<T> tb(tau.begin() + b * (n - 1), tau.begin() + (b + 1) * (n - 1));
      Matrix<T> q = Reflectors<T>(n, 0, n - 2, tb, [&](int64_t i) {
        std::vector<T> v(n, T(0));
        v[i + 1] = T(1);
        for (int64_t r = i + 2; r < n; ++r) v[r] = f(r, i);
        return v;
      });
      ExpectNear(Adjoint(q) * q, Identity<T>(n), Tol<T>(), "Q^H Q");
      ExpectNear(a[b] * q, q * h, Tol<T>(), "A Q = Q H");
    }
  }
  auto bad = run(target, {Make<T>({n, n}, a[0].v)},
                 {Out(TypeOf<T>(), {n, n}), Out(TypeOf<T>(), {n - 1}), Out(S32, {})},
                 {{"low", 2, true}, {"high", n + 1, true}}, Layout::kRowMajor);
  EXPECT_FALSE(bad.ok());
}

// sytrd / hetrd: A Q = Q T with T = tridiag(e, d, e) and Q the reflectors
// of the uplo triangle.
template <typename T>
void CheckSytrd(const Runner& run) {
  std::mt19937 rng(9);
  const int64_t n = 4;
  const std::string target = Target<T>("sytrd", "hetrd");
  std::vector<Matrix<T>> a = {RandomHermitian<T>(n, rng), RandomHermitian<T>(n, rng)};
  for (Layout layout : kLayouts) {
    for (char uplo : {'L', 'U'}) {
      SCOPED_TRACE(absl::StrCat(LayoutName(layout), " uplo=", std::string(1, uplo)));
      AOT_LAPACK_RUN(
          r, run, target, {Make<T>({2, n, n}, Flatten(a))},
          {Out(TypeOf<T>(), {2, n, n}), Out(TypeOf<Real<T>>(), {2, n}),
           Out(TypeOf<Real<T>>(), {2, n - 1}), Out(TypeOf<T>(), {2, n - 1}), Out(S32, {2})},
          {{"uplo", uplo}}, layout);
      EXPECT_EQ(Values<int32_t>(r[4]), (std::vector<int32_t>{0, 0}));
      const std::vector<Real<T>> d = Values<Real<T>>(r[1]), e = Values<Real<T>>(r[2]);
      const std::vector<T> tau = Values<T>(r[3]);
      for (int64_t b = 0; b < 2; ++b) {
        Matrix<T> f = At(Values<T>(r[0]), b, n, n), t(n, n);
        for (int64_t i = 0; i < n; ++i) t(i, i) = T(d[b * n + i]);
        for (int64_t i = 0; i + 1 < n; ++i) t(i, i + 1) = t(i + 1, i) = T(e[b * (n - 1) + i]);
        std::vector<T> tb(tau.begin() + b * (n - 1), tau.begin() + (b + 1) * (n - 1));
        Matrix<T> q = uplo == 'L' ? Reflectors<T>(n, 0, n - 2, tb,
                                                  [&](int64_t i) {
                                                    std::vector<T> v(n, T(0));
                                                    v[i + 1] = T(1);
                                                    for (int64_t k = i + 2; k < n; ++k) {
                                                      v[k] = f(k, i);
                                                    }
                                                    return v;
                                                  })
                                  : Reflectors<T>(
                                        n, 0, n - 2, tb,
                                        [&](int64_t i) {
                                          // H(i) of LAPACK's 1-based i + 1:
                                          // v(i + 1) = 1, v(1:i) above it.
                                          std::vector<T> v(n, T(0));
                                          v[i] = T(1);
                                          for (int64_t k = 0; k < i; ++k) v[k] = f(k, i + 1);
                                          return v;
                                        },
                                        /*reverse=*/true);
        ExpectNear(Adjoint(q) * q, Identity<T>(n), Tol<T>(), "Q^H Q");
        ExpectNear(a[b] * q, q * t, Tol<T>(), "A Q = Q T");
      }
    }
  }
}

// gees: A = Z T Z^H, Z unitary, T (quasi-)upper triangular whose
// eigenvalues are w; sort 'S' is refused.
template <typename T>
void CheckGees(const Runner& run) {
  using C = std::complex<Real<T>>;
  constexpr bool kReal = !kComplex<T>;
  std::mt19937 rng(10);
  const int64_t n = 4;
  const std::string target = Target<T>("gees", "gees");
  std::vector<Matrix<T>> a = {Random<T>(n, n, rng), Random<T>(n, n, rng)};
  std::vector<Arg> results = {Out(TypeOf<T>(), {2, n, n}), Out(TypeOf<T>(), {2, n, n}),
                              Out(TypeOf<T>(), {2, n})};
  if (kReal) results.push_back(Out(TypeOf<T>(), {2, n}));
  results.push_back(Out(S32, {2}));
  results.push_back(Out(S32, {2}));
  const size_t sdim = kReal ? 4 : 3;
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    AOT_LAPACK_RUN(r, run, target, {Make<T>({2, n, n}, Flatten(a))}, results,
                   {{"mode", 'V'}, {"sort", 'N'}}, layout);
    EXPECT_EQ(Values<int32_t>(r[sdim]), (std::vector<int32_t>{0, 0}));
    EXPECT_EQ(Values<int32_t>(r[sdim + 1]), (std::vector<int32_t>{0, 0}));
    for (int64_t b = 0; b < 2; ++b) {
      Matrix<T> t = At(Values<T>(r[0]), b, n, n), z = At(Values<T>(r[1]), b, n, n);
      ExpectNear(Adjoint(z) * z, Identity<T>(n), Tol<T>(), "Z^H Z");
      ExpectNear(z * t * Adjoint(z), a[b], Tol<T>(), "Z T Z^H");
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j + (kReal ? 1 : 0) < i; ++j) {
          EXPECT_LE(std::abs(t(i, j)), Tol<T>())
              << "T below its (sub)diagonal at " << i << ", " << j;
        }
      }
      C trace = 0, sum = 0;
      for (int64_t i = 0; i < n; ++i) trace += C(t(i, i));
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (kReal) {
          sum += C(Values<T>(r[2])[b * n + i], Values<T>(r[3])[b * n + i]);
        } else {
          EXPECT_NEAR(std::abs(Values<T>(r[2])[b * n + i] - t(i, i)), 0, Tol<T>());
          sum += Values<T>(r[2])[b * n + i];
        }
      }
      EXPECT_NEAR(std::abs(sum - trace), 0, Tol<T>() * 10);
    }
  }
  EXPECT_FALSE(run(target, {Make<T>({2, n, n}, Flatten(a))}, results,
                   {{"mode", 'V'}, {"sort", 'S'}}, Layout::kRowMajor)
                   .ok());
}

// gtsv: T X = B for T = tridiag(dl[1:], d, du[:n-1]) (dl[0] and du[n-1] not
// read); info > 0 for a singular T.
template <typename T>
void CheckGtsv(const Runner& run) {
  std::mt19937 rng(11);
  const int64_t n = 4, nrhs = 2;
  const std::string target = Target<T>("gtsv", "gtsv");
  std::vector<T> dl, d, du;
  std::vector<Matrix<T>> rhs;
  for (int64_t b = 0; b < 2; ++b) {
    for (int64_t i = 0; i < n; ++i) {
      dl.push_back(i == 0 ? T(77) : RandomValue<T>(rng));
      d.push_back(RandomValue<T>(rng) + T(4));
      du.push_back(i == n - 1 ? T(-77) : RandomValue<T>(rng));
    }
    rhs.push_back(Random<T>(n, nrhs, rng));
  }
  const std::vector<Arg> results = {Out(TypeOf<T>(), {2, n}), Out(TypeOf<T>(), {2, n}),
                                    Out(TypeOf<T>(), {2, n}), Out(TypeOf<T>(), {2, n, nrhs}),
                                    Out(S32, {2})};
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    AOT_LAPACK_RUN(r, run, target,
                   {Make<T>({2, n}, dl), Make<T>({2, n}, d), Make<T>({2, n}, du),
                    Make<T>({2, n, nrhs}, Flatten(rhs))},
                   results, {}, layout);
    EXPECT_EQ(Values<int32_t>(r[4]), (std::vector<int32_t>{0, 0}));
    for (int64_t b = 0; b < 2; ++b) {
      Matrix<T> t(n, n);
      for (int64_t i = 0; i < n; ++i) {
        t(i, i) = d[b * n + i];
        if (i > 0) t(i, i - 1) = dl[b * n + i];
        if (i + 1 < n) t(i, i + 1) = du[b * n + i];
      }
      ExpectNear(t * At(Values<T>(r[3]), b, n, nrhs), rhs[b], Tol<T>(), "T X = B");
    }
  }
  std::vector<T> zeros(2 * n, T(0));
  AOT_LAPACK_RUN(r, run, target,
                 {Make<T>({2, n}, zeros), Make<T>({2, n}, zeros), Make<T>({2, n}, zeros),
                  Make<T>({2, n, nrhs}, Flatten(rhs))},
                 results, {}, Layout::kColumnMajor);
  EXPECT_EQ(Values<int32_t>(r[4]), (std::vector<int32_t>{1, 1}));
}

// geqp3 (then orgqr): A P = Q R, |R(i, i)| non-increasing; a nonzero jpvt
// entry moves its column to the front.
template <typename T>
void CheckGeqp3(const Runner& run) {
  std::mt19937 rng(12);
  const int64_t m = 4, n = 3, k = 3;
  const std::string target = Target<T>("geqp3", "geqp3");
  std::vector<Matrix<T>> a = {Random<T>(m, n, rng), Random<T>(m, n, rng)};
  for (Layout layout : kLayouts) {
    for (int pinned : {0, 3}) {
      SCOPED_TRACE(absl::StrCat(LayoutName(layout), " pinned=", pinned));
      std::vector<int32_t> jpvt(2 * n, 0);
      if (pinned != 0) jpvt[pinned - 1] = jpvt[n + pinned - 1] = 1;
      AOT_LAPACK_RUN(r, run, target, {Make<T>({2, m, n}, Flatten(a)), Make<int32_t>({2, n}, jpvt)},
                     {Out(TypeOf<T>(), {2, m, n}), Out(S32, {2, n}), Out(TypeOf<T>(), {2, k})}, {},
                     layout);
      const std::vector<int32_t> perm = Values<int32_t>(r[1]);
      AOT_LAPACK_RUN(q, run, Target<T>("orgqr", "ungqr"), {r[0], r[2]},
                     {Out(TypeOf<T>(), {2, m, n})}, {}, layout);
      for (int64_t b = 0; b < 2; ++b) {
        if (pinned != 0) EXPECT_EQ(perm[b * n], pinned);
        Matrix<T> f = At(Values<T>(r[0]), b, m, n), rb(k, n), ap(m, n);
        for (int64_t i = 0; i < k; ++i) {
          for (int64_t j = i; j < n; ++j) rb(i, j) = f(i, j);
        }
        for (int64_t i = pinned != 0 ? 2 : 1; i < k; ++i) {
          EXPECT_LE(std::abs(rb(i, i)), std::abs(rb(i - 1, i - 1)) * (1 + Tol<T>()));
        }
        for (int64_t j = 0; j < n; ++j) {
          const int64_t from = perm[b * n + j] - 1;
          ASSERT_GE(from, 0);
          ASSERT_LT(from, n);
          for (int64_t i = 0; i < m; ++i) ap(i, j) = a[b](i, from);
        }
        ExpectNear(At(Values<T>(q[0]), b, m, n) * rb, ap, Tol<T>(), "A P = Q R");
      }
    }
  }
}

// Calls that do not fit the target are refused, not run.
template <typename T>
void CheckRefusals(const Runner& run) {
  const std::string potrf = Target<T>("potrf", "potrf");
  std::vector<T> six(6, T(1));
  // Not square.
  EXPECT_FALSE(run(potrf, {Make<T>({2, 3}, six)}, {Out(TypeOf<T>(), {2, 3}), Out(S32, {})},
                   {{"uplo", 'L'}}, Layout::kRowMajor)
                   .ok());
  // No uplo.
  std::vector<T> four(4, T(1));
  EXPECT_FALSE(run(potrf, {Make<T>({2, 2}, four)}, {Out(TypeOf<T>(), {2, 2}), Out(S32, {})}, {},
                   Layout::kRowMajor)
                   .ok());
  // uplo not 'L' or 'U'.
  EXPECT_FALSE(run(potrf, {Make<T>({2, 2}, four)}, {Out(TypeOf<T>(), {2, 2}), Out(S32, {})},
                   {{"uplo", 'X'}}, Layout::kRowMajor)
                   .ok());
  // An info of the wrong batch.
  EXPECT_FALSE(run(potrf, {Make<T>({2, 2}, four)}, {Out(TypeOf<T>(), {2, 2}), Out(S32, {3})},
                   {{"uplo", 'L'}}, Layout::kRowMajor)
                   .ok());
  // orgqr needs m >= n >= k.
  EXPECT_FALSE(run(Target<T>("orgqr", "ungqr"), {Make<T>({2, 3}, six), Make<T>({2}, {T(0), T(0)})},
                   {Out(TypeOf<T>(), {2, 3})}, {}, Layout::kRowMajor)
                   .ok());
}

#undef AOT_LAPACK_RUN

}  // namespace lapack_testing
}  // namespace aot

#endif  // AOT_RUNTIME_FFI_LAPACK_TEST_SUITE_H_
