#include "compiler/tooling/jax_test_data.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// A Python literal, as far as the data files use them.
struct PyValue {
  enum Kind { kNone, kBool, kInt, kFloat, kComplex, kString, kBytes, kList, kDict, kArray, kDate };
  Kind kind = kNone;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::complex<double> c;
  std::string s;                                         // string, bytes, date
  std::vector<PyValue> items;                            // list / tuple; array: its data
  std::vector<std::pair<std::string, PyValue>> entries;  // dict
  std::string dtype;                                     // array
  std::optional<std::vector<int64_t>> shape;             // array: shape=(...)
  int line = 0;
};

// A reader of the Python subset above. Hand-written: no Python runs here
// (the files are data), and no library linked reads Python literals.
class Reader {
 public:
  Reader(absl::string_view text, absl::string_view path) : text_(text), path_(path) {}

  absl::StatusOr<std::vector<JaxTestData>> ReadFile() {
    std::vector<JaxTestData> out;
    while (true) {
      SkipSpaceAndComments();
      if (AtEnd()) break;
      const int line = line_;
      // A statement: `import ...`, `from ... import ...`, `name = value`
      // or `name[key] = value`.
      std::string name = Ident();
      if (name.empty()) return Error("expected a statement");
      if (name == "import" || name == "from") {
        SkipLine();
        continue;
      }
      std::string key;
      if (Consume('[')) {
        AOT_ASSIGN_OR_RETURN(PyValue k, Value());
        if (k.kind != PyValue::kString) return Error("expected a string key");
        key = k.s;
        if (!Consume(']')) return Error("expected ']'");
      }
      if (!Consume('=')) return Error(absl::StrCat("expected '=' after '", name, "'"));
      // Aliases (array = np.array, float32 = np.float32) and other names.
      SkipInlineSpace();
      if (IsIdentStart(Peek()) && !LooksLikeCall()) {
        SkipLine();
        continue;
      }
      AOT_ASSIGN_OR_RETURN(PyValue v, Value());
      if (!absl::StartsWith(name, "data_") || v.kind != PyValue::kDict) continue;
      if (v.entries.empty()) continue;  // data_2024_05_31 = {}
      auto add = [&](const PyValue& dict, std::string label) -> absl::Status {
        AOT_ASSIGN_OR_RETURN(JaxTestData d, DataSet(dict, std::move(label)));
        out.push_back(std::move(d));
        return absl::OkStatus();
      };
      if (Find(v, "mlir_module_text") != nullptr) {
        AOT_RETURN_IF_ERROR(add(v, key.empty() ? name : absl::StrCat(name, "[", key, "]")));
      } else {
        // A dict of data sets by key.
        for (const auto& [k, d] : v.entries) {
          if (d.kind == PyValue::kDict)
            AOT_RETURN_IF_ERROR(add(d, absl::StrCat(name, "[", k, "]")));
        }
      }
      (void)line;
    }
    return out;
  }

 private:
  static bool IsIdentStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  }
  static bool IsIdentChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  void Advance() {
    if (text_[pos_] == '\n') ++line_;
    ++pos_;
  }
  void SkipInlineSpace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t')) Advance();
  }
  void SkipSpaceAndComments() {
    while (!AtEnd()) {
      if (std::isspace(static_cast<unsigned char>(Peek())) || Peek() == '\\') {
        Advance();
      } else if (Peek() == '#') {
        while (!AtEnd() && Peek() != '\n') Advance();
      } else {
        break;
      }
    }
  }
  void SkipLine() {
    while (!AtEnd() && Peek() != '\n') Advance();
  }
  bool Consume(char c) {
    SkipSpaceAndComments();
    if (Peek() != c) return false;
    Advance();
    return true;
  }
  std::string Ident() {
    SkipSpaceAndComments();
    const size_t start = pos_;
    if (!IsIdentStart(Peek())) return "";
    while (!AtEnd() && (IsIdentChar(Peek()) || Peek() == '.')) Advance();
    return std::string(text_.substr(start, pos_ - start));
  }
  // Whether the name here is called (`dict(`, `array(`): a value, not an
  // alias.
  bool LooksLikeCall() const {
    size_t p = pos_;
    while (p < text_.size() && (IsIdentChar(text_[p]) || text_[p] == '.')) ++p;
    return p < text_.size() && text_[p] == '(';
  }
  absl::Status Error(absl::string_view what) const {
    size_t end = pos_;
    while (end < text_.size() && end - pos_ < 24 && text_[end] != '\n') ++end;
    return absl::InvalidArgumentError(absl::StrCat(path_, ":", line_, ": ", what, ", found '",
                                                   text_.substr(pos_, end - pos_), "'"));
  }

  absl::StatusOr<PyValue> Value() {
    SkipSpaceAndComments();
    PyValue v;
    v.line = line_;
    const char c = Peek();
    if (c == '(' || c == '[') {
      Advance();
      const char close = c == '(' ? ')' : ']';
      v.kind = PyValue::kList;
      while (!Consume(close)) {
        AOT_ASSIGN_OR_RETURN(PyValue item, Value());
        v.items.push_back(std::move(item));
        if (!Consume(',') && Peek() != close) {
          SkipSpaceAndComments();
          if (Peek() != close)
            return Error(absl::StrCat("expected ',' or '", std::string(1, close), "'"));
        }
      }
      return v;
    }
    if (c == '{') {
      Advance();
      v.kind = PyValue::kDict;
      while (!Consume('}')) {
        AOT_ASSIGN_OR_RETURN(PyValue k, Value());
        if (k.kind != PyValue::kString) return Error("expected a string key");
        if (!Consume(':')) return Error("expected ':'");
        AOT_ASSIGN_OR_RETURN(PyValue item, Value());
        v.entries.emplace_back(k.s, std::move(item));
        if (!Consume(',')) {
          SkipSpaceAndComments();
          if (Peek() != '}') return Error("expected ',' or '}'");
        }
      }
      return v;
    }
    if (c == '"' || c == '\'' ||
        ((c == 'r' || c == 'b' || c == 'R' || c == 'B') && (Peek(1) == '"' || Peek(1) == '\'')) ||
        ((c == 'r' || c == 'b') && (Peek(1) == 'b' || Peek(1) == 'r') &&
         (Peek(2) == '"' || Peek(2) == '\''))) {
      return String();
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
      return Number();
    }
    const size_t name_pos = pos_;
    const int name_line = line_;
    std::string name = Ident();
    if (name == "nan" || name == "inf" || name == "np.nan" || name == "np.inf") {
      // Possibly the real part of a complex value (nan+0.j).
      pos_ = name_pos;
      line_ = name_line;
      return Number();
    }
    if (name.empty()) return Error("expected a value");
    if (name == "True" || name == "False") {
      v.kind = PyValue::kBool;
      v.b = name == "True";
      return v;
    }
    if (name == "None") return v;
    if (!Consume('(')) {
      // A bare name: a dtype (float32) or another alias.
      v.kind = PyValue::kString;
      v.s = name;
      return v;
    }
    // A call: dict(k=v), array(data, dtype=t, shape=(...)), datetime.date(...).
    std::vector<PyValue> args;
    std::vector<std::pair<std::string, PyValue>> kwargs;
    while (!Consume(')')) {
      SkipSpaceAndComments();
      size_t save = pos_;
      int save_line = line_;
      std::string key = Ident();
      if (!key.empty() && Consume('=')) {
        AOT_ASSIGN_OR_RETURN(PyValue item, Value());
        kwargs.emplace_back(key, std::move(item));
      } else {
        pos_ = save;
        line_ = save_line;
        AOT_ASSIGN_OR_RETURN(PyValue item, Value());
        args.push_back(std::move(item));
      }
      if (!Consume(',')) {
        SkipSpaceAndComments();
        if (Peek() != ')') return Error("expected ',' or ')'");
      }
    }
    const std::string base = name.substr(name.rfind('.') + 1);
    if (base == "dict") {
      v.kind = PyValue::kDict;
      v.entries = std::move(kwargs);
      return v;
    }
    if (base == "date") {
      if (args.size() != 3) return Error("datetime.date takes (year, month, day)");
      v.kind = PyValue::kDate;
      v.s = absl::StrFormat("%04d-%02d-%02d", args[0].i, args[1].i, args[2].i);
      return v;
    }
    if (base == "array" || base == "asarray") {
      if (args.size() != 1) return Error("array takes one positional argument");
      v.kind = PyValue::kArray;
      v.items = {std::move(args[0])};
      for (auto& [k, a] : kwargs) {
        if (k == "dtype") v.dtype = a.s.substr(a.s.rfind('.') + 1);
        if (k == "shape") {
          std::vector<int64_t> dims;
          for (const PyValue& d : a.items) dims.push_back(d.i);
          v.shape = dims;
        }
      }
      return v;
    }
    // A dtype called on a value (np.float32(1.5)): the value as a 0-d array.
    if (args.size() == 1 && kwargs.empty()) {
      v.kind = PyValue::kArray;
      v.items = {std::move(args[0])};
      v.dtype = base;
      return v;
    }
    return Error(absl::StrCat("cannot read a call of '", name, "'"));
  }

  absl::StatusOr<PyValue> String() {
    PyValue v;
    v.line = line_;
    bool raw = false, bytes = false;
    while (Peek() == 'r' || Peek() == 'R' || Peek() == 'b' || Peek() == 'B') {
      raw |= Peek() == 'r' || Peek() == 'R';
      bytes |= Peek() == 'b' || Peek() == 'B';
      Advance();
    }
    const char q = Peek();
    const bool triple = Peek(1) == q && Peek(2) == q;
    const size_t quote_len = triple ? 3 : 1;
    for (size_t k = 0; k < quote_len; ++k) Advance();
    std::string out;
    while (true) {
      if (AtEnd()) return Error("unterminated string");
      if (Peek() == q && (!triple || (Peek(1) == q && Peek(2) == q))) {
        for (size_t k = 0; k < quote_len; ++k) Advance();
        break;
      }
      if (Peek() == '\\' && !raw) {
        Advance();
        const char e = Peek();
        Advance();
        switch (e) {
          case 'n':
            out.push_back('\n');
            break;
          case 't':
            out.push_back('\t');
            break;
          case '\\':
            out.push_back('\\');
            break;
          case '\'':
            out.push_back('\'');
            break;
          case '"':
            out.push_back('"');
            break;
          case '\n':
            break;
          case 'x': {
            int value = 0;
            for (int k = 0; k < 2; ++k) {
              const char h = Peek();
              Advance();
              value = value * 16 + (std::isdigit(static_cast<unsigned char>(h))
                                        ? h - '0'
                                        : (std::tolower(h) - 'a' + 10));
            }
            out.push_back(static_cast<char>(value));
            break;
          }
          default:
            out.push_back('\\');
            out.push_back(e);
        }
        continue;
      }
      if (Peek() == '\\' && raw) {
        out.push_back('\\');
        Advance();
        if (!AtEnd()) {
          out.push_back(Peek());
          Advance();
        }
        continue;
      }
      out.push_back(Peek());
      Advance();
    }
    v.kind = bytes ? PyValue::kBytes : PyValue::kString;
    v.s = std::move(out);
    // Adjacent literals concatenate ("a" "b").
    SkipSpaceAndComments();
    if (Peek() == '"' || Peek() == '\'' ||
        ((Peek() == 'b' || Peek() == 'r') && (Peek(1) == '"' || Peek(1) == '\''))) {
      AOT_ASSIGN_OR_RETURN(PyValue next, String());
      v.s += next.s;
    }
    return v;
  }

  // int, float, nan/inf with a sign, and complex sums (`1.5-2e-3j`, `-0j`).
  absl::StatusOr<PyValue> Number() {
    PyValue v;
    v.line = line_;
    auto one = [&](double* value, bool* imaginary, bool* integral) -> bool {
      SkipInlineSpace();
      const size_t start = pos_;
      if (Peek() == '-' || Peek() == '+') Advance();
      SkipInlineSpace();
      const bool negative = text_[start] == '-';
      if (IsIdentStart(Peek())) {
        std::string word = Ident();
        if (word != "nan" && word != "inf" && word != "np.nan" && word != "np.inf") return false;
        *value = absl::EndsWith(word, "nan") ? std::numeric_limits<double>::quiet_NaN()
                                             : std::numeric_limits<double>::infinity();
        if (negative) *value = -*value;
        *integral = false;
      } else {
        const size_t digits = pos_;
        while (!AtEnd() && (std::isdigit(static_cast<unsigned char>(Peek())) || Peek() == '.' ||
                            Peek() == 'e' || Peek() == 'E' || Peek() == '_' ||
                            ((Peek() == '-' || Peek() == '+') &&
                             (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E')))) {
          Advance();
        }
        std::string t(text_.substr(digits, pos_ - digits));
        t.erase(std::remove(t.begin(), t.end(), '_'), t.end());
        if (t.empty()) return false;
        *integral = t.find_first_of(".eE") == std::string::npos;
        if (!absl::SimpleAtod(t, value)) return false;
        if (negative) *value = -*value;
      }
      *imaginary = Peek() == 'j' || Peek() == 'J';
      if (*imaginary) Advance();
      return true;
    };
    double a = 0;
    bool a_imag = false, a_int = false;
    const size_t start = pos_;
    if (!one(&a, &a_imag, &a_int)) return Error("expected a number");
    SkipInlineSpace();
    if ((Peek() == '+' || Peek() == '-') && !a_imag) {
      // A complex sum: real +/- imaginary j.
      const size_t save = pos_;
      double b = 0;
      bool b_imag = false, b_int = false;
      if (one(&b, &b_imag, &b_int) && b_imag) {
        v.kind = PyValue::kComplex;
        v.c = {a, b};
        return v;
      }
      pos_ = save;
    }
    if (a_imag) {
      v.kind = PyValue::kComplex;
      v.c = {0, a};
    } else if (a_int) {
      v.kind = PyValue::kInt;
      std::string t(text_.substr(start, pos_ - start));
      t.erase(std::remove_if(t.begin(), t.end(),
                             [](char ch) { return ch == '_' || ch == ' ' || ch == '+'; }),
              t.end());
      if (!absl::SimpleAtoi(t, &v.i)) v.i = static_cast<int64_t>(a);
      v.f = a;
    } else {
      v.kind = PyValue::kFloat;
      v.f = a;
    }
    return v;
  }

  static const PyValue* Find(const PyValue& dict, absl::string_view key) {
    for (const auto& [k, v] : dict.entries) {
      if (k == key) return &v;
    }
    return nullptr;
  }

  absl::StatusOr<JaxTestData> DataSet(const PyValue& dict, std::string name) const {
    JaxTestData d;
    d.name = std::move(name);
    d.line = dict.line;
    auto where = [&](absl::string_view what) {
      return absl::InvalidArgumentError(
          absl::StrCat(path_, ":", dict.line, ": ", d.name, ": ", what));
    };
    if (const PyValue* p = Find(dict, "platform")) d.platform = p->s;
    if (const PyValue* t = Find(dict, "custom_call_targets")) {
      for (const PyValue& s : t->items) d.custom_call_targets.push_back(s.s);
    }
    if (const PyValue* t = Find(dict, "serialized_date")) d.serialized_date = t->s;
    const PyValue* text = Find(dict, "mlir_module_text");
    if (text == nullptr || text->kind != PyValue::kString) {
      return where("has no mlir_module_text string");
    }
    d.mlir_module_text = text->s;
    for (const char* key : {"inputs", "expected_outputs"}) {
      const PyValue* list = Find(dict, key);
      if (list == nullptr) return where(absl::StrCat("has no ", key));
      std::vector<const PyValue*> values;
      if (list->kind == PyValue::kList) {
        for (const PyValue& v : list->items) values.push_back(&v);
      } else {
        values.push_back(list);
      }
      for (size_t i = 0; i < values.size(); ++i) {
        auto literal = ToLiteral(*values[i]);
        if (!literal.ok()) {
          return where(absl::StrCat(key, "[", i, "]: ", literal.status().message()));
        }
        (std::string(key) == "inputs" ? d.inputs : d.expected_outputs)
            .push_back(*std::move(literal));
      }
    }
    return d;
  }

  static absl::StatusOr<PrimitiveType> DtypeOf(absl::string_view dtype) {
    static const auto* kTypes =
        new std::map<std::string, PrimitiveType, std::less<>>{{"float16", F16},
                                                              {"bfloat16", BF16},
                                                              {"float32", F32},
                                                              {"float64", F64},
                                                              {"complex64", C64},
                                                              {"complex128", C128},
                                                              {"int8", S8},
                                                              {"int16", S16},
                                                              {"int32", S32},
                                                              {"int64", S64},
                                                              {"uint8", U8},
                                                              {"uint16", U16},
                                                              {"uint32", U32},
                                                              {"uint64", U64},
                                                              {"bool", PRED},
                                                              {"bool_", PRED},
                                                              {"float8_e4m3fn", F8E4M3FN},
                                                              {"float8_e5m2", F8E5M2},
                                                              {"int4", S4},
                                                              {"uint4", U4}};
    auto it = kTypes->find(dtype);
    if (it == kTypes->end()) {
      return absl::InvalidArgumentError(absl::StrCat("unknown dtype '", dtype, "'"));
    }
    return it->second;
  }

  // A value (an array, or a bare number) as a literal.
  static absl::StatusOr<Literal> ToLiteral(const PyValue& value) {
    const PyValue* data = &value;
    std::string dtype;
    std::optional<std::vector<int64_t>> declared;
    if (value.kind == PyValue::kArray) {
      data = &value.items[0];
      dtype = value.dtype;
      declared = value.shape;
    }
    // The shape from the nesting, the elements flattened row-major.
    std::vector<int64_t> dims;
    std::vector<const PyValue*> flat;
    for (const PyValue* level = data; level->kind == PyValue::kList;) {
      dims.push_back(static_cast<int64_t>(level->items.size()));
      if (level->items.empty()) break;
      level = &level->items[0];
    }
    std::function<absl::Status(const PyValue&, size_t)> walk = [&](const PyValue& v,
                                                                   size_t depth) -> absl::Status {
      if (depth == dims.size()) {
        if (v.kind == PyValue::kList) return absl::InvalidArgumentError("ragged nesting");
        flat.push_back(&v);
        return absl::OkStatus();
      }
      if (v.kind != PyValue::kList || static_cast<int64_t>(v.items.size()) != dims[depth]) {
        return absl::InvalidArgumentError("ragged nesting");
      }
      for (const PyValue& item : v.items) AOT_RETURN_IF_ERROR(walk(item, depth + 1));
      return absl::OkStatus();
    };
    AOT_RETURN_IF_ERROR(walk(*data, 0));
    if (declared) dims = *declared;
    if (dtype.empty()) {
      // numpy's defaults, as its repr leaves them out.
      dtype = "int64";
      for (const PyValue* e : flat) {
        if (e->kind == PyValue::kBool) dtype = "bool";
        if (e->kind == PyValue::kFloat && dtype != "complex128") dtype = "float64";
        if (e->kind == PyValue::kComplex) dtype = "complex128";
      }
    }
    AOT_ASSIGN_OR_RETURN(PrimitiveType type, DtypeOf(dtype));
    Literal literal(Shape(type, dims));
    if (literal.element_count() != static_cast<int64_t>(flat.size())) {
      return absl::InvalidArgumentError(absl::StrCat("shape has ", literal.element_count(),
                                                     " element(s), the data ", flat.size()));
    }
    for (size_t k = 0; k < flat.size(); ++k) {
      const PyValue& e = *flat[k];
      const int64_t at = static_cast<int64_t>(k);
      if (IsComplex(type)) {
        literal.SetFromComplex(at,
                               e.kind == PyValue::kComplex
                                   ? e.c
                                   : std::complex<double>(e.kind == PyValue::kInt ? e.i : e.f, 0));
      } else if (type == PRED) {
        literal.SetFromInt64(at, e.kind == PyValue::kBool ? e.b : e.i != 0);
      } else if (IsFloatingPoint(type)) {
        if (e.kind == PyValue::kComplex)
          return absl::InvalidArgumentError("complex value in a real array");
        literal.SetFromDouble(at, e.kind == PyValue::kInt ? static_cast<double>(e.i) : e.f);
      } else {
        if (e.kind != PyValue::kInt && e.kind != PyValue::kBool) {
          return absl::InvalidArgumentError("non-integer value in an integer array");
        }
        literal.SetFromInt64(at, e.kind == PyValue::kBool ? e.b : e.i);
      }
    }
    return literal;
  }

  absl::string_view text_;
  std::string path_;
  size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

bool LooksLikeJaxTestData(absl::string_view path, absl::string_view bytes) {
  return absl::EndsWith(path, ".py") && absl::StrContains(bytes, "mlir_module_text");
}

absl::StatusOr<std::vector<JaxTestData>> ParseJaxTestData(absl::string_view text,
                                                          absl::string_view path) {
  return Reader(text, path).ReadFile();
}

std::vector<Literal> FlatInputs(const JaxTestData& set) {
  std::vector<Literal> inputs;
  for (const Literal& l : set.inputs) {
    for (Literal& leaf : l.FlattenLeaves()) inputs.push_back(std::move(leaf));
  }
  return inputs;
}

absl::Status CompareWithJaxExpected(const Literal& result, const std::vector<Literal>& expected) {
  std::vector<const Literal*> actual = result.Leaves();
  if (actual.size() != expected.size()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the program returns ", actual.size(), " value(s); the data expects ", expected.size()));
  }
  for (size_t k = 0; k < expected.size(); ++k) {
    const Literal& a = *actual[k];
    const Literal& e = expected[k];
    const PrimitiveType type = e.shape().element_type();
    if (a.shape().element_type() != type || a.shape().dimensions() != e.shape().dimensions()) {
      return absl::FailedPreconditionError(
          absl::StrCat("output ", k, " is ", a.shape().ToString(false), "; the data expects ",
                       e.shape().ToString(false)));
    }
    const double tol = JaxTolerance(type);
    int64_t differ = 0, first = -1;
    std::string first_text;
    for (int64_t i = 0; i < e.element_count(); ++i) {
      bool same;
      if (IsComplex(type)) {
        const std::complex<double> x = a.GetAsComplex(i), y = e.GetAsComplex(i);
        same = std::abs(x - y) <= tol + tol * std::abs(y) ||
               (std::isnan(x.real()) && std::isnan(y.real()));
        if (!same && first < 0)
          first_text = absl::StrCat("(", x.real(), ", ", x.imag(), ") expected (", y.real(), ", ",
                                    y.imag(), ")");
      } else if (IsFloatingPoint(type)) {
        const double x = a.GetAsDouble(i), y = e.GetAsDouble(i);
        same = (std::isnan(x) && std::isnan(y)) || x == y ||
               std::abs(x - y) <= tol + tol * std::abs(y);
        if (!same && first < 0) first_text = absl::StrCat(x, " expected ", y);
      } else {
        same = a.GetAsInt64(i) == e.GetAsInt64(i);
        if (!same && first < 0)
          first_text = absl::StrCat(a.GetAsInt64(i), " expected ", e.GetAsInt64(i));
      }
      if (!same) {
        ++differ;
        if (first < 0) first = i;
      }
    }
    if (differ > 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "output ", k, ": ", differ, " of ", e.element_count(), " element(s) differ beyond ", tol,
          "; first at linear index ", first, ": ", first_text));
    }
  }
  return absl::OkStatus();
}

double JaxTolerance(PrimitiveType type) {
  switch (type) {
    case F16:
      return 1e-3;
    case BF16:
      return 1e-2;
    case F32:
    case C64:
      return 1e-3;
    case F64:
    case C128:
      return 1e-5;
    default:
      return IsFloatingPoint(type) ? 1e-1 : 0;
  }
}

}  // namespace aot
