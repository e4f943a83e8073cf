#ifndef AOT_COMPILER_INTERPRETER_EVALUATOR_INTERNAL_H_
#define AOT_COMPILER_INTERPRETER_EVALUATOR_INTERNAL_H_

// Internals of the HLO evaluator shared by its kernel files. Not a public
// API: include evaluator.h instead.

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "compiler/hlo/dynamic_dimensions.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/literal.h"
#include "compiler/hlo/shape.h"

namespace aot {
namespace interpreter_internal {

// Runs a called computation (to_apply, comparator, body, ...).
class ComputationCaller {
 public:
  virtual ~ComputationCaller() = default;
  virtual absl::StatusOr<Literal> Call(const HloComputation& computation,
                                       absl::Span<const Literal* const> arguments) = 0;
};

// ---------------------------------------------------------------------------
// Element types.

template <typename T>
inline constexpr bool kIs16BitFloat = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
template <typename T>
inline constexpr bool kIsFloat =
    kIs16BitFloat<T> || std::is_same_v<T, float> || std::is_same_v<T, double>;
template <typename T>
inline constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Arithmetic is done in float for f16/bf16 and rounded back once.
template <typename T>
struct ComputeTypeOf {
  using type = T;
};
template <>
struct ComputeTypeOf<Half> {
  using type = float;
};
template <>
struct ComputeTypeOf<BFloat16> {
  using type = float;
};
template <typename T>
using ComputeT = typename ComputeTypeOf<T>::type;

template <typename T>
inline ComputeT<T> Up(T v) {
  if constexpr (kIs16BitFloat<T>) {
    return static_cast<float>(v);
  } else {
    return v;
  }
}
template <typename T>
inline T Down(ComputeT<T> v) {
  if constexpr (kIs16BitFloat<T>) {
    return T(v);
  } else {
    return v;
  }
}

// Unsigned integer of the same width as T (for bit tricks and total order).
template <int kBytes>
struct UintOfSize;
template <>
struct UintOfSize<1> {
  using type = uint8_t;
};
template <>
struct UintOfSize<2> {
  using type = uint16_t;
};
template <>
struct UintOfSize<4> {
  using type = uint32_t;
};
template <>
struct UintOfSize<8> {
  using type = uint64_t;
};

// ---------------------------------------------------------------------------
// Element operations (storage type T in, T out).

template <typename T>
inline T WrapAdd(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <typename T>
inline T WrapSub(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
template <typename T>
inline T WrapMul(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

template <typename T>
inline T OpAdd(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return Down<T>(Up(a) + Up(b));
  } else if constexpr (kIsInt<T>) {
    return WrapAdd(a, b);
  } else {
    return a || b;
  }
}
template <typename T>
inline T OpSubtract(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return Down<T>(Up(a) - Up(b));
  } else if constexpr (kIsInt<T>) {
    return WrapSub(a, b);
  } else {
    return a != b;
  }
}
template <typename T>
inline T OpMultiply(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return Down<T>(Up(a) * Up(b));
  } else if constexpr (kIsInt<T>) {
    return WrapMul(a, b);
  } else {
    return a && b;
  }
}
template <typename T>
inline T OpDivide(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return Down<T>(Up(a) / Up(b));
  } else if constexpr (kIsInt<T>) {
    if (b == 0) {
      if constexpr (std::is_signed_v<T>) {
        return static_cast<T>(-1);
      } else {
        return std::numeric_limits<T>::max();
      }
    }
    if constexpr (std::is_signed_v<T>) {
      if (a == std::numeric_limits<T>::min() && b == -1) return a;
    }
    return static_cast<T>(a / b);
  } else {
    return a;
  }
}
template <typename T>
inline T OpRemainder(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return Down<T>(std::fmod(Up(a), Up(b)));
  } else if constexpr (kIsInt<T>) {
    if (b == 0) return a;
    if constexpr (std::is_signed_v<T>) {
      if (a == std::numeric_limits<T>::min() && b == -1) return 0;
    }
    return static_cast<T>(a % b);
  } else {
    return a;
  }
}
template <typename T>
inline T OpMaximum(T a, T b) {
  if constexpr (kIsFloat<T>) {
    auto x = Up(a), y = Up(b);
    if (std::isnan(x)) return a;
    if (std::isnan(y)) return b;
    if (x == y) return std::signbit(x) ? b : a;  // max(-0, +0) = +0
    return x > y ? a : b;
  } else {
    return a > b ? a : b;
  }
}
template <typename T>
inline T OpMinimum(T a, T b) {
  if constexpr (kIsFloat<T>) {
    auto x = Up(a), y = Up(b);
    if (std::isnan(x)) return a;
    if (std::isnan(y)) return b;
    if (x == y) return std::signbit(x) ? a : b;  // min(-0, +0) = -0
    return x < y ? a : b;
  } else {
    return a < b ? a : b;
  }
}
template <typename T>
inline T OpPower(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return Down<T>(std::pow(Up(a), Up(b)));
  } else if constexpr (kIsInt<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (b < 0) {
        if (a == 1) return 1;
        if (a == -1) return (b & 1) ? static_cast<T>(-1) : static_cast<T>(1);
        return 0;
      }
    }
    uint64_t base = static_cast<uint64_t>(a);
    uint64_t exponent = static_cast<uint64_t>(b);
    uint64_t result = 1;
    while (exponent != 0) {
      if (exponent & 1) result *= base;
      base *= base;
      exponent >>= 1;
    }
    return static_cast<T>(result);
  } else {
    return a || !b;
  }
}
template <typename T>
inline T OpAtan2(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return Down<T>(std::atan2(Up(a), Up(b)));
  } else {
    return a;
  }
}
template <typename T>
inline T OpAnd(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return a;
  } else if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else {
    return static_cast<T>(a & b);
  }
}
template <typename T>
inline T OpOr(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return a;
  } else if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else {
    return static_cast<T>(a | b);
  }
}
template <typename T>
inline T OpXor(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return a;
  } else if constexpr (std::is_same_v<T, bool>) {
    return a != b;
  } else {
    return static_cast<T>(a ^ b);
  }
}
// The high half of the product at twice T's width (mulhi).
template <typename T>
inline T OpMulhi(T a, T b) {
  if constexpr (kIsInt<T>) {
    constexpr bool kSigned = std::is_signed_v<T>;
    // The product of two 64-bit values needs 128 bits: GCC's and Clang's
    // __int128, which both compilers this project builds with have.
    using Wide =
        std::conditional_t<sizeof(T) == 8, std::conditional_t<kSigned, __int128, unsigned __int128>,
                           std::conditional_t<kSigned, int64_t, uint64_t>>;
    const Wide product = static_cast<Wide>(a) * static_cast<Wide>(b);
    return static_cast<T>(product >> (8 * sizeof(T)));
  } else {
    return a;
  }
}
template <typename T>
inline bool ShiftOutOfRange(T amount) {
  using U = std::make_unsigned_t<T>;
  return static_cast<U>(amount) >= static_cast<U>(sizeof(T) * 8);
}
template <typename T>
inline T OpShiftLeft(T a, T b) {
  if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    if (ShiftOutOfRange(b)) return 0;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << static_cast<U>(b)));
  } else {
    return a;
  }
}
template <typename T>
inline T OpShiftRightLogical(T a, T b) {
  if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    if (ShiftOutOfRange(b)) return 0;
    return static_cast<T>(static_cast<U>(a) >> static_cast<U>(b));
  } else {
    return a;
  }
}
template <typename T>
inline T OpShiftRightArithmetic(T a, T b) {
  if constexpr (kIsInt<T>) {
    using S = std::make_signed_t<T>;
    S sa = static_cast<S>(a);
    if (ShiftOutOfRange(b)) return sa < 0 ? static_cast<T>(-1) : static_cast<T>(0);
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<S>(sa >> static_cast<U>(b)));
  } else {
    return a;
  }
}

// Calls f(op) with `op` a callable T(T, T) for the binary opcode; returns
// false for an opcode that is not an elementwise binary op.
template <typename T, typename F>
bool VisitBinaryOp(HloOpcode opcode, F&& f) {
  switch (opcode) {
    case HloOpcode::kAdd:
      f([](T a, T b) { return OpAdd(a, b); });
      return true;
    case HloOpcode::kSubtract:
      f([](T a, T b) { return OpSubtract(a, b); });
      return true;
    case HloOpcode::kMultiply:
      f([](T a, T b) { return OpMultiply(a, b); });
      return true;
    case HloOpcode::kDivide:
      f([](T a, T b) { return OpDivide(a, b); });
      return true;
    case HloOpcode::kRemainder:
      f([](T a, T b) { return OpRemainder(a, b); });
      return true;
    case HloOpcode::kMaximum:
      f([](T a, T b) { return OpMaximum(a, b); });
      return true;
    case HloOpcode::kMinimum:
      f([](T a, T b) { return OpMinimum(a, b); });
      return true;
    case HloOpcode::kPower:
      f([](T a, T b) { return OpPower(a, b); });
      return true;
    case HloOpcode::kAtan2:
      f([](T a, T b) { return OpAtan2(a, b); });
      return true;
    case HloOpcode::kAnd:
      f([](T a, T b) { return OpAnd(a, b); });
      return true;
    case HloOpcode::kOr:
      f([](T a, T b) { return OpOr(a, b); });
      return true;
    case HloOpcode::kXor:
      f([](T a, T b) { return OpXor(a, b); });
      return true;
    case HloOpcode::kShiftLeft:
      f([](T a, T b) { return OpShiftLeft(a, b); });
      return true;
    case HloOpcode::kMulhi:
      f([](T a, T b) { return OpMulhi(a, b); });
      return true;
    case HloOpcode::kShiftRightLogical:
      f([](T a, T b) { return OpShiftRightLogical(a, b); });
      return true;
    case HloOpcode::kShiftRightArithmetic:
      f([](T a, T b) { return OpShiftRightArithmetic(a, b); });
      return true;
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------
// Unary element operations.

template <typename T>
inline T SignValue(T v) {
  if constexpr (kIsFloat<T>) {
    auto x = Up(v);
    if (std::isnan(x) || x == 0) return v;
    return Down<T>(std::copysign(static_cast<ComputeT<T>>(1), x));
  } else if constexpr (std::is_same_v<T, bool>) {
    return v;
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>((v > 0) - (v < 0));
  } else {
    return static_cast<T>(v != 0);
  }
}

// Calls f(op) with `op` a callable T(T) for the unary opcode when it is
// defined for T (reduce-precision excepted: it needs its attributes);
// returns false otherwise.
template <typename T, typename F>
bool VisitUnaryOp(HloOpcode opcode, F&& f) {
  if (opcode == HloOpcode::kCopy) {
    f([](T v) { return v; });
    return true;
  }
  if constexpr (kIsFloat<T>) {
    using C = ComputeT<T>;
    switch (opcode) {
      case HloOpcode::kAbs:
        f([](T v) { return Down<T>(std::fabs(Up(v))); });
        return true;
      case HloOpcode::kNegate:
        f([](T v) { return Down<T>(-Up(v)); });
        return true;
      case HloOpcode::kSign:
        f([](T v) { return SignValue(v); });
        return true;
      case HloOpcode::kAcos:
        f([](T v) { return Down<T>(std::acos(Up(v))); });
        return true;
      case HloOpcode::kAcosh:
        f([](T v) { return Down<T>(std::acosh(Up(v))); });
        return true;
      case HloOpcode::kAsin:
        f([](T v) { return Down<T>(std::asin(Up(v))); });
        return true;
      case HloOpcode::kAsinh:
        f([](T v) { return Down<T>(std::asinh(Up(v))); });
        return true;
      case HloOpcode::kAtan:
        f([](T v) { return Down<T>(std::atan(Up(v))); });
        return true;
      case HloOpcode::kAtanh:
        f([](T v) { return Down<T>(std::atanh(Up(v))); });
        return true;
      case HloOpcode::kCosh:
        f([](T v) { return Down<T>(std::cosh(Up(v))); });
        return true;
      case HloOpcode::kSinh:
        f([](T v) { return Down<T>(std::sinh(Up(v))); });
        return true;
      case HloOpcode::kCbrt:
        f([](T v) { return Down<T>(std::cbrt(Up(v))); });
        return true;
      case HloOpcode::kCeil:
        f([](T v) { return Down<T>(std::ceil(Up(v))); });
        return true;
      case HloOpcode::kCos:
        f([](T v) { return Down<T>(std::cos(Up(v))); });
        return true;
      case HloOpcode::kErf:
        f([](T v) { return Down<T>(std::erf(Up(v))); });
        return true;
      case HloOpcode::kExp:
        f([](T v) { return Down<T>(std::exp(Up(v))); });
        return true;
      case HloOpcode::kExpm1:
        f([](T v) { return Down<T>(std::expm1(Up(v))); });
        return true;
      case HloOpcode::kFloor:
        f([](T v) { return Down<T>(std::floor(Up(v))); });
        return true;
      case HloOpcode::kLog:
        f([](T v) { return Down<T>(std::log(Up(v))); });
        return true;
      case HloOpcode::kLog1p:
        f([](T v) { return Down<T>(std::log1p(Up(v))); });
        return true;
      case HloOpcode::kLogistic:
        f([](T v) { return Down<T>(C{1} / (C{1} + std::exp(-Up(v)))); });
        return true;
      case HloOpcode::kRoundNearestAfz:
        f([](T v) { return Down<T>(std::round(Up(v))); });
        return true;
      case HloOpcode::kRoundNearestEven:
        f([](T v) { return Down<T>(std::nearbyint(Up(v))); });
        return true;
      case HloOpcode::kRsqrt:
        f([](T v) { return Down<T>(C{1} / std::sqrt(Up(v))); });
        return true;
      case HloOpcode::kSin:
        f([](T v) { return Down<T>(std::sin(Up(v))); });
        return true;
      case HloOpcode::kSqrt:
        f([](T v) { return Down<T>(std::sqrt(Up(v))); });
        return true;
      case HloOpcode::kTan:
        f([](T v) { return Down<T>(std::tan(Up(v))); });
        return true;
      case HloOpcode::kTanh:
        f([](T v) { return Down<T>(std::tanh(Up(v))); });
        return true;
      default:
        return false;
    }
  } else if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    switch (opcode) {
      case HloOpcode::kAbs:
        f([](T v) {
          if constexpr (std::is_signed_v<T>) {
            return v < 0 ? WrapSub<T>(0, v) : v;
          } else {
            return v;
          }
        });
        return true;
      case HloOpcode::kNegate:
        f([](T v) { return WrapSub<T>(0, v); });
        return true;
      case HloOpcode::kSign:
        f([](T v) { return SignValue(v); });
        return true;
      case HloOpcode::kNot:
        f([](T v) { return static_cast<T>(~v); });
        return true;
      case HloOpcode::kClz:
        f([](T v) { return static_cast<T>(std::countl_zero(static_cast<U>(v))); });
        return true;
      case HloOpcode::kPopulationCount:
        f([](T v) { return static_cast<T>(std::popcount(static_cast<U>(v))); });
        return true;
      default:
        return false;
    }
  } else {
    if (opcode == HloOpcode::kNot) {
      f([](T v) { return !v; });
      return true;
    }
    return false;
  }
}

// ---------------------------------------------------------------------------
// reduce-precision and convert.

// reduce-precision on the bits of a float (FloatT = float or double), as
// XLA's evaluator and emitters do it.
template <typename FloatT>
inline FloatT ReducePrecisionValue(FloatT value, int exponent_bits, int mantissa_bits) {
  using U = typename UintOfSize<sizeof(FloatT)>::type;
  constexpr int kSrcMantissaBits = std::numeric_limits<FloatT>::digits - 1;
  constexpr int kSrcExponentBits = sizeof(FloatT) * 8 - kSrcMantissaBits - 1;
  U bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if (mantissa_bits < kSrcMantissaBits) {
    const U last_mantissa_bit_mask = U{1} << (kSrcMantissaBits - mantissa_bits);
    const U base_rounding_bias = (last_mantissa_bit_mask >> 1) - 1;
    const U x_last_mantissa_bit =
        (bits & last_mantissa_bit_mask) >> (kSrcMantissaBits - mantissa_bits);
    const U x_rounding_bias = x_last_mantissa_bit + base_rounding_bias;
    const U truncation_mask = ~(last_mantissa_bit_mask - 1);
    bits = static_cast<U>(bits + x_rounding_bias);
    bits = static_cast<U>(bits & truncation_mask);
  }
  if (exponent_bits < kSrcExponentBits) {
    const U sign_bit_mask = U{1} << (sizeof(FloatT) * 8 - 1);
    const U exp_bits_mask = ((U{1} << kSrcExponentBits) - 1) << kSrcMantissaBits;
    const U exponent_bias = (U{1} << (kSrcExponentBits - 1)) - 1;
    const U reduced_exponent_bias = (U{1} << (exponent_bits - 1)) - 1;
    const U reduced_max_exponent = exponent_bias + reduced_exponent_bias;
    const U reduced_min_exponent = exponent_bias - reduced_exponent_bias;
    const U x_exponent = bits & exp_bits_mask;
    const bool x_overflows = x_exponent > (reduced_max_exponent << kSrcMantissaBits);
    const bool x_underflows = x_exponent <= (reduced_min_exponent << kSrcMantissaBits);
    const U x_signed_zero = bits & sign_bit_mask;
    const U x_signed_inf = x_signed_zero | exp_bits_mask;
    if (x_overflows) bits = x_signed_inf;
    if (x_underflows) bits = x_signed_zero;
  }
  FloatT result;
  std::memcpy(&result, &bits, sizeof(bits));
  if (std::isnan(value)) {
    // A NaN stays NaN when the format has mantissa bits to hold one.
    result = mantissa_bits > 0 ? value : std::numeric_limits<FloatT>::infinity();
  }
  return result;
}

// reduce-precision of an element of a float type (f16/bf16 via float).
template <typename T>
inline T ReducePrecisionElement(T v, int exponent_bits, int mantissa_bits) {
  return Down<T>(ReducePrecisionValue<ComputeT<T>>(Up(v), exponent_bits, mantissa_bits));
}

// One element of XLA's convert.
template <typename To, typename From>
inline To ConvertElement(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    if constexpr (kIsFloat<From>) {
      return Up(v) != 0;
    } else {
      return v != 0;
    }
  } else if constexpr (kIsFloat<To>) {
    if constexpr (kIs16BitFloat<To>) {
      // Through float, as XLA's interpreter (Eigen) converts.
      if constexpr (kIsFloat<From>) {
        return To(static_cast<float>(Up(v)));
      } else {
        return To(static_cast<float>(v));
      }
    } else if constexpr (kIsFloat<From>) {
      return static_cast<To>(Up(v));
    } else {
      return static_cast<To>(v);
    }
  } else if constexpr (kIsFloat<From>) {
    // Float -> integer saturates; NaN -> 0.
    double d = static_cast<double>(Up(v));
    if (std::isnan(d)) return 0;
    constexpr double lo = static_cast<double>(std::numeric_limits<To>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<To>::max()) + 1.0;
    if (d <= lo) return std::numeric_limits<To>::min();
    if (d >= hi) return std::numeric_limits<To>::max();
    return static_cast<To>(d);
  } else {
    return static_cast<To>(v);  // integer -> integer wraps
  }
}

// OK when `opcode` (an elementwise binary op) is defined for `type`.
absl::Status CheckBinaryOpType(HloOpcode opcode, PrimitiveType type);

// ---------------------------------------------------------------------------
// Comparison.

// Maps a float to an integer whose signed order is the total order
// -NaN < -inf < ... < -0 < +0 < ... < inf < +NaN.
template <typename T>
inline auto TotalOrderKey(T v) {
  using U = typename UintOfSize<sizeof(T)>::type;
  using S = std::make_signed_t<U>;
  U bits;
  std::memcpy(&bits, &v, sizeof(T));
  S s = static_cast<S>(bits);
  if (s < 0) s = static_cast<S>(s ^ std::numeric_limits<S>::max());
  return s;
}

// `x direction y` for values that order with the built-in operators.
template <typename T>
inline bool CompareOrdered(ComparisonDirection direction, const T& x, const T& y) {
  switch (direction) {
    case ComparisonDirection::kEq:
      return x == y;
    case ComparisonDirection::kNe:
      return x != y;
    case ComparisonDirection::kLt:
      return x < y;
    case ComparisonDirection::kLe:
      return x <= y;
    case ComparisonDirection::kGt:
      return x > y;
    case ComparisonDirection::kGe:
      return x >= y;
  }
  return false;
}

template <typename T>
inline bool CompareValues(ComparisonDirection direction, bool total_order, T a, T b) {
  if constexpr (kIsFloat<T>) {
    if (total_order) return CompareOrdered(direction, TotalOrderKey(a), TotalOrderKey(b));
    return CompareOrdered(direction, Up(a), Up(b));
  } else {
    return CompareOrdered(direction, a, b);
  }
}

// Resolves a compare instruction's comparison_type for `type`: true when
// floats compare in total order. Errors on a type that does not fit.
absl::StatusOr<bool> UsesTotalOrder(absl::string_view comparison_type, PrimitiveType type);

// ---------------------------------------------------------------------------
// Scalar computations recognized as one op of two parameters, so reducers
// and comparators avoid a sub-evaluation per element.

struct ScalarBinaryMatch {
  HloOpcode opcode;       // an elementwise binary op or kCompare
  int64_t lhs_param = 0;  // parameter numbers of the root's operands
  int64_t rhs_param = 1;
  PrimitiveType type = PRIMITIVE_TYPE_INVALID;               // of the parameters
  ComparisonDirection direction = ComparisonDirection::kEq;  // compare
  bool total_order = false;                                  // compare
};
// Matches a computation whose root is `op(parameter(i), parameter(j))` with
// every parameter a scalar of one type; std::nullopt otherwise.
std::optional<ScalarBinaryMatch> MatchScalarBinary(const HloComputation& computation);

// ---------------------------------------------------------------------------
// Index and copy helpers.

// Copies `dims`-shaped elements of `elem_size` bytes:
//   dst[dst_offset + sum(I*dst_strides)] = src[src_offset + sum(I*src_strides)]
// for every index I of `dims` (strides and offsets in elements).
void StridedCopy(const uint8_t* src, int64_t src_offset, absl::Span<const int64_t> src_strides,
                 uint8_t* dst, int64_t dst_offset, absl::Span<const int64_t> dst_strides,
                 absl::Span<const int64_t> dims, int64_t elem_size);

// An integer index element as int64 (unsigned values above INT64_MAX
// saturate).
int64_t ReadIndex(const Literal& literal, int64_t linear_index);

// "dims {0, 1}" style.
std::string SpanToString(absl::Span<const int64_t> values);

// OK when `literal` is an array (not a tuple/token); `what` names it.
absl::Status ExpectArray(const Literal& literal, absl::string_view what);
// OK when the dims of `shape` equal `dims`.
absl::Status ExpectDims(const Shape& shape, absl::Span<const int64_t> dims, absl::string_view what);

// Scalar literals used as the arguments of a called computation (reducer,
// combiner, comparator), filled in place element by element.
class ScalarArgs {
 public:
  explicit ScalarArgs(absl::Span<const PrimitiveType> types) {
    for (PrimitiveType t : types) literals_.emplace_back(Shape::Scalar(t));
    for (const Literal& l : literals_) pointers_.push_back(&l);
  }
  ScalarArgs(const ScalarArgs&) = delete;
  ScalarArgs& operator=(const ScalarArgs&) = delete;
  // Argument i := element `index` of `source` (same element type).
  void Set(size_t i, const Literal& source, int64_t index) {
    const int64_t w = ByteWidth(source.shape().element_type());
    std::memcpy(literals_[i].raw_data(), source.raw().data() + index * w, w);
  }
  uint8_t* mutable_data(size_t i) { return literals_[i].raw_data(); }
  absl::Span<const Literal* const> span() const { return pointers_; }

 private:
  std::vector<Literal> literals_;
  std::vector<const Literal*> pointers_;
};

// Part i of the value a called computation returned for n values: the
// value itself when n == 1 and it is not a tuple, else its element i; it
// must be a scalar of `type`.
absl::StatusOr<const Literal*> ScalarResultPart(const Literal& result, size_t i, size_t n,
                                                PrimitiveType type);

// A scalar computation (every parameter a scalar, the root a scalar or a
// tuple of scalars) called once per element by reduce, reduce-window,
// scatter, select-and-scatter and sort. A straight-line computation of
// elementwise ops is compiled into a small register program; anything
// else is evaluated through the ComputationCaller.
class ScalarFunction {
 public:
  // `param_types` / `result_types`: the element types the caller passes
  // and expects (a tuple result when there are several). `role` names the
  // computation in errors ("to_apply", "comparator", ...).
  static absl::StatusOr<std::unique_ptr<ScalarFunction>> Create(
      const HloComputation* computation, std::vector<PrimitiveType> param_types,
      std::vector<PrimitiveType> result_types, ComputationCaller& caller, absl::string_view role);
  ~ScalarFunction();
  ScalarFunction(const ScalarFunction&) = delete;
  ScalarFunction& operator=(const ScalarFunction&) = delete;

  // Calls with args[i] pointing at one element of param_types[i].
  absl::Status Call(const void* const* args);
  // Raw bytes of result i of the last call.
  const void* result(size_t i) const;
  // Whether the computation runs as a compiled register program.
  bool compiled() const { return program_ != nullptr; }

 private:
  class Program;
  ScalarFunction() = default;

  const HloComputation* computation_ = nullptr;
  std::vector<PrimitiveType> param_types_;
  std::vector<PrimitiveType> result_types_;
  ComputationCaller* caller_ = nullptr;
  std::unique_ptr<Program> program_;
  std::unique_ptr<ScalarArgs> args_;  // general path
  Literal last_;                      // general path
  std::vector<const void*> results_;  // general path
};

// ---------------------------------------------------------------------------
// Kernels. Each evaluates one instruction given its operand values; the
// caller has checked the operand count for fixed-arity opcodes and
// prefixes errors with the instruction's name.

using Operands = absl::Span<const Literal* const>;

// dynamic_ops.cc
// An operand with the dynamic sizes it carries (dims null or empty: static;
// sizes has one entry per dimension when dims is not empty).
struct DynamicOperand {
  const Literal* literal = nullptr;
  const DynamicDims* dims = nullptr;
  const std::vector<int64_t>* sizes = nullptr;
};
// Evaluates the instruction on its operand values (already masked).
using DynamicEval = std::function<absl::StatusOr<Literal>(Operands)>;
// Evaluates an instruction for which TouchesDynamicDimensions holds, as
// PlanDynamicDimensions plans it: set-dimension-size, get-dimension-size
// and dynamic-reshape here, any other op through `eval` once the padding it
// folds or contracts is overwritten. Sets the result's dynamic dimensions
// and their sizes (both empty for a static result). Errors already name the
// instruction.
absl::StatusOr<Literal> EvalWithDynamicSizes(const HloInstruction& instr,
                                             absl::Span<const DynamicOperand> ops,
                                             const DynamicEval& eval, DynamicDims* result_dims,
                                             std::vector<int64_t>* result_sizes);

// elementwise.cc
absl::StatusOr<Literal> EvalUnary(const HloInstruction& instr, const Literal& x);
absl::StatusOr<Literal> EvalBinary(const HloInstruction& instr, const Literal& a, const Literal& b);
absl::StatusOr<Literal> EvalCompare(const HloInstruction& instr, const Literal& a,
                                    const Literal& b);
absl::StatusOr<Literal> EvalSelect(const HloInstruction& instr, Operands ops);
absl::StatusOr<Literal> EvalClamp(const HloInstruction& instr, Operands ops);
absl::StatusOr<Literal> EvalConvert(const HloInstruction& instr, const Literal& x);
absl::StatusOr<Literal> EvalBitcastConvert(const HloInstruction& instr, const Literal& x);
absl::StatusOr<Literal> EvalIsFinite(const HloInstruction& instr, const Literal& x);
// Converts every element of an array to `type` (XLA's convert).
Literal ConvertLiteral(const Literal& x, PrimitiveType type);

// shape_ops.cc
absl::StatusOr<Literal> EvalBroadcast(const HloInstruction& instr, const Literal& x);
absl::StatusOr<Literal> EvalReshape(const HloInstruction& instr, const Literal& x);
absl::StatusOr<Literal> EvalTranspose(const HloInstruction& instr, const Literal& x);
absl::StatusOr<Literal> EvalSlice(const HloInstruction& instr, const Literal& x);
absl::StatusOr<Literal> EvalDynamicSlice(const HloInstruction& instr, Operands ops);
absl::StatusOr<Literal> EvalDynamicUpdateSlice(const HloInstruction& instr, Operands ops);
absl::StatusOr<Literal> EvalConcatenate(const HloInstruction& instr, Operands ops);
absl::StatusOr<Literal> EvalPad(const HloInstruction& instr, const Literal& x,
                                const Literal& pad_value);
absl::StatusOr<Literal> EvalReverse(const HloInstruction& instr, const Literal& x);
// shuffle: each result element from the operand element ShuffleSource names.
absl::StatusOr<Literal> EvalShuffle(const HloInstruction& instr, const Literal& x);
absl::StatusOr<Literal> EvalIota(const HloInstruction& instr);
// The preamble of the data-movement kernels: the operand is an array, the
// result an array of its element type.
absl::Status CheckArrayOp(const HloInstruction& instr, const Literal& x);

absl::StatusOr<Literal> EvalGather(const HloInstruction& instr, const Literal& operand,
                                   const Literal& indices);
absl::StatusOr<Literal> EvalScatter(const HloInstruction& instr, Operands ops,
                                    ComputationCaller& caller);

// reduction_ops.cc
absl::StatusOr<Literal> EvalReduce(const HloInstruction& instr, Operands ops,
                                   ComputationCaller& caller);
absl::StatusOr<Literal> EvalReduceWindow(const HloInstruction& instr, Operands ops,
                                         ComputationCaller& caller);
absl::StatusOr<Literal> EvalSelectAndScatter(const HloInstruction& instr, Operands ops,
                                             ComputationCaller& caller);
absl::StatusOr<Literal> EvalSort(const HloInstruction& instr, Operands ops,
                                 ComputationCaller& caller);

// composite_ops.cc: opcodes the compiler expands before emission.
// scan: to_apply called once per index of the scanned dimension (from the
// last one down when is_reverse), on that index's slice of every input and
// the carries; its outputs' slices are stacked along the dimension, its
// carries passed on. The result: the outputs, then the final carries.
absl::StatusOr<Literal> EvalScan(const HloInstruction& instr, Operands ops,
                                 ComputationCaller& caller);
absl::StatusOr<Literal> EvalMap(const HloInstruction& instr, Operands ops,
                                ComputationCaller& caller);
absl::StatusOr<Literal> EvalTopK(const HloInstruction& instr, const Literal& x);
// batch-norm-training, -inference and -grad.
absl::StatusOr<Literal> EvalBatchNorm(const HloInstruction& instr, Operands ops);

// complex_ops.cc: the ops on c64 / c128 that need complex arithmetic
// (IsComplexKernelOpcode): elementwise math, abs, real, imag, complex,
// compare (EQ, NE), convert to complex, fft.
bool IsComplexKernelOpcode(HloOpcode opcode);
absl::StatusOr<Literal> EvalComplexElementwise(const HloInstruction& instr, Operands ops);
absl::StatusOr<Literal> EvalFft(const HloInstruction& instr, const Literal& x);
// reduce of one complex operand whose reducer adds its two parameters.
absl::StatusOr<Literal> EvalComplexAddReduce(const HloInstruction& instr, const Literal& x,
                                             const Literal& init);

// factorization_ops.cc: cholesky (lower=) and triangular-solve
// (left_side=, lower=, unit_diagonal=, transpose_a=), matrix by matrix.
absl::StatusOr<Literal> EvalCholesky(const HloInstruction& instr, const Literal& a);
absl::StatusOr<Literal> EvalTriangularSolve(const HloInstruction& instr, const Literal& a,
                                            const Literal& b);

// random_ops.cc: rng-bit-generator. Its stream of 32-bit words: word w
// is lane w % L of block w / L, L = 4 for Philox-4x32 (the default) and 2
// for Threefry-2x32; block b is the generator applied to the counter
// state[1] + b (mod 2^64; Philox's counter takes state[2], or 0, as its
// high 64 bits) with the key state[0], each 64-bit value split low half
// first. A value of 8 to 32 bits is the low bits of one word, a 64-bit
// value two words, low first, in row-major order; the next state is the
// state with state[1] advanced by the blocks used.
std::vector<uint32_t> RngBitGeneratorWords(RngAlgorithm algorithm,
                                           const std::vector<uint64_t>& state, int64_t words,
                                           std::vector<uint64_t>* next_state);
absl::StatusOr<Literal> EvalRngBitGenerator(const HloInstruction& instr, const Literal& state);
// The executable's random state as the interpreter keeps it: 128 bits
// {low, high}, starting at 0 for each evaluator as a loaded executable's
// does, and carried across its evaluations.
using RngState = std::array<uint64_t, 2>;
// The 128-bit counter {low, high} plus `delta` (mod 2^128).
RngState RngCounterPlus(RngState counter, uint64_t delta);
// Returns the state and advances it by `delta` (mod 2^128).
RngState TakeRngState(RngState* state, uint64_t delta);
// rng-get-and-update-state, delta=N: the state as u64[2] {low, high};
// then the state advances by N (mod 2^128).
absl::StatusOr<Literal> EvalRngGetAndUpdateState(const HloInstruction& instr, RngState* state);
// rng(a, b), distribution=, as ExpandRngs builds it from XLA's other ops.
// Each evaluation of a computation holding rng draws first takes the state
// s once for all of them, advancing it by the sum of their
// RngStateAdvance; a draw's counter c is s plus the advances of the draws
// defined before it in the computation (so draws that do not depend on one
// another cannot take the state in another order than a compiled program,
// which takes it first too). rng-bit-generator (Philox) with the state
// {kRngPhiloxKey, c.low, c.high} draws RngDraws values of RngBitsType x,
// in row-major order (for rng_normal, the first half then the second).
// With c the compute type (f64 for f64, f32 for the other floats) and
// U(x) = the float of exponent 0 whose mantissa is x's high bits, minus
// one (in [0, 1)):
//  - uniform floats: U(x) * (b - a) + a in c, rounded to the result type;
//  - uniform integers: a + x mod (b - a), wrapping in the type's width
//    (b - a taken unsigned; a when b == a);
//  - normal: sqrt(-2 log(1 - U(x1))) * cos(2 pi U(x2)) * b + a in c
//    (Box-Muller), x1 from the first half of the values, x2 the second.
absl::StatusOr<Literal> EvalRng(const HloInstruction& instr, const Literal& a, const Literal& b,
                                RngState counter);
// stochastic-convert(x, random) to a signed integer, as XLA decomposes
// it: |x| = w + f; w + 1 where random < f * 2^bits(random) (truncated to
// an integer), else w; negated for negative x; x at or beyond the result's
// range (as x's type holds the bounds) gives its minimum or maximum.
absl::StatusOr<Literal> EvalStochasticConvert(const HloInstruction& instr, const Literal& x,
                                              const Literal& random);

// linalg_ops.cc
absl::StatusOr<Literal> EvalDot(const HloInstruction& instr, const Literal& lhs,
                                const Literal& rhs);
absl::StatusOr<Literal> EvalConvolution(const HloInstruction& instr, const Literal& lhs,
                                        const Literal& rhs);
// ragged-dot in XLA's three modes. A ragged free lhs dimension: the dot
// with each group's rhs, kept where the ragged index falls in that group's
// run (group_sizes consecutive indices; negative sizes count as 0); 0
// beyond. A ragged contracting dimension: per group, the dot over its run
// alone, the groups leading the result. A ragged batch dimension: the dot.
absl::StatusOr<Literal> EvalRaggedDot(const HloInstruction& instr, const Literal& lhs,
                                      const Literal& rhs, const Literal& group_sizes);
// scaled-dot: lhs and rhs dequantized in the result's type (each value
// and its block's scale converted to it, then multiplied, each step rounded
// to that type as the expansion's converts and multiply round), then their
// dot.
absl::StatusOr<Literal> EvalScaledDot(const HloInstruction& instr, Operands ops);

// collectives.cc. `members[k]` holds the operands member k of the group
// brought (group order); `rank` is this participant's place in the group.
// all-reduce(-start), all-gather(-start: the gathered part only),
// reduce-scatter, all-to-all and collective-broadcast.
absl::StatusOr<Literal> EvalGroupCollective(const HloInstruction& instr,
                                            absl::Span<const std::vector<Literal>* const> members,
                                            int64_t rank, ComputationCaller& caller);
// collective-permute: what the member at `source_rank` brought, or zeros
// of this participant's operand shape when it is no pair's target.
absl::StatusOr<Literal> EvalCollectivePermute(absl::Span<const std::vector<Literal>* const> members,
                                              int64_t rank, std::optional<int64_t> source_rank);

}  // namespace interpreter_internal
}  // namespace aot

#endif  // AOT_COMPILER_INTERPRETER_EVALUATOR_INTERNAL_H_
