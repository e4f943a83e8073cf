#include "compiler/passes/complex_expansion.h"

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

// Ops that may still hold a complex value after the pass: they only move
// values (or reinterpret them, as the pass's own bitcast-converts do).
bool MovesOnly(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kTuple:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kBroadcast:
    case HloOpcode::kReshape:
    case HloOpcode::kTranspose:
    case HloOpcode::kSlice:
    case HloOpcode::kConcatenate:
    case HloOpcode::kPad:
    case HloOpcode::kSelect:
    case HloOpcode::kCopy:
    case HloOpcode::kBitcastConvert:
      return true;
    default:
      return false;
  }
}

// Expands `text`; expects no complex arithmetic left and the interpreter's
// value (on random arguments) unchanged.
void ExpectExpands(absl::string_view text, double tolerance = 1e-5) {
  SCOPED_TRACE(text);
  std::unique_ptr<HloModule> m = ExpectExpansionKeepsValues(
      text, ExpandComplexArithmetic, Tolerance{tolerance, tolerance}, {}, 11);
  ASSERT_NE(m, nullptr);
  for (const HloComputation* c : m->computations()) {
    for (const HloInstruction* h : c->instructions()) {
      bool complex = HasComplexLeaf(h->shape());
      for (const HloInstruction* op : h->operands()) complex |= HasComplexLeaf(op->shape());
      if (complex && c == m->entry_computation()) {
        EXPECT_TRUE(MovesOnly(h->opcode())) << h->ToString();
      }
      if (c == m->entry_computation()) {
        for (HloOpcode gone :
             {HloOpcode::kReal, HloOpcode::kImag, HloOpcode::kComplex, HloOpcode::kFft}) {
          EXPECT_NE(h->opcode(), gone) << h->ToString();
        }
      }
    }
  }
}

TEST(ComplexExpansionTest, ArithmeticOnParts) {
  ExpectExpands(R"(
HloModule m
ENTRY e {
  a = c64[3,4] parameter(0)
  b = c64[3,4] parameter(1)
  add = c64[3,4] add(a, b)
  sub = c64[3,4] subtract(a, b)
  mul = c64[3,4] multiply(add, sub)
  div = c64[3,4] divide(mul, b)
  neg = c64[3,4] negate(div)
  sgn = c64[3,4] sign(neg)
  ROOT t = (c64[3,4], c64[3,4], c64[3,4]) tuple(div, neg, sgn)
})");
}

TEST(ComplexExpansionTest, TranscendentalsOnParts) {
  ExpectExpands(R"(
HloModule m
ENTRY e {
  a = c64[16] parameter(0)
  exp = c64[16] exponential(a)
  log = c64[16] log(a)
  sqrt = c64[16] sqrt(a)
  rsqrt = c64[16] rsqrt(a)
  sin = c64[16] sine(a)
  cos = c64[16] cosine(a)
  ROOT t = (c64[16], c64[16], c64[16], c64[16], c64[16], c64[16]) tuple(exp, log, sqrt, rsqrt, sin, cos)
})",
                1e-4);
  ExpectExpands(R"(
HloModule m
ENTRY e {
  a = c128[16] parameter(0)
  b = c128[16] parameter(1)
  expm1 = c128[16] exponential-minus-one(a)
  log1p = c128[16] log-plus-one(a)
  logistic = c128[16] logistic(a)
  tanh = c128[16] tanh(a)
  tan = c128[16] tan(a)
  cbrt = c128[16] cbrt(a)
  pow = c128[16] power(a, b)
  ROOT t = (c128[16], c128[16], c128[16], c128[16], c128[16], c128[16], c128[16]) tuple(expm1, log1p, logistic, tanh, tan, cbrt, pow)
})",
                1e-9);
}

TEST(ComplexExpansionTest, ConversionsPartsAndEquality) {
  ExpectExpands(R"(
HloModule m
ENTRY e {
  x = f32[5] parameter(0)
  y = f32[5] parameter(1)
  z = c64[5] complex(x, y)
  w = c64[5] convert(x)
  wide = c128[5] convert(z)
  re = f64[5] real(wide)
  im = f32[5] imag(z)
  m = f32[5] abs(z)
  eq = pred[5] compare(z, w), direction=EQ
  ne = pred[5] compare(z, z), direction=NE
  re_of_real = f32[5] real(x)
  im_of_real = f32[5] imag(x)
  ROOT t = (c128[5], f64[5], f32[5], f32[5], pred[5], pred[5], f32[5], f32[5]) tuple(wide, re, im, m, eq, ne, re_of_real, im_of_real)
})");
}

TEST(ComplexExpansionTest, DotReduceAndMovesKeepComplexLayouts) {
  ExpectExpands(R"(
HloModule m
add_c {
  a = c64[] parameter(0)
  b = c64[] parameter(1)
  ROOT s = c64[] add(a, b)
}
ENTRY e {
  a = c64[4,3]{0,1} parameter(0)
  b = c64[3,5] parameter(1)
  d = c64[4,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = c64[5,4] transpose(d), dimensions={1,0}
  zero = c64[] constant((0.5, -1))
  r = c64[5] reduce(t, zero), dimensions={1}, to_apply=add_c
  ROOT out = c64[5]{0} multiply(r, r)
})",
                1e-4);
}

// Convolution is bilinear too: four real convolutions, here grouped and
// strided with a complex kernel, and a real signal with a complex kernel.
TEST(ComplexExpansionTest, ConvolutionAsFourRealConvolutions) {
  ExpectExpands(R"(
HloModule m
ENTRY e {
  x = c64[2,9,4] parameter(0)
  k = c64[3,2,6] parameter(1)
  c = c64[2,4,6] convolution(x, k), window={size=3 stride=2}, dim_labels=b0f_0io->b0f, feature_group_count=2
  r = f32[1,8,1] parameter(2)
  h = c64[5,1,1] parameter(3)
  rc = c64[1,8,1] convert(r)
  f = c64[1,4,1] convolution(rc, h), window={size=5}, dim_labels=b0f_0io->b0f
  ROOT t = (c64[2,4,6], c64[1,4,1]) tuple(c, f)
})",
                1e-4);
}

// A scatter that adds complex updates (repeated indices accumulate): one
// real scatter-add per part.
TEST(ComplexExpansionTest, ScatterAddOnParts) {
  ExpectExpands(R"(
HloModule m
add_c {
  a = c64[] parameter(0)
  b = c64[] parameter(1)
  ROOT s = c64[] add(a, b)
}
ENTRY e {
  table = c64[6,3] parameter(0)
  rows = s32[4,1] constant({{1}, {4}, {1}, {0}})
  updates = c64[4,3] parameter(1)
  ROOT r = c64[6,3] scatter(table, rows, updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_c
})",
                1e-5);
}

TEST(ComplexExpansionTest, FftAsDftMatrixProducts) {
  ExpectExpands(R"(
HloModule m
ENTRY e {
  x = c64[3,8] parameter(0)
  f = c64[3,8] fft(x), fft_type=FFT, fft_length={8}
  g = c64[3,8] fft(f), fft_type=IFFT, fft_length={3,8}
  r = f32[2,6] parameter(1)
  h = c64[2,4] fft(r), fft_type=RFFT, fft_length={6}
  back = f32[2,6] fft(h), fft_type=IRFFT, fft_length={6}
  ROOT t = (c64[3,8], c64[3,8], c64[2,4], f32[2,6]) tuple(f, g, h, back)
})",
                1e-4);
  ExpectExpands(R"(
HloModule m
ENTRY e {
  x = f64[3,4,5] parameter(0)
  f = c128[3,4,3] fft(x), fft_type=RFFT, fft_length={4,5}
  ROOT b = f64[3,4,5] fft(f), fft_type=IRFFT, fft_length={4,5}
})",
                1e-9);
}

TEST(ComplexExpansionTest, CalledComputationsAreSplitIntoParts) {
  // reduce, reduce-window, scatter and sort with any computation: the same
  // op on the parts, its computation over real scalars.
  const char* kText = R"(
HloModule m
mul_c {
  x = c64[] parameter(0)
  y = c64[] parameter(1)
  k = c64[] constant((0.5, -1))
  xy = c64[] multiply(x, y)
  ROOT p = c64[] multiply(xy, k)
}
lex {
  x = c64[] parameter(0)
  y = c64[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  rx = f32[] real(x)
  ry = f32[] real(y)
  ROOT lt = pred[] compare(rx, ry), direction=LT
}
ENTRY e {
  a = c64[4,6] parameter(0)
  one = c64[] constant((1, 0))
  r = c64[6] reduce(a, one), dimensions={0}, to_apply=mul_c
  w = c64[2,6] reduce-window(a, one), window={size=2x1 stride=2x1}, to_apply=mul_c
  at = s32[1,1] constant({{2}})
  u = c64[1,6] parameter(1)
  sc = c64[4,6] scatter(a, at, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=mul_c
  ix = s32[4,6] iota(), iota_dimension=1
  s = (c64[4,6], s32[4,6]) sort(a, ix), dimensions={1}, to_apply=lex
  ROOT t = (c64[6], c64[2,6], c64[4,6], (c64[4,6], s32[4,6])) tuple(r, w, sc, s)
})";
  ExpectExpands(kText);
  std::unique_ptr<HloModule> m = Parse(kText);
  ASSERT_NE(m, nullptr);
  ASSERT_TRUE(ExpandComplexArithmetic(m.get()).ok());
  int split = 0;
  for (const HloInstruction* h : m->entry_computation()->instructions()) {
    for (const HloComputation* callee : h->called_computations()) {
      ++split;
      for (const HloInstruction* i : callee->instructions()) {
        EXPECT_FALSE(HasComplexLeaf(i->shape())) << callee->name() << ": " << i->ToString();
      }
    }
  }
  EXPECT_EQ(split, 4);
}

TEST(ComplexExpansionTest, WhatItDoesNotComputeIsRefusedByName) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule m
mul_c {
  x = c64[] parameter(0)
  y = c64[] parameter(1)
  ROOT p = c64[] multiply(x, y)
}
ENTRY e {
  a = c64[4] parameter(0)
  b = c64[4] parameter(1)
  ROOT t = c64[4] map(a, b), dimensions={0}, to_apply=mul_c
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<bool> refused = ExpandComplexArithmetic(m.get());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("instruction 't' (map) on c64[4]: this compiler does not compute"));
  // A computation that keeps a complex value it only moves.
  std::unique_ptr<HloModule> kept = Parse(R"(
HloModule m
first {
  x = c64[] parameter(0)
  y = c64[] parameter(1)
  ROOT c = c64[] copy(x)
}
ENTRY e {
  a = c64[4] parameter(0)
  one = c64[] constant((1, 0))
  ROOT t = c64[] reduce(a, one), dimensions={0}, to_apply=first
})");
  ASSERT_NE(kept, nullptr);
  refused = ExpandComplexArithmetic(kept.get());
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("instruction 't' (reduce) on c64[]: its computation 'first' keeps complex "
                        "values in 'c' (copy)"));
  std::unique_ptr<HloModule> long_fft = Parse(R"(
HloModule m
ENTRY e {
  a = c64[2048] parameter(0)
  ROOT f = c64[2048] fft(a), fft_type=FFT, fft_length={2048}
})");
  ASSERT_NE(long_fft, nullptr);
  refused = ExpandComplexArithmetic(long_fft.get());
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("a transformed dimension of length 2048 is longer than the 1024"));
}

// JAX builds complex identity masks from a complex iota.
TEST(ComplexExpansionTest, IotaAsARealIotaAndZeros) {
  ExpectExpands(R"(
HloModule m
ENTRY e {
  a = c64[2,3] parameter(0)
  i = c64[2,3] iota(), iota_dimension=1
  ROOT t = c64[2,3] multiply(a, i)
})");
}

// A custom call's handler reads its complex buffers itself (JAX's LAPACK
// calls): nothing around it changes.
TEST(ComplexExpansionTest, CustomCallsKeepTheirComplexBuffers) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule m
ENTRY e {
  a = c64[3,3] parameter(0)
  ROOT c = (c64[3,3], s32[]) custom-call(a), custom_call_target="lapack_cpotrf_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={uplo = 76 : ui8}
})");
  ASSERT_NE(m, nullptr);
  const std::string before = m->ToString();
  absl::StatusOr<bool> changed = ExpandComplexArithmetic(m.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  EXPECT_EQ(m->ToString(), before);
}

TEST(ComplexExpansionTest, ModulesWithoutComplexValuesAreUnchanged) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  ROOT t = f32[4] tanh(a)
})");
  ASSERT_NE(m, nullptr);
  const std::string before = m->ToString();
  absl::StatusOr<bool> changed = ExpandComplexArithmetic(m.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  EXPECT_EQ(m->ToString(), before);
}

}  // namespace
}  // namespace aot
