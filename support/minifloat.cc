#include "support/minifloat.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace aot {

namespace {

using Specials = MinifloatFormat::Specials;

bool IsSigned(const MinifloatFormat& f) { return f.specials != Specials::kExponentOnly; }
int SignShift(const MinifloatFormat& f) { return f.exponent_bits + f.mantissa_bits; }
int CodeCount(const MinifloatFormat& f) { return 1 << (SignShift(f) + (IsSigned(f) ? 1 : 0)); }

uint8_t NanCode(const MinifloatFormat& f) {
  const int magnitude_bits = SignShift(f);
  switch (f.specials) {
    case Specials::kIeee:
    case Specials::kFinite:
    case Specials::kExponentOnly:
      return static_cast<uint8_t>((1 << magnitude_bits) - 1);  // all ones, sign clear
    case Specials::kUnsignedZero:
      return static_cast<uint8_t>(1 << magnitude_bits);  // the code of -0
    case Specials::kFiniteNoNan:
      return 0;
  }
  return 0;
}

// Magnitude codes (sign clear) that are finite, with their values, in
// increasing order (the codes of these formats increase with the value).
std::vector<std::pair<double, uint8_t>> FiniteMagnitudes(const MinifloatFormat& f) {
  std::vector<std::pair<double, uint8_t>> out;
  const int magnitude_codes = 1 << SignShift(f);
  for (int code = 0; code < magnitude_codes; ++code) {
    const double v = MinifloatToDouble(static_cast<uint8_t>(code), f);
    if (std::isfinite(v)) out.push_back({v, static_cast<uint8_t>(code)});
  }
  return out;
}

using MagnitudeTable = std::vector<std::pair<double, uint8_t>>;

// The tables of the formats of minifloat.h, built once (a conversion looks
// its table up instead of decoding up to 128 codes per element); any other
// format gets its table built into `scratch`.
const MagnitudeTable& TableOf(const MinifloatFormat& f, MagnitudeTable& scratch) {
  struct Known {
    MinifloatFormat format;
    MagnitudeTable table;
  };
  static const auto* known = [] {
    auto* k = new std::vector<Known>;
    for (const MinifloatFormat& format : {kF8E5M2, kF8E4M3, kF8E3M4, kF8E4M3FN, kF8E4M3FNUZ,
                                          kF8E5M2FNUZ, kF8E4M3B11FNUZ, kF8E8M0FNU, kF4E2M1FN}) {
      k->push_back({format, FiniteMagnitudes(format)});
    }
    return k;
  }();
  for (const Known& k : *known) {
    if (k.format.exponent_bits == f.exponent_bits && k.format.mantissa_bits == f.mantissa_bits &&
        k.format.bias == f.bias && k.format.specials == f.specials) {
      return k.table;
    }
  }
  scratch = FiniteMagnitudes(f);
  return scratch;
}

}  // namespace

double MinifloatToDouble(uint8_t bits, const MinifloatFormat& f) {
  const int magnitude_bits = SignShift(f);
  const unsigned code = bits & (CodeCount(f) - 1);
  const unsigned exponent_max = (1u << f.exponent_bits) - 1;
  const unsigned mantissa_max = (1u << f.mantissa_bits) - 1;
  if (f.specials == Specials::kExponentOnly) {
    if (code == exponent_max) return std::numeric_limits<double>::quiet_NaN();
    return std::ldexp(1.0, static_cast<int>(code) - f.bias);
  }
  const bool negative = (code >> magnitude_bits) & 1;
  const unsigned e = (code >> f.mantissa_bits) & exponent_max;
  const unsigned m = code & mantissa_max;
  if (f.specials == Specials::kUnsignedZero && code == (1u << magnitude_bits)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (f.specials == Specials::kIeee && e == exponent_max) {
    if (m != 0) return std::numeric_limits<double>::quiet_NaN();
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  if (f.specials == Specials::kFinite && e == exponent_max && m == mantissa_max) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const double magnitude =
      e == 0 ? std::ldexp(static_cast<double>(m), 1 - f.bias - f.mantissa_bits)
             : std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -f.mantissa_bits),
                          static_cast<int>(e) - f.bias);
  return negative ? -magnitude : magnitude;
}

uint8_t DoubleToMinifloat(double value, const MinifloatFormat& f) {
  if (std::isnan(value)) return NanCode(f);
  const bool negative = std::signbit(value);
  if (!IsSigned(f) && negative && value != 0) return NanCode(f);
  const double a = std::fabs(value);
  MagnitudeTable scratch;
  const MagnitudeTable& table = TableOf(f, scratch);
  uint8_t code;
  const auto& [max_value, max_code] = table.back();
  if (a >= max_value) {
    // The spacing of the top binade (for e8m0fnu, without mantissa bits,
    // the next step is twice the largest value); halfway to the next step
    // rounds to the even of (max, beyond).
    const double ulp = std::ldexp(1.0, std::ilogb(max_value) - f.mantissa_bits);
    const double halfway = max_value + ulp / 2;
    const bool overflow = a > halfway || (a == halfway && (max_code & 1) != 0);
    if (!overflow) {
      code = max_code;
    } else if (f.specials == Specials::kIeee) {
      code = static_cast<uint8_t>(((1 << f.exponent_bits) - 1) << f.mantissa_bits);  // inf
    } else if (f.specials == Specials::kFiniteNoNan) {
      code = max_code;  // saturates: no infinity, no NaN
    } else {
      return NanCode(f);
    }
  } else {
    // The first entry above `a`, and the one below it.
    auto above = std::upper_bound(table.begin(), table.end(), a,
                                  [](double x, const auto& entry) { return x < entry.first; });
    if (above == table.begin()) {
      code = above->second;  // below the smallest (e8m0fnu has no zero)
    } else {
      auto below = std::prev(above);
      const double down = a - below->first;
      const double up = above->first - a;
      if (down < up || (down == up && (below->second & 1) == 0)) {
        code = below->second;
      } else {
        code = above->second;
      }
    }
  }
  if (!negative || !IsSigned(f)) return code;
  if (code == 0 && f.specials == Specials::kUnsignedZero) return 0;  // no -0
  return static_cast<uint8_t>(code | (1 << SignShift(f)));
}

}  // namespace aot
