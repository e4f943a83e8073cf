#include "compiler/hlo/shape.h"

#include <cstdint>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {

namespace {

struct TypeInfo {
  PrimitiveType type;
  const char* name;
  int64_t width;
};

constexpr TypeInfo kTypes[] = {{PRED, "pred", 1},
                               {S8, "s8", 1},
                               {S16, "s16", 2},
                               {S32, "s32", 4},
                               {S64, "s64", 8},
                               {U8, "u8", 1},
                               {U16, "u16", 2},
                               {U32, "u32", 4},
                               {U64, "u64", 8},
                               {F16, "f16", 2},
                               {BF16, "bf16", 2},
                               {F32, "f32", 4},
                               {F64, "f64", 8},
                               {TOKEN, "token", 0},
                               // Since 2026-12-03: one byte per element.
                               {S4, "s4", 1},
                               {U4, "u4", 1},
                               {S2, "s2", 1},
                               {U2, "u2", 1},
                               {S1, "s1", 1},
                               {U1, "u1", 1},
                               {F8E5M2, "f8e5m2", 1},
                               {F8E4M3, "f8e4m3", 1},
                               {F8E4M3FN, "f8e4m3fn", 1},
                               {F8E4M3B11FNUZ, "f8e4m3b11fnuz", 1},
                               {F8E5M2FNUZ, "f8e5m2fnuz", 1},
                               {F8E4M3FNUZ, "f8e4m3fnuz", 1},
                               {F8E3M4, "f8e3m4", 1},
                               {F8E8M0FNU, "f8e8m0fnu", 1},
                               {F4E2M1FN, "f4e2m1fn", 1},
                               // Since 2026-12-03: (real, imaginary) pairs.
                               {C64, "c64", 8},
                               {C128, "c128", 16}};

}  // namespace

absl::string_view PrimitiveTypeName(PrimitiveType type) {
  for (const TypeInfo& t : kTypes) {
    if (t.type == type) return t.name;
  }
  if (type == TUPLE) return "tuple";
  return "invalid";
}

absl::StatusOr<PrimitiveType> ParsePrimitiveTypeName(absl::string_view name) {
  for (const TypeInfo& t : kTypes) {
    if (name == t.name) return t.type;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown element type '", name, "'"));
}

int64_t ByteWidth(PrimitiveType type) {
  for (const TypeInfo& t : kTypes) {
    if (t.type == type) return t.width;
  }
  return 0;
}

bool IsFloatingPoint(PrimitiveType type) {
  return type == F16 || type == BF16 || type == F32 || type == F64 || IsNarrowFloat(type);
}
bool IsSignedInteger(PrimitiveType type) {
  return type == S8 || type == S16 || type == S32 || type == S64 || type == S4 || type == S2 ||
         type == S1;
}
bool IsUnsignedInteger(PrimitiveType type) {
  return type == U8 || type == U16 || type == U32 || type == U64 || type == U4 || type == U2 ||
         type == U1;
}

const MinifloatFormat* NarrowFloatFormat(PrimitiveType type) {
  switch (type) {
    case F8E5M2:
      return &kF8E5M2;
    case F8E4M3:
      return &kF8E4M3;
    case F8E4M3FN:
      return &kF8E4M3FN;
    case F8E4M3B11FNUZ:
      return &kF8E4M3B11FNUZ;
    case F8E5M2FNUZ:
      return &kF8E5M2FNUZ;
    case F8E4M3FNUZ:
      return &kF8E4M3FNUZ;
    case F8E3M4:
      return &kF8E3M4;
    case F8E8M0FNU:
      return &kF8E8M0FNU;
    case F4E2M1FN:
      return &kF4E2M1FN;
    default:
      return nullptr;
  }
}
bool IsNarrowFloat(PrimitiveType type) { return NarrowFloatFormat(type) != nullptr; }

int NarrowIntegerBits(PrimitiveType type) { return type == F4E2M1FN ? 0 : SubByteWidth(type); }

int SubByteWidth(PrimitiveType type) { return static_cast<int>(runtime_shape::SubByteBits(type)); }
bool IsNarrowInteger(PrimitiveType type) { return NarrowIntegerBits(type) != 0; }

bool HasNarrowLeaf(const Shape& shape) {
  if (!shape.IsTuple()) return IsNarrowType(shape.element_type());
  for (const Shape& s : shape.tuple_shapes()) {
    if (HasNarrowLeaf(s)) return true;
  }
  return false;
}

PrimitiveType WideComputeType(PrimitiveType type) {
  if (IsNarrowFloat(type)) return F32;
  if (IsNarrowInteger(type)) return IsSignedInteger(type) ? S8 : U8;
  return type;
}
bool IsInteger(PrimitiveType type) { return IsSignedInteger(type) || IsUnsignedInteger(type); }
bool IsComplex(PrimitiveType type) { return type == C64 || type == C128; }
PrimitiveType ComplexComponentType(PrimitiveType type) {
  if (type == C64) return F32;
  if (type == C128) return F64;
  return type;
}
PrimitiveType ComplexTypeOf(PrimitiveType component) {
  if (component == F32) return C64;
  if (component == F64) return C128;
  return PRIMITIVE_TYPE_INVALID;
}
bool HasComplexLeaf(const Shape& shape) {
  if (!shape.IsTuple()) return IsComplex(shape.element_type());
  for (const Shape& s : shape.tuple_shapes()) {
    if (HasComplexLeaf(s)) return true;
  }
  return false;
}
bool HasPackedLeaf(const Shape& shape) {
  if (!shape.IsTuple()) return shape.IsArray() && shape.element_size_in_bits() != 0;
  for (const Shape& s : shape.tuple_shapes()) {
    if (HasPackedLeaf(s)) return true;
  }
  return false;
}
bool IsArrayType(PrimitiveType type) {
  return type == PRED || IsInteger(type) || IsFloatingPoint(type) || IsComplex(type);
}

Shape::Shape(PrimitiveType type, std::vector<int64_t> dimensions)
    : element_type_(type), dimensions_(std::move(dimensions)) {}

Shape Shape::Tuple(std::vector<Shape> elements) {
  Shape s;
  s.element_type_ = TUPLE;
  s.tuple_shapes_ = std::move(elements);
  return s;
}

Shape Shape::Token() {
  Shape s;
  s.element_type_ = TOKEN;
  return s;
}

std::vector<int64_t> Shape::LayoutOrDefault() const {
  if (!minor_to_major_.empty() || rank() == 0) return minor_to_major_;
  std::vector<int64_t> m2m(rank());
  for (int64_t i = 0; i < rank(); ++i) m2m[i] = rank() - 1 - i;
  return m2m;
}

bool Shape::HasDefaultLayout() const {
  if (element_size_in_bits_ != 0) return false;
  if (minor_to_major_.empty()) return true;
  for (int64_t i = 0; i < rank(); ++i) {
    if (minor_to_major_[i] != rank() - 1 - i) return false;
  }
  return true;
}

void Shape::ClearLayout() {
  minor_to_major_.clear();
  element_size_in_bits_ = 0;
  for (Shape& s : tuple_shapes_) s.ClearLayout();
}

int64_t Shape::ElementCount() const {
  if (!IsArray()) return 0;
  int64_t n = 1;
  for (int64_t d : dimensions_) {
    if (d <= 0) return 0;
    // Saturate instead of overflowing (the verifier rejects such shapes).
    if (n > INT64_MAX / d) return INT64_MAX;
    n *= d;
  }
  return n;
}

int64_t Shape::ByteSize() const {
  if (IsTuple()) {
    int64_t n = 0;
    for (const Shape& s : tuple_shapes_) n += s.ByteSize();
    return n;
  }
  int64_t count = ElementCount();
  int64_t width = ByteWidth(element_type_);
  if (width > 0 && count > INT64_MAX / width) return INT64_MAX;
  return count * width;
}

std::vector<Shape> Shape::FlattenLeaves() const {
  if (!IsTuple()) return {*this};
  std::vector<Shape> leaves;
  for (const Shape& s : tuple_shapes_) {
    std::vector<Shape> sub = s.FlattenLeaves();
    leaves.insert(leaves.end(), sub.begin(), sub.end());
  }
  return leaves;
}

const Shape& Shape::Subshape(absl::Span<const int64_t> index) const {
  const Shape* s = this;
  for (int64_t i : index) s = &s->tuple_shapes_[i];
  return *s;
}

const Shape* Shape::FindSubshape(absl::Span<const int64_t> index) const {
  const Shape* s = this;
  for (int64_t i : index) {
    if (!s->IsTuple() || i < 0 || i >= static_cast<int64_t>(s->tuple_shapes_.size())) {
      return nullptr;
    }
    s = &s->tuple_shapes_[i];
  }
  return s;
}

std::string Shape::ToString(bool print_layout) const {
  if (IsTuple()) {
    std::vector<std::string> parts;
    for (const Shape& s : tuple_shapes_) parts.push_back(s.ToString(print_layout));
    return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
  }
  if (IsToken()) return "token[]";
  std::string out =
      absl::StrCat(PrimitiveTypeName(element_type_), "[", absl::StrJoin(dimensions_, ","), "]");
  if (print_layout && (rank() > 0 || element_size_in_bits_ != 0)) {
    absl::StrAppend(&out, "{", absl::StrJoin(LayoutOrDefault(), ","),
                    element_size_in_bits_ != 0 ? absl::StrCat(":E(", element_size_in_bits_, ")")
                                               : std::string(),
                    "}");
  }
  return out;
}

bool Shape::Compatible(const Shape& other) const {
  if (element_type_ != other.element_type_) return false;
  if (IsTuple()) {
    if (tuple_shapes_.size() != other.tuple_shapes_.size()) return false;
    for (size_t i = 0; i < tuple_shapes_.size(); ++i) {
      if (!tuple_shapes_[i].Compatible(other.tuple_shapes_[i])) return false;
    }
    return true;
  }
  return dimensions_ == other.dimensions_;
}

bool Shape::operator==(const Shape& other) const {
  if (!Compatible(other)) return false;
  if (IsTuple()) {
    for (size_t i = 0; i < tuple_shapes_.size(); ++i) {
      if (tuple_shapes_[i] != other.tuple_shapes_[i]) return false;
    }
    return true;
  }
  return LayoutOrDefault() == other.LayoutOrDefault() &&
         element_size_in_bits_ == other.element_size_in_bits_;
}

ShapeProto Shape::ToProto() const {
  ShapeProto proto;
  proto.set_element_type(element_type_);
  for (int64_t d : dimensions_) proto.add_dimensions(d);
  for (const Shape& s : tuple_shapes_) *proto.add_tuple_shapes() = s.ToProto();
  if (!minor_to_major_.empty()) {
    for (int64_t d : minor_to_major_) {
      proto.mutable_layout()->add_minor_to_major(d);
    }
  }
  if (element_size_in_bits_ != 0) {
    proto.mutable_layout()->set_element_size_in_bits(element_size_in_bits_);
  }
  return proto;
}

absl::StatusOr<Shape> Shape::FromProto(const ShapeProto& proto) {
  Shape s;
  s.element_type_ = proto.element_type();
  if (s.element_type_ == TUPLE) {
    if (proto.dimensions_size() > 0) {
      return absl::InvalidArgumentError("tuple shape has dimensions");
    }
    for (const ShapeProto& t : proto.tuple_shapes()) {
      AOT_ASSIGN_OR_RETURN(auto sub, FromProto(t));
      s.tuple_shapes_.push_back(std::move(sub));
    }
    return s;
  }
  if (s.element_type_ == TOKEN) return s;
  if (!IsArrayType(s.element_type_)) {
    return absl::InvalidArgumentError(
        absl::StrCat("shape has invalid element type ", proto.element_type()));
  }
  if (proto.tuple_shapes_size() > 0) {
    return absl::InvalidArgumentError("array shape has tuple_shapes");
  }
  for (int64_t d : proto.dimensions()) {
    if (d < 0) {
      return absl::InvalidArgumentError(absl::StrCat("shape has negative dimension ", d));
    }
    s.dimensions_.push_back(d);
  }
  if (proto.has_layout() && proto.layout().minor_to_major_size() > 0) {
    std::vector<int64_t> m2m(proto.layout().minor_to_major().begin(),
                             proto.layout().minor_to_major().end());
    std::vector<bool> seen(s.dimensions_.size(), false);
    if (m2m.size() != s.dimensions_.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "layout {", absl::StrJoin(m2m, ","), "} does not match rank ", s.dimensions_.size()));
    }
    for (int64_t d : m2m) {
      if (d < 0 || d >= static_cast<int64_t>(seen.size()) || seen[d]) {
        return absl::InvalidArgumentError(
            absl::StrCat("layout {", absl::StrJoin(m2m, ","), "} is not a permutation"));
      }
      seen[d] = true;
    }
    s.minor_to_major_ = std::move(m2m);
  }
  if (proto.has_layout() && proto.layout().element_size_in_bits() != 0) {
    const int64_t bits = proto.layout().element_size_in_bits();
    const int64_t width = SubByteWidth(s.element_type_);
    if (bits != width) {
      return absl::InvalidArgumentError(
          absl::StrCat("element size E(", bits, ") of ", s.ToString(false),
                       width > 0 ? absl::StrCat(" is not its element type's width ", width)
                                 : std::string(": only types narrower than a byte are packed")));
    }
    s.element_size_in_bits_ = bits;
  }
  return s;
}

std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dimensions) {
  std::vector<int64_t> strides(dimensions.size(), 1);
  for (int64_t i = static_cast<int64_t>(dimensions.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * dimensions[i + 1];
  }
  return strides;
}

}  // namespace aot
