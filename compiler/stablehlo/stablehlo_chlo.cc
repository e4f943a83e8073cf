// CHLO ops decomposed into HLO: broadcasting binary ops and the special
// functions.
#include <array>
#include <limits>

#include "compiler/stablehlo/stablehlo_arith.h"
#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"

namespace aot::stablehlo {
namespace convert_internal {

absl::StatusOr<Value> Converter::BroadcastForChlo(const MlirOperation& op, const Value& v,
                                                  const MlirType& result, const MlirAttr* dims) {
  const size_t rank = v.type.dimensions.size();
  const size_t out_rank = result.dimensions.size();
  if (v.type.dimensions == result.dimensions) return v;
  std::vector<int64_t> map;
  if (dims != nullptr && rank < out_rank) {
    AOT_ASSIGN_OR_RETURN(map, Ints(op, *dims, "broadcast_dimensions"));
  } else {
    for (size_t i = 0; i < rank; ++i) map.push_back(static_cast<int64_t>(out_rank - rank + i));
  }
  return BroadcastInDim(op, v, result, map);
}

// The special functions JAX emits as CHLO ops, decomposed into HLO as
// XLA's CHLO legalization does, from published approximations (computed in
// f32 for f16/bf16 and narrower inputs, in the input type for f32/f64):
// - erf_inv: M. Giles, "Approximating the erfinv function" (GPU Computing
//   Gems, 2010), the single-precision polynomials in w = -log(1 - x^2);
//   +-inf at +-1.
// - bessel_i1e: exp(-|x|) I1(x) by its power series up to |x| = 15 and
//   the asymptotic expansion above;
// - lgamma and digamma: the Lanczos approximation (g = 7, 9 terms), with
//   the reflection formulas below 1/2 (lgamma(x) = log(pi) -
//   log|sin(pi x)| - lgamma(1 - x); digamma(x) = digamma(1 - x) -
//   pi cot(pi x)), the angle reduced to frac(x); lgamma is +inf at the
//   poles and at +-inf, digamma NaN at the poles.
absl::StatusOr<Value> Converter::SpecialFunction(const MlirOperation& op, absl::string_view name,
                                                 const Value& input, const MlirType& result) {
  const std::string& e = input.type.element;
  if (!IsFloatElement(e) || absl::StartsWith(e, "complex")) {
    return OpError(op, "takes a real floating-point operand");
  }
  const bool wide = e == "f32" || e == "f64";
  const MlirType t = wide ? input.type : WithElement(input.type, "f32");
  Value x = input;
  if (!wide) {
    AOT_ASSIGN_OR_RETURN(x, Emit(t, "upcast", "convert", {input}));
  }
  const MlirType pred = WithElement(t, "i1");
  // Small expression helpers over values of type t.
  auto k = [&](double v) -> absl::StatusOr<Value> {
    std::string text = std::isnan(v)   ? "nan"
                       : std::isinf(v) ? (v < 0 ? "-inf" : "inf")
                                       : absl::StrFormat("%.17g", v);
    AOT_ASSIGN_OR_RETURN(Value c, ScalarConstant(t, text, "k"));
    return BroadcastTo(c, t, "k");
  };
  auto bin = [&](absl::string_view opcode, const Value& a, const Value& b) {
    return Emit(t, opcode, opcode, {a, b});
  };
  auto un = [&](absl::string_view opcode, const Value& a) { return Emit(t, opcode, opcode, {a}); };
  auto cmp = [&](absl::string_view dir, const Value& a, const Value& b) {
    return Emit(pred, "cmp", "compare", {a, b}, absl::StrCat("direction=", dir));
  };
  auto sel = [&](const Value& p, const Value& a, const Value& b) {
    return Emit(t, "sel", "select", {p, a, b});
  };
  // Horner's rule from the highest coefficient, c[0].
  auto poly = [&](const Value& w, const std::vector<double>& c) -> absl::StatusOr<Value> {
    AOT_ASSIGN_OR_RETURN(Value p, k(c[0]));
    for (size_t i = 1; i < c.size(); ++i) {
      AOT_ASSIGN_OR_RETURN(Value pw, bin("multiply", p, w));
      AOT_ASSIGN_OR_RETURN(Value ci, k(c[i]));
      AOT_ASSIGN_OR_RETURN(p, bin("add", ci, pw));
    }
    return p;
  };
  Value out;
  if (name == "bessel_i1e") {
    // exp(-|x|) I1(x): the power series sum (x/2)^(2k+1) / (k! (k+1)!)
    // (40 terms) up to |x| = 15, above it the asymptotic expansion
    // sign(x) / sqrt(2 pi |x|) (1 - 3/(8z) - 15/(128z^2) - 315/(3072z^3)
    // - 14175/(98304z^4)) with z = |x|.
    AOT_ASSIGN_OR_RETURN(Value half, k(0.5));
    AOT_ASSIGN_OR_RETURN(Value h, bin("multiply", x, half));
    AOT_ASSIGN_OR_RETURN(Value h2, bin("multiply", h, h));
    Value term = h, sum = h;
    for (int i = 0; i < 40; ++i) {
      AOT_ASSIGN_OR_RETURN(Value d, k(1.0 / ((i + 1.0) * (i + 2.0))));
      AOT_ASSIGN_OR_RETURN(Value t1, bin("multiply", term, h2));
      AOT_ASSIGN_OR_RETURN(term, bin("multiply", t1, d));
      AOT_ASSIGN_OR_RETURN(sum, bin("add", sum, term));
    }
    AOT_ASSIGN_OR_RETURN(Value ax, un("abs", x));
    AOT_ASSIGN_OR_RETURN(Value nax, un("negate", ax));
    AOT_ASSIGN_OR_RETURN(Value scale, un("exponential", nax));
    AOT_ASSIGN_OR_RETURN(Value small, bin("multiply", sum, scale));
    AOT_ASSIGN_OR_RETURN(Value one, k(1));
    AOT_ASSIGN_OR_RETURN(Value inv, bin("divide", one, ax));
    AOT_ASSIGN_OR_RETURN(Value series,
                         poly(inv, {-14175.0 / 98304, -315.0 / 3072, -15.0 / 128, -3.0 / 8, 1.0}));
    AOT_ASSIGN_OR_RETURN(Value two_pi, k(2 * M_PI));
    AOT_ASSIGN_OR_RETURN(Value tpz, bin("multiply", two_pi, ax));
    AOT_ASSIGN_OR_RETURN(Value root, un("rsqrt", tpz));
    AOT_ASSIGN_OR_RETURN(Value mag, bin("multiply", series, root));
    AOT_ASSIGN_OR_RETURN(Value sgn, un("sign", x));
    AOT_ASSIGN_OR_RETURN(Value large, bin("multiply", mag, sgn));
    AOT_ASSIGN_OR_RETURN(Value fifteen, k(15));
    AOT_ASSIGN_OR_RETURN(Value near, cmp("LE", ax, fifteen));
    AOT_ASSIGN_OR_RETURN(out, sel(near, small, large));
  } else if (name == "erf_inv") {
    AOT_ASSIGN_OR_RETURN(Value one, k(1));
    AOT_ASSIGN_OR_RETURN(Value a, bin("subtract", one, x));
    AOT_ASSIGN_OR_RETURN(Value b, bin("add", one, x));
    AOT_ASSIGN_OR_RETURN(Value ab, bin("multiply", a, b));
    AOT_ASSIGN_OR_RETURN(Value lg, un("log", ab));
    AOT_ASSIGN_OR_RETURN(Value w, un("negate", lg));
    AOT_ASSIGN_OR_RETURN(Value two_and_half, k(2.5));
    AOT_ASSIGN_OR_RETURN(Value w_small, bin("subtract", w, two_and_half));
    AOT_ASSIGN_OR_RETURN(
        Value p_small,
        poly(w_small, {2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                       0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941}));
    AOT_ASSIGN_OR_RETURN(Value sq, un("sqrt", w));
    AOT_ASSIGN_OR_RETURN(Value three, k(3));
    AOT_ASSIGN_OR_RETURN(Value w_big, bin("subtract", sq, three));
    AOT_ASSIGN_OR_RETURN(Value p_big, poly(w_big, {-0.000200214257, 0.000100950558, 0.00134934322,
                                                   -0.00367342844, 0.00573950773, -0.0076224613,
                                                   0.00943887047, 1.00167406, 2.83297682}));
    AOT_ASSIGN_OR_RETURN(Value five, k(5));
    AOT_ASSIGN_OR_RETURN(Value small, cmp("LT", w, five));
    AOT_ASSIGN_OR_RETURN(Value p, sel(small, p_small, p_big));
    AOT_ASSIGN_OR_RETURN(Value px, bin("multiply", p, x));
    AOT_ASSIGN_OR_RETURN(Value ax, un("abs", x));
    AOT_ASSIGN_OR_RETURN(Value at_one, cmp("EQ", ax, one));
    AOT_ASSIGN_OR_RETURN(Value inf, k(HUGE_VAL));
    AOT_ASSIGN_OR_RETURN(Value inf_x, bin("multiply", inf, x));
    AOT_ASSIGN_OR_RETURN(out, sel(at_one, inf_x, px));
  } else {
    // Lanczos on z = y - 1 for y >= 1/2, with y = x or, reflected, 1 - x:
    // A(z) = c0 + sum c_i / (z + i + 1), t = z + g + 1/2,
    // lgamma(y) = log(2 pi) / 2 + (z + 1/2) log(t) - t + log(A(z)),
    // digamma(y) = log(t) - g / t + A'(z) / A(z).
    constexpr double kG = 7;
    constexpr double kC0 = 0.99999999999980993;
    constexpr double kC[] = {676.5203681218851,     -1259.1392167224028,  771.32342877765313,
                             -176.61502916214059,   12.507343278686905,   -0.13857109526572012,
                             9.9843695780195716e-6, 1.5056327351493116e-7};
    AOT_ASSIGN_OR_RETURN(Value one, k(1));
    AOT_ASSIGN_OR_RETURN(Value half, k(0.5));
    AOT_ASSIGN_OR_RETURN(Value reflect, cmp("LT", x, half));
    AOT_ASSIGN_OR_RETURN(Value one_minus_x, bin("subtract", one, x));
    AOT_ASSIGN_OR_RETURN(Value y, sel(reflect, one_minus_x, x));
    AOT_ASSIGN_OR_RETURN(Value z, bin("subtract", y, one));
    AOT_ASSIGN_OR_RETURN(Value a, k(kC0));
    AOT_ASSIGN_OR_RETURN(Value da, k(0));
    for (int i = 0; i < 8; ++i) {
      AOT_ASSIGN_OR_RETURN(Value off, k(i + 1));
      AOT_ASSIGN_OR_RETURN(Value d, bin("add", z, off));
      AOT_ASSIGN_OR_RETURN(Value ci, k(kC[i]));
      AOT_ASSIGN_OR_RETURN(Value q, bin("divide", ci, d));
      AOT_ASSIGN_OR_RETURN(a, bin("add", a, q));
      AOT_ASSIGN_OR_RETURN(Value q2, bin("divide", q, d));
      AOT_ASSIGN_OR_RETURN(da, bin("subtract", da, q2));
    }
    AOT_ASSIGN_OR_RETURN(Value g_half, k(kG + 0.5));
    AOT_ASSIGN_OR_RETURN(Value tt, bin("add", z, g_half));
    AOT_ASSIGN_OR_RETURN(Value log_t, un("log", tt));
    // sin(pi x) and cos(pi x) on the reduced angle pi * frac(x).
    AOT_ASSIGN_OR_RETURN(Value fl, un("floor", x));
    AOT_ASSIGN_OR_RETURN(Value frac, bin("subtract", x, fl));
    AOT_ASSIGN_OR_RETURN(Value pi, k(M_PI));
    AOT_ASSIGN_OR_RETURN(Value angle, bin("multiply", pi, frac));
    AOT_ASSIGN_OR_RETURN(Value sin_pi, un("sine", angle));
    AOT_ASSIGN_OR_RETURN(Value zero, k(0));
    AOT_ASSIGN_OR_RETURN(Value integral, cmp("EQ", frac, zero));
    AOT_ASSIGN_OR_RETURN(Value nonpositive, cmp("LE", x, zero));
    AOT_ASSIGN_OR_RETURN(Value pole, Emit(pred, "pole", "and", {integral, nonpositive}));
    if (name == "lgamma") {
      AOT_ASSIGN_OR_RETURN(Value half_log_2pi, k(0.91893853320467274178));
      AOT_ASSIGN_OR_RETURN(Value zh, bin("add", z, half));
      AOT_ASSIGN_OR_RETURN(Value term, bin("multiply", zh, log_t));
      AOT_ASSIGN_OR_RETURN(Value log_a, un("log", a));
      AOT_ASSIGN_OR_RETURN(Value l1, bin("add", half_log_2pi, term));
      AOT_ASSIGN_OR_RETURN(Value l2, bin("subtract", l1, tt));
      AOT_ASSIGN_OR_RETURN(Value lg, bin("add", l2, log_a));
      AOT_ASSIGN_OR_RETURN(Value abs_sin, un("abs", sin_pi));
      AOT_ASSIGN_OR_RETURN(Value log_sin, un("log", abs_sin));
      AOT_ASSIGN_OR_RETURN(Value log_pi, k(1.14472988584940017414));
      AOT_ASSIGN_OR_RETURN(Value r1, bin("subtract", log_pi, log_sin));
      AOT_ASSIGN_OR_RETURN(Value reflected, bin("subtract", r1, lg));
      AOT_ASSIGN_OR_RETURN(Value v, sel(reflect, reflected, lg));
      AOT_ASSIGN_OR_RETURN(Value inf, k(HUGE_VAL));
      AOT_ASSIGN_OR_RETURN(Value ax, un("abs", x));
      AOT_ASSIGN_OR_RETURN(Value is_inf, cmp("EQ", ax, inf));
      AOT_ASSIGN_OR_RETURN(Value to_inf, Emit(pred, "to_inf", "or", {pole, is_inf}));
      AOT_ASSIGN_OR_RETURN(out, sel(to_inf, inf, v));
    } else {
      AOT_ASSIGN_OR_RETURN(Value g, k(kG));
      AOT_ASSIGN_OR_RETURN(Value g_over_t, bin("divide", g, tt));
      AOT_ASSIGN_OR_RETURN(Value ratio, bin("divide", da, a));
      AOT_ASSIGN_OR_RETURN(Value d1, bin("subtract", log_t, g_over_t));
      AOT_ASSIGN_OR_RETURN(Value dg, bin("add", d1, ratio));
      AOT_ASSIGN_OR_RETURN(Value cos_pi, un("cosine", angle));
      AOT_ASSIGN_OR_RETURN(Value cot, bin("divide", cos_pi, sin_pi));
      AOT_ASSIGN_OR_RETURN(Value pi_cot, bin("multiply", pi, cot));
      AOT_ASSIGN_OR_RETURN(Value reflected, bin("subtract", dg, pi_cot));
      AOT_ASSIGN_OR_RETURN(Value v, sel(reflect, reflected, dg));
      AOT_ASSIGN_OR_RETURN(Value nan, k(NAN));
      AOT_ASSIGN_OR_RETURN(out, sel(pole, nan, v));
    }
  }
  if (!wide) return Emit(result, "downcast", "convert", {out});
  return out;
}

Arith Converter::ArithFor(const MlirType& shape) {
  return Arith(
      shape,
      [this](const MlirType& t, absl::string_view opcode, const std::vector<Value>& in,
             absl::string_view attrs) { return Emit(t, opcode, opcode, in, attrs); },
      [this](const MlirType& t, const std::string& text) -> absl::StatusOr<Value> {
        AOT_ASSIGN_OR_RETURN(Value c, ScalarConstant(t, text, "k"));
        return BroadcastTo(c, t, "k");
      });
}

namespace {

// Cephes' erfc (S. L. Moshier, ndtr.c): for 1 <= |x| < 8,
// exp(-x^2) P(|x|) / Q(|x|); from 8, exp(-x^2) R(|x|) / S(|x|) (Q and S
// with a leading 1); below 1, 1 - erf(x) with erf(x) = x T(x^2) / U(x^2).
constexpr double kErfcP[] = {
    2.46196981473530512524E-10, 5.64189564831068821977E-1, 7.46321056442269912687E0,
    4.86371970985681366614E1,   1.96520832956077098242E2,  5.26445194995477358631E2,
    9.34528527171957607540E2,   1.02755188689515710272E3,  5.57535335369399327526E2};
constexpr double kErfcQ[] = {1.32281951154744992508E1, 8.67072140885989742329E1,
                             3.54937778887819891062E2, 9.75708501743205489753E2,
                             1.82390916687909736289E3, 2.24633760818710981792E3,
                             1.65666309194161350182E3, 5.57535340817727675546E2};
constexpr double kErfcR[] = {5.64189583547755073984E-1, 1.27536670759978104416E0,
                             5.01905042251180477414E0,  6.16021097993053585195E0,
                             7.40974269950448939160E0,  2.97886665372100240670E0};
constexpr double kErfcS[] = {2.26052863220117276590E0, 9.39603524938001434673E0,
                             1.20489539808096656605E1, 1.70814450747565897222E1,
                             9.60896809063285878198E0, 3.36907645100081516050E0};
constexpr double kErfT[] = {9.60497373987051638749E0, 9.00260197203842689217E1,
                            2.23200534594684319226E3, 7.00332514112805075473E3,
                            5.55923013010394962768E4};
constexpr double kErfU[] = {3.35617141647503099647E1, 5.21357949780152679795E2,
                            4.59432382970980127987E3, 2.26290000613890934246E4,
                            4.92673942608635921086E4};
// exp(-x^2) underflows (to 0 in f64) beyond x^2 = log(DBL_MAX).
constexpr double kMaxLog = 7.09782712893383996843E2;

}  // namespace

// The decompositions, in f64 for every input type (c64's parts, f32, f16
// and bf16 are widened, and the result rounded once to the result type):
// - complex asin and acos: Hull, Fairgrieve and Tang, "Implementing the
//   complex arcsine and arccosine functions using exception handling" (ACM
//   TOMS 23(3), 1997), with the regions reduced as in functional_algorithms
//   (asin_acos_kernel), the form StableHLO's CHLO decomposition uses;
//   asinh(z) = -i asin(i z), acosh(z) = (|imag acos z|, +-real acos z)
//   signed like imag(z);
// - complex atanh(x + i y) = log1p(4x / ((1 - x)^2 + y^2)) / 4 +
//   i atan2(2y, (1 - x)(1 + x) - y^2) / 2 (the real part x / |z|^2 where
//   |z| is beyond sqrt(max) / 8), atan(z) = -i atanh(i z);
// - complex sinh and cosh from the real sinh, cosh, sin and cos of the parts;
// - complex atan2(y, x) = -i log((x + i y) / sqrt(x^2 + y^2)), in the
//   operands' type, as StableHLO's reference interpreter computes it;
// - erfc: Cephes' rational approximations (above), 0 beyond underflow and
//   2 - erfc(-x) below 0;
// - next_after(x, y): x's bits as an unsigned integer, one step toward y
//   (down when |x| > |y| or the signs differ), the smallest subnormal signed
//   like y from +-0, y when x == y (bitwise, or both zeros), NaN when either
//   is NaN; as XLA's CHLO legalization does.
absl::StatusOr<Value> Converter::DecomposedFunction(const MlirOperation& op, absl::string_view name,
                                                    const std::vector<Value>& in,
                                                    const MlirType& result) {
  const std::string& e = in[0].type.element;
  Arith a = ArithFor(in[0].type);
  if (name == "next_after") {
    const int width = e == "f64" ? 64 : e == "f32" ? 32 : e == "f16" || e == "bf16" ? 16 : 0;
    if (width == 0 || in[1].type.element != e) {
      return OpError(op, "takes two operands of one of f16, bf16, f32, f64");
    }
    const std::string u = absl::StrCat("ui", width);
    const uint64_t sign_bit = uint64_t{1} << (width - 1);
    Value x = a.Bitcast(in[0], u), y = a.Bitcast(in[1], u);
    Value sign = a.Text(u, absl::StrCat(sign_bit)),
          magnitude = a.Text(u, absl::StrCat(sign_bit - 1));
    Value one = a.Text(u, "1"), zero = a.Text(u, "0");
    Value x_abs = a.And(x, magnitude), y_abs = a.And(y, magnitude);
    Value x_sign = a.And(x, sign), y_sign = a.And(y, sign);
    Value toward_zero = a.Or(a.Cmp("GT", x_abs, y_abs), a.Cmp("NE", x_sign, y_sign));
    Value stepped = a.Sel(toward_zero, a.Sub(x, one), a.Add(x, one));
    Value from_zero = a.Sel(a.Cmp("EQ", y_abs, zero), y, a.Or(y_sign, one));
    Value bits = a.Sel(a.Cmp("EQ", x_abs, zero), from_zero, stepped);
    bits = a.Sel(a.Cmp("EQ", x, y), y, bits);
    Value nan_in = a.Or(a.Cmp("NE", in[0], in[0]), a.Cmp("NE", in[1], in[1]));
    Value v = a.Sel(nan_in, a.K(e, NAN), a.Bitcast(bits, e));
    AOT_RETURN_IF_ERROR(a.status());
    return v;
  }
  const std::string t = "f64";
  auto k = [&](double v) { return a.K(t, v); };
  // Horner's rule from the highest coefficient; `monic` adds a leading 1.
  auto poly = [&](const Value& w, absl::Span<const double> c, bool monic) {
    Value p = monic ? a.Add(w, k(c[0])) : k(c[0]);
    for (size_t i = 1; i < c.size(); ++i) p = a.Add(a.Mul(p, w), k(c[i]));
    return p;
  };
  if (name == "erfc") {
    if (!IsFloatElement(e) || absl::StartsWith(e, "complex")) {
      return OpError(op, "takes a real floating-point operand");
    }
    Value x = a.Convert(in[0], t);
    Value ax = a.Abs(x), xx = a.Mul(x, x);
    Value erf = a.Div(a.Mul(x, poly(xx, kErfT, false)), poly(xx, kErfU, true));
    Value near = a.Sub(k(1), erf);
    Value mid = a.Div(poly(ax, kErfcP, false), poly(ax, kErfcQ, true));
    Value tail = a.Div(poly(ax, kErfcR, false), poly(ax, kErfcS, true));
    Value far = a.Mul(a.Exp(a.Neg(xx)), a.Sel(a.Cmp("LT", ax, k(8)), mid, tail));
    far = a.Sel(a.Cmp("GT", xx, k(kMaxLog)), k(0), far);
    far = a.Sel(a.Cmp("LT", x, k(0)), a.Sub(k(2), far), far);
    Value v = a.Sel(a.Cmp("LT", ax, k(1)), near, far);
    AOT_RETURN_IF_ERROR(a.status());
    if (e == t) return v;
    return Emit(result, "erfc", "convert", {v});
  }
  if (!absl::StartsWith(e, "complex")) return OpError(op, "takes a complex operand");
  const std::string part = Arith::ComplexPart(e);
  Value re, im;
  if (name == "atan2") {
    const Value &y = in[0], &x = in[1];
    Value x_plus_iy = a.Complex(a.Sub(a.Real(x), a.Imag(y)), a.Add(a.Imag(x), a.Real(y)));
    Value norm = a.Sqrt(a.Add(a.Mul(x, x), a.Mul(y, y)));
    Value l = a.Log(a.Div(x_plus_iy, norm));
    re = a.Imag(l);
    im = a.Neg(a.Real(l));
    AOT_RETURN_IF_ERROR(a.status());
    return Emit(result, "atan2", "complex", {re, im});
  }
  auto hypot = [&](const Value& p, const Value& q) {
    Value ap = a.Abs(p), aq = a.Abs(q);
    Value mx = a.Max(ap, aq), mn = a.Min(ap, aq);
    Value ratio = a.Div(mn, mx);
    Value r = a.Mul(ratio, ratio);
    Value sq = a.Sqrt(a.Add(k(1), r));
    // 1 + r rounds to 1: mx (1 + r / 2).
    Value tiny = a.And(a.Cmp("EQ", sq, k(1)), a.Cmp("GT", r, k(0)));
    Value h = a.Sel(tiny, a.Add(mx, a.Mul(a.Mul(mx, r), k(0.5))), a.Mul(mx, sq));
    return a.Sel(a.Cmp("EQ", mx, mn), a.Mul(mx, k(M_SQRT2)), h);
  };
  // {real asin, imag asin, real acos, imag acos} of sx + i sy.
  auto asin_acos = [&](const Value& sx, const Value& sy) -> std::array<Value, 4> {
    const double safe_min = std::sqrt(std::numeric_limits<double>::min()) * 4;
    const double safe_max = std::sqrt(std::numeric_limits<double>::max()) / 8;
    Value x = a.Abs(sx), y = a.Abs(sy);
    Value one = k(1), half = k(0.5);
    Value xp1 = a.Add(x, one), xm1 = a.Sub(x, one);
    Value r = hypot(xp1, y), s = hypot(xm1, y);
    // Hull et al.'s A = (|z + 1| + |z - 1|) / 2.
    Value big_a = a.Mul(half, a.Add(r, s));
    Value ap1 = a.Add(big_a, one);
    Value rpxp1 = a.Add(r, xp1), spxm1 = a.Add(s, xm1), smxm1 = a.Sub(s, xm1);
    Value yy = a.Mul(y, y), half_yy = a.Mul(half, yy);
    Value half_apx = a.Mul(half, a.Add(big_a, x));
    // sqrt(A^2 - x^2), the real part's denominator.
    Value inside = a.Sqrt(a.Mul(half_apx, a.Add(a.Div(yy, rpxp1), smxm1)));
    Value outside = a.Mul(y, a.Sqrt(a.Add(a.Div(half_apx, rpxp1), a.Div(half_apx, spxm1))));
    Value y1 = a.Sel(a.Cmp("GE", a.Max(x, y), k(safe_max)), y,
                     a.Sel(a.Cmp("LE", x, one), inside, outside));
    // A - 1 without cancellation.
    Value tiny_y = a.And(a.Cmp("LT", y, k(safe_min)), a.Cmp("LT", x, one));
    Value am1_ge = a.Add(a.Div(half_yy, rpxp1), a.Mul(half, spxm1));
    Value am1_lt = a.Sel(a.Cmp("LE", big_a, k(1.5)),
                         a.Add(a.Div(half_yy, rpxp1), a.Div(half_yy, smxm1)), a.Sub(big_a, one));
    Value am1 = a.Sel(tiny_y, a.Neg(a.Div(a.Mul(xp1, xm1), ap1)),
                      a.Sel(a.Cmp("GE", x, one), am1_ge, am1_lt));
    // log(A + sqrt(A^2 - 1)); log(2 max) + log1p((min/max)^2) / 2 when large.
    Value limit = a.Sel(a.Cmp("LT", x, k(safe_max * 1e12)), k(safe_max * 1e-6), k(safe_max * 1e2));
    Value y_large = a.Cmp("GE", y, limit);
    Value mx = a.Sel(y_large, y, x);
    Value sq = a.Sqrt(a.Mul(am1, ap1));
    Value xoy = a.Sel(a.And(y_large, a.Cmp("NE", y, k(HUGE_VAL))), a.Div(x, y), k(0));
    Value large = a.Add(a.Add(k(M_LN2), a.Log(mx)), a.Mul(half, a.Log1p(a.Mul(xoy, xoy))));
    Value imag = a.Sel(a.Cmp("GE", mx, a.Sel(y_large, limit, k(safe_max))), large,
                       a.Sel(tiny_y, a.Div(y, sq), a.Log1p(a.Add(am1, sq))));
    Value negative = a.Cmp("LT", sy, k(0));
    return {a.Atan2(sx, y1), a.Sel(negative, a.Neg(imag), imag), a.Atan2(y1, sx),
            a.Sel(negative, imag, a.Neg(imag))};
  };
  auto atanh = [&](const Value& x, const Value& y) -> std::array<Value, 2> {
    Value one = k(1), omx = a.Sub(one, x);
    Value d = a.Add(a.Mul(omx, omx), a.Mul(y, y));
    Value r = a.Mul(k(0.25), a.Log1p(a.Div(a.Mul(k(4), x), d)));
    // Where d overflows: atanh(z) ~ 1/z, whose real part is x / |z|^2.
    Value h = hypot(x, y);
    Value big = a.Cmp("GE", a.Max(a.Abs(x), a.Abs(y)),
                      k(std::sqrt(std::numeric_limits<double>::max()) / 8));
    r = a.Sel(big, a.Div(a.Div(x, h), h), r);
    Value w = a.Sub(a.Mul(omx, a.Add(one, x)), a.Mul(y, y));
    return {r, a.Mul(k(0.5), a.Atan2(a.Mul(k(2), y), w))};
  };
  Value x = a.Convert(a.Real(in[0]), t), y = a.Convert(a.Imag(in[0]), t);
  if (name == "asin" || name == "acos") {
    std::array<Value, 4> w = asin_acos(x, y);
    re = name == "asin" ? w[0] : w[2];
    im = name == "asin" ? w[1] : w[3];
  } else if (name == "asinh") {
    std::array<Value, 4> w = asin_acos(a.Neg(y), x);
    re = w[1];
    im = a.Neg(w[0]);
  } else if (name == "acosh") {
    std::array<Value, 4> w = asin_acos(x, y);
    re = a.Abs(w[3]);
    im = a.Sel(a.Cmp("LT", y, k(0)), a.Neg(w[2]), w[2]);
  } else if (name == "atanh") {
    std::array<Value, 2> w = atanh(x, y);
    re = w[0];
    im = w[1];
  } else if (name == "atan") {
    std::array<Value, 2> w = atanh(a.Neg(y), x);
    re = w[1];
    im = a.Neg(w[0]);
  } else if (name == "sinh" || name == "cosh") {
    Value sh = a.Un("sinh", x), ch = a.Un("cosh", x);
    re = a.Mul(name == "sinh" ? sh : ch, a.Un("cosine", y));
    im = a.Mul(name == "sinh" ? ch : sh, a.Un("sine", y));
  } else {
    return OpError(op, "has no complex decomposition");
  }
  re = a.Convert(re, part);
  im = a.Convert(im, part);
  AOT_RETURN_IF_ERROR(a.status());
  return Emit(result, name, "complex", {re, im});
}

absl::StatusOr<std::vector<Value>> Converter::ConvertChlo(const MlirOperation& op,
                                                          const std::vector<Value>& in,
                                                          absl::string_view name) {
  AOT_RETURN_IF_ERROR(NeedResultType(op));
  const MlirType rt = ResultType(op);
  static const auto* kComplexFunctions =
      new std::set<std::string>{"asin", "acos", "asinh", "acosh", "atan", "atanh", "sinh", "cosh"};
  if (in.size() == 1 && absl::StartsWith(in[0].type.element, "complex") &&
      kComplexFunctions->contains(std::string(name))) {
    return One(DecomposedFunction(op, name, in, rt));
  }
  if (name == "erfc") {
    if (in.size() != 1) return OpError(op, "takes one operand");
    return One(DecomposedFunction(op, name, in, rt));
  }
  if (name == "next_after") {
    if (in.size() != 2) return OpError(op, "takes two operands");
    const MlirAttr* dims = Attr(op, {"broadcast_dimensions"});
    std::vector<Value> args;
    for (const Value& v : in) {
      AOT_ASSIGN_OR_RETURN(Value b, BroadcastForChlo(op, v, rt, dims));
      args.push_back(b);
    }
    return One(DecomposedFunction(op, name, args, rt));
  }
  for (const SimpleOp& s : kChloUnary) {
    if (name != s.mlir) continue;
    if (in.size() != 1) return OpError(op, "takes one operand");
    if (name == "square") {
      AOT_ASSIGN_OR_RETURN(Value v, Emit(rt, "square", "multiply", {in[0], in[0]}));
      return std::vector<Value>{v};
    }
    AOT_ASSIGN_OR_RETURN(Value v, Emit(rt, s.hlo, s.hlo, in));
    return std::vector<Value>{v};
  }
  for (const SimpleOp& s : kChloBroadcast) {
    if (name != s.mlir) continue;
    if (static_cast<int>(in.size()) != s.arity) {
      return OpError(op, absl::StrCat("takes ", s.arity, " operands"));
    }
    const MlirAttr* dims = Attr(op, {"broadcast_dimensions"});
    std::vector<Value> args;
    for (const Value& v : in) {
      AOT_ASSIGN_OR_RETURN(Value b, BroadcastForChlo(op, v, rt, dims));
      args.push_back(b);
    }
    std::string attrs;
    if (name == "broadcast_compare") {
      const MlirAttr* d = Attr(op, {"comparison_direction"});
      if (d == nullptr) return OpError(op, "missing comparison_direction");
      attrs = absl::StrCat("direction=", d->s);
      if (const MlirAttr* t = Attr(op, {"compare_type"}); t != nullptr && t->s != "NOTYPE") {
        absl::StrAppend(&attrs, ", type=", t->s);
      }
    }
    AOT_ASSIGN_OR_RETURN(Value v, Emit(rt, s.hlo, s.hlo, args, attrs));
    return std::vector<Value>{v};
  }
  if (name == "erf_inv" || name == "lgamma" || name == "digamma" || name == "bessel_i1e") {
    if (in.size() != 1) return OpError(op, "takes one operand");
    AOT_ASSIGN_OR_RETURN(Value v, SpecialFunction(op, name, in[0], rt));
    return std::vector<Value>{v};
  }
  if (name == "is_inf" || name == "is_pos_inf" || name == "is_neg_inf") {
    if (in.size() != 1) return OpError(op, "takes one operand");
    Value x = in[0];
    if (name == "is_inf") {
      AOT_ASSIGN_OR_RETURN(x, Emit(in[0].type, "abs", "abs", {in[0]}));
    }
    AOT_ASSIGN_OR_RETURN(Value inf,
                         ScalarConstant(in[0].type, name == "is_neg_inf" ? "-inf" : "inf", "inf"));
    AOT_ASSIGN_OR_RETURN(Value infs, BroadcastTo(inf, in[0].type, "infs"));
    AOT_ASSIGN_OR_RETURN(Value v, Emit(rt, name, "compare", {x, infs}, "direction=EQ"));
    return std::vector<Value>{v};
  }
  if (name == "top_k") {
    if (in.size() != 1) return OpError(op, "takes one operand");
    AOT_ASSIGN_OR_RETURN(int64_t k, IntAttr(op, {"k"}, "k", std::nullopt));
    std::vector<MlirType> types = ResultTypes(op);
    if (types.size() != 2) return OpError(op, "has two results (values, indices)");
    const std::string attrs = absl::StrCat("k=", k, ", largest=true");
    if (in[0].type.element == "i1") {
      // pred as ui8 (false < true; HLO's topk takes numbers), the values
      // back as i1.
      AOT_ASSIGN_OR_RETURN(Value bytes,
                           Emit(WithElement(in[0].type, "ui8"), "top_k_in", "convert", {in[0]}));
      AOT_ASSIGN_OR_RETURN(
          std::vector<Value> out,
          EmitResults({WithElement(types[0], "ui8"), types[1]}, "top_k", "topk", {bytes}, attrs));
      AOT_ASSIGN_OR_RETURN(out[0], Emit(types[0], "top_k_values", "convert", {out[0]}));
      return out;
    }
    return EmitResults(types, "top_k", "topk", in, attrs);
  }
  if (name == "constant_like") {
    const MlirAttr* value = Attr(op, {"value"});
    if (in.size() != 1 || value == nullptr)
      return OpError(op, "expects {value = ...} and an operand");
    std::string text = value->kind == MlirAttr::kBool ? (value->b ? "true" : "false") : value->s;
    AOT_ASSIGN_OR_RETURN(Value s, ScalarConstant(rt, text, "constant_like"));
    AOT_ASSIGN_OR_RETURN(Value v, BroadcastTo(s, rt, "constant_like"));
    return std::vector<Value>{v};
  }
  if (name == "constant") {
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kDense) {
        AOT_ASSIGN_OR_RETURN(Value v, Constant(op, p, rt));
        return std::vector<Value>{v};
      }
    }
    const MlirAttr* value = Attr(op, {"value"});
    if (value == nullptr) return OpError(op, "expects a dense<...> value");
    AOT_ASSIGN_OR_RETURN(Value v, Constant(op, *value, rt));
    return std::vector<Value>{v};
  }
  return OpError(op, "unsupported chlo operation");
}

}  // namespace convert_internal
}  // namespace aot::stablehlo
