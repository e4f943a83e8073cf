// rng-bit-generator of the HLO evaluator: the words of the counter-based
// generators (support/counter_rng.h) laid out as RngBitGeneratorWords
// describes; ExpandRngBitGenerator builds the same stream from HLO ops.
// And stochastic-convert, which rounds with random bits it is given.

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/counter_rng.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {

std::vector<uint32_t> RngBitGeneratorWords(RngAlgorithm algorithm,
                                           const std::vector<uint64_t>& state, int64_t words,
                                           std::vector<uint64_t>* next_state) {
  const int64_t lanes = algorithm == RngAlgorithm::kPhilox ? 4 : 2;
  const int64_t blocks = (words + lanes - 1) / lanes;
  const std::array<uint32_t, 2> key = {static_cast<uint32_t>(state[0]),
                                       static_cast<uint32_t>(state[0] >> 32)};
  const uint64_t high = state.size() > 2 ? state[2] : 0;
  std::vector<uint32_t> out;
  out.reserve(static_cast<size_t>(blocks * lanes));
  for (int64_t b = 0; b < blocks; ++b) {
    const uint64_t counter = state[1] + static_cast<uint64_t>(b);
    const uint32_t c0 = static_cast<uint32_t>(counter), c1 = static_cast<uint32_t>(counter >> 32);
    if (algorithm == RngAlgorithm::kPhilox) {
      for (uint32_t w : Philox4x32(
               {c0, c1, static_cast<uint32_t>(high), static_cast<uint32_t>(high >> 32)}, key)) {
        out.push_back(w);
      }
    } else {
      for (uint32_t w : Threefry2x32({c0, c1}, key)) out.push_back(w);
    }
  }
  out.resize(static_cast<size_t>(words));
  *next_state = state;
  (*next_state)[1] = state[1] + static_cast<uint64_t>(blocks);
  return out;
}

absl::StatusOr<Literal> EvalRngBitGenerator(const HloInstruction& instr, const Literal& state) {
  AOT_ASSIGN_OR_RETURN(RngAlgorithm algorithm, ReadRngAlgorithm(instr));
  const Shape& bits_shape = instr.shape().tuple_shapes(1);
  std::vector<uint64_t> words_of_state;
  for (int64_t i = 0; i < state.element_count(); ++i) {
    words_of_state.push_back(state.GetAsUint64(i));
  }
  const int64_t width = ByteWidth(bits_shape.element_type());
  const int64_t per_value = width == 8 ? 2 : 1;
  const int64_t n = bits_shape.ElementCount();
  std::vector<uint64_t> next;
  const std::vector<uint32_t> words =
      RngBitGeneratorWords(algorithm, words_of_state, n * per_value, &next);
  Literal bits(Shape(bits_shape.element_type(), bits_shape.dimensions()));
  for (int64_t i = 0; i < n; ++i) {
    uint64_t v = words[static_cast<size_t>(i * per_value)];
    if (per_value == 2) v |= uint64_t{words[static_cast<size_t>(i * per_value + 1)]} << 32;
    std::memcpy(bits.raw_data() + i * width, &v, static_cast<size_t>(width));  // little-endian
  }
  Literal next_state(Shape(U64, state.shape().dimensions()));
  for (size_t i = 0; i < next.size(); ++i)
    next_state.SetFromUint64(static_cast<int64_t>(i), next[i]);
  std::vector<Literal> elements;
  elements.push_back(std::move(next_state));
  elements.push_back(std::move(bits));
  return Literal::Tuple(std::move(elements));
}

RngState RngCounterPlus(RngState counter, uint64_t delta) {
  const uint64_t low = counter[0] + delta;
  if (low < counter[0]) ++counter[1];
  counter[0] = low;
  return counter;
}

RngState TakeRngState(RngState* state, uint64_t delta) {
  const RngState taken = *state;
  *state = RngCounterPlus(taken, delta);
  return taken;
}

namespace {

// U(x): x's high mantissa-width bits under the exponent of 1.0, minus one.
float UniformOf(uint32_t x) {
  const uint32_t bits = (x >> 9) | 0x3F800000u;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f - 1.0f;
}
double UniformOf(uint64_t x) {
  const uint64_t bits = (x >> 12) | 0x3FF0000000000000ull;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d - 1.0;
}

// One rng value of compute type C (float or double) from draws x1 (and x2
// for the normal distribution), as EvalRng's comment defines it. Every
// step is one IEEE operation of C, as the expansion's instructions are.
template <typename C, typename X>
C RngFloat(RngDistribution distribution, X x1, X x2, C a, C b) {
  if (distribution == RngDistribution::kUniform) {
    const C u = UniformOf(x1);
    const C width = b - a;
    const C scaled = u * width;
    return scaled + a;
  }
  const C one_minus = C(1) - UniformOf(x1);
  const C log = std::log(one_minus);
  const C minus_two_log = C(-2) * log;
  const C radius = std::sqrt(minus_two_log);
  const C angle = static_cast<C>(2 * M_PI) * UniformOf(x2);
  const C cosine = std::cos(angle);
  const C z = radius * cosine;
  const C scaled = z * b;
  return scaled + a;
}

}  // namespace

absl::StatusOr<Literal> EvalRngGetAndUpdateState(const HloInstruction& instr, RngState* state) {
  AOT_ASSIGN_OR_RETURN(int64_t delta, ReadRngDelta(instr));
  const RngState taken = TakeRngState(state, static_cast<uint64_t>(delta));
  Literal out(Shape(U64, {2}));
  out.SetFromUint64(0, taken[0]);
  out.SetFromUint64(1, taken[1]);
  return out;
}

absl::StatusOr<Literal> EvalRng(const HloInstruction& instr, const Literal& a, const Literal& b,
                                RngState counter) {
  AOT_ASSIGN_OR_RETURN(RngDistribution distribution, ReadRngDistribution(instr));
  const Shape& shape = instr.shape();
  const PrimitiveType type = shape.element_type();
  const int64_t n = shape.ElementCount();
  const int64_t draws = RngDraws(distribution, shape);
  const int64_t per_draw = ByteWidth(RngBitsType(type)) == 8 ? 2 : 1;
  std::vector<uint64_t> next;
  const std::vector<uint32_t> words = RngBitGeneratorWords(
      RngAlgorithm::kPhilox, {kRngPhiloxKey, counter[0], counter[1]}, draws * per_draw, &next);
  auto draw = [&](int64_t i) -> uint64_t {
    uint64_t v = words[static_cast<size_t>(i * per_draw)];
    if (per_draw == 2) v |= uint64_t{words[static_cast<size_t>(i * per_draw + 1)]} << 32;
    return v;
  };
  const int64_t second = distribution == RngDistribution::kNormal ? n : 0;
  Literal out(Shape(type, shape.dimensions()));
  if (type == F64) {
    const double lo = a.GetAsDouble(0), hi = b.GetAsDouble(0);
    for (int64_t i = 0; i < n; ++i) {
      out.SetFromDouble(i, RngFloat<double>(distribution, draw(i), draw(i + second), lo, hi));
    }
  } else if (IsFloatingPoint(type)) {
    // f16 and bf16 are exact in f32, so a and b convert exactly.
    const float lo = static_cast<float>(a.GetAsDouble(0));
    const float hi = static_cast<float>(b.GetAsDouble(0));
    for (int64_t i = 0; i < n; ++i) {
      const float v = RngFloat<float>(distribution, static_cast<uint32_t>(draw(i)),
                                      static_cast<uint32_t>(draw(i + second)), lo, hi);
      out.SetFromDouble(i, v);  // f32 -> f64 is exact: one rounding to the type
    }
  } else {
    const int64_t width = ByteWidth(type);
    const uint64_t mask = width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
    uint64_t lo = 0, hi = 0;
    std::memcpy(&lo, a.raw().data(), static_cast<size_t>(width));  // little-endian
    std::memcpy(&hi, b.raw().data(), static_cast<size_t>(width));
    const uint64_t range = (hi - lo) & mask;
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t x = draw(i) & mask;
      const uint64_t v = (lo + (range == 0 ? 0 : x % range)) & mask;
      std::memcpy(out.raw_data() + i * width, &v, static_cast<size_t>(width));
    }
  }
  return out;
}

namespace {

// `value` as the nearest value of `type` (a float type), as a constant of
// that type holds it.
double RoundTo(PrimitiveType type, double value) {
  Literal scalar(Shape::Scalar(type));
  scalar.SetFromDouble(0, value);
  return scalar.GetAsDouble(0);
}

// convert's float -> unsigned integer of `bits` bits: truncation, NaN 0,
// saturating.
uint64_t ToUnsigned(double v, int bits) {
  if (std::isnan(v) || v <= 0) return 0;
  const double limit = std::ldexp(1.0, bits);
  if (v >= limit) return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return static_cast<uint64_t>(v);
}

}  // namespace

absl::StatusOr<Literal> EvalStochasticConvert(const HloInstruction& instr, const Literal& x,
                                              const Literal& random) {
  const PrimitiveType type = x.shape().element_type();
  const PrimitiveType out_type = instr.shape().element_type();
  const int random_bits = static_cast<int>(8 * ByteWidth(random.shape().element_type()));
  const int out_bits = static_cast<int>(8 * ByteWidth(out_type));
  const double lowest = -std::ldexp(1.0, out_bits - 1);
  const double highest = std::ldexp(1.0, out_bits - 1) - 1;
  const int64_t lowest_int = std::numeric_limits<int64_t>::min() >> (64 - out_bits);
  const int64_t highest_int = std::numeric_limits<int64_t>::max() >> (64 - out_bits);
  // The bounds as the operand's type holds them (2^31 - 1 is 2^31 in f32).
  const double at_or_below = RoundTo(type, lowest), at_or_above = RoundTo(type, highest);
  Literal out(Shape(out_type, x.shape().dimensions()));
  for (int64_t i = 0; i < x.element_count(); ++i) {
    const double v = x.GetAsDouble(i);
    // |v| = whole + fraction, both exact; the fraction scaled to the random
    // operand's range and truncated, compared with the random bits.
    const double a = std::fabs(v);
    const double whole = std::floor(a);
    const double scaled = std::ldexp(a - whole, random_bits);
    const bool up = random.GetAsUint64(i) < ToUnsigned(scaled, random_bits);
    // The whole part converted as convert does (saturating, NaN 0), plus
    // one when rounding up, wrapping in the result's width.
    int64_t r = std::isnan(whole)  ? 0
                : whole >= highest ? highest_int
                                   : static_cast<int64_t>(whole);
    if (up) r = r == highest_int ? lowest_int : r + 1;
    if (v < 0) r = r == lowest_int ? lowest_int : -r;
    if (v <= at_or_below) r = lowest_int;
    if (v >= at_or_above) r = highest_int;
    out.SetFromInt64(i, r);
  }
  return out;
}

}  // namespace interpreter_internal
}  // namespace aot
