#ifndef AOT_SUPPORT_FLOAT16_H_
#define AOT_SUPPORT_FLOAT16_H_

#include <cstdint>
#include <cstring>

namespace aot {

// IEEE binary16 and bfloat16 as storage types. Arithmetic is done in float
// and rounded back to nearest-even, as XLA's CPU backend and interpreter do.
// Hand-written because this layer links no numeric library with these types
// (llvm::APFloat could convert, but at a cost per element that the
// interpreter's inner loops cannot pay, and support/ stays free of LLVM in
// its headers).

inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float BitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// float -> bfloat16, round to nearest even. A NaN keeps the top bits of
// its payload (a bf16 pattern survives a round trip through float bit for
// bit); a payload that would vanish becomes the quiet bit. The kernels'
// conversions (compiler/codegen/ir_array.cc) do the same.
inline uint16_t FloatToBf16Bits(float f) {
  uint32_t u = FloatBits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) {
    uint32_t top = u >> 16;
    return static_cast<uint16_t>((top & 0x7fu) == 0 ? (top | 0x0040u) : top);
  }
  uint32_t rounding_bias = 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>((u + rounding_bias) >> 16);
}
inline float Bf16BitsToFloat(uint16_t b) { return BitsToFloat(uint32_t{b} << 16); }

// float -> binary16, round to nearest even, overflow to infinity, gradual
// underflow to subnormals.
inline uint16_t FloatToHalfBits(float f) {
  uint32_t u = FloatBits(f);
  uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) {  // NaN: as for bf16, the payload's top bits stay
    uint32_t payload = (abs >> 13) & 0x3ffu;
    return static_cast<uint16_t>(sign | 0x7c00u | (payload == 0 ? 0x200u : payload));
  }
  if (abs >= 0x477ff000u) {
    // >= 65520 rounds to infinity (65504 is the largest finite half).
    return sign | 0x7c00u;
  }
  if (abs < 0x38800000u) {
    // Subnormal half (or zero): value = abs_float * 2^24 in units.
    if (abs < 0x33000000u) return sign;  // < 2^-25 rounds to zero
    uint32_t exponent = abs >> 23;
    uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    int shift = 126 - static_cast<int>(exponent);  // 14 - (exponent - 127) + 13 - 1
    uint32_t half_mantissa = mantissa >> shift;
    uint32_t remainder = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (remainder > halfway || (remainder == halfway && (half_mantissa & 1u))) {
      ++half_mantissa;
    }
    return sign | static_cast<uint16_t>(half_mantissa);
  }
  // Normal: rebias exponent from 127 to 15 and round 13 mantissa bits.
  uint32_t rebased = abs - (112u << 23);
  uint32_t rounding_bias = 0xfffu + ((rebased >> 13) & 1u);
  return sign | static_cast<uint16_t>((rebased + rounding_bias) >> 13);
}

inline float HalfBitsToFloat(uint16_t h) {
  uint32_t sign = uint32_t{h & 0x8000u} << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) {
    return BitsToFloat(sign | 0x7f800000u | (mantissa << 13));
  }
  if (exponent == 0) {
    if (mantissa == 0) return BitsToFloat(sign);
    // Subnormal: mantissa * 2^-24.
    float value = static_cast<float>(mantissa) * (1.0f / 16777216.0f);
    return sign ? -value : value;
  }
  return BitsToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

// Storage wrappers usable in templated element-wise code.
struct Half {
  uint16_t bits = 0;
  Half() = default;
  explicit Half(float f) : bits(FloatToHalfBits(f)) {}
  static Half FromBits(uint16_t b) {
    Half h;
    h.bits = b;
    return h;
  }
  explicit operator float() const { return HalfBitsToFloat(bits); }
};

struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  explicit BFloat16(float f) : bits(FloatToBf16Bits(f)) {}
  static BFloat16 FromBits(uint16_t b) {
    BFloat16 h;
    h.bits = b;
    return h;
  }
  explicit operator float() const { return Bf16BitsToFloat(bits); }
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2);

}  // namespace aot

#endif  // AOT_SUPPORT_FLOAT16_H_
