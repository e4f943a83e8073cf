#ifndef AOT_COMPILER_HLO_SHAPE_H_
#define AOT_COMPILER_HLO_SHAPE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "proto/hlo.pb.h"
#include "support/minifloat.h"

namespace aot {

// Element types are the schema's enum (proto/hlo.proto).
using PrimitiveType = ::aot::PrimitiveType;

// "f32", "pred", "bf16", ... as HLO text spells them.
absl::string_view PrimitiveTypeName(PrimitiveType type);
absl::StatusOr<PrimitiveType> ParsePrimitiveTypeName(absl::string_view name);
// Size of one element in bytes (pred: 1); 0 for TUPLE/TOKEN/INVALID.
int64_t ByteWidth(PrimitiveType type);
// f16, bf16, f32, f64 and the narrow floats (f8*, f4e2m1fn).
bool IsFloatingPoint(PrimitiveType type);
bool IsSignedInteger(PrimitiveType type);    // s8..s64 and s4, s2, s1
bool IsUnsignedInteger(PrimitiveType type);  // u8..u64 and u4, u2, u1
bool IsInteger(PrimitiveType type);          // signed or unsigned
bool IsArrayType(PrimitiveType type);        // pred, integers, floats, complex
// c64 and c128 (since 2026-12-03): a (real, imaginary) pair of f32 / f64,
// real part first. The interpreter evaluates them; the compiler does not
// emit them yet.
bool IsComplex(PrimitiveType type);
// f32 for c64, f64 for c128; `type` itself otherwise.
PrimitiveType ComplexComponentType(PrimitiveType type);
// c64 for f32, c128 for f64; PRIMITIVE_TYPE_INVALID otherwise.
PrimitiveType ComplexTypeOf(PrimitiveType component);
// The element types of 2026-12-03 the front end reads (staged rollout):
// the 8-bit floats and f4e2m1fn, and the integers narrower than a byte.
// One byte per element (sub-byte integers sign- or zero-extended,
// f4e2m1fn in the low bits). The interpreter computes with them in a wider
// type and rounds back; the compiler does not emit them yet.
bool IsNarrowFloat(PrimitiveType type);
bool IsNarrowInteger(PrimitiveType type);
inline bool IsNarrowType(PrimitiveType type) {
  return IsNarrowFloat(type) || IsNarrowInteger(type);
}
class Shape;
// Whether any array leaf of `shape` (itself, for an array) is a narrow type.
bool HasNarrowLeaf(const Shape& shape);
// Whether any array leaf of `shape` is complex.
bool HasComplexLeaf(const Shape& shape);
// Whether any array leaf of `shape` has a packed layout (E(n)).
bool HasPackedLeaf(const Shape& shape);
// The format of a narrow float; nullptr for any other type.
const MinifloatFormat* NarrowFloatFormat(PrimitiveType type);
// Value bits of a narrow integer (4, 2 or 1); 0 for any other type.
int NarrowIntegerBits(PrimitiveType type);
// The width of the types narrower than a byte: the narrow integers' bits,
// f4e2m1fn 4; 0 for any other type (the only widths `E(n)` may pack).
int SubByteWidth(PrimitiveType type);
// The type the interpreter computes a narrow type in: f32 for the narrow
// floats (every value exact), s8 / u8 for the narrow integers; `type`
// itself otherwise.
PrimitiveType WideComputeType(PrimitiveType type);

// An array shape (element type, dimensions, layout) or a tuple of shapes.
// The layout is minor-to-major; an empty layout on an array means the
// default descending layout {rank-1, ..., 0}.
class Shape {
 public:
  Shape() = default;
  Shape(PrimitiveType type, std::vector<int64_t> dimensions);
  static Shape Tuple(std::vector<Shape> elements);
  static Shape Token();
  static Shape Scalar(PrimitiveType type) { return Shape(type, {}); }

  PrimitiveType element_type() const { return element_type_; }
  void set_element_type(PrimitiveType type) { element_type_ = type; }
  bool IsTuple() const { return element_type_ == TUPLE; }
  bool IsToken() const { return element_type_ == TOKEN; }
  bool IsArray() const { return IsArrayType(element_type_); }

  const std::vector<int64_t>& dimensions() const { return dimensions_; }
  std::vector<int64_t>* mutable_dimensions() { return &dimensions_; }
  int64_t dimensions(int64_t i) const { return dimensions_[i]; }
  int64_t rank() const { return static_cast<int64_t>(dimensions_.size()); }

  const std::vector<Shape>& tuple_shapes() const { return tuple_shapes_; }
  std::vector<Shape>* mutable_tuple_shapes() { return &tuple_shapes_; }
  const Shape& tuple_shapes(int64_t i) const { return tuple_shapes_[i]; }

  // Minor-to-major order; never empty for an array of rank >= 1 after
  // Canonicalize(); empty means "default" before that.
  const std::vector<int64_t>& minor_to_major() const { return minor_to_major_; }
  void set_minor_to_major(std::vector<int64_t> m2m) { minor_to_major_ = std::move(m2m); }
  bool has_layout() const { return !minor_to_major_.empty(); }
  // XLA's `E(n)` (LayoutProto.element_size_in_bits): the bits each element
  // takes in its buffer when a sub-byte type is packed; 0 when unpacked.
  // Only entry parameters and results carry it (LowerSubBytePacking unpacks
  // them at the entry); values are logical, so it never changes a result.
  int64_t element_size_in_bits() const { return element_size_in_bits_; }
  void set_element_size_in_bits(int64_t bits) { element_size_in_bits_ = bits; }
  // The layout, or the default descending one when none is set.
  std::vector<int64_t> LayoutOrDefault() const;
  bool HasDefaultLayout() const;
  void ClearLayout();  // recursively

  // Number of elements of an array (1 for a scalar); 0 for tuples.
  int64_t ElementCount() const;
  // Bytes of a dense array, one element per ByteWidth (never packed: the
  // bytes a Literal holds); for a tuple, the sum of its elements.
  int64_t ByteSize() const;

  // Leaf array shapes of a (nested) tuple, depth-first; {*this} for arrays.
  std::vector<Shape> FlattenLeaves() const;
  // The subshape at `index` (a path of tuple indices).
  const Shape& Subshape(absl::Span<const int64_t> index) const;
  // The same, or nullptr when `index` leaves the shape (an index into an
  // array, or out of a tuple's range): for indices read from input.
  const Shape* FindSubshape(absl::Span<const int64_t> index) const;

  // "f32[2,3]{1,0}", "(f32[], s32[4]{0})", "pred[]", "token[]".
  // `print_layout` prints layouts of rank >= 1 arrays (default or not).
  std::string ToString(bool print_layout = true) const;

  // Equality of type and dimensions (and tuple structure), ignoring layouts.
  bool Compatible(const Shape& other) const;
  // Exact equality, layouts included (an unset layout equals the default).
  bool operator==(const Shape& other) const;
  bool operator!=(const Shape& other) const { return !(*this == other); }

  ShapeProto ToProto() const;
  static absl::StatusOr<Shape> FromProto(const ShapeProto& proto);

 private:
  PrimitiveType element_type_ = PRIMITIVE_TYPE_INVALID;
  std::vector<int64_t> dimensions_;
  std::vector<Shape> tuple_shapes_;
  std::vector<int64_t> minor_to_major_;
  int64_t element_size_in_bits_ = 0;
};

// Row-major strides (in elements) of `dimensions`.
std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dimensions);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_SHAPE_H_
