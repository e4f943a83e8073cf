#ifndef AOT_SUPPORT_MINIFLOAT_H_
#define AOT_SUPPORT_MINIFLOAT_H_

#include <cstdint>

namespace aot {

// Floats of 8 bits and fewer (XLA's f8 and f4 types), converted to and
// from double. Hand-written: neither LLVM's APFloat semantics tables nor
// anything else linked here covers every one of these formats with their
// NaN and infinity conventions, and the conversion is a few dozen lines.
struct MinifloatFormat {
  enum class Specials {
    kIeee,          // exponent all ones: infinity (mantissa 0) or NaN
    kFinite,        // "fn": no infinity; all bits of exponent and mantissa set: NaN
    kFiniteNoNan,   // every code finite (f4e2m1fn)
    kUnsignedZero,  // "fnuz": no infinity, no -0; the code of -0 is the NaN
    kExponentOnly,  // "e8m0fnu": unsigned, 2^(e - bias), all ones NaN, no zero
  };
  int exponent_bits;
  int mantissa_bits;
  int bias;
  Specials specials;
};

inline constexpr MinifloatFormat kF8E5M2{5, 2, 15, MinifloatFormat::Specials::kIeee};
inline constexpr MinifloatFormat kF8E4M3{4, 3, 7, MinifloatFormat::Specials::kIeee};
inline constexpr MinifloatFormat kF8E3M4{3, 4, 3, MinifloatFormat::Specials::kIeee};
inline constexpr MinifloatFormat kF8E4M3FN{4, 3, 7, MinifloatFormat::Specials::kFinite};
inline constexpr MinifloatFormat kF8E4M3FNUZ{4, 3, 8, MinifloatFormat::Specials::kUnsignedZero};
inline constexpr MinifloatFormat kF8E5M2FNUZ{5, 2, 16, MinifloatFormat::Specials::kUnsignedZero};
inline constexpr MinifloatFormat kF8E4M3B11FNUZ{4, 3, 11, MinifloatFormat::Specials::kUnsignedZero};
inline constexpr MinifloatFormat kF8E8M0FNU{8, 0, 127, MinifloatFormat::Specials::kExponentOnly};
inline constexpr MinifloatFormat kF4E2M1FN{2, 1, 1, MinifloatFormat::Specials::kFiniteNoNan};

// The value of `bits` (the low bits of the byte; the rest ignored).
double MinifloatToDouble(uint8_t bits, const MinifloatFormat& format);

// The nearest value (ties to the even code). Beyond the largest finite
// value: infinity where the format has one, else NaN, except f4e2m1fn
// (no NaN) which saturates; NaN to the format's NaN (f4e2m1fn: +0);
// negative to NaN in an unsigned format.
uint8_t DoubleToMinifloat(double value, const MinifloatFormat& format);

}  // namespace aot

#endif  // AOT_SUPPORT_MINIFLOAT_H_
