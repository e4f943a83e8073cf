// The interpreter on c64 / c128: complex arithmetic, the ops that move
// values, dot, the add-reduction and fft.

#include <complex>
#include <numbers>

#include "compiler/interpreter/test_util.h"

namespace aot {
namespace interpreter_test {
namespace {

using Z = std::complex<double>;

Literal Complex(absl::string_view shape, std::vector<Z> values) {
  auto s = ParseShape(shape);
  EXPECT_TRUE(s.ok()) << s.status();
  Literal l(*s);
  EXPECT_EQ(l.element_count(), static_cast<int64_t>(values.size())) << shape;
  for (size_t i = 0; i < values.size(); ++i) l.SetFromComplex(static_cast<int64_t>(i), values[i]);
  return l;
}

std::vector<Z> Complexes(const Literal& l) {
  std::vector<Z> out;
  for (int64_t i = 0; i < l.element_count(); ++i) out.push_back(l.GetAsComplex(i));
  return out;
}

void ExpectNear(const std::vector<Z>& actual, const std::vector<Z>& expected, double tol) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i].real(), expected[i].real(), tol) << "element " << i;
    EXPECT_NEAR(actual[i].imag(), expected[i].imag(), tol) << "element " << i;
  }
}

TEST(ComplexTest, ConstantsParsePrintAndEvaluate) {
  const std::string hlo = Hlo(R"(
ENTRY main {
  ROOT c = c64[2,2] constant({ {(1, 2), (3, -4)}, {(0.5, 0), (-0, inf)} })
})");
  auto module = ParseHloModule(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string printed = (*module)->ToString();
  EXPECT_NE(printed.find("{ {(1, 2), (3, -4)}, {(0.5, 0), (-0, inf)} }"), std::string::npos)
      << printed;
  auto again = ParseHloModule(printed);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->ToString(), printed);
  Literal r = RunHlo(hlo);
  EXPECT_EQ(ShapeOf(r), "c64[2,2]");
  std::vector<Z> v = Complexes(r);
  EXPECT_EQ(v[0], Z(1, 2));
  EXPECT_EQ(v[1], Z(3, -4));
  EXPECT_TRUE(std::isinf(v[3].imag()));
  // A scalar, and c128 keeps f64 precision.
  Literal s = RunHlo(Hlo("ENTRY main {\n ROOT c = c128[] constant((0.1, -0.2))\n}"));
  EXPECT_EQ(s.GetAsComplex(0), Z(0.1, -0.2));
}

TEST(ComplexTest, MalformedConstantsNameTheProblem) {
  for (const char* text : {"c64[2] constant({(1, 2), 3})", "c64[] constant((1, 2, 3))",
                           "c64[1] constant({(1, x)})", "c64[1] constant({1})"}) {
    auto module = ParseHloModule(Hlo(absl::StrCat("ENTRY main {\n ROOT c = ", text, "\n}")));
    ASSERT_FALSE(module.ok()) << text;
    EXPECT_NE(module.status().message().find("c64"), std::string::npos) << module.status();
  }
}

TEST(ComplexTest, ArithmeticMatchesStdComplex) {
  const std::string hlo = Hlo(R"(
ENTRY main {
  a = c64[3] parameter(0)
  b = c64[3] parameter(1)
  add = c64[3] add(a, b)
  sub = c64[3] subtract(a, b)
  mul = c64[3] multiply(a, b)
  div = c64[3] divide(a, b)
  neg = c64[3] negate(a)
  exp = c64[3] exponential(a)
  log = c64[3] log(a)
  sqrt = c64[3] sqrt(a)
  abs = f32[3] abs(a)
  ROOT t = (c64[3], c64[3], c64[3], c64[3], c64[3], c64[3], c64[3], c64[3], f32[3]) tuple(add, sub, mul, div, neg, exp, log, sqrt, abs)
})");
  const std::vector<Z> a = {Z(1, 2), Z(-3, 0.5), Z(0, -1)};
  const std::vector<Z> b = {Z(2, -1), Z(0.25, 4), Z(-1, -1)};
  Literal r = RunHlo(hlo, {Complex("c64[3]", a), Complex("c64[3]", b)});
  ASSERT_TRUE(r.shape().IsTuple());
  std::vector<std::vector<Z>> expected(8);
  std::vector<double> abs;
  for (int i = 0; i < 3; ++i) {
    expected[0].push_back(a[i] + b[i]);
    expected[1].push_back(a[i] - b[i]);
    expected[2].push_back(a[i] * b[i]);
    expected[3].push_back(a[i] / b[i]);
    expected[4].push_back(-a[i]);
    expected[5].push_back(std::exp(a[i]));
    expected[6].push_back(std::log(a[i]));
    expected[7].push_back(std::sqrt(a[i]));
    abs.push_back(std::abs(a[i]));
  }
  for (int k = 0; k < 8; ++k) ExpectNear(Complexes(r.tuple_element(k)), expected[k], 1e-5);
  std::vector<double> got_abs = Doubles(r.tuple_element(8));
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(got_abs[i], abs[i], 1e-6);
}

TEST(ComplexTest, RealImagComplexConvertAndEquality) {
  const std::string hlo = Hlo(R"(
ENTRY main {
  x = f32[2] parameter(0)
  y = f32[2] parameter(1)
  z = c64[2] complex(x, y)
  re = f32[2] real(z)
  im = f32[2] imag(z)
  wide = c128[2] convert(z)
  ints = s32[2] constant({3, -4})
  from_int = c64[2] convert(ints)
  eq = pred[2] compare(z, from_int), direction=EQ
  ne = pred[2] compare(z, from_int), direction=NE
  real_of_real = f32[2] real(x)
  imag_of_real = f32[2] imag(x)
  ROOT t = (c64[2], f32[2], f32[2], c128[2], pred[2], pred[2], f32[2], f32[2]) tuple(z, re, im, wide, eq, ne, real_of_real, imag_of_real)
})");
  Literal r = RunHlo(hlo, {L("f32[2]", {3, 5}), L("f32[2]", {0, -1})});
  ASSERT_TRUE(r.shape().IsTuple());
  EXPECT_EQ(Complexes(r.tuple_element(0)), (std::vector<Z>{Z(3, 0), Z(5, -1)}));
  EXPECT_EQ(Doubles(r.tuple_element(1)), (std::vector<double>{3, 5}));
  EXPECT_EQ(Doubles(r.tuple_element(2)), (std::vector<double>{0, -1}));
  EXPECT_EQ(ShapeOf(r.tuple_element(3)), "c128[2]");
  EXPECT_EQ(Complexes(r.tuple_element(3)), (std::vector<Z>{Z(3, 0), Z(5, -1)}));
  EXPECT_EQ(Bools(r.tuple_element(4)), (std::vector<bool>{true, false}));
  EXPECT_EQ(Bools(r.tuple_element(5)), (std::vector<bool>{false, true}));
  EXPECT_EQ(Doubles(r.tuple_element(6)), (std::vector<double>{3, 5}));
  EXPECT_EQ(Doubles(r.tuple_element(7)), (std::vector<double>{0, 0}));
}

TEST(ComplexTest, PowerFollowsXlaAtZero) {
  Literal r = RunHlo(Hlo(R"(
ENTRY main {
  a = c64[3] constant({(0, 0), (0, 0), (2, 0)})
  b = c64[3] constant({(0, 0), (2, 0), (0.5, 0)})
  ROOT p = c64[3] power(a, b)
})"));
  ExpectNear(Complexes(r), {Z(1, 0), Z(0, 0), Z(std::sqrt(2.0), 0)}, 1e-6);
}

TEST(ComplexTest, ValuesMoveThroughShapeOps) {
  Literal r = RunHlo(Hlo(R"(
ENTRY main {
  a = c64[2,2] constant({ {(1, 1), (2, 2)}, {(3, 3), (4, 4)} })
  t = c64[2,2] transpose(a), dimensions={1,0}
  s = c64[1,2] slice(t), slice={[1:2], [0:2]}
  nine = c64[] constant((9, -9))
  p = c64[1,3] pad(s, nine), padding=0_0x0_1
  r = c64[3] reshape(p)
  v = c64[3] reverse(r), dimensions={0}
  b = c64[2,3] broadcast(v), dimensions={1}
  c = c64[4,3] concatenate(b, b), dimensions={0}
  yes = pred[] constant(true)
  all = pred[4,3] broadcast(yes), dimensions={}
  ROOT sel = c64[4,3] select(all, c, c)
})"));
  ASSERT_EQ(ShapeOf(r), "c64[4,3]");
  std::vector<Z> v = Complexes(r);
  EXPECT_EQ(v[0], Z(9, -9));
  EXPECT_EQ(v[1], Z(4, 4));
  EXPECT_EQ(v[2], Z(2, 2));
  EXPECT_EQ(v[11], Z(2, 2));
}

// JAX builds complex identity masks from a complex iota.
TEST(ComplexTest, IotaCountsAlongItsDimensionWithImaginaryZero) {
  Literal r = RunHlo(Hlo(R"(
ENTRY main {
  ROOT i = c128[2,3] iota(), iota_dimension=1
})"));
  ASSERT_EQ(ShapeOf(r), "c128[2,3]");
  EXPECT_EQ(Complexes(r), (std::vector<Z>{0, 1, 2, 0, 1, 2}));
  Literal f = RunHlo(Hlo("ENTRY main {\n ROOT i = c64[3] iota(), iota_dimension=0\n}"));
  EXPECT_EQ(Complexes(f), (std::vector<Z>{0, 1, 2}));
}

TEST(ComplexTest, DotIsComplexMatrixProduct) {
  Literal r = RunHlo(Hlo(R"(
ENTRY main {
  a = c64[2,2] parameter(0)
  b = c64[2,1] parameter(1)
  ROOT d = c64[2,1] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})"),
                     {Complex("c64[2,2]", {Z(1, 1), Z(2, 0), Z(0, -1), Z(3, 2)}),
                      Complex("c64[2,1]", {Z(3, 0), Z(0, 1)})});
  ExpectNear(Complexes(r),
             {Z(1, 1) * Z(3, 0) + Z(2, 0) * Z(0, 1), Z(0, -1) * Z(3, 0) + Z(3, 2) * Z(0, 1)}, 1e-6);
}

TEST(ComplexTest, AddReductionSumsAndOtherReducersAreCalledPerElement) {
  const std::string add = Hlo(R"(
add_c64 {
  a = c64[] parameter(0)
  b = c64[] parameter(1)
  ROOT s = c64[] add(a, b)
}
ENTRY main {
  x = c64[2,3] parameter(0)
  init = c64[] constant((1, 1))
  ROOT r = c64[2] reduce(x, init), dimensions={1}, to_apply=add_c64
})");
  Literal r =
      RunHlo(add, {Complex("c64[2,3]", {Z(1, 0), Z(2, 1), Z(3, 2), Z(0, 1), Z(0, 2), Z(0, 3)})});
  ExpectNear(Complexes(r), {Z(7, 4), Z(1, 7)}, 1e-6);
  std::string multiply = add;
  multiply.replace(multiply.find("add(a, b)"), 9, "multiply(a, b)");
  // (1+1i)(1+0i)(2+1i)(3+2i) and (1+1i)(0+1i)(0+2i)(0+3i).
  Literal product = RunHlo(
      multiply, {Complex("c64[2,3]", {Z(1, 0), Z(2, 1), Z(3, 2), Z(0, 1), Z(0, 2), Z(0, 3)})});
  ExpectNear(Complexes(product),
             {Z(1, 1) * Z(1, 0) * Z(2, 1) * Z(3, 2), Z(1, 1) * Z(0, 1) * Z(0, 2) * Z(0, 3)}, 1e-6);
}

// A scatter that adds complex updates: repeated indices accumulate.
TEST(ComplexTest, ScatterAddAccumulatesComplexUpdates) {
  Literal r = RunHlo(Hlo(R"(
add_c64 {
  a = c64[] parameter(0)
  b = c64[] parameter(1)
  ROOT s = c64[] add(a, b)
}
ENTRY main {
  x = c64[3] parameter(0)
  i = s32[3,1] constant({{2}, {0}, {2}})
  u = c64[3] parameter(1)
  ROOT r = c64[3] scatter(x, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_c64
})"),
                     {Complex("c64[3]", {Z(1, 1), Z(2, 2), Z(3, 3)}),
                      Complex("c64[3]", {Z(10, -1), Z(0, 5), Z(-4, 2)})});
  ExpectNear(Complexes(r), {Z(1, 6), Z(2, 2), Z(9, 4)}, 1e-6);
}

// The DFT by its definition, for the checks below.
std::vector<Z> Dft(const std::vector<Z>& x, bool inverse) {
  const size_t n = x.size();
  std::vector<Z> out(n);
  for (size_t k = 0; k < n; ++k) {
    for (size_t j = 0; j < n; ++j) {
      const double angle = (inverse ? 2 : -2) * std::numbers::pi * double(j * k) / double(n);
      out[k] += x[j] * Z(std::cos(angle), std::sin(angle));
    }
    if (inverse) out[k] /= double(n);
  }
  return out;
}

TEST(FftTest, FftAndIfftOfKnownSignals) {
  const std::string hlo = Hlo(R"(
ENTRY main {
  x = c64[2,4] parameter(0)
  f = c64[2,4] fft(x), fft_type=FFT, fft_length={4}
  b = c64[2,4] fft(f), fft_type=IFFT, fft_length={4}
  ROOT t = (c64[2,4], c64[2,4]) tuple(f, b)
})");
  // A delta transforms to ones; ones to (4, 0, 0, 0).
  const std::vector<Z> x = {Z(1, 0), 0, 0, 0, Z(1, 0), Z(1, 0), Z(1, 0), Z(1, 0)};
  Literal r = RunHlo(hlo, {Complex("c64[2,4]", x)});
  ExpectNear(Complexes(r.tuple_element(0)), {1, 1, 1, 1, 4, 0, 0, 0}, 1e-6);
  ExpectNear(Complexes(r.tuple_element(1)), x, 1e-6);
}

TEST(FftTest, RfftKeepsHalfTheSpectrumAndIrfftInvertsIt) {
  const std::string hlo = Hlo(R"(
ENTRY main {
  x = f32[6] parameter(0)
  f = c64[4] fft(x), fft_type=RFFT, fft_length={6}
  b = f32[6] fft(f), fft_type=IRFFT, fft_length={6}
  ROOT t = (c64[4], f32[6]) tuple(f, b)
})");
  const std::vector<double> x = {0.5, -1, 2, 3, -0.25, 1};
  Literal r = RunHlo(hlo, {L("f32[6]", x)});
  std::vector<Z> full = Dft(std::vector<Z>(x.begin(), x.end()), false);
  ExpectNear(Complexes(r.tuple_element(0)), {full[0], full[1], full[2], full[3]}, 1e-5);
  std::vector<double> back = Doubles(r.tuple_element(1));
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(back[i], x[i], 1e-5) << i;
}

TEST(FftTest, TwoDimensionalTransformsAreSeparable) {
  const std::string hlo = Hlo(R"(
ENTRY main {
  x = f64[3,4] parameter(0)
  f = c128[3,3] fft(x), fft_type=RFFT, fft_length={3,4}
  b = f64[3,4] fft(f), fft_type=IRFFT, fft_length={3,4}
  ROOT t = (c128[3,3], f64[3,4]) tuple(f, b)
})");
  std::vector<double> x(12);
  for (int i = 0; i < 12; ++i) x[i] = std::sin(1.0 + 0.7 * i);
  Literal r = RunHlo(hlo, {L("f64[3,4]", x)});
  // Rows, then columns, by the definition.
  std::vector<Z> m(x.begin(), x.end());
  for (int row = 0; row < 3; ++row) {
    std::vector<Z> line(m.begin() + 4 * row, m.begin() + 4 * row + 4);
    line = Dft(line, false);
    std::copy(line.begin(), line.end(), m.begin() + 4 * row);
  }
  for (int col = 0; col < 4; ++col) {
    std::vector<Z> line = {m[col], m[4 + col], m[8 + col]};
    line = Dft(line, false);
    for (int row = 0; row < 3; ++row) m[4 * row + col] = line[row];
  }
  std::vector<Z> expected;
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) expected.push_back(m[4 * row + col]);
  }
  ExpectNear(Complexes(r.tuple_element(0)), expected, 1e-12);
  std::vector<double> back = Doubles(r.tuple_element(1));
  for (int i = 0; i < 12; ++i) EXPECT_NEAR(back[i], x[i], 1e-12) << i;
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
