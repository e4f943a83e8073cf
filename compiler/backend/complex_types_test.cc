// Complex element types (c64, c128), staged behind the emission flag
// emit_extended_element_types: refused by default naming the flag (see
// XlaFormsTest), and with the flag on compiled, loaded by this runtime and
// matching the interpreter on host; compiled for CUDA where libdevice is.
#include <complex>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/rollout/emission_ledger.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"

namespace aot {
namespace {

constexpr char kFlag[] = "emit_extended_element_types";

TEST(ComplexTypesTest, TheLedgerGatesTheNewElementTypes) {
  const EmissionFlag* flag = FindEmissionFlag(kFlag);
  ASSERT_NE(flag, nullptr);
  EXPECT_FALSE(flag->enabled_by_default);
  EXPECT_EQ(flag->runtime_support_since, "2026-12-03");
}

// Modules XLA writes with complex values: arithmetic, conversions, a
// spectrum, a complex matrix product and reduction, complex state in a
// loop, a tuple result and a non-default layout.
const char* const kModules[] = {
    R"(HloModule arithmetic
ENTRY e {
  a = c64[64] parameter(0)
  b = c64[64] parameter(1)
  m = c64[64] multiply(a, b)
  d = c64[64] divide(m, b)
  e = c64[64] exponential(d)
  s = c64[64] sqrt(a)
  l = c64[64] log(b)
  x = c64[64] add(e, s)
  ROOT r = c64[64] subtract(x, l)
})",
    R"(HloModule parts
ENTRY e {
  x = f32[3,5] parameter(0)
  y = f32[3,5] parameter(1)
  z = c64[3,5] complex(x, y)
  w = c128[3,5] convert(z)
  n = f64[3,5] abs(w)
  re = f32[3,5] real(z)
  im = f32[3,5] imag(z)
  eq = pred[3,5] compare(z, z), direction=EQ
  ROOT t = (c128[3,5], f64[3,5], f32[3,5], f32[3,5], pred[3,5]) tuple(w, n, re, im, eq)
})",
    R"(HloModule spectrum
ENTRY e {
  x = f32[4,16] parameter(0)
  f = c64[4,9] fft(x), fft_type=RFFT, fft_length={16}
  p = f32[4,9] abs(f)
  b = f32[4,16] fft(f), fft_type=IRFFT, fft_length={16}
  c = c64[4,16] convert(x)
  g = c64[4,16] fft(c), fft_type=FFT, fft_length={4,16}
  ROOT t = (f32[4,9], f32[4,16], c64[4,16]) tuple(p, b, g)
})",
    R"(HloModule matmul_reduce
add_c {
  a = c128[] parameter(0)
  b = c128[] parameter(1)
  ROOT s = c128[] add(a, b)
}
ENTRY e {
  a = c128[8,6]{0,1} parameter(0)
  b = c128[6,4] parameter(1)
  d = c128[8,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  zero = c128[] constant((0, 0))
  ROOT r = c128[4] reduce(d, zero), dimensions={0}, to_apply=add_c
})",
    R"(HloModule rotate_loop
cond {
  s = (s32[], c64[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(5)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], c64[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  z = c64[8] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  w = c64[] constant((0.6, 0.8))
  wb = c64[8] broadcast(w), dimensions={}
  r = c64[8] multiply(z, wb)
  ROOT t = (s32[], c64[8]) tuple(j, r)
}
ENTRY e {
  z = c64[8] parameter(0)
  zero = s32[] constant(0)
  s = (s32[], c64[8]) tuple(zero, z)
  w = (s32[], c64[8]) while(s), condition=cond, body=body
  ROOT r = c64[8] get-tuple-element(w), index=1
})",
    // Any computation of reduce, reduce-window, scatter, sort and map: a
    // variadic arg-max by magnitude, products, a lexicographic sort,
    // complex payloads of a sort by real keys and a complex map.
    R"(HloModule computations
pick {
  av = c64[] parameter(0)
  ai = s32[] parameter(1)
  bv = c64[] parameter(2)
  bi = s32[] parameter(3)
  aa = f32[] abs(av)
  ba = f32[] abs(bv)
  ge = pred[] compare(aa, ba), direction=GE
  v = c64[] select(ge, av, bv)
  i = s32[] select(ge, ai, bi)
  ROOT t = (c64[], s32[]) tuple(v, i)
}
mul {
  x = c128[] parameter(0)
  y = c128[] parameter(1)
  half = c128[] constant((0.5, 0.25))
  xy = c128[] multiply(x, y)
  ROOT m = c128[] multiply(xy, half)
}
lex {
  x = c64[] parameter(0)
  y = c64[] parameter(1)
  rx = f32[] real(x)
  ry = f32[] real(y)
  ix = f32[] imag(x)
  iy = f32[] imag(y)
  lt = pred[] compare(rx, ry), direction=LT
  eq = pred[] compare(rx, ry), direction=EQ
  ilt = pred[] compare(ix, iy), direction=LT
  tie = pred[] and(eq, ilt)
  ROOT o = pred[] or(lt, tie)
}
twist {
  x = c64[] parameter(0)
  y = c64[] parameter(1)
  xy = c64[] multiply(x, y)
  ROOT d = c64[] divide(xy, y)
}
by_key {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = c64[] parameter(2)
  d = c64[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  a = c64[4,16] parameter(0)
  ix = s32[4,16] iota(), iota_dimension=1
  z = c64[] constant((0, 0))
  m = s32[] constant(-1)
  arg = (c64[4], s32[4]) reduce(a, ix, z, m), dimensions={1}, to_apply=pick
  w = c128[4,6] parameter(1)
  one = c128[] constant((1, 0))
  win = c128[2,5] reduce-window(w, one), window={size=2x2 stride=2x1}, to_apply=mul
  at = s32[2,1] constant({{1},{3}})
  u = c128[2,6] parameter(2)
  sc = c128[4,6] scatter(w, at, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=mul
  s = c64[4,16] sort(a), dimensions={1}, to_apply=lex, is_stable=true
  k = f32[4,16] parameter(3)
  kv = (f32[4,16], c64[4,16]) sort(k, a), dimensions={1}, to_apply=by_key
  mp = c64[4,16] map(a, s), dimensions={0,1}, to_apply=twist
  ROOT t = ((c64[4], s32[4]), c128[2,5], c128[4,6], c64[4,16], (f32[4,16], c64[4,16]), c64[4,16]) tuple(arg, win, sc, s, kv, mp)
})",
    // Hermitian positive definite matrices (x x^H + 4 I) factored both
    // ways, and solves with every op(a).
    R"(HloModule factorizations
ENTRY e {
  x = c64[2,4,4] parameter(0)
  re = f32[2,4,4] real(x)
  im = f32[2,4,4] imag(x)
  nim = f32[2,4,4] negate(im)
  xt = f32[2,4,4] transpose(re), dimensions={0,2,1}
  xit = f32[2,4,4] transpose(nim), dimensions={0,2,1}
  xh = c64[2,4,4] complex(xt, xit)
  g = c64[2,4,4] dot(x, xh), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
  four = c64[] constant((4, 0))
  i0 = s32[4,4] iota(), iota_dimension=0
  i1 = s32[4,4] iota(), iota_dimension=1
  eye = pred[4,4] compare(i0, i1), direction=EQ
  eyeb = pred[2,4,4] broadcast(eye), dimensions={1,2}
  fb = c64[2,4,4] broadcast(four), dimensions={}
  zero = c64[] constant((0, 0))
  zb = c64[2,4,4] broadcast(zero), dimensions={}
  d = c64[2,4,4] select(eyeb, fb, zb)
  a = c64[2,4,4] add(g, d)
  lo = c64[2,4,4] cholesky(a), lower=true
  up = c64[2,4,4] cholesky(a), lower=false
  b = c64[2,4,3] parameter(1)
  s1 = c64[2,4,3] triangular-solve(lo, b), left_side=true, lower=true, transpose_a=ADJOINT
  s2 = c64[2,4,3] triangular-solve(up, b), left_side=true, lower=false, transpose_a=TRANSPOSE
  bt = c64[2,3,4] parameter(2)
  s3 = c64[2,3,4] triangular-solve(lo, bt), left_side=false, lower=true, transpose_a=NO_TRANSPOSE, unit_diagonal=true
  ROOT t = (c64[2,4,4], c64[2,4,4], c64[2,4,3], c64[2,4,3], c64[2,3,4]) tuple(lo, up, s1, s2, s3)
})",
};

// The compiled factorization against known values (not the interpreter):
// a = [[4, 2+2i], [2-2i, 6]] has L = [[2, 0], [1-i, 2]] and U = L^H; L^H x
// = [1+i, 2i] has x = [1, i].
TEST(ComplexTypesTest, CompiledCholeskyAndAdjointSolveGiveKnownValues) {
  auto module = ParseHloModule(R"(HloModule known
ENTRY e {
  a = c128[2,2] constant({{(4, 0), (2, 2)}, {(2, -2), (6, 0)}})
  l = c128[2,2] cholesky(a), lower=true
  u = c128[2,2] cholesky(a), lower=false
  b = c128[2,1] constant({{(1, 1)}, {(0, 2)}})
  x = c128[2,1] triangular-solve(l, b), left_side=true, lower=true, transpose_a=ADJOINT
  ROOT t = (c128[2,2], c128[2,2], c128[2,1]) tuple(l, u, x)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  CompileOptions options;
  options.emission_flags = {kFlag};
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"), options);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
  ASSERT_TRUE(executable.ok()) << executable.status();
  auto result = ExecuteWithLiterals(**executable, {});
  ASSERT_TRUE(result.ok()) << result.status();
  auto leaves = result->Leaves();
  ASSERT_EQ(leaves.size(), 3u);
  using Z = std::complex<double>;
  const std::vector<std::vector<Z>> want = {
      {{2, 0}, {0, 0}, {1, -1}, {2, 0}}, {{2, 0}, {1, 1}, {0, 0}, {2, 0}}, {{1, 0}, {0, 1}}};
  for (size_t k = 0; k < want.size(); ++k) {
    for (size_t i = 0; i < want[k].size(); ++i) {
      const Z got = leaves[k]->GetAsComplex(static_cast<int64_t>(i));
      EXPECT_NEAR(got.real(), want[k][i].real(), 1e-12) << "result " << k << " element " << i;
      EXPECT_NEAR(got.imag(), want[k][i].imag(), 1e-12) << "result " << k << " element " << i;
    }
  }
}

TEST(ComplexTypesTest, WithTheFlagOnModulesMatchTheInterpreter) {
  CompileOptions options;
  options.emission_flags = {kFlag};
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  const bool cuda = std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  uint64_t seed = 0;
  for (const char* text : kModules) {
    SCOPED_TRACE(text);
    auto module = ParseHloModule(text);
    ASSERT_TRUE(module.ok()) << module.status();
    auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"), options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
    ASSERT_TRUE(executable.ok()) << executable.status();
    std::vector<Literal> args = RandomArguments(**module, ++seed);
    HloEvaluator evaluator;
    auto expected = evaluator.Evaluate(**module, args);
    ASSERT_TRUE(expected.ok()) << expected.status();
    auto actual = ExecuteWithLiterals(**executable, args);
    ASSERT_TRUE(actual.ok()) << actual.status();
    absl::Status same = CompareLiteralsWithDefaultTolerance(*expected, *actual);
    EXPECT_TRUE(same.ok()) << same;
    if (cuda) {
      for (const char* target : {"h100", "a100"}) {
        auto ptx = Compile(**module, *ShippedTargetConfig(target), options);
        EXPECT_TRUE(ptx.ok()) << target << ": " << ptx.status();
      }
    }
  }
}

}  // namespace
}  // namespace aot
