// CHLO ops decomposed into HLO: broadcasting binary ops and the special
// functions.
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

absl::StatusOr<std::vector<Value>> Converter::ConvertChlo(const MlirOperation& op,
                                                          const std::vector<Value>& in,
                                                          absl::string_view name) {
  AOT_RETURN_IF_ERROR(NeedResultType(op));
  const MlirType rt = ResultType(op);
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
    return EmitResults(types, "top_k", "topk", in, absl::StrCat("k=", k, ", largest=true"));
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
