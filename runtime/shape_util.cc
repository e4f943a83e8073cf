#include "runtime/shape_util.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace aot {
namespace runtime_shape {

bool IsNarrowFloat(PrimitiveType type) {
  switch (type) {
    case F8E5M2:
    case F8E4M3FN:
    case F8E4M3B11FNUZ:
    case F8E5M2FNUZ:
    case F8E4M3FNUZ:
    case F8E4M3:
    case F8E3M4:
    case F8E8M0FNU:
    case F4E2M1FN:
      return true;
    default:
      return false;
  }
}

bool IsNarrowInteger(PrimitiveType type) {
  switch (type) {
    case S4:
    case U4:
    case S2:
    case U2:
    case S1:
    case U1:
      return true;
    default:
      return false;
  }
}

int64_t ElementBytes(PrimitiveType type) {
  if (IsNarrowFloat(type) || IsNarrowInteger(type)) return 1;  // unpacked
  switch (type) {
    case PRED:
    case S8:
    case U8:
      return 1;
    case S16:
    case U16:
    case F16:
    case BF16:
      return 2;
    case S32:
    case U32:
    case F32:
      return 4;
    case S64:
    case U64:
    case F64:
    case C64:
      return 8;
    case C128:
      return 16;
    default:
      return 0;
  }
}

bool IsArray(const ShapeProto& shape) { return ElementBytes(shape.element_type()) > 0; }

int64_t ElementCount(const ShapeProto& shape) {
  int64_t n = 1;
  for (int64_t d : shape.dimensions()) {
    if (d < 0) return -1;
    if (d != 0 && n > INT64_MAX / d) return -1;
    n *= d;
  }
  return n;
}

int64_t SubByteBits(PrimitiveType type) {
  switch (type) {
    case S4:
    case U4:
    case F4E2M1FN:
      return 4;
    case S2:
    case U2:
      return 2;
    case S1:
    case U1:
      return 1;
    default:
      return 0;
  }
}

int64_t PackedBits(const ShapeProto& shape) {
  const int64_t bits = shape.has_layout() ? shape.layout().element_size_in_bits() : 0;
  return bits > 0 && bits == SubByteBits(shape.element_type()) ? bits : 0;
}

absl::Status CheckElementSize(const ShapeProto& shape) {
  if (!shape.has_layout() || shape.layout().element_size_in_bits() == 0) return absl::OkStatus();
  if (PackedBits(shape) > 0) return absl::OkStatus();
  const int64_t width = SubByteBits(shape.element_type());
  return absl::InvalidArgumentError(absl::StrCat(
      "element_size_in_bits ", shape.layout().element_size_in_bits(), " of ", ToString(shape),
      width > 0 ? absl::StrCat(" is not its element type's width ", width)
                : std::string(" on an element type that is not narrower than a byte")));
}

int64_t ByteSize(const ShapeProto& shape) {
  int64_t n = ElementCount(shape);
  int64_t width = ElementBytes(shape.element_type());
  if (n < 0 || width == 0) return -1;
  if (const int64_t bits = PackedBits(shape); bits > 0)
    return n / 8 * bits + (n % 8 * bits + 7) / 8;
  if (n > INT64_MAX / width) return -1;
  return n * width;
}

std::string ToString(const ShapeProto& shape) {
  if (shape.element_type() == TUPLE) {
    std::vector<std::string> parts;
    for (const ShapeProto& s : shape.tuple_shapes()) parts.push_back(ToString(s));
    return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
  }
  std::string name = absl::AsciiStrToLower(PrimitiveType_Name(shape.element_type()));
  std::string out = absl::StrCat(name, "[", absl::StrJoin(shape.dimensions(), ","), "]");
  const int64_t bits = shape.has_layout() ? shape.layout().element_size_in_bits() : 0;
  if (shape.dimensions_size() > 0 || bits != 0) {
    absl::StrAppend(&out, "{", absl::StrJoin(MinorToMajor(shape), ","),
                    bits != 0 ? absl::StrCat(":E(", bits, ")") : "", "}");
  }
  return out;
}

std::vector<int64_t> MinorToMajor(const ShapeProto& shape) {
  int64_t rank = shape.dimensions_size();
  if (shape.has_layout() && shape.layout().minor_to_major_size() == rank && rank > 0) {
    return {shape.layout().minor_to_major().begin(), shape.layout().minor_to_major().end()};
  }
  std::vector<int64_t> m2m(rank);
  for (int64_t i = 0; i < rank; ++i) m2m[i] = rank - 1 - i;
  return m2m;
}

bool HasDefaultLayout(const ShapeProto& shape) {
  std::vector<int64_t> m2m = MinorToMajor(shape);
  for (size_t i = 0; i < m2m.size(); ++i) {
    if (m2m[i] != static_cast<int64_t>(m2m.size() - 1 - i)) return false;
  }
  return true;
}

bool PhysicalIsLogical(const ShapeProto& shape) {
  return HasDefaultLayout(shape) && PackedBits(shape) == 0;
}

bool SameShape(const ShapeProto& a, const ShapeProto& b) {
  return a.element_type() == b.element_type() &&
         std::equal(a.dimensions().begin(), a.dimensions().end(), b.dimensions().begin(),
                    b.dimensions().end()) &&
         MinorToMajor(a) == MinorToMajor(b) && PackedBits(a) == PackedBits(b);
}

namespace {

// Physical element offset of each logical (row-major) element, walked in
// row-major order.
void Relayout(const ShapeProto& shape, const uint8_t* src, uint8_t* dst, bool to_physical) {
  int64_t width = ElementBytes(shape.element_type());
  int64_t n = ElementCount(shape);
  int64_t rank = shape.dimensions_size();
  if (n <= 0) return;
  if (HasDefaultLayout(shape)) {
    std::memcpy(dst, src, static_cast<size_t>(n * width));
    return;
  }
  std::vector<int64_t> dims(shape.dimensions().begin(), shape.dimensions().end());
  std::vector<int64_t> m2m = MinorToMajor(shape);
  // Physical stride of each logical dimension.
  std::vector<int64_t> stride(rank);
  int64_t s = 1;
  for (int64_t i = 0; i < rank; ++i) {
    stride[m2m[i]] = s;
    s *= dims[m2m[i]];
  }
  std::vector<int64_t> index(rank, 0);
  int64_t physical = 0;
  for (int64_t logical = 0; logical < n; ++logical) {
    if (to_physical) {
      std::memcpy(dst + physical * width, src + logical * width, width);
    } else {
      std::memcpy(dst + logical * width, src + physical * width, width);
    }
    for (int64_t d = rank - 1; d >= 0; --d) {
      ++index[d];
      physical += stride[d];
      if (index[d] < dims[d]) break;
      physical -= stride[d] * dims[d];
      index[d] = 0;
    }
  }
}

}  // namespace

void LogicalToPhysical(const ShapeProto& shape, const uint8_t* logical, uint8_t* physical) {
  const int64_t bits = PackedBits(shape);
  if (bits == 0) {
    Relayout(shape, logical, physical, /*to_physical=*/true);
    return;
  }
  // Packed: relayout one byte per element, then pack in physical order, the
  // first element of each byte in its most significant bits (XLA's order).
  const int64_t n = ElementCount(shape);
  std::vector<uint8_t> unpacked(static_cast<size_t>(std::max<int64_t>(n, 0)));
  Relayout(shape, logical, unpacked.data(), /*to_physical=*/true);
  const int64_t per_byte = 8 / bits;
  const uint8_t mask = static_cast<uint8_t>((1u << bits) - 1);
  std::memset(physical, 0, static_cast<size_t>(ByteSize(shape)));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t shift = (per_byte - 1 - i % per_byte) * bits;
    physical[i / per_byte] |= static_cast<uint8_t>((unpacked[i] & mask) << shift);
  }
}

void PhysicalToLogical(const ShapeProto& shape, const uint8_t* physical, uint8_t* logical) {
  const int64_t bits = PackedBits(shape);
  if (bits == 0) {
    Relayout(shape, physical, logical, /*to_physical=*/false);
    return;
  }
  const int64_t n = ElementCount(shape);
  std::vector<uint8_t> unpacked(static_cast<size_t>(std::max<int64_t>(n, 0)));
  const int64_t per_byte = 8 / bits;
  const uint32_t mask = (1u << bits) - 1;
  const bool is_signed =
      shape.element_type() == S4 || shape.element_type() == S2 || shape.element_type() == S1;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t shift = (per_byte - 1 - i % per_byte) * bits;
    uint32_t v = (physical[i / per_byte] >> shift) & mask;
    if (is_signed && (v >> (bits - 1)) != 0) v |= ~mask;  // sign-extend into the byte
    unpacked[i] = static_cast<uint8_t>(v);
  }
  Relayout(shape, unpacked.data(), logical, /*to_physical=*/false);
}

}  // namespace runtime_shape
}  // namespace aot
