#include "compiler/tooling/literal_json.h"

#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_parser.h"
#include "nlohmann/json.hpp"
#include "support/status_macros.h"

namespace aot {

namespace {

using Json = nlohmann::json;

std::string Brief(const Json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = absl::StrCat(text.substr(0, 37), "...");
  return text;
}

absl::Status ValueError(absl::string_view where, const Json& value, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", Brief(value), " ", why));
}

// Integer element: exact, range-checked against the type's bounds.
absl::Status SetInteger(Literal& literal, int64_t index, const Json& value, PrimitiveType type,
                        absl::string_view where) {
  const absl::string_view type_name = PrimitiveTypeName(type);
  const bool is_signed = IsSignedInteger(type);
  const int bits =
      IsNarrowInteger(type) ? NarrowIntegerBits(type) : static_cast<int>(ByteWidth(type) * 8);
  const uint64_t umax =
      bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
  const int64_t smax =
      bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
  const int64_t smin = -smax - 1;
  auto out_of_range = [&]() {
    return ValueError(where, value, absl::StrCat("is out of range for ", type_name));
  };
  if (value.is_number_unsigned()) {
    uint64_t u = value.get<uint64_t>();
    if (is_signed ? u > static_cast<uint64_t>(smax) : u > umax) return out_of_range();
    literal.SetFromUint64(index, u);
    return absl::OkStatus();
  }
  if (value.is_number_integer()) {
    int64_t v = value.get<int64_t>();
    if (is_signed ? (v < smin || v > smax) : (v < 0 || static_cast<uint64_t>(v) > umax)) {
      return out_of_range();
    }
    literal.SetFromInt64(index, v);
    return absl::OkStatus();
  }
  if (value.is_number_float()) {
    double d = value.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) {
      return ValueError(where, value, absl::StrCat("is not an integer (", type_name, ")"));
    }
    // Integral values written with a fraction or exponent: exact only up
    // to 2^53; larger ones were beyond int64/uint64 anyway when the lexer
    // made them floats.
    if (std::fabs(d) > 9007199254740992.0) return out_of_range();
    int64_t v = static_cast<int64_t>(d);
    if (is_signed ? (v < smin || v > smax) : (v < 0 || static_cast<uint64_t>(v) > umax)) {
      return out_of_range();
    }
    literal.SetFromInt64(index, v);
    return absl::OkStatus();
  }
  return ValueError(where, value, absl::StrCat("is not an integer (", type_name, ")"));
}

// A JSON number or "nan" / "inf" / "-inf" as a double.
absl::StatusOr<double> FloatFromJson(const Json& value, PrimitiveType type,
                                     absl::string_view where) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    std::string s = absl::AsciiStrToLower(value.get<std::string>());
    if (s == "nan" || s == "+nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "-nan") return -std::numeric_limits<double>::quiet_NaN();
    if (s == "inf" || s == "+inf" || s == "infinity" || s == "+infinity") {
      return std::numeric_limits<double>::infinity();
    }
    if (s == "-inf" || s == "-infinity") return -std::numeric_limits<double>::infinity();
    return ValueError(where, value,
                      "is not a number (use a JSON number or \"nan\", \"inf\", \"-inf\")");
  }
  return ValueError(where, value, absl::StrCat("is not a number (", PrimitiveTypeName(type), ")"));
}

// A complex element is [real, imag].
absl::Status SetComplex(Literal& literal, int64_t index, const Json& value, PrimitiveType type,
                        absl::string_view where) {
  if (!value.is_array() || value.size() != 2) {
    return ValueError(where, value,
                      absl::StrCat("is not a ", PrimitiveTypeName(type), " (use [real, imag])"));
  }
  const PrimitiveType part = ComplexComponentType(type);
  AOT_ASSIGN_OR_RETURN(const double re, FloatFromJson(value[0], part, absl::StrCat(where, "[0]")));
  AOT_ASSIGN_OR_RETURN(const double im, FloatFromJson(value[1], part, absl::StrCat(where, "[1]")));
  literal.SetFromComplex(index, std::complex<double>(re, im));
  return absl::OkStatus();
}

absl::Status SetElement(Literal& literal, int64_t index, const Json& value,
                        absl::string_view where) {
  const PrimitiveType type = literal.shape().element_type();
  if (type == PRED) {
    if (value.is_boolean()) {
      literal.Set<bool>(index, value.get<bool>());
      return absl::OkStatus();
    }
    if (value.is_number_integer() || value.is_number_unsigned()) {
      int64_t v = -1;
      if (value.is_number_unsigned()) {
        uint64_t u = value.get<uint64_t>();
        if (u <= 1) v = static_cast<int64_t>(u);
      } else {
        v = value.get<int64_t>();
      }
      if (v == 0 || v == 1) {
        literal.Set<bool>(index, v == 1);
        return absl::OkStatus();
      }
    }
    return ValueError(where, value, "is not a pred (use true or false)");
  }
  if (IsComplex(type)) return SetComplex(literal, index, value, type, where);
  if (IsFloatingPoint(type)) {
    AOT_ASSIGN_OR_RETURN(const double v, FloatFromJson(value, type, where));
    literal.SetFromDouble(index, v);
    return absl::OkStatus();
  }
  return SetInteger(literal, index, value, type, where);
}

absl::StatusOr<Literal> ParseEntry(const Json& entry, absl::string_view where) {
  if (!entry.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": expected an object {\"shape\": ..., \"data\": [...]}, got ", Brief(entry)));
  }
  auto shape_it = entry.find("shape");
  if (shape_it == entry.end() || !shape_it->is_string()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": missing \"shape\" (a string like \"f32[2,3]\")"));
  }
  const std::string shape_text = shape_it->get<std::string>();
  auto shape = ParseShape(shape_text);
  if (!shape.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ".shape: cannot parse '", shape_text, "': ", shape.status().message()));
  }
  if (!shape->IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ".shape: '", shape_text,
                     "' is not an array shape (list a tuple's elements as separate entries)"));
  }
  for (int64_t d : shape->dimensions()) {
    if (d < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".shape: '", shape_text, "' has a negative dimension"));
    }
  }
  auto data_it = entry.find("data");
  if (data_it == entry.end()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": missing \"data\""));
  }
  const int64_t count = shape->ElementCount();
  if (count > (int64_t{1} << 31)) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ".shape: '", shape_text, "' is too large for JSON input"));
  }
  Literal literal(*shape);
  const Json& data = *data_it;
  if (!data.is_array()) {
    if (shape->rank() != 0 || data.is_object() || data.is_null()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".data: expected a list of ", count, " values in row-major order"));
    }
    AOT_RETURN_IF_ERROR(SetElement(literal, 0, data, absl::StrCat(where, ".data")));
    return literal;
  }
  if (static_cast<int64_t>(data.size()) != count) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ".data: has ", data.size(), " values, shape ", shape_text, " needs ", count));
  }
  for (int64_t i = 0; i < count; ++i) {
    const Json& value = data[static_cast<size_t>(i)];
    if ((value.is_array() && !IsComplex(shape->element_type())) || value.is_object()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".data[", i, "]: nested lists are not accepted; give a flat list in ",
                       "row-major order"));
    }
    if (absl::Status s = SetElement(literal, i, value, absl::StrCat(where, ".data[", i, "]"));
        !s.ok()) {
      return s;
    }
  }
  return literal;
}

std::string FormatJsonFloat(double v, PrimitiveType type) {
  if (std::isnan(v)) return "\"nan\"";
  if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
  if (v == 0 && std::signbit(v)) return "-0.0";
  std::string text = FormatFloat(v, type);
  // FormatFloat picks the fewest digits, so 30 comes out as "3e+01":
  // print integral values below 2^53 as integers instead.
  if (text.find('e') != std::string::npos && v == std::floor(v) &&
      std::fabs(v) < 9007199254740992.0) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.0f", v);
    text = buffer;
  }
  return text;
}

std::string FormatElement(const Literal& literal, int64_t i) {
  const PrimitiveType type = literal.shape().element_type();
  if (type == PRED) return literal.Get<bool>(i) ? "true" : "false";
  if (IsUnsignedInteger(type)) return absl::StrCat(literal.GetAsUint64(i));
  if (IsSignedInteger(type)) return absl::StrCat(literal.GetAsInt64(i));
  if (IsComplex(type)) {
    const std::complex<double> z = literal.GetAsComplex(i);
    const PrimitiveType part = ComplexComponentType(type);
    return absl::StrCat("[", FormatJsonFloat(z.real(), part), ", ", FormatJsonFloat(z.imag(), part),
                        "]");
  }
  return FormatJsonFloat(literal.GetAsDouble(i), type);
}

void AppendEntry(const Literal& literal, std::string& out) {
  absl::StrAppend(&out, "{\"shape\": \"", literal.shape().ToString(false), "\", \"data\": [");
  const int64_t n = literal.element_count();
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    out += FormatElement(literal, i);
  }
  out += "]}";
}

std::string JsonString(absl::string_view s) { return Json(std::string(s)).dump(); }

}  // namespace

absl::StatusOr<std::vector<Literal>> ParseLiteralsJson(absl::string_view text,
                                                       absl::string_view key) {
  Json doc;
  try {
    doc = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("invalid JSON: ", e.what()));
  }
  try {
    if (!doc.is_object()) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected a JSON object {", JsonString(key), ": [...]}, got ", Brief(doc)));
    }
    auto it = doc.find(std::string(key));
    if (it == doc.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("missing key ", JsonString(key), " in the JSON object"));
    }
    if (!it->is_array()) {
      return absl::InvalidArgumentError(
          absl::StrCat(JsonString(key), " must be a list of {\"shape\", \"data\"} entries"));
    }
    std::vector<Literal> literals;
    for (size_t i = 0; i < it->size(); ++i) {
      AOT_ASSIGN_OR_RETURN(auto literal, ParseEntry((*it)[i], absl::StrCat(key, "[", i, "]")));
      literals.push_back(std::move(literal));
    }
    return literals;
  } catch (const Json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("bad JSON value: ", e.what()));
  }
}

std::string LiteralsToJson(absl::Span<const Literal> literals, absl::string_view key) {
  std::vector<Literal> flattened;
  for (const Literal& l : literals) {
    if (l.shape().IsTuple()) {
      for (Literal& leaf : l.FlattenLeaves()) flattened.push_back(std::move(leaf));
    } else {
      flattened.push_back(l);
    }
  }
  std::string out = absl::StrCat("{", JsonString(key), ": [");
  for (size_t i = 0; i < flattened.size(); ++i) {
    out += i == 0 ? "\n  " : ",\n  ";
    AppendEntry(flattened[i], out);
  }
  out += flattened.empty() ? "]}\n" : "\n]}\n";
  return out;
}

absl::StatusOr<std::vector<Literal>> UnflattenLiterals(absl::Span<const Shape> shapes,
                                                       std::vector<Literal> leaves) {
  size_t expected = 0;
  for (const Shape& s : shapes) expected += s.FlattenLeaves().size();
  if (expected != leaves.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(leaves.size(), " value(s) given, ", expected, " expected"));
  }
  size_t next = 0;
  std::vector<Literal> values;
  std::function<absl::StatusOr<Literal>(const Shape&)> build =
      [&](const Shape& shape) -> absl::StatusOr<Literal> {
    if (shape.IsTuple()) {
      std::vector<Literal> elements;
      for (const Shape& sub : shape.tuple_shapes()) {
        AOT_ASSIGN_OR_RETURN(auto e, build(sub));
        elements.push_back(std::move(e));
      }
      return Literal::Tuple(std::move(elements));
    }
    Literal& leaf = leaves[next];
    if (!leaf.shape().Compatible(shape)) {
      return absl::InvalidArgumentError(absl::StrCat("value ", next, " has shape ",
                                                     leaf.shape().ToString(false), ", expected ",
                                                     shape.ToString(false)));
    }
    ++next;
    return std::move(leaf);
  };
  for (const Shape& s : shapes) {
    AOT_ASSIGN_OR_RETURN(auto v, build(s));
    values.push_back(std::move(v));
  }
  return values;
}

}  // namespace aot
