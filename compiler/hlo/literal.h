#ifndef AOT_COMPILER_HLO_LITERAL_H_
#define AOT_COMPILER_HLO_LITERAL_H_

#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/hlo/shape.h"
#include "proto/hlo.pb.h"
#include "support/float16.h"

namespace aot {

// Native C++ type of each element type.
template <PrimitiveType T>
struct NativeTypeOf;
template <>
struct NativeTypeOf<PRED> {
  using type = bool;
};
template <>
struct NativeTypeOf<S8> {
  using type = int8_t;
};
template <>
struct NativeTypeOf<S16> {
  using type = int16_t;
};
template <>
struct NativeTypeOf<S32> {
  using type = int32_t;
};
template <>
struct NativeTypeOf<S64> {
  using type = int64_t;
};
template <>
struct NativeTypeOf<U8> {
  using type = uint8_t;
};
template <>
struct NativeTypeOf<U16> {
  using type = uint16_t;
};
template <>
struct NativeTypeOf<U32> {
  using type = uint32_t;
};
template <>
struct NativeTypeOf<U64> {
  using type = uint64_t;
};
template <>
struct NativeTypeOf<F16> {
  using type = Half;
};
template <>
struct NativeTypeOf<BF16> {
  using type = BFloat16;
};
template <>
struct NativeTypeOf<F32> {
  using type = float;
};
template <>
struct NativeTypeOf<F64> {
  using type = double;
};

template <typename T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<NativeT>{}) for the native type of `type` (array types
// only); returns what f returns. `type` must satisfy IsArrayType.
template <typename F>
decltype(auto) ArrayTypeSwitch(PrimitiveType type, F&& f) {
  switch (type) {
    case PRED:
      return f(TypeTag<bool>{});
    case S8:
      return f(TypeTag<int8_t>{});
    case S16:
      return f(TypeTag<int16_t>{});
    case S32:
      return f(TypeTag<int32_t>{});
    case S64:
      return f(TypeTag<int64_t>{});
    case U8:
      return f(TypeTag<uint8_t>{});
    case U16:
      return f(TypeTag<uint16_t>{});
    case U32:
      return f(TypeTag<uint32_t>{});
    case U64:
      return f(TypeTag<uint64_t>{});
    case F16:
      return f(TypeTag<Half>{});
    case BF16:
      return f(TypeTag<BFloat16>{});
    case F32:
      return f(TypeTag<float>{});
    case F64:
      return f(TypeTag<double>{});
    default:
      break;
  }
  return f(TypeTag<float>{});  // unreachable for array types
}

// A value of some shape: a dense array stored in row-major logical order
// (whatever the shape's layout), or a tuple of literals.
class Literal {
 public:
  Literal() = default;
  // Zero-filled value of `shape` (tuples recursively).
  explicit Literal(const Shape& shape);
  static Literal Tuple(std::vector<Literal> elements);

  template <typename T>
  static Literal Scalar(PrimitiveType type, T value) {
    Literal l(Shape::Scalar(type));
    l.SetFromDouble(0, static_cast<double>(value));
    return l;
  }
  // An array from doubles (converted with the element type's rounding);
  // values.size() must equal the element count.
  static Literal FromDoubles(const Shape& shape, absl::Span<const double> values);
  static Literal FromInt64s(const Shape& shape, absl::Span<const int64_t> values);

  const Shape& shape() const { return shape_; }
  // Sets a new layout (data order is logical, so nothing moves).
  void set_layout(std::vector<int64_t> m2m) { shape_.set_minor_to_major(std::move(m2m)); }
  // Takes `shape`'s layouts (tuple elements too): the same element types
  // and dimensions, so the values (stored in logical order) are unchanged.
  void SetLayoutsFrom(const Shape& shape);
  int64_t element_count() const { return shape_.ElementCount(); }

  const std::vector<uint8_t>& raw() const { return bytes_; }
  uint8_t* raw_data() { return bytes_.data(); }

  template <typename T>
  absl::Span<T> data() {
    return absl::Span<T>(reinterpret_cast<T*>(bytes_.data()), bytes_.size() / sizeof(T));
  }
  template <typename T>
  absl::Span<const T> data() const {
    return absl::Span<const T>(reinterpret_cast<const T*>(bytes_.data()),
                               bytes_.size() / sizeof(T));
  }
  template <typename T>
  T Get(int64_t linear_index) const {
    T v;
    std::memcpy(&v, bytes_.data() + linear_index * sizeof(T), sizeof(T));
    return v;
  }
  template <typename T>
  void Set(int64_t linear_index, T v) {
    std::memcpy(bytes_.data() + linear_index * sizeof(T), &v, sizeof(T));
  }

  // Element access through double / int64 / uint64, whatever the type (a
  // complex element reads as its real part and is set with imaginary 0).
  double GetAsDouble(int64_t linear_index) const;
  int64_t GetAsInt64(int64_t linear_index) const;
  uint64_t GetAsUint64(int64_t linear_index) const;
  // Converts like XLA's convert: floats round to nearest even; out-of-range
  // float->int saturates, NaN -> 0.
  void SetFromDouble(int64_t linear_index, double value);
  void SetFromInt64(int64_t linear_index, int64_t value);
  void SetFromUint64(int64_t linear_index, uint64_t value);
  // Any element as a complex value (imaginary 0 unless the type is
  // complex); setting a non-complex element keeps the real part.
  std::complex<double> GetAsComplex(int64_t linear_index) const;
  void SetFromComplex(int64_t linear_index, std::complex<double> value);

  const std::vector<Literal>& tuple_elements() const { return elements_; }
  std::vector<Literal>* mutable_tuple_elements() { return &elements_; }
  const Literal& tuple_element(int64_t i) const { return elements_[i]; }
  // Leaves of a (nested) tuple, depth-first; {*this} for an array.
  std::vector<Literal> FlattenLeaves() const;
  // The same leaves in place, without copying their data.
  std::vector<const Literal*> Leaves() const;

  // Bitwise equality of shapes (ignoring layout) and bytes.
  bool operator==(const Literal& other) const;
  bool operator!=(const Literal& other) const { return !(*this == other); }

  // Values as HLO text prints them inside constant(...): "1.5", "{1, 2}",
  // "{ {1, 2}, {3, 4} }", "(1, {2, 3})" for tuples.
  std::string ValuesToString() const;
  // "f32[2] {1, 2}".
  std::string ToString() const;

  LiteralProto ToProto() const;
  static absl::StatusOr<Literal> FromProto(const LiteralProto& proto);

 private:
  Shape shape_;
  std::vector<uint8_t> bytes_;
  std::vector<Literal> elements_;
};

// Multi-dimensional index helpers over row-major order.
int64_t LinearIndex(absl::Span<const int64_t> dims, absl::Span<const int64_t> index);
// Advances `index` in row-major order; returns false after the last.
bool NextIndex(absl::Span<const int64_t> dims, std::vector<int64_t>& index);

// Formats a floating-point value so that parsing it back gives the same
// value: "nan", "inf", "-inf", otherwise the shortest round-trip digits.
std::string FormatFloat(double value, PrimitiveType type);
// The mantissa width of f64, f32, f16 and bf16, whose NaN payloads the
// text carries as XLA writes them ("nan(0x7fffff)", "-nan" for the sign); 0
// for the other types, whose NaNs print as "nan" or "-nan".
int NanPayloadBits(PrimitiveType type);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_LITERAL_H_
