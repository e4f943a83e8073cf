#ifndef AOT_COMPILER_STABLEHLO_STABLEHLO_ARITH_H_
#define AOT_COMPILER_STABLEHLO_STABLEHLO_ARITH_H_

// Elementwise HLO arithmetic on values of one shape, for the converter's
// decompositions (complex functions, erfc, next_after, pred arithmetic):
// each call emits one instruction through the converter; the first error is
// kept (status()) and every later call emits nothing, so a decomposition
// reads as a formula and checks the status once at its end.

#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"

namespace aot::stablehlo {
namespace convert_internal {

class Arith {
 public:
  // emit(type, opcode, operands, attrs): one instruction of `type`.
  using EmitFn = std::function<absl::StatusOr<Value>(const MlirType&, absl::string_view,
                                                     const std::vector<Value>&, absl::string_view)>;
  // constant(type, text): `text` as a value of `type` (broadcast).
  using ConstantFn = std::function<absl::StatusOr<Value>(const MlirType&, const std::string&)>;

  Arith(const MlirType& shape, EmitFn emit, ConstantFn constant)
      : shape_(shape), emit_(std::move(emit)), constant_(std::move(constant)) {}

  const absl::Status& status() const { return status_; }
  MlirType Of(const std::string& element) const { return WithElement(shape_, element); }

  // One instruction of element type `element` (the shape's dimensions).
  Value Op(const std::string& element, absl::string_view opcode, const std::vector<Value>& in,
           absl::string_view attrs = "") {
    return Keep(status_.ok() ? emit_(Of(element), opcode, in, attrs)
                             : absl::StatusOr<Value>(status_));
  }
  // `text` (an HLO literal: "1", "nan", "(0, 1)") as a value of `element`.
  Value Text(const std::string& element, const std::string& text) {
    return Keep(status_.ok() ? constant_(Of(element), text) : absl::StatusOr<Value>(status_));
  }
  Value K(const std::string& element, double v) {
    return Text(element, std::isnan(v)   ? "nan"
                         : std::isinf(v) ? (v < 0 ? "-inf" : "inf")
                                         : absl::StrFormat("%.17g", v));
  }

  // Arithmetic in the operands' element type.
  Value Bin(absl::string_view opcode, const Value& a, const Value& b) {
    return Op(a.type.element, opcode, {a, b});
  }
  Value Un(absl::string_view opcode, const Value& a) { return Op(a.type.element, opcode, {a}); }
  Value Add(const Value& a, const Value& b) { return Bin("add", a, b); }
  Value Sub(const Value& a, const Value& b) { return Bin("subtract", a, b); }
  Value Mul(const Value& a, const Value& b) { return Bin("multiply", a, b); }
  Value Div(const Value& a, const Value& b) { return Bin("divide", a, b); }
  Value Max(const Value& a, const Value& b) { return Bin("maximum", a, b); }
  Value Min(const Value& a, const Value& b) { return Bin("minimum", a, b); }
  Value Neg(const Value& a) { return Un("negate", a); }
  Value Abs(const Value& a) { return Un("abs", a); }
  Value Sqrt(const Value& a) { return Un("sqrt", a); }
  Value Log(const Value& a) { return Un("log", a); }
  Value Log1p(const Value& a) { return Un("log-plus-one", a); }
  Value Exp(const Value& a) { return Un("exponential", a); }
  Value Atan2(const Value& y, const Value& x) { return Bin("atan2", y, x); }
  // A pred of the shape.
  Value Cmp(absl::string_view direction, const Value& a, const Value& b) {
    return Op("i1", "compare", {a, b}, absl::StrCat("direction=", direction));
  }
  Value And(const Value& a, const Value& b) { return Bin("and", a, b); }
  Value Or(const Value& a, const Value& b) { return Bin("or", a, b); }
  Value Not(const Value& a) { return Un("not", a); }
  Value Sel(const Value& p, const Value& a, const Value& b) {
    return Op(a.type.element, "select", {p, a, b});
  }
  Value Convert(const Value& a, const std::string& element) {
    return a.type.element == element ? a : Op(element, "convert", {a});
  }
  Value Bitcast(const Value& a, const std::string& element) {
    return a.type.element == element ? a : Op(element, "bitcast-convert", {a});
  }
  // Complex parts (`part` is the component type: f32 or f64).
  Value Real(const Value& z) { return Op(ComplexPart(z.type.element), "real", {z}); }
  Value Imag(const Value& z) { return Op(ComplexPart(z.type.element), "imag", {z}); }
  Value Complex(const Value& re, const Value& im) {
    return Op(absl::StrCat("complex<", re.type.element, ">"), "complex", {re, im});
  }

  // "f32" for "complex<f32>".
  static std::string ComplexPart(const std::string& e) {
    if (!absl::StartsWith(e, "complex<") || e.size() < 10) return e;
    return e.substr(8, e.size() - 9);
  }

 private:
  Value Keep(absl::StatusOr<Value> v) {
    if (!v.ok()) {
      if (status_.ok()) status_ = v.status();
      return Value();
    }
    return *std::move(v);
  }

  MlirType shape_;
  EmitFn emit_;
  ConstantFn constant_;
  absl::Status status_;
};

}  // namespace convert_internal
}  // namespace aot::stablehlo

#endif  // AOT_COMPILER_STABLEHLO_STABLEHLO_ARITH_H_
