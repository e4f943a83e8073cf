#include "compiler/hlo/literal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "support/status_macros.h"

namespace aot {

namespace {

template <typename T>
constexpr bool kIsFloat = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                          std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// Saturating float -> integer, NaN -> 0 (XLA's convert semantics).
template <typename IntT>
IntT SaturatingCast(double v) {
  if (std::isnan(v)) return 0;
  constexpr double lo = static_cast<double>(std::numeric_limits<IntT>::min());
  // 2^bits (exclusive upper bound), exactly representable as a double.
  constexpr double hi = static_cast<double>(std::numeric_limits<IntT>::max()) + 1.0;
  if (v <= lo) return std::numeric_limits<IntT>::min();
  if (v >= hi) return std::numeric_limits<IntT>::max();
  return static_cast<IntT>(v);
}

template <typename T>
T FromDouble(double v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    // double -> float -> 16-bit: double rounding is harmless here except in
    // rare ties; XLA's interpreter does the same (via float).
    return T(static_cast<float>(v));
  } else if constexpr (kIsFloat<T>) {
    return static_cast<T>(v);
  } else {
    return SaturatingCast<T>(v);
  }
}

template <typename T>
double ToDouble(T v) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return static_cast<double>(static_cast<float>(v));
  } else {
    return static_cast<double>(v);
  }
}

}  // namespace

Literal::Literal(const Shape& shape) : shape_(shape) {
  if (shape.IsTuple()) {
    for (const Shape& s : shape.tuple_shapes()) elements_.emplace_back(s);
  } else if (shape.IsArray()) {
    bytes_.assign(static_cast<size_t>(shape.ByteSize()), 0);
  }
}

void Literal::SetLayoutsFrom(const Shape& shape) {
  if (shape.IsTuple() != shape_.IsTuple() ||
      (shape.IsTuple() && shape.tuple_shapes().size() != elements_.size())) {
    return;  // not the same structure: nothing to take
  }
  for (size_t i = 0; i < elements_.size(); ++i) {
    elements_[i].SetLayoutsFrom(shape.tuple_shapes()[i]);
  }
  if (shape.IsTuple() || (shape.element_type() == shape_.element_type() &&
                          shape.dimensions() == shape_.dimensions())) {
    shape_ = shape;
  }
}

Literal Literal::Tuple(std::vector<Literal> elements) {
  std::vector<Shape> shapes;
  for (const Literal& e : elements) shapes.push_back(e.shape());
  Literal l;
  l.shape_ = Shape::Tuple(std::move(shapes));
  l.elements_ = std::move(elements);
  return l;
}

namespace {

// A literal of `shape` whose first elements are `values` (extra values are
// dropped, missing ones stay zero), each stored with `set`.
template <typename V, typename Set>
Literal FromValues(const Shape& shape, absl::Span<const V> values, Set set) {
  Literal l(shape);
  const size_t n =
      std::min(values.size(), static_cast<size_t>(std::max<int64_t>(0, l.element_count())));
  for (size_t i = 0; i < n; ++i) set(l, static_cast<int64_t>(i), values[i]);
  return l;
}

}  // namespace

Literal Literal::FromDoubles(const Shape& shape, absl::Span<const double> values) {
  return FromValues(shape, values, [](Literal& l, int64_t i, double v) { l.SetFromDouble(i, v); });
}

Literal Literal::FromInt64s(const Shape& shape, absl::Span<const int64_t> values) {
  return FromValues(shape, values, [](Literal& l, int64_t i, int64_t v) { l.SetFromInt64(i, v); });
}

namespace {

// The narrow types (IsNarrowType): one byte per element, handled before the
// native-type dispatch, which has no native type for them.
double NarrowToDouble(PrimitiveType type, uint8_t byte) {
  if (const MinifloatFormat* f = NarrowFloatFormat(type)) return MinifloatToDouble(byte, *f);
  return IsSignedInteger(type) ? static_cast<double>(static_cast<int8_t>(byte))
                               : static_cast<double>(byte);
}

// A narrow integer's byte for `value` taken modulo 2^bits (as integer
// conversions wrap), sign-extended for the signed types.
uint8_t WrapNarrowInteger(PrimitiveType type, uint64_t value) {
  const int bits = NarrowIntegerBits(type);
  uint64_t v = value & ((uint64_t{1} << bits) - 1);
  if (IsSignedInteger(type) && (v >> (bits - 1)) != 0) v |= ~((uint64_t{1} << bits) - 1);
  return static_cast<uint8_t>(v);
}

uint8_t NarrowFromDouble(PrimitiveType type, double value) {
  if (const MinifloatFormat* f = NarrowFloatFormat(type)) return DoubleToMinifloat(value, *f);
  // Float to integer: truncates, saturates, NaN to 0 (as convert does).
  const int bits = NarrowIntegerBits(type);
  const double lo = IsSignedInteger(type) ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double hi =
      IsSignedInteger(type) ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
  if (std::isnan(value)) return 0;
  const double t = std::clamp(std::trunc(value), lo, hi);
  return WrapNarrowInteger(type, static_cast<uint64_t>(static_cast<int64_t>(t)));
}

}  // namespace

std::complex<double> Literal::GetAsComplex(int64_t i) const {
  switch (shape_.element_type()) {
    case C64: {
      const std::complex<float> v = Get<std::complex<float>>(i);
      return {v.real(), v.imag()};
    }
    case C128:
      return Get<std::complex<double>>(i);
    default:
      return GetAsDouble(i);
  }
}

void Literal::SetFromComplex(int64_t i, std::complex<double> value) {
  switch (shape_.element_type()) {
    case C64:
      Set(i,
          std::complex<float>(static_cast<float>(value.real()), static_cast<float>(value.imag())));
      return;
    case C128:
      Set(i, value);
      return;
    default:
      SetFromDouble(i, value.real());
  }
}

double Literal::GetAsDouble(int64_t i) const {
  if (IsComplex(shape_.element_type())) return GetAsComplex(i).real();
  if (IsNarrowType(shape_.element_type())) return NarrowToDouble(shape_.element_type(), bytes_[i]);
  return ArrayTypeSwitch(shape_.element_type(), [&](auto tag) -> double {
    using T = typename decltype(tag)::type;
    return ToDouble(Get<T>(i));
  });
}

int64_t Literal::GetAsInt64(int64_t i) const {
  if (IsNarrowType(shape_.element_type()) || IsComplex(shape_.element_type()))
    return SaturatingCast<int64_t>(GetAsDouble(i));
  return ArrayTypeSwitch(shape_.element_type(), [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      return SaturatingCast<int64_t>(ToDouble(Get<T>(i)));
    } else {
      return static_cast<int64_t>(Get<T>(i));
    }
  });
}

uint64_t Literal::GetAsUint64(int64_t i) const {
  if (IsNarrowType(shape_.element_type()) || IsComplex(shape_.element_type())) {
    if (IsSignedInteger(shape_.element_type())) return static_cast<uint64_t>(GetAsInt64(i));
    return SaturatingCast<uint64_t>(GetAsDouble(i));
  }
  return ArrayTypeSwitch(shape_.element_type(), [&](auto tag) -> uint64_t {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      return SaturatingCast<uint64_t>(ToDouble(Get<T>(i)));
    } else {
      return static_cast<uint64_t>(Get<T>(i));
    }
  });
}

void Literal::SetFromDouble(int64_t i, double value) {
  if (IsComplex(shape_.element_type())) {
    SetFromComplex(i, value);
    return;
  }
  if (IsNarrowType(shape_.element_type())) {
    bytes_[i] = NarrowFromDouble(shape_.element_type(), value);
    return;
  }
  ArrayTypeSwitch(shape_.element_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Set<T>(i, FromDouble<T>(value));
  });
}

void Literal::SetFromInt64(int64_t i, int64_t value) {
  if (IsComplex(shape_.element_type())) {
    SetFromComplex(i, static_cast<double>(value));
    return;
  }
  if (IsNarrowInteger(shape_.element_type())) {
    bytes_[i] = WrapNarrowInteger(shape_.element_type(), static_cast<uint64_t>(value));
    return;
  }
  if (IsNarrowFloat(shape_.element_type())) {
    bytes_[i] = NarrowFromDouble(shape_.element_type(), static_cast<double>(value));
    return;
  }
  ArrayTypeSwitch(shape_.element_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      Set<T>(i, value != 0);
    } else if constexpr (kIsFloat<T>) {
      Set<T>(i, FromDouble<T>(static_cast<double>(value)));
    } else {
      Set<T>(i, static_cast<T>(value));  // wraps modulo 2^bits
    }
  });
}

void Literal::SetFromUint64(int64_t i, uint64_t value) {
  if (IsComplex(shape_.element_type())) {
    SetFromComplex(i, static_cast<double>(value));
    return;
  }
  if (IsNarrowInteger(shape_.element_type())) {
    bytes_[i] = WrapNarrowInteger(shape_.element_type(), value);
    return;
  }
  if (IsNarrowFloat(shape_.element_type())) {
    bytes_[i] = NarrowFromDouble(shape_.element_type(), static_cast<double>(value));
    return;
  }
  ArrayTypeSwitch(shape_.element_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      Set<T>(i, value != 0);
    } else if constexpr (kIsFloat<T>) {
      Set<T>(i, FromDouble<T>(static_cast<double>(value)));
    } else {
      Set<T>(i, static_cast<T>(value));
    }
  });
}

std::vector<Literal> Literal::FlattenLeaves() const {
  if (!shape_.IsTuple()) return {*this};
  std::vector<Literal> leaves;
  for (const Literal& e : elements_) {
    std::vector<Literal> sub = e.FlattenLeaves();
    for (Literal& l : sub) leaves.push_back(std::move(l));
  }
  return leaves;
}

std::vector<const Literal*> Literal::Leaves() const {
  if (!shape_.IsTuple()) return {this};
  std::vector<const Literal*> leaves;
  for (const Literal& e : elements_) {
    std::vector<const Literal*> sub = e.Leaves();
    leaves.insert(leaves.end(), sub.begin(), sub.end());
  }
  return leaves;
}

bool Literal::operator==(const Literal& other) const {
  if (!shape_.Compatible(other.shape_)) return false;
  if (shape_.IsTuple()) return elements_ == other.elements_;
  return bytes_ == other.bytes_;
}

int NanPayloadBits(PrimitiveType type) {
  switch (type) {
    case F64:
      return 52;
    case F32:
      return 23;
    case F16:
      return 10;
    case BF16:
      return 7;
    default:
      return 0;
  }
}

std::string FormatFloat(double value, PrimitiveType type) {
  if (std::isnan(value)) {
    // The payload travels in the double's top mantissa bits (see the
    // parser); a quiet NaN with no other bit set is the canonical one.
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(bits));
    const std::string sign = bits >> 63 ? "-" : "";
    const int m = NanPayloadBits(type);
    if (m == 0) return sign + "nan";
    const uint64_t payload = (bits & ((uint64_t{1} << 52) - 1)) >> (52 - m);
    if (payload == uint64_t{1} << (m - 1)) return sign + "nan";
    return absl::StrCat(sign, "nan(0x", absl::Hex(payload), ")");
  }
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  // Integral values print as integers ("30", not "3e+01").
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0) {
    std::snprintf(buffer, sizeof(buffer), "%.0f", value);
    if (value == 0 && std::signbit(value)) return "-0";
    return buffer;
  }
  // Shortest precision that round-trips through the element type.
  int max_digits = type == F64 ? 17 : 9;
  for (int digits = 1; digits <= max_digits; ++digits) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
    double parsed = std::strtod(buffer, nullptr);
    bool same;
    if (type == F64) {
      same = parsed == value;
    } else if (type == F32 || IsNarrowFloat(type)) {  // narrow floats are exact in f32
      same = static_cast<float>(parsed) == static_cast<float>(value);
    } else if (type == F16) {
      same =
          FloatToHalfBits(static_cast<float>(parsed)) == FloatToHalfBits(static_cast<float>(value));
    } else {
      same =
          FloatToBf16Bits(static_cast<float>(parsed)) == FloatToBf16Bits(static_cast<float>(value));
    }
    if (same) break;
  }
  return buffer;
}

namespace {

std::string ElementToString(const Literal& l, int64_t i) {
  PrimitiveType t = l.shape().element_type();
  if (t == PRED) return l.Get<bool>(i) ? "true" : "false";
  if (IsFloatingPoint(t)) return FormatFloat(l.GetAsDouble(i), t);
  if (IsComplex(t)) {  // XLA's spelling: "(real, imag)"
    const std::complex<double> v = l.GetAsComplex(i);
    const PrimitiveType part = ComplexComponentType(t);
    return absl::StrCat("(", FormatFloat(v.real(), part), ", ", FormatFloat(v.imag(), part), ")");
  }
  if (IsUnsignedInteger(t)) return absl::StrCat(l.GetAsUint64(i));
  return absl::StrCat(l.GetAsInt64(i));
}

void AppendArray(const Literal& l, int64_t dim, int64_t& offset, std::string& out) {
  const Shape& s = l.shape();
  if (dim == s.rank()) {
    out += ElementToString(l, offset++);
    return;
  }
  bool innermost = dim + 1 == s.rank();
  out += innermost ? "{" : "{ ";
  for (int64_t i = 0; i < s.dimensions(dim); ++i) {
    if (i > 0) out += ", ";
    AppendArray(l, dim + 1, offset, out);
  }
  out += innermost ? "}" : " }";
}

}  // namespace

std::string Literal::ValuesToString() const {
  if (shape_.IsTuple()) {
    std::vector<std::string> parts;
    for (const Literal& e : elements_) parts.push_back(e.ValuesToString());
    return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
  }
  std::string out;
  int64_t offset = 0;
  AppendArray(*this, 0, offset, out);
  return out;
}

std::string Literal::ToString() const {
  return absl::StrCat(shape_.ToString(), " ", ValuesToString());
}

namespace {

template <typename T>
void AppendPacked16(const Literal& l, std::string* out) {
  for (const T& v : l.data<T>()) {
    out->push_back(static_cast<char>(v.bits & 0xff));
    out->push_back(static_cast<char>(v.bits >> 8));
  }
}

}  // namespace

LiteralProto Literal::ToProto() const {
  LiteralProto proto;
  *proto.mutable_shape() = shape_.ToProto();
  if (shape_.IsTuple()) {
    for (const Literal& e : elements_) *proto.add_tuple_literals() = e.ToProto();
    return proto;
  }
  switch (shape_.element_type()) {
    case PRED:
      for (bool v : data<bool>()) proto.add_preds(v);
      break;
    case S8:
      proto.set_s8s(std::string(bytes_.begin(), bytes_.end()));
      break;
    case U8:
      proto.set_u8s(std::string(bytes_.begin(), bytes_.end()));
      break;
    case S16:
      for (int16_t v : data<int16_t>()) {
        proto.mutable_s16s()->push_back(static_cast<char>(v & 0xff));
        proto.mutable_s16s()->push_back(static_cast<char>((v >> 8) & 0xff));
      }
      break;
    case U16:
      for (uint16_t v : data<uint16_t>()) {
        proto.mutable_u16s()->push_back(static_cast<char>(v & 0xff));
        proto.mutable_u16s()->push_back(static_cast<char>(v >> 8));
      }
      break;
    case S32:
      for (int32_t v : data<int32_t>()) proto.add_s32s(v);
      break;
    case S64:
      for (int64_t v : data<int64_t>()) proto.add_s64s(v);
      break;
    case U32:
      for (uint32_t v : data<uint32_t>()) proto.add_u32s(v);
      break;
    case U64:
      for (uint64_t v : data<uint64_t>()) proto.add_u64s(v);
      break;
    case F16:
      AppendPacked16<Half>(*this, proto.mutable_f16s());
      break;
    case BF16:
      AppendPacked16<BFloat16>(*this, proto.mutable_bf16s());
      break;
    case F32:
      for (float v : data<float>()) proto.add_f32s(v);
      break;
    case F64:
      for (double v : data<double>()) proto.add_f64s(v);
      break;
    case C64:
      for (float v : data<float>()) proto.add_c64s(v);  // real, imag, real, ...
      break;
    case C128:
      for (double v : data<double>()) proto.add_c128s(v);
      break;
    default:
      if (IsNarrowInteger(shape_.element_type())) {
        proto.set_narrow_ints(std::string(bytes_.begin(), bytes_.end()));
      } else if (IsNarrowFloat(shape_.element_type())) {
        proto.set_narrow_floats(std::string(bytes_.begin(), bytes_.end()));
      }
      break;
  }
  return proto;
}

absl::StatusOr<Literal> Literal::FromProto(const LiteralProto& proto) {
  auto shape = Shape::FromProto(proto.shape());
  AOT_RETURN_IF_ERROR(shape);
  if (shape->IsTuple()) {
    if (proto.tuple_literals_size() != static_cast<int>(shape->tuple_shapes().size())) {
      return absl::InvalidArgumentError(absl::StrCat("tuple literal of shape ", shape->ToString(),
                                                     " has ", proto.tuple_literals_size(),
                                                     " elements"));
    }
    std::vector<Literal> elements;
    for (const LiteralProto& e : proto.tuple_literals()) {
      AOT_ASSIGN_OR_RETURN(auto sub, FromProto(e));
      elements.push_back(std::move(sub));
    }
    return Tuple(std::move(elements));
  }
  if (!shape->IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("literal of non-array shape ", shape->ToString()));
  }
  int64_t n = shape->ElementCount();
  int64_t width = ByteWidth(shape->element_type());
  if (n > (int64_t{1} << 40) / std::max<int64_t>(width, 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("literal of shape ", shape->ToString(), " is too large"));
  }
  auto count_error = [&](int64_t got) {
    return absl::InvalidArgumentError(absl::StrCat("literal of shape ", shape->ToString(), " has ",
                                                   got, " values, expected ", n));
  };
  Literal l(*shape);
  auto copy_bytes = [&](const std::string& bytes) -> absl::Status {
    if (static_cast<int64_t>(bytes.size()) != n * width) {
      return count_error(static_cast<int64_t>(bytes.size()) / std::max<int64_t>(width, 1));
    }
    // Little-endian on the wire and in memory (x86-64).
    std::memcpy(l.bytes_.data(), bytes.data(), bytes.size());
    return absl::OkStatus();
  };
  auto copy_repeated = [&](const auto& values, auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if (values.size() != n) return count_error(values.size());
    for (int64_t i = 0; i < n; ++i) l.Set<T>(i, static_cast<T>(values.Get(i)));
    return absl::OkStatus();
  };
  absl::Status s;
  switch (shape->element_type()) {
    case PRED:
      s = copy_repeated(proto.preds(), TypeTag<bool>{});
      break;
    case S8:
      s = copy_bytes(proto.s8s());
      break;
    case U8:
      s = copy_bytes(proto.u8s());
      break;
    case S16:
      s = copy_bytes(proto.s16s());
      break;
    case U16:
      s = copy_bytes(proto.u16s());
      break;
    case F16:
      s = copy_bytes(proto.f16s());
      break;
    case BF16:
      s = copy_bytes(proto.bf16s());
      break;
    case S32:
      s = copy_repeated(proto.s32s(), TypeTag<int32_t>{});
      break;
    case S64:
      s = copy_repeated(proto.s64s(), TypeTag<int64_t>{});
      break;
    case U32:
      s = copy_repeated(proto.u32s(), TypeTag<uint32_t>{});
      break;
    case U64:
      s = copy_repeated(proto.u64s(), TypeTag<uint64_t>{});
      break;
    case F32:
      s = copy_repeated(proto.f32s(), TypeTag<float>{});
      break;
    case F64:
      s = copy_repeated(proto.f64s(), TypeTag<double>{});
      break;
    case C64:
    case C128: {
      // Two values (real, imaginary) per element.
      const bool c64 = shape->element_type() == C64;
      const int64_t values = c64 ? proto.c64s_size() : proto.c128s_size();
      if (values % 2 != 0 || values / 2 != n) {
        s = absl::InvalidArgumentError(absl::StrCat("literal of shape ", shape->ToString(), " has ",
                                                    values, " real and imaginary parts, expected ",
                                                    2 * n));
        break;
      }
      for (int64_t i = 0; i < n; ++i) {
        l.SetFromComplex(i, c64 ? std::complex<double>(proto.c64s(2 * i), proto.c64s(2 * i + 1))
                                : std::complex<double>(proto.c128s(2 * i), proto.c128s(2 * i + 1)));
      }
      break;
    }
    default:
      if (IsNarrowFloat(shape->element_type())) {
        s = copy_bytes(proto.narrow_floats());
      } else if (IsNarrowInteger(shape->element_type())) {
        s = copy_bytes(proto.narrow_ints());
        // Each byte must be a value of the type, sign- or zero-extended.
        for (int64_t i = 0; s.ok() && i < n; ++i) {
          if (WrapNarrowInteger(shape->element_type(), l.bytes_[i]) != l.bytes_[i]) {
            s = absl::InvalidArgumentError(absl::StrCat(
                "literal of shape ", shape->ToString(), ": element ", i, " (byte ", l.bytes_[i],
                ") is not a value of ", PrimitiveTypeName(shape->element_type())));
          }
        }
      }
      break;
  }
  AOT_RETURN_IF_ERROR(s);
  return l;
}

int64_t LinearIndex(absl::Span<const int64_t> dims, absl::Span<const int64_t> index) {
  int64_t linear = 0;
  for (size_t i = 0; i < dims.size(); ++i) linear = linear * dims[i] + index[i];
  return linear;
}

bool NextIndex(absl::Span<const int64_t> dims, std::vector<int64_t>& index) {
  for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
    if (++index[i] < dims[i]) return true;
    index[i] = 0;
  }
  return false;
}

}  // namespace aot
