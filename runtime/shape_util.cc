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

int64_t ByteSize(const ShapeProto& shape) {
  int64_t n = ElementCount(shape);
  int64_t width = ElementBytes(shape.element_type());
  if (n < 0 || width == 0) return -1;
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
  if (shape.dimensions_size() > 0) {
    absl::StrAppend(&out, "{", absl::StrJoin(MinorToMajor(shape), ","), "}");
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

bool SameShape(const ShapeProto& a, const ShapeProto& b) {
  return a.element_type() == b.element_type() &&
         std::equal(a.dimensions().begin(), a.dimensions().end(), b.dimensions().begin(),
                    b.dimensions().end()) &&
         MinorToMajor(a) == MinorToMajor(b);
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
  Relayout(shape, logical, physical, /*to_physical=*/true);
}

void PhysicalToLogical(const ShapeProto& shape, const uint8_t* physical, uint8_t* logical) {
  Relayout(shape, physical, logical, /*to_physical=*/false);
}

}  // namespace runtime_shape
}  // namespace aot
