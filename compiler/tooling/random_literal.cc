#include "compiler/tooling/random_literal.h"

#include <cmath>
#include <complex>

namespace aot {

namespace {

// Uniform on [-1, 1) in steps of 2^-(bits-1).
double UniformSigned(SplitMix64& rng, int bits) {
  const uint64_t k = rng.Next() >> (64 - bits);
  const double half = static_cast<double>(uint64_t{1} << (bits - 1));
  return (static_cast<double>(k) - half) / half;
}

void Fill(Literal& literal, SplitMix64& rng) {
  if (literal.shape().IsTuple()) {
    for (Literal& element : *literal.mutable_tuple_elements()) Fill(element, rng);
    return;
  }
  if (!literal.shape().IsArray()) return;
  const PrimitiveType type = literal.shape().element_type();
  const int64_t n = literal.element_count();
  for (int64_t i = 0; i < n; ++i) {
    switch (type) {
      case F64:
        literal.SetFromDouble(i, UniformSigned(rng, 53));
        break;
      case F32:
        literal.SetFromDouble(i, UniformSigned(rng, 24));
        break;
      case F16:
        literal.SetFromDouble(i, UniformSigned(rng, 11));
        break;
      case BF16:
        literal.SetFromDouble(i, UniformSigned(rng, 8));
        break;
      case PRED:
        literal.SetFromInt64(i, static_cast<int64_t>(rng.Next() >> 63));
        break;
      case C64:
      case C128: {
        const int bits = type == C64 ? 24 : 53;
        const double re = UniformSigned(rng, bits);
        literal.SetFromComplex(i, std::complex<double>(re, UniformSigned(rng, bits)));
        break;
      }
      default:
        if (IsNarrowFloat(type)) {
          // Multiples of 1/8 in [-1, 1): exact in every 8-bit float; f4e2m1fn
          // and the unsigned f8e8m0fnu round them.
          const double v = UniformSigned(rng, 4);
          literal.SetFromDouble(i, type == F8E8M0FNU ? std::fabs(v) : v);
        } else if (IsSignedInteger(type)) {
          literal.SetFromInt64(i, static_cast<int64_t>(rng.Next() >> 60) - 8);
        } else {
          literal.SetFromInt64(i, static_cast<int64_t>(rng.Next() >> 60));
        }
        break;
    }
  }
}

}  // namespace

Literal RandomLiteral(const Shape& shape, uint64_t seed) {
  Literal literal(shape);
  SplitMix64 rng(seed);
  Fill(literal, rng);
  return literal;
}

std::vector<Literal> RandomArguments(const HloModule& module, uint64_t seed) {
  std::vector<Literal> args;
  const HloComputation* entry = module.entry_computation();
  for (int64_t i = 0; i < entry->num_parameters(); ++i) {
    args.push_back(RandomLiteral(entry->parameter_instruction(i)->shape(), seed + i));
  }
  return args;
}

}  // namespace aot
