// The interpreter's cholesky and triangular-solve, checked by multiplying
// back: L L^H = a, op(a) x = b (or x op(a) = b).

#include <complex>

#include "compiler/interpreter/test_util.h"
#include "compiler/tooling/random_literal.h"

namespace aot {
namespace interpreter_test {
namespace {

using Z = std::complex<double>;

TEST(CholeskyTest, KnownFactorLowerAndUpper) {
  const std::string hlo = Hlo(R"(
ENTRY main {
  a = f64[2,2] parameter(0)
  l = f64[2,2] cholesky(a), lower=true
  u = f64[2,2] cholesky(a), lower=false
  ROOT t = (f64[2,2], f64[2,2]) tuple(l, u)
})");
  // The other triangle holds garbage that must not be read.
  Literal r = RunHlo(hlo, {L("f64[2,2]", {4, 99, 2, 3})});
  EXPECT_EQ(Doubles(r.tuple_element(0)), (std::vector<double>{2, 0, 1, std::sqrt(2.0)}));
  r = RunHlo(hlo, {L("f64[2,2]", {4, 2, -99, 3})});
  EXPECT_EQ(Doubles(r.tuple_element(1)), (std::vector<double>{2, 1, 0, std::sqrt(2.0)}));
}

TEST(CholeskyTest, BatchedFactorsMultiplyBackAndNonPositiveIsNaN) {
  // a = m m^T + 4 I per batch: positive definite.
  const std::string hlo = Hlo(R"(
ENTRY main {
  m = f32[3,5,5] parameter(0)
  mm = f32[3,5,5] dot(m, m), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={2}
  i = s32[3,5,5] iota(), iota_dimension=1
  j = s32[3,5,5] iota(), iota_dimension=2
  eq = pred[3,5,5] compare(i, j), direction=EQ
  four = f32[] constant(4)
  zero = f32[] constant(0)
  fours = f32[3,5,5] broadcast(four), dimensions={}
  zeros = f32[3,5,5] broadcast(zero), dimensions={}
  d = f32[3,5,5] select(eq, fours, zeros)
  a = f32[3,5,5] add(mm, d)
  l = f32[3,5,5] cholesky(a), lower=true
  ROOT t = (f32[3,5,5], f32[3,5,5]) tuple(a, l)
})");
  Literal r = RunHlo(hlo, {RandomLiteral(*ParseShape("f32[3,5,5]"), 4)});
  std::vector<double> a = Doubles(r.tuple_element(0)), l = Doubles(r.tuple_element(1));
  for (int b = 0; b < 3; ++b) {
    for (int i = 0; i < 5; ++i) {
      for (int j = 0; j < 5; ++j) {
        double s = 0;
        for (int k = 0; k < 5; ++k) s += l[b * 25 + i * 5 + k] * l[b * 25 + j * 5 + k];
        EXPECT_NEAR(s, a[b * 25 + i * 5 + j], 1e-4) << b << " " << i << " " << j;
        if (j > i) EXPECT_EQ(l[b * 25 + i * 5 + j], 0);
      }
    }
  }
  Literal bad = RunHlo(Hlo(R"(
ENTRY main {
  a = f32[2,2] constant({ {1, 2}, {2, 1} })
  ROOT l = f32[2,2] cholesky(a), lower=true
})"));
  EXPECT_TRUE(std::isnan(Doubles(bad)[3]));
}

TEST(CholeskyTest, HermitianComplexFactor) {
  // a = [[4, 2+2i], [2-2i, 6]]: L = [[2, 0], [1-i, 2]].
  Literal a(*ParseShape("c128[2,2]"));
  a.SetFromComplex(0, {4, 0});
  a.SetFromComplex(1, {2, 2});
  a.SetFromComplex(2, {2, -2});
  a.SetFromComplex(3, {6, 0});
  Literal l = RunHlo(Hlo(R"(
ENTRY main {
  a = c128[2,2] parameter(0)
  ROOT l = c128[2,2] cholesky(a), lower=true
})"),
                     {a});
  EXPECT_EQ(l.GetAsComplex(0), Z(2, 0));
  EXPECT_EQ(l.GetAsComplex(1), Z(0, 0));
  EXPECT_EQ(l.GetAsComplex(2), Z(1, -1));
  EXPECT_NEAR(l.GetAsComplex(3).real(), 2, 1e-12);
}

// op(triangle of a), dense, as the solve sees it.
std::vector<double> Effective(const std::vector<double>& a, int n, bool lower, bool unit,
                              bool transpose) {
  std::vector<double> m(n * n, 0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (lower ? j > i : j < i) continue;
      const double v = i == j && unit ? 1 : a[i * n + j];
      (transpose ? m[j * n + i] : m[i * n + j]) = v;
    }
  }
  return m;
}

TEST(TriangularSolveTest, EveryVariantSolvesItsSystem) {
  const int n = 4, k = 3;
  // A well-conditioned a: 3 on the diagonal, small elsewhere.
  Literal a = RandomLiteral(*ParseShape("f64[4,4]"), 9);
  for (int i = 0; i < n; ++i) a.SetFromDouble(i * n + i, 3 + a.GetAsDouble(i * n + i));
  std::vector<double> av = Doubles(a);
  int checked = 0;
  for (bool left : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit : {true, false}) {
        for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          const std::string b_shape = left ? "f64[4,3]" : "f64[3,4]";
          const std::string hlo = Hlo(absl::StrCat(
              "ENTRY main {\n  a = f64[4,4] parameter(0)\n  b = ", b_shape,
              " parameter(1)\n  ROOT x = ", b_shape, " triangular-solve(a, b), left_side=",
              left ? "true" : "false", ", lower=", lower ? "true" : "false",
              ", unit_diagonal=", unit ? "true" : "false", ", transpose_a=", transpose, "\n}"));
          SCOPED_TRACE(hlo);
          Literal b = RandomLiteral(*ParseShape(b_shape), 10);
          std::vector<double> x = Doubles(RunHlo(hlo, {a, b}));
          std::vector<double> bv = Doubles(b);
          std::vector<double> m =
              Effective(av, n, lower, unit, std::string(transpose) != "NO_TRANSPOSE");
          // left: m x = b (x is 4x3); right: x m = b (x is 3x4).
          for (int r = 0; r < (left ? n : k); ++r) {
            for (int c = 0; c < (left ? k : n); ++c) {
              double s = 0;
              for (int t = 0; t < n; ++t) {
                s += left ? m[r * n + t] * x[t * k + c] : x[r * n + t] * m[t * n + c];
              }
              EXPECT_NEAR(s, bv[left ? r * k + c : r * n + c], 1e-12) << r << " " << c;
            }
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 24);
}

TEST(TriangularSolveTest, AdjointConjugatesComplexValues) {
  // a = [[2, 0], [i, 1]] lower; adjoint: [[2, -i], [0, 1]]; solve a^H x = b.
  Literal a(*ParseShape("c64[2,2]"));
  a.SetFromComplex(0, {2, 0});
  a.SetFromComplex(2, {0, 1});
  a.SetFromComplex(3, {1, 0});
  Literal b(*ParseShape("c64[2,1]"));
  b.SetFromComplex(0, {1, 0});
  b.SetFromComplex(1, {1, 0});
  Literal x = RunHlo(Hlo(R"(
ENTRY main {
  a = c64[2,2] parameter(0)
  b = c64[2,1] parameter(1)
  ROOT x = c64[2,1] triangular-solve(a, b), left_side=true, lower=true, transpose_a=ADJOINT
})"),
                     {a, b});
  // x1 = 1; 2 x0 - i x1 = 1 -> x0 = (1 + i) / 2.
  EXPECT_EQ(x.GetAsComplex(1), Z(1, 0));
  EXPECT_EQ(x.GetAsComplex(0), Z(0.5, 0.5));
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
