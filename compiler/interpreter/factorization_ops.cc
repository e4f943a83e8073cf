// cholesky and triangular-solve of the HLO evaluator: each matrix of the
// batch (the two minor dimensions) by the textbook algorithms, in double
// (complex<double> for c64 / c128), rounded to the element type once.

#include <cmath>
#include <complex>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {

namespace {

double Conj(double x) { return x; }
std::complex<double> Conj(std::complex<double> x) { return std::conj(x); }
double RealPart(double x) { return x; }
double RealPart(std::complex<double> x) { return x.real(); }

template <typename T>
T Get(const Literal& l, int64_t i) {
  if constexpr (std::is_same_v<T, double>) {
    return l.GetAsDouble(i);
  } else {
    return l.GetAsComplex(i);
  }
}

template <typename T>
void Put(Literal& l, int64_t i, T v) {
  if constexpr (std::is_same_v<T, double>) {
    l.SetFromDouble(i, v);
  } else {
    l.SetFromComplex(i, v);
  }
}

// Matrices of n x n (or rows x cols) in the two minor dimensions: the
// count of them and the offset of matrix `k`.
int64_t BatchCount(const Shape& shape) {
  int64_t count = 1;
  for (int64_t d = 0; d + 2 < shape.rank(); ++d) count *= shape.dimensions(d);
  return count;
}

template <typename T>
void CholeskyOne(const Literal& a, Literal& out, int64_t base, int64_t n, bool lower) {
  // The lower factor L of the lower triangle (or of the conjugate
  // transpose of the upper one), L L^H = a.
  std::vector<T> m(n * n), l(n * n, T(0));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j <= i; ++j) {
      m[i * n + j] = lower ? Get<T>(a, base + i * n + j) : Conj(Get<T>(a, base + j * n + i));
    }
  }
  for (int64_t j = 0; j < n; ++j) {
    T d = m[j * n + j];
    for (int64_t k = 0; k < j; ++k) d -= l[j * n + k] * Conj(l[j * n + k]);
    // Not positive definite: sqrt of a negative (or NaN) is NaN, which
    // spreads to the rest of the factor, as XLA's expansion does.
    const T diag = T(std::sqrt(RealPart(d)));
    l[j * n + j] = diag;
    for (int64_t i = j + 1; i < n; ++i) {
      T s = m[i * n + j];
      for (int64_t k = 0; k < j; ++k) s -= l[i * n + k] * Conj(l[j * n + k]);
      l[i * n + j] = s / diag;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      Put<T>(out, base + i * n + j, lower ? l[i * n + j] : Conj(l[j * n + i]));
    }
  }
}

template <typename T>
void SolveOne(const Literal& a, const Literal& b, Literal& out, int64_t a_base, int64_t b_base,
              int64_t n, int64_t rows, int64_t cols, const TriangularSolveAttributes& o) {
  // M = op(the triangle of a): dense, then lower or upper triangular.
  std::vector<T> tri(n * n, T(0));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const bool in = o.lower ? j <= i : j >= i;
      if (!in) continue;
      tri[i * n + j] = (i == j && o.unit_diagonal) ? T(1) : Get<T>(a, a_base + i * n + j);
    }
  }
  std::vector<T> m(n * n);
  bool m_lower = o.lower;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      if (o.transpose_a == "NO_TRANSPOSE") {
        m[i * n + j] = tri[i * n + j];
      } else {
        const T t = tri[j * n + i];
        m[i * n + j] = o.transpose_a == "ADJOINT" ? Conj(t) : t;
      }
    }
  }
  if (o.transpose_a != "NO_TRANSPOSE") m_lower = !m_lower;
  // Right side: x M = b  <=>  M^T x^T = b^T; solve on the transposes.
  std::vector<T> rhs;
  int64_t systems;  // columns of the left-side system
  if (o.left_side) {
    systems = cols;
    rhs.resize(n * cols);
    for (int64_t i = 0; i < n * cols; ++i) rhs[i] = Get<T>(b, b_base + i);
  } else {
    systems = rows;
    rhs.resize(n * rows);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < n; ++c) rhs[c * rows + r] = Get<T>(b, b_base + r * n + c);
    }
    std::vector<T> mt(n * n);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) mt[i * n + j] = m[j * n + i];
    }
    m = std::move(mt);
    m_lower = !m_lower;
  }
  // Forward (lower) or backward (upper) substitution, column by column.
  for (int64_t c = 0; c < systems; ++c) {
    for (int64_t step = 0; step < n; ++step) {
      const int64_t i = m_lower ? step : n - 1 - step;
      T s = rhs[i * systems + c];
      if (m_lower) {
        for (int64_t k = 0; k < i; ++k) s -= m[i * n + k] * rhs[k * systems + c];
      } else {
        for (int64_t k = i + 1; k < n; ++k) s -= m[i * n + k] * rhs[k * systems + c];
      }
      rhs[i * systems + c] = s / m[i * n + i];
    }
  }
  if (o.left_side) {
    for (int64_t i = 0; i < n * cols; ++i) Put<T>(out, b_base + i, rhs[i]);
  } else {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < n; ++c) Put<T>(out, b_base + r * n + c, rhs[c * rows + r]);
    }
  }
}

}  // namespace

absl::StatusOr<Literal> EvalCholesky(const HloInstruction& instr, const Literal& a) {
  AOT_RETURN_IF_ERROR(ExpectArray(a, "operand"));
  const Shape& shape = a.shape();
  const int64_t r = shape.rank();
  if (r < 2 || shape.dimensions(r - 1) != shape.dimensions(r - 2) ||
      !instr.shape().Compatible(shape)) {
    return absl::InvalidArgumentError(absl::StrCat("cholesky needs square matrices; got ",
                                                   shape.ToString(false), " -> ",
                                                   instr.shape().ToString(false)));
  }
  AOT_ASSIGN_OR_RETURN(const bool lower, BoolAttribute(instr, "lower", false));
  const int64_t n = shape.dimensions(r - 1);
  Literal out(instr.shape());
  for (int64_t k = 0; k < BatchCount(shape); ++k) {
    if (IsComplex(shape.element_type())) {
      CholeskyOne<std::complex<double>>(a, out, k * n * n, n, lower);
    } else {
      CholeskyOne<double>(a, out, k * n * n, n, lower);
    }
  }
  return out;
}

absl::StatusOr<Literal> EvalTriangularSolve(const HloInstruction& instr, const Literal& a,
                                            const Literal& b) {
  AOT_RETURN_IF_ERROR(ExpectArray(a, "a"));
  AOT_RETURN_IF_ERROR(ExpectArray(b, "b"));
  AOT_ASSIGN_OR_RETURN(const TriangularSolveAttributes o, ReadTriangularSolveAttributes(instr));
  const int64_t r = a.shape().rank();
  if (r < 2 || b.shape().rank() != r ||
      a.shape().dimensions(r - 1) != a.shape().dimensions(r - 2) ||
      !instr.shape().Compatible(b.shape())) {
    return absl::InvalidArgumentError(
        absl::StrCat("triangular-solve of ", a.shape().ToString(false), " and ",
                     b.shape().ToString(false), " -> ", instr.shape().ToString(false)));
  }
  const int64_t n = a.shape().dimensions(r - 1);
  const int64_t rows = b.shape().dimensions(r - 2);
  const int64_t cols = b.shape().dimensions(r - 1);
  if ((o.left_side ? rows : cols) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "b (", b.shape().ToString(false), ") does not match a (", a.shape().ToString(false), ")"));
  }
  Literal out(instr.shape());
  for (int64_t k = 0; k < BatchCount(a.shape()); ++k) {
    if (IsComplex(a.shape().element_type())) {
      SolveOne<std::complex<double>>(a, b, out, k * n * n, k * rows * cols, n, rows, cols, o);
    } else {
      SolveOne<double>(a, b, out, k * n * n, k * rows * cols, n, rows, cols, o);
    }
  }
  return out;
}

}  // namespace interpreter_internal
}  // namespace aot
