#include "compiler/tooling/stablehlo_checks.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "support/float16.h"
#include "support/minifloat.h"

namespace aot {
namespace {

using stablehlo::CheckSpec;

std::string IndexText(const Shape& shape, int64_t linear) {
  std::vector<int64_t> index(shape.dimensions().size());
  for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
    const int64_t size = shape.dimensions()[d];
    index[d] = size > 0 ? linear % size : 0;
    linear = size > 0 ? linear / size : 0;
  }
  return absl::StrCat("[", absl::StrJoin(index, ","), "]");
}

std::string ValueText(const Literal& l, int64_t i) {
  const PrimitiveType t = l.shape().element_type();
  if (IsComplex(t)) {
    std::complex<double> c = l.GetAsComplex(i);
    return absl::StrCat("(", FormatFloat(c.real(), ComplexComponentType(t)), ", ",
                        FormatFloat(c.imag(), ComplexComponentType(t)), ")");
  }
  if (IsFloatingPoint(t)) return FormatFloat(l.GetAsDouble(i), t);
  if (t == PRED) return l.GetAsInt64(i) ? "true" : "false";
  if (IsUnsignedInteger(t)) return absl::StrCat(l.GetAsUint64(i));
  return absl::StrCat(l.GetAsInt64(i));
}

// The distance in units in the last place between two floats of type `t`:
// how many values of that type lie between them, through the type's own
// sign-magnitude encoding made ordered (f64 and f32 by their bits, f16 and
// bf16 by their 16-bit codes, the f8/f4 types by their minifloat codes), so
// that StableHLO's `max_ulp_difference` means what its interpreter means.
int64_t UlpDistance(double a, double b, PrimitiveType t) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
  auto from_sign_magnitude = [](uint64_t bits, int sign_bit) -> int64_t {
    const uint64_t magnitude = bits & ((uint64_t{1} << sign_bit) - 1);
    const bool negative = (bits >> sign_bit) & 1;
    return negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  };
  auto ordered = [&](double v) -> int64_t {
    if (t == F16) return from_sign_magnitude(FloatToHalfBits(static_cast<float>(v)), 15);
    if (t == BF16) return from_sign_magnitude(FloatToBf16Bits(static_cast<float>(v)), 15);
    if (const MinifloatFormat* format = NarrowFloatFormat(t)) {
      const uint8_t code = DoubleToMinifloat(v, *format);
      if (format->specials == MinifloatFormat::Specials::kExponentOnly) return code;
      return from_sign_magnitude(code, format->exponent_bits + format->mantissa_bits);
    }
    return from_sign_magnitude(FloatBits(static_cast<float>(v)), 31);
  };
  if (t == F64) {
    // Two 63-bit magnitudes of opposite signs: count in 128 bits.
    uint64_t x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    auto key = [](uint64_t bits) -> __int128 {
      const __int128 magnitude = bits & ~(uint64_t{1} << 63);
      return (bits >> 63) ? -magnitude : magnitude;
    };
    const __int128 d = key(x) - key(y);
    const __int128 m = d < 0 ? -d : d;
    return m > INT64_MAX ? INT64_MAX : static_cast<int64_t>(m);
  }
  const int64_t x = ordered(a), y = ordered(b);
  return x > y ? x - y : y - x;
}

bool ElementPasses(const CheckSpec& check, const Literal& actual, const Literal& expected,
                   int64_t i) {
  const PrimitiveType t = actual.shape().element_type();
  if (!IsFloatingPoint(t) && !IsComplex(t)) {
    return IsUnsignedInteger(t) ? actual.GetAsUint64(i) == expected.GetAsUint64(i)
                                : actual.GetAsInt64(i) == expected.GetAsInt64(i);
  }
  auto components = [&](const Literal& l) -> std::vector<double> {
    if (IsComplex(t)) {
      std::complex<double> c = l.GetAsComplex(i);
      return {c.real(), c.imag()};
    }
    return {l.GetAsDouble(i)};
  };
  const std::vector<double> a = components(actual), e = components(expected);
  const PrimitiveType component = IsComplex(t) ? ComplexComponentType(t) : t;
  for (size_t k = 0; k < a.size(); ++k) {
    const bool both_nan = std::isnan(a[k]) && std::isnan(e[k]);
    switch (check.kind) {
      case CheckSpec::kEq:
        if (!(a[k] == e[k] || both_nan)) return false;
        break;
      case CheckSpec::kAlmostEq:
        if (both_nan || a[k] == e[k]) break;
        if (!(std::fabs(a[k] - e[k]) <= check.tolerance * std::max(1.0, std::fabs(e[k])))) {
          return false;
        }
        break;
      case CheckSpec::kClose: {
        const int64_t ulps = UlpDistance(a[k], e[k], component);
        if (ulps < check.min_ulp || ulps > check.max_ulp) return false;
        break;
      }
    }
  }
  return true;
}

}  // namespace

std::vector<CheckOutcome> EvaluateStableHloChecks(const std::vector<CheckSpec>& checks,
                                                  const Literal& result) {
  std::vector<CheckOutcome> out;
  for (const CheckSpec& check : checks) {
    CheckOutcome o;
    const std::string head = absl::StrCat(check.where, " ", check.op);
    const auto& elements = result.tuple_elements();
    if (!result.shape().IsTuple() || check.expected_output >= static_cast<int>(elements.size())) {
      o.message = absl::StrCat(head, ": FAILED: the result has no value for this check");
      out.push_back(o);
      continue;
    }
    const Literal& actual = elements[check.actual_output];
    const Literal& expected = elements[check.expected_output];
    if (actual.shape().dimensions() != expected.shape().dimensions() ||
        actual.shape().element_type() != expected.shape().element_type()) {
      o.message = absl::StrCat(head, ": FAILED: ", actual.shape().ToString(false),
                               " compared with ", expected.shape().ToString(false));
      out.push_back(o);
      continue;
    }
    int64_t failures = 0, first = -1;
    for (int64_t i = 0; i < actual.element_count(); ++i) {
      if (!ElementPasses(check, actual, expected, i)) {
        if (first < 0) first = i;
        ++failures;
      }
    }
    if (failures == 0) {
      o.passed = true;
      o.message = absl::StrCat(head, ": ok (", actual.element_count(), " element(s))");
    } else {
      std::string how;
      if (check.kind == CheckSpec::kAlmostEq)
        how = absl::StrCat(" (tolerance ", check.tolerance, ")");
      if (check.kind == CheckSpec::kClose) {
        how = absl::StrCat(" (ulps ", check.min_ulp, "..", check.max_ulp, ")");
      }
      o.message =
          absl::StrCat(head, ": FAILED: ", failures, " of ", actual.element_count(),
                       " element(s) differ", how, "; first at ", IndexText(actual.shape(), first),
                       ": ", ValueText(actual, first), " expected ", ValueText(expected, first));
    }
    out.push_back(o);
  }
  return out;
}

Literal StableHloFunctionResults(const stablehlo::ConvertedProgram& program,
                                 const Literal& result) {
  if (!program.tuple_root || !result.shape().IsTuple()) return result;
  std::vector<Literal> own;
  for (int i = 0; i < program.num_results && i < static_cast<int>(result.tuple_elements().size());
       ++i) {
    own.push_back(result.tuple_elements()[i]);
  }
  if (own.size() == 1) return own[0];
  return Literal::Tuple(std::move(own));
}

}  // namespace aot
