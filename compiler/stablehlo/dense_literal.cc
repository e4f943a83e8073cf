#include "compiler/stablehlo/dense_literal.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "support/float16.h"
#include "support/minifloat.h"
#include "support/status_macros.h"

namespace aot::stablehlo {
namespace {

struct ElementKind {
  enum Class { kPred, kSigned, kUnsigned, kFloat, kComplex };
  Class cls = kFloat;
  int bits = 32;  // storage bits of one element (component, for complex)
  const MinifloatFormat* minifloat = nullptr;
};

absl::StatusOr<ElementKind> KindOf(absl::string_view hlo) {
  ElementKind k;
  if (hlo == "pred") return ElementKind{ElementKind::kPred, 8};
  if (hlo == "c64") return ElementKind{ElementKind::kComplex, 32};
  if (hlo == "c128") return ElementKind{ElementKind::kComplex, 64};
  if (hlo == "f16" || hlo == "bf16") return ElementKind{ElementKind::kFloat, 16};
  if (hlo == "f32") return ElementKind{ElementKind::kFloat, 32};
  if (hlo == "f64") return ElementKind{ElementKind::kFloat, 64};
  static const struct {
    const char* name;
    const MinifloatFormat* format;
  } kMini[] = {{"f8e5m2", &kF8E5M2},
               {"f8e4m3", &kF8E4M3},
               {"f8e3m4", &kF8E3M4},
               {"f8e4m3fn", &kF8E4M3FN},
               {"f8e4m3fnuz", &kF8E4M3FNUZ},
               {"f8e5m2fnuz", &kF8E5M2FNUZ},
               {"f8e4m3b11fnuz", &kF8E4M3B11FNUZ},
               {"f8e8m0fnu", &kF8E8M0FNU},
               {"f4e2m1fn", &kF4E2M1FN}};
  for (const auto& m : kMini) {
    if (hlo == m.name) {
      k.cls = ElementKind::kFloat;
      k.bits = hlo == "f4e2m1fn" ? 4 : 8;
      k.minifloat = m.format;
      return k;
    }
  }
  int bits = 0;
  if ((hlo[0] == 's' || hlo[0] == 'u') && absl::SimpleAtoi(hlo.substr(1), &bits)) {
    return ElementKind{hlo[0] == 's' ? ElementKind::kSigned : ElementKind::kUnsigned, bits};
  }
  return absl::InvalidArgumentError(absl::StrCat("dense literal of unsupported type ", hlo));
}

std::string FormatDouble(double v, int bits) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  return bits > 32 ? absl::StrFormat("%.17g", v) : absl::StrFormat("%.9g", v);
}

// A float from its bit pattern (MLIR writes non-finite values so).
absl::StatusOr<std::string> FloatFromBits(uint64_t bits, absl::string_view hlo,
                                          const ElementKind& k) {
  if (k.minifloat != nullptr) {
    return FormatDouble(MinifloatToDouble(static_cast<uint8_t>(bits), *k.minifloat), 32);
  }
  // A NaN keeps its sign and, when it is not the quiet one, its payload, in
  // HLO's form (-nan, nan(0x<payload>)): total-order sorts and bitcasts see
  // them.
  const int mantissa = hlo == "f16" ? 10 : hlo == "bf16" ? 7 : k.bits == 32 ? 23 : 52;
  const int width = hlo == "f16" || hlo == "bf16" ? 16 : k.bits == 32 ? 32 : 64;
  const uint64_t exponent_mask = ((uint64_t{1} << (width - 1 - mantissa)) - 1) << mantissa;
  const uint64_t payload = bits & ((uint64_t{1} << mantissa) - 1);
  if ((bits & exponent_mask) == exponent_mask && payload != 0) {
    const bool negative = (bits >> (width - 1)) & 1;
    if (payload == uint64_t{1} << (mantissa - 1)) return negative ? "-nan" : "nan";
    return absl::StrFormat("%snan(0x%x)", negative ? "-" : "", payload);
  }
  if (hlo == "f16") return FormatDouble(HalfBitsToFloat(static_cast<uint16_t>(bits)), 32);
  if (hlo == "bf16") return FormatDouble(Bf16BitsToFloat(static_cast<uint16_t>(bits)), 32);
  if (k.bits == 32) return FormatDouble(BitsToFloat(static_cast<uint32_t>(bits)), 32);
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return FormatDouble(d, 64);
}

class ScalarReader {
 public:
  ScalarReader(absl::string_view hlo, const ElementKind& k) : hlo_(hlo), k_(k) {}

  // One scalar token (not complex) as an HLO element.
  absl::StatusOr<std::string> Scalar(absl::string_view token) const {
    token = absl::StripAsciiWhitespace(token);
    if (token.empty()) return absl::InvalidArgumentError("empty element in a dense literal");
    switch (k_.cls) {
      case ElementKind::kPred:
        if (token == "true" || token == "1") return std::string("true");
        if (token == "false" || token == "0") return std::string("false");
        return absl::InvalidArgumentError(
            absl::StrCat("'", token, "' is not a boolean (true or false)"));
      case ElementKind::kSigned:
      case ElementKind::kUnsigned: {
        const bool negative = token[0] == '-';
        absl::string_view digits = negative || token[0] == '+' ? token.substr(1) : token;
        uint64_t magnitude = 0;
        bool ok = absl::StartsWith(digits, "0x") || absl::StartsWith(digits, "0X")
                      ? absl::SimpleHexAtoi(digits.substr(2), &magnitude)
                      : absl::SimpleAtoi(digits, &magnitude);
        if (!ok) return absl::InvalidArgumentError(absl::StrCat("'", token, "' is not an integer"));
        const int bits = k_.bits;
        if (k_.cls == ElementKind::kUnsigned) {
          const uint64_t max = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
          if (negative || magnitude > max) {
            return absl::InvalidArgumentError(absl::StrCat(token, " is out of range for ", hlo_));
          }
          return absl::StrCat(magnitude);
        }
        const uint64_t limit = uint64_t{1} << (bits - 1);  // |min|
        if ((negative && magnitude > limit) || (!negative && magnitude > limit - 1)) {
          return absl::InvalidArgumentError(absl::StrCat(token, " is out of range for ", hlo_));
        }
        return negative ? absl::StrCat("-", magnitude) : absl::StrCat(magnitude);
      }
      case ElementKind::kFloat:
      case ElementKind::kComplex: {
        if (absl::StartsWith(token, "0x") || absl::StartsWith(token, "0X")) {
          uint64_t bits = 0;
          if (!absl::SimpleHexAtoi(token.substr(2), &bits)) {
            return absl::InvalidArgumentError(absl::StrCat("'", token, "' is not a hex value"));
          }
          return FloatFromBits(bits, hlo_ == "c64" ? "f32" : (hlo_ == "c128" ? "f64" : hlo_), k_);
        }
        const std::string lower = absl::AsciiStrToLower(token);
        if (lower == "nan" || lower == "inf" || lower == "-inf" || lower == "+inf" ||
            lower == "-nan") {
          return lower == "+inf" ? std::string("inf") : lower;
        }
        double v = 0;
        if (!absl::SimpleAtod(token, &v)) {
          return absl::InvalidArgumentError(absl::StrCat("'", token, "' is not a number"));
        }
        // Decimal text passes through: HLO's parser reads it the same way.
        return std::string(token);
      }
    }
    return absl::InternalError("element kind");
  }

 private:
  absl::string_view hlo_;
  const ElementKind& k_;
};

// Reads the nested list structure of `body` into elements, checking that
// the nesting matches `dims`.
class ListReader {
 public:
  ListReader(absl::string_view body, const ScalarReader& scalar, bool complex)
      : s_(body), scalar_(scalar), complex_(complex) {}

  absl::Status Read(const std::vector<int64_t>& dims, std::vector<std::string>* out, bool* splat) {
    Skip();
    if (Peek() != '[') {
      AOT_ASSIGN_OR_RETURN(std::string e, Element());
      out->push_back(std::move(e));
      *splat = true;
      Skip();
      if (pos_ != s_.size()) return Error("unexpected text after the value");
      return absl::OkStatus();
    }
    *splat = false;
    AOT_RETURN_IF_ERROR(List(dims, 0, out));
    Skip();
    if (pos_ != s_.size()) return Error("unexpected text after the list");
    return absl::OkStatus();
  }

 private:
  char Peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void Skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(what, " at offset ", pos_, " of the literal"));
  }
  absl::StatusOr<std::string> Token() {
    Skip();
    size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != ']' && s_[pos_] != ')' &&
           !std::isspace(static_cast<unsigned char>(s_[pos_]))) {
      ++pos_;
    }
    if (pos_ == start) return Error("expected a value");
    return std::string(s_.substr(start, pos_ - start));
  }
  absl::StatusOr<std::string> Element() {
    Skip();
    if (Peek() == '(') {
      if (!complex_) return Error("a complex pair in a literal of a real type");
      ++pos_;
      AOT_ASSIGN_OR_RETURN(std::string re_text, Token());
      Skip();
      if (Peek() != ',') return Error("expected ',' in a complex pair");
      ++pos_;
      AOT_ASSIGN_OR_RETURN(std::string im_text, Token());
      Skip();
      if (Peek() != ')') return Error("expected ')' to close a complex pair");
      ++pos_;
      AOT_ASSIGN_OR_RETURN(std::string re, scalar_.Scalar(re_text));
      AOT_ASSIGN_OR_RETURN(std::string im, scalar_.Scalar(im_text));
      return absl::StrCat("(", re, ", ", im, ")");
    }
    AOT_ASSIGN_OR_RETURN(std::string token, Token());
    AOT_ASSIGN_OR_RETURN(std::string value, scalar_.Scalar(token));
    if (complex_) return absl::StrCat("(", value, ", 0)");
    return value;
  }
  absl::Status List(const std::vector<int64_t>& dims, size_t depth, std::vector<std::string>* out) {
    Skip();
    if (depth == dims.size()) {
      AOT_ASSIGN_OR_RETURN(std::string e, Element());
      out->push_back(std::move(e));
      return absl::OkStatus();
    }
    if (Peek() != '[') {
      return Error(absl::StrCat("expected '[' for dimension ", depth,
                                " (the literal's nesting "
                                "does not match the type's rank ",
                                dims.size(), ")"));
    }
    ++pos_;
    int64_t count = 0;
    Skip();
    if (Peek() != ']') {
      while (true) {
        AOT_RETURN_IF_ERROR(List(dims, depth + 1, out));
        ++count;
        Skip();
        if (Peek() == ',') {
          ++pos_;
          continue;
        }
        break;
      }
    }
    if (Peek() != ']') return Error("expected ',' or ']'");
    ++pos_;
    if (count != dims[depth]) {
      return Error(absl::StrCat("dimension ", depth, " has ", count, " element(s); the type says ",
                                dims[depth]));
    }
    return absl::OkStatus();
  }

  absl::string_view s_;
  size_t pos_ = 0;
  const ScalarReader& scalar_;
  bool complex_;
};

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

absl::StatusOr<DenseElements> FromHexBlob(absl::string_view hex, absl::string_view hlo,
                                          const ElementKind& k, const std::vector<int64_t>& dims) {
  if (hex.size() % 2 != 0) return absl::InvalidArgumentError("odd number of hex digits");
  std::string bytes;
  bytes.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    int v = 0;
    for (int j = 0; j < 2; ++j) {
      char c = hex[i + j];
      int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
              : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
              : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                          : -1;
      if (d < 0) return absl::InvalidArgumentError("non-hex digit in a hex literal");
      v = v * 16 + d;
    }
    bytes.push_back(static_cast<char>(v));
  }
  if (k.bits < 8 && k.cls != ElementKind::kPred) {
    return absl::InvalidArgumentError(
        absl::StrCat("hex literals of sub-byte type ", hlo, " are not supported"));
  }
  const int component_bytes = k.cls == ElementKind::kPred ? 1 : k.bits / 8;
  const int element_bytes = k.cls == ElementKind::kComplex ? 2 * component_bytes : component_bytes;
  const int64_t count = ElementCount(dims);
  DenseElements out;
  int64_t n = 0;
  if (static_cast<int64_t>(bytes.size()) == element_bytes && count != 1) {
    out.splat = true;
    n = 1;
  } else if (static_cast<int64_t>(bytes.size()) == element_bytes * count) {
    n = count;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("hex literal of ", bytes.size(), " bytes for ",
                                                   count, " element(s) of ", hlo));
  }
  ScalarReader scalar(hlo, k);
  auto component = [&](size_t offset) -> absl::StatusOr<std::string> {
    uint64_t bits = 0;
    for (int b = component_bytes - 1; b >= 0; --b) {
      bits = (bits << 8) | static_cast<unsigned char>(bytes[offset + b]);
    }
    if (k.cls == ElementKind::kPred) return std::string(bits ? "true" : "false");
    if (k.cls == ElementKind::kFloat || k.cls == ElementKind::kComplex) {
      return FloatFromBits(bits, hlo == "c64" ? "f32" : (hlo == "c128" ? "f64" : hlo), k);
    }
    if (k.cls == ElementKind::kSigned && k.bits < 64 && (bits >> (k.bits - 1)) & 1) {
      return absl::StrCat(static_cast<int64_t>(bits) - (int64_t{1} << k.bits));
    }
    if (k.cls == ElementKind::kSigned) return absl::StrCat(static_cast<int64_t>(bits));
    return absl::StrCat(bits);
  };
  out.elements.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    const size_t offset = static_cast<size_t>(i * element_bytes);
    auto re = component(offset);
    AOT_RETURN_IF_ERROR(re);
    if (k.cls == ElementKind::kComplex) {
      auto im = component(offset + component_bytes);
      AOT_RETURN_IF_ERROR(im);
      out.elements.push_back(absl::StrCat("(", *re, ", ", *im, ")"));
    } else {
      out.elements.push_back(*std::move(re));
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<DenseElements> ParseDenseElements(absl::string_view body,
                                                 absl::string_view hlo_element,
                                                 const std::vector<int64_t>& dims) {
  auto kind = KindOf(hlo_element);
  AOT_RETURN_IF_ERROR(kind);
  body = absl::StripAsciiWhitespace(body);
  if (absl::StartsWith(body, "\"")) {
    if (body.size() < 4 || !absl::StartsWith(body, "\"0x") || !absl::EndsWith(body, "\"")) {
      return absl::InvalidArgumentError("a string dense literal must be a hex blob \"0x...\"");
    }
    return FromHexBlob(body.substr(3, body.size() - 4), hlo_element, *kind, dims);
  }
  DenseElements out;
  if (body.empty()) {
    if (ElementCount(dims) != 0) {
      return absl::InvalidArgumentError("empty dense literal for a tensor with elements");
    }
    return out;
  }
  ScalarReader scalar(hlo_element, *kind);
  ListReader reader(body, scalar, kind->cls == ElementKind::kComplex);
  AOT_RETURN_IF_ERROR(reader.Read(dims, &out.elements, &out.splat));
  return out;
}

std::string HloLiteralBody(const std::vector<std::string>& elements,
                           const std::vector<int64_t>& dims) {
  if (dims.empty()) return elements.empty() ? std::string("0") : elements.front();
  std::string out;
  size_t next = 0;
  // Depth-first over the dimensions, "{...}" per level.
  auto emit = [&](auto&& self, size_t depth) -> void {
    out.push_back('{');
    for (int64_t i = 0; i < dims[depth]; ++i) {
      if (i > 0) out.append(", ");
      if (depth + 1 == dims.size()) {
        out.append(next < elements.size() ? elements[next] : "0");
        ++next;
      } else {
        self(self, depth + 1);
      }
    }
    out.push_back('}');
  };
  emit(emit, 0);
  return out;
}

}  // namespace aot::stablehlo
