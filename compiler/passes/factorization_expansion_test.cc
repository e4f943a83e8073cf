#include "compiler/passes/factorization_expansion.h"

#include "absl/strings/str_cat.h"
#include "compiler/passes/test_util.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using testing_util::ExpectExpansionKeepsValues;
using testing_util::Parse;

int Count(const HloModule& m, HloOpcode opcode) {
  int n = 0;
  for (const HloComputation* c : m.computations()) {
    for (const HloInstruction* h : c->instructions()) n += h->opcode() == opcode;
  }
  return n;
}

// Expands `text`; expects no factorization left, while loops in its place
// and the interpreter's value (on random arguments) kept within `tolerance`.
void ExpectExpands(const std::string& text, double tolerance) {
  SCOPED_TRACE(text);
  std::unique_ptr<HloModule> m = ExpectExpansionKeepsValues(text, ExpandFactorizations,
                                                            Tolerance{tolerance, tolerance}, {}, 5);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Count(*m, HloOpcode::kCholesky) + Count(*m, HloOpcode::kTriangularSolve), 0);
  EXPECT_GT(Count(*m, HloOpcode::kWhile), 0);
}

// a = x x^T + n I per batch: symmetric positive definite.
std::string SpdPrelude(const std::string& type, const std::string& batch, int n) {
  const std::string dims = absl::StrCat(batch, batch.empty() ? "" : ",", n, ",", n);
  const int nb = batch.empty() ? 0 : 1;
  std::string batch_dims = nb ? "lhs_batch_dims={0}, rhs_batch_dims={0}, " : "";
  return absl::StrCat(
      "  x = ", type, "[", dims, "] parameter(0)\n  xx = ", type, "[", dims, "] dot(x, x), ",
      batch_dims, "lhs_contracting_dims={", nb + 1, "}, rhs_contracting_dims={", nb + 1,
      "}\n  r = s32[", dims, "] iota(), iota_dimension=", nb, "\n  c = s32[", dims,
      "] iota(), iota_dimension=", nb + 1, "\n  eq = pred[", dims,
      "] compare(r, c), direction=EQ\n  nn = ", type, "[] constant(", n, ")\n  z = ", type,
      "[] constant(0)\n  nb = ", type, "[", dims, "] broadcast(nn), dimensions={}\n  zb = ", type,
      "[", dims, "] broadcast(z), dimensions={}\n  d = ", type, "[", dims,
      "] select(eq, nb, zb)\n  a = ", type, "[", dims, "] add(xx, d)\n");
}

TEST(FactorizationExpansionTest, CholeskyLowerAndUpperBatched) {
  for (const char* lower : {"true", "false"}) {
    ExpectExpands(absl::StrCat("HloModule m\nENTRY e {\n", SpdPrelude("f32", "3", 6),
                               "  ROOT l = f32[3,6,6] cholesky(a), lower=", lower, "\n}\n"),
                  1e-4);
    ExpectExpands(absl::StrCat("HloModule m\nENTRY e {\n", SpdPrelude("f64", "", 5),
                               "  ROOT l = f64[5,5] cholesky(a), lower=", lower, "\n}\n"),
                  1e-12);
  }
}

TEST(FactorizationExpansionTest, EveryTriangularSolveVariant) {
  int checked = 0;
  for (bool left : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit : {true, false}) {
        for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          // A well-conditioned a: the SPD matrix of the prelude.
          const std::string b_dims = left ? "2,5,3" : "2,3,5";
          ExpectExpands(
              absl::StrCat("HloModule m\nENTRY e {\n", SpdPrelude("f64", "2", 5), "  b = f64[",
                           b_dims, "] parameter(1)\n  ROOT s = f64[", b_dims,
                           "] triangular-solve(a, b), left_side=", left ? "true" : "false",
                           ", lower=", lower ? "true" : "false", ", unit_diagonal=",
                           unit ? "true" : "false", ", transpose_a=", transpose, "\n}\n"),
              1e-10);
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 24);
}

TEST(FactorizationExpansionTest, HalfPrecisionIsComputedInF32) {
  ExpectExpands(absl::StrCat("HloModule m\nENTRY e {\n", SpdPrelude("bf16", "", 4),
                             "  ROOT l = bf16[4,4] cholesky(a), lower=true\n}\n"),
                2e-2);
}

TEST(FactorizationExpansionTest, ComplexHermitianFactorsAndAdjointSolves) {
  // a = x x^H + 4 I: Hermitian positive definite. Upper factors are L^H,
  // ADJOINT solves conjugate.
  ExpectExpands(R"(HloModule m
ENTRY e {
  x = c128[3,3] parameter(0)
  re = f64[3,3] real(x)
  im = f64[3,3] imag(x)
  nim = f64[3,3] negate(im)
  xt = f64[3,3] transpose(re), dimensions={1,0}
  xit = f64[3,3] transpose(nim), dimensions={1,0}
  xh = c128[3,3] complex(xt, xit)
  g = c128[3,3] dot(x, xh), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  i0 = s32[3,3] iota(), iota_dimension=0
  i1 = s32[3,3] iota(), iota_dimension=1
  eye = pred[3,3] compare(i0, i1), direction=EQ
  four = c128[] constant((4, 0))
  fb = c128[3,3] broadcast(four), dimensions={}
  zero = c128[] constant((0, 0))
  zb = c128[3,3] broadcast(zero), dimensions={}
  d = c128[3,3] select(eye, fb, zb)
  a = c128[3,3] add(g, d)
  lo = c128[3,3] cholesky(a), lower=true
  up = c128[3,3] cholesky(a), lower=false
  b = c128[3,2] parameter(1)
  s1 = c128[3,2] triangular-solve(lo, b), left_side=true, lower=true, transpose_a=ADJOINT
  s2 = c128[3,2] triangular-solve(up, b), left_side=true, lower=false, transpose_a=ADJOINT
  ROOT t = (c128[3,3], c128[3,3], c128[3,2], c128[3,2]) tuple(lo, up, s1, s2)
})",
                1e-9);
}

TEST(FactorizationExpansionTest, OtherTypesAreRefusedByName) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule m
ENTRY e {
  a = f8e4m3fn[3,3] parameter(0)
  ROOT l = f8e4m3fn[3,3] cholesky(a), lower=true
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<bool> refused = ExpandFactorizations(m.get());
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("instruction 'l' (cholesky) on f8e4m3fn[3,3]: this compiler computes it "
                        "for f16, bf16, f32, f64, c64 and c128 only"));
}

}  // namespace
}  // namespace aot
