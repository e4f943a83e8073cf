#include "compiler/stablehlo/mlir_text.h"

#include <cctype>
#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace aot::stablehlo {
namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}
// The mhlo.sharding string of an argument's or result's attributes.
std::string ShardingOf(const std::map<std::string, MlirAttr>& attributes) {
  auto it = attributes.find("mhlo.sharding");
  if (it == attributes.end() || it->second.kind != MlirAttr::kString) return "";
  return it->second.s;
}

bool IsValueNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' ||
         c == '-';
}

// The recursive-descent reader. Every error is returned through `Fail`,
// which records the first one with its position; callers return false up
// the stack.
class Reader {
 public:
  Reader(absl::string_view text, absl::string_view path, int first_line)
      : text_(text), path_(path), line_(first_line) {}

  absl::StatusOr<MlirModule> ReadModule();

 private:
  // --- positions and errors ---
  Location Here() const { return Location{line_, static_cast<int>(pos_ - line_start_) + 1}; }
  bool Fail(absl::string_view message) { return FailAt(Here(), message); }
  bool FailAt(Location loc, absl::string_view message) {
    if (error_.empty()) {
      error_ = absl::StrCat(path_, ":", loc.line, ":", loc.column, ": ", message);
    }
    return false;
  }
  absl::Status Error() const { return absl::InvalidArgumentError(error_); }

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  void Advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      line_start_ = pos_ + 1;
    }
    ++pos_;
  }
  // Skips blanks and // comments; returns whether a newline was crossed.
  bool SkipSpace() {
    bool newline = false;
    while (!AtEnd()) {
      char c = Peek();
      if (c == '\n') newline = true;
      if (std::isspace(static_cast<unsigned char>(c))) {
        Advance();
      } else if (c == '/' && Peek(1) == '/') {
        while (!AtEnd() && Peek() != '\n') Advance();
      } else {
        break;
      }
    }
    return newline;
  }
  bool TryConsume(absl::string_view token) {
    SkipSpace();
    if (!absl::StartsWith(text_.substr(pos_), token)) return false;
    // A keyword must not run on into an identifier.
    if (IsIdentStart(token.back()) && IsIdentChar(Peek(token.size()))) return false;
    for (size_t i = 0; i < token.size(); ++i) Advance();
    return true;
  }
  bool Expect(absl::string_view token, absl::string_view what) {
    if (TryConsume(token)) return true;
    return Fail(absl::StrCat("expected '", token, "' ", what, NextDescription()));
  }
  std::string NextDescription() {
    SkipSpace();
    if (AtEnd()) return ", found the end of the input";
    size_t end = pos_;
    while (end < text_.size() && end - pos_ < 24 && text_[end] != '\n') ++end;
    return absl::StrCat(", found '", text_.substr(pos_, end - pos_), "'");
  }
  bool StartsWith(absl::string_view s) {
    SkipSpace();
    return absl::StartsWith(text_.substr(pos_), s);
  }
  // Whether the text here continues the operation before it on a new line
  // rather than starting another one: `name = value` (the pretty forms lay
  // an op's attributes out on the lines after its operands: conv's
  // `dim_numbers = ...`, dot_general's `batching_dims = ...`) or a literal
  // (`dense<...>`, `array<...>`: a check op's expected value). No operation
  // starts so: a new one starts with %, ^, " or its dotted name.
  // Whether a number follows the ':' here (a slice range's next part).
  bool ColonStartsNumber() {
    if (!StartsWith(":")) return false;
    size_t at = pos_ + 1;
    while (at < text_.size() && (text_[at] == ' ' || text_[at] == '\t')) ++at;
    return at < text_.size() &&
           (std::isdigit(static_cast<unsigned char>(text_[at])) || text_[at] == '-');
  }
  // Whether an attribute dict `{name = ...` starts here (not a region).
  bool AttrDictAhead() {
    if (!StartsWith("{")) return false;
    const size_t save_pos = pos_;
    const int save_line = line_;
    const size_t save_start = line_start_;
    TryConsume("{");
    const bool dict = ContinuesOperation();
    pos_ = save_pos;
    line_ = save_line;
    line_start_ = save_start;
    return dict;
  }
  bool ContinuesOperation() {
    SkipSpace();
    size_t end = pos_;
    while (end < text_.size() && IsIdentChar(text_[end])) ++end;
    absl::string_view word = text_.substr(pos_, end - pos_);
    if (end < text_.size() && text_[end] == '<' && (word == "dense" || word == "array")) {
      return true;
    }
    while (end < text_.size() && (text_[end] == ' ' || text_[end] == '\t')) ++end;
    return !word.empty() && end + 1 < text_.size() && text_[end] == '=' && text_[end + 1] != '=';
  }

  // --- lexical pieces ---
  std::string ReadIdent() {
    SkipSpace();
    size_t start = pos_;
    if (!IsIdentStart(Peek())) return "";
    while (!AtEnd() && IsIdentChar(Peek())) Advance();
    return std::string(text_.substr(start, pos_ - start));
  }
  bool ReadValueName(std::string* name) {
    SkipSpace();
    if (Peek() != '%') return Fail(absl::StrCat("expected a value (%name)", NextDescription()));
    Advance();
    size_t start = pos_;
    while (!AtEnd() && IsValueNameChar(Peek())) {
      // "%a->" never occurs, but "-" ends a name before '>'.
      if (Peek() == '-' && Peek(1) == '>') break;
      Advance();
    }
    if (pos_ == start) return Fail("expected a value name after '%'");
    *name = std::string(text_.substr(start, pos_ - start));
    return true;
  }
  bool ReadValueRef(MlirValueRef* ref) {
    SkipSpace();
    ref->loc = Here();
    if (!ReadValueName(&ref->name)) return false;
    if (Peek() == '#') {
      Advance();
      size_t start = pos_;
      while (std::isdigit(static_cast<unsigned char>(Peek()))) Advance();
      if (!absl::SimpleAtoi(text_.substr(start, pos_ - start), &ref->index)) {
        return Fail("expected a result number after '#'");
      }
    }
    return true;
  }
  bool ReadString(std::string* out);
  bool ReadSymbol(std::string* out) {
    SkipSpace();
    if (Peek() != '@') return Fail(absl::StrCat("expected a symbol (@name)", NextDescription()));
    Advance();
    if (Peek() == '"') return ReadString(out);
    size_t start = pos_;
    while (!AtEnd() && (IsIdentChar(Peek()) || Peek() == '-')) Advance();
    if (pos_ == start) return Fail("expected a name after '@'");
    *out = std::string(text_.substr(start, pos_ - start));
    return true;
  }
  bool ReadNumber(MlirAttr* out);
  // Skips a balanced (...) / <...> / [...] / {...} group starting at the
  // current character, strings included.
  bool SkipBalanced();
  // The text of a balanced <...> group, without the brackets.
  bool ReadAngleBody(std::string* body);

  // --- types ---
  bool ReadType(MlirType* type);
  bool ReadElementType(std::string* element);
  // t (, t)*. A {...} after a type: the argument's attributes in a
  // function signature; in an op's signature (`op_attributes` given) the
  // op's attribute dict written after its types.
  bool ReadTypeList(std::vector<MlirType>* types,
                    std::map<std::string, MlirAttr>* op_attributes = nullptr);
  bool ReadFunctionResults(std::vector<MlirType>* types);

  // --- attributes ---
  bool ReadAttrValue(MlirAttr* attr, bool in_dict);
  bool ReadAttrDict(std::map<std::string, MlirAttr>* dict, char close);
  bool ReadList(MlirAttr* attr);
  bool ReadHashAttr(MlirAttr* attr);
  bool SkipLoc() {
    if (!StartsWith("loc(")) return true;
    TryConsume("loc");
    return SkipBalanced();
  }

  // --- structure ---
  bool ReadFunction(MlirFunction* fn);
  bool ReadRegionBody(MlirRegion* region);  // after '{', through '}'
  bool ReadRegion(MlirRegion* region) {
    if (!Expect("{", "to open a region")) return false;
    return ReadRegionBody(region);
  }
  bool ReadBlockArgs(std::vector<std::pair<std::string, MlirType>>* args);
  bool ReadOperation(MlirOperation* op);
  bool ReadGenericOperation(MlirOperation* op);
  bool ReadPrettyOperation(MlirOperation* op);
  bool ReadSignature(MlirOperation* op);
  bool ReadWhile(MlirOperation* op);
  bool ReadReduce(MlirOperation* op);
  bool ReadParenItems(MlirOperation* op);

  // Nesting of attributes, types and regions: bounded so that malformed
  // input cannot exhaust the stack.
  static constexpr int kMaxDepth = 256;
  struct DepthGuard {
    explicit DepthGuard(Reader* r) : reader(r) { ++reader->depth_; }
    ~DepthGuard() { --reader->depth_; }
    bool ok() const { return reader->depth_ <= kMaxDepth; }
    Reader* reader;
  };
  bool TooDeep() { return Fail(absl::StrCat("nesting deeper than ", kMaxDepth, " levels")); }
  int depth_ = 0;

  absl::string_view text_;
  absl::string_view path_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
  std::string error_;
};

bool Reader::ReadString(std::string* out) {
  SkipSpace();
  if (Peek() != '"') return Fail("expected a string");
  Location start = Here();
  Advance();
  out->clear();
  while (true) {
    if (AtEnd() || Peek() == '\n') return FailAt(start, "unterminated string");
    char c = Peek();
    Advance();
    if (c == '"') return true;
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    char e = Peek();
    Advance();
    switch (e) {
      case 'n':
        out->push_back('\n');
        break;
      case 't':
        out->push_back('\t');
        break;
      case '"':
      case '\\':
        out->push_back(e);
        break;
      default: {
        // MLIR's \XX hex escape.
        char h2 = Peek();
        if (std::isxdigit(static_cast<unsigned char>(e)) &&
            std::isxdigit(static_cast<unsigned char>(h2))) {
          Advance();
          out->push_back(static_cast<char>(std::strtol(std::string{e, h2}.c_str(), nullptr, 16)));
        } else {
          return Fail(absl::StrCat("unknown escape '\\", std::string(1, e), "' in a string"));
        }
      }
    }
  }
}

bool Reader::ReadNumber(MlirAttr* out) {
  SkipSpace();
  out->loc = Here();
  size_t start = pos_;
  if (Peek() == '-' || Peek() == '+') Advance();
  if (Peek() == '0' && (Peek(1) == 'x' || Peek(1) == 'X')) {
    Advance();
    Advance();
    size_t digits = pos_;
    while (std::isxdigit(static_cast<unsigned char>(Peek()))) Advance();
    if (pos_ == digits) return Fail("expected hex digits after '0x'");
    absl::string_view hex = text_.substr(digits, pos_ - digits);
    uint64_t v = 0;
    if (hex.size() > 16 || !absl::SimpleHexAtoi(hex, &v)) return Fail("hex integer out of range");
    out->kind = MlirAttr::kInt;
    out->i = static_cast<int64_t>(v);
    if (text_[start] == '-') out->i = -out->i;
    out->s = std::string(text_.substr(start, pos_ - start));
    return true;
  }
  bool is_float = false;
  while (std::isdigit(static_cast<unsigned char>(Peek()))) Advance();
  if (Peek() == '.' && std::isdigit(static_cast<unsigned char>(Peek(1)))) {
    is_float = true;
    Advance();
    while (std::isdigit(static_cast<unsigned char>(Peek()))) Advance();
  } else if (Peek() == '.' && !IsIdentChar(Peek(1))) {
    is_float = true;  // "1." as some printers write it
    Advance();
  }
  if ((Peek() == 'e' || Peek() == 'E') &&
      (std::isdigit(static_cast<unsigned char>(Peek(1))) ||
       ((Peek(1) == '-' || Peek(1) == '+') && std::isdigit(static_cast<unsigned char>(Peek(2)))))) {
    is_float = true;
    Advance();
    Advance();
    while (std::isdigit(static_cast<unsigned char>(Peek()))) Advance();
  }
  absl::string_view number = text_.substr(start, pos_ - start);
  out->s = std::string(number);
  if (number.empty() || number == "-" || number == "+") {
    return Fail(absl::StrCat("expected a number", NextDescription()));
  }
  if (is_float) {
    out->kind = MlirAttr::kFloat;
    if (!absl::SimpleAtod(number, &out->f)) return Fail("malformed floating-point number");
    return true;
  }
  out->kind = MlirAttr::kInt;
  if (!absl::SimpleAtoi(number, &out->i)) {
    // Integers wider than 64 bits appear only as unsigned 64-bit values.
    uint64_t u = 0;
    if (!absl::SimpleAtoi(number, &u)) return Fail("integer out of range");
    out->i = static_cast<int64_t>(u);
  }
  return true;
}

bool Reader::SkipBalanced() {
  SkipSpace();
  Location start = Here();
  std::string stack;
  do {
    if (AtEnd()) return FailAt(start, "unbalanced brackets (unterminated group)");
    char c = Peek();
    if (c == '"') {
      std::string ignored;
      if (!ReadString(&ignored)) return false;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      stack.push_back(c);
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      // "->" inside a group is an arrow, not a closing angle.
      if (c == '>' && pos_ > 0 && text_[pos_ - 1] == '-') {
        Advance();
        continue;
      }
      static constexpr char kOpen[] = {'(', '[', '{', '<'};
      static constexpr char kClose[] = {')', ']', '}', '>'};
      char want = 0;
      for (int i = 0; i < 4; ++i) {
        if (kClose[i] == c) want = kOpen[i];
      }
      if (stack.empty() || stack.back() != want) {
        return Fail(absl::StrCat("unbalanced '", std::string(1, c), "'"));
      }
      stack.pop_back();
    }
    Advance();
  } while (!stack.empty());
  return true;
}

bool Reader::ReadAngleBody(std::string* body) {
  SkipSpace();
  if (Peek() != '<') return Fail("expected '<'");
  size_t start = pos_ + 1;
  if (!SkipBalanced()) return false;
  *body = std::string(text_.substr(start, pos_ - 1 - start));
  return true;
}

bool Reader::ReadElementType(std::string* element) {
  SkipSpace();
  if (StartsWith("complex<")) {
    TryConsume("complex");
    std::string inner;
    if (!ReadAngleBody(&inner)) return false;
    *element = absl::StrCat("complex<", absl::StripAsciiWhitespace(inner), ">");
    return true;
  }
  if (Peek() == '!') {
    size_t start = pos_;
    Advance();
    while (!AtEnd() && IsIdentChar(Peek())) Advance();
    if (Peek() == '<' && !SkipBalanced()) return false;
    *element = std::string(text_.substr(start, pos_ - start));
    return true;
  }
  std::string ident = ReadIdent();
  if (ident.empty()) return Fail(absl::StrCat("expected an element type", NextDescription()));
  *element = ident;
  return true;
}

bool Reader::ReadType(MlirType* type) {
  DepthGuard guard(this);
  if (!guard.ok()) return TooDeep();
  SkipSpace();
  size_t start = pos_;
  Location loc = Here();
  *type = MlirType();
  if (TryConsume("tensor")) {
    if (!Expect("<", "after 'tensor'")) return false;
    type->kind = MlirType::kTensor;
    while (true) {
      SkipSpace();
      char c = Peek();
      if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t d = pos_;
        while (std::isdigit(static_cast<unsigned char>(Peek()))) Advance();
        int64_t dim = 0;
        if (!absl::SimpleAtoi(text_.substr(d, pos_ - d), &dim)) {
          return Fail("dimension size out of range");
        }
        type->dimensions.push_back(dim);
      } else if (c == '?') {
        Advance();
        type->dimensions.push_back(-1);
      } else if (c == '*') {
        Advance();
        type->is_ranked = false;
      } else {
        break;
      }
      if (Peek() != 'x') return Fail("expected 'x' after a dimension in a tensor type");
      Advance();
    }
    if (!ReadElementType(&type->element)) return false;
    type->bounds.assign(type->dimensions.size(), -1);
    if (TryConsume(",")) {
      // The encoding: bounds of dynamic dimensions, in either spelling.
      SkipSpace();
      Location enc_loc = Here();
      MlirAttr encoding;
      if (!ReadAttrValue(&encoding, /*in_dict=*/false)) return false;
      const MlirAttr* bounds = nullptr;
      if (encoding.kind == MlirAttr::kList &&
          (encoding.dict_name == "stablehlo.bounds" || encoding.dict_name == "mhlo.bounds")) {
        bounds = &encoding;
      } else if (encoding.kind == MlirAttr::kDict) {
        auto it = encoding.dict.find("bounds");
        if (it != encoding.dict.end()) bounds = &it->second;
      }
      if (bounds == nullptr || bounds->kind != MlirAttr::kList) {
        return FailAt(enc_loc, absl::StrCat("unsupported tensor encoding in '",
                                            text_.substr(start, pos_ - start),
                                            "' (only #stablehlo.bounds<...> is)"));
      }
      if (bounds->list.size() != type->dimensions.size()) {
        return FailAt(enc_loc, "bounds must list one entry per dimension");
      }
      for (size_t i = 0; i < bounds->list.size(); ++i) {
        const MlirAttr& b = bounds->list[i];
        if (b.kind == MlirAttr::kInt) {
          type->bounds[i] = b.i;
        } else if (!(b.kind == MlirAttr::kWord && b.s == "?")) {
          return FailAt(enc_loc, "a bound must be an integer or '?'");
        }
      }
    }
    if (!Expect(">", "to close the tensor type")) return false;
  } else if (TryConsume("tuple")) {
    if (!Expect("<", "after 'tuple'")) return false;
    type->kind = MlirType::kTuple;
    if (!TryConsume(">")) {
      do {
        MlirType element;
        if (!ReadType(&element)) return false;
        type->tuple.push_back(std::move(element));
      } while (TryConsume(","));
      if (!Expect(">", "to close the tuple type")) return false;
    }
  } else if (StartsWith("!stablehlo.token") || StartsWith("!mhlo.token")) {
    type->kind = MlirType::kToken;
    Advance();
    ReadIdent();
  } else if (StartsWith("(")) {
    return FailAt(loc, "expected a type, found a function type");
  } else {
    type->kind = MlirType::kElement;
    if (!ReadElementType(&type->element)) return false;
  }
  type->text = std::string(text_.substr(start, pos_ - start));
  return true;
}

bool Reader::ReadTypeList(std::vector<MlirType>* types,
                          std::map<std::string, MlirAttr>* op_attributes) {
  do {
    MlirType type;
    if (!ReadType(&type)) return false;
    if (op_attributes != nullptr) {
      // A region may follow an op's signature too: only `{name = ...`
      // is the attribute dict.
      if (AttrDictAhead()) {
        TryConsume("{");
        if (!ReadAttrDict(op_attributes, '}')) return false;
      }
      types->push_back(std::move(type));
      continue;
    }
    // Argument and result attributes in function signatures.
    if (StartsWith("{")) {
      std::map<std::string, MlirAttr> attributes;
      TryConsume("{");
      if (!ReadAttrDict(&attributes, '}')) return false;
      type.sharding = ShardingOf(attributes);
    }
    types->push_back(std::move(type));
  } while (TryConsume(","));
  return true;
}

bool Reader::ReadFunctionResults(std::vector<MlirType>* types) {
  if (TryConsume("(")) {
    if (TryConsume(")")) return true;
    if (!ReadTypeList(types)) return false;
    return Expect(")", "to close the result types");
  }
  MlirType type;
  if (!ReadType(&type)) return false;
  types->push_back(std::move(type));
  return true;
}

bool Reader::ReadList(MlirAttr* attr) {
  // '[' already next.
  attr->kind = MlirAttr::kList;
  attr->loc = Here();
  TryConsume("[");
  if (TryConsume("]")) return true;
  do {
    MlirAttr element;
    if (!ReadAttrValue(&element, /*in_dict=*/false)) return false;
    // An element with its own type (`[dense<[0, 1]> : tensor<2xindex>]`, JAX's
    // operand_layouts; `[1 : i64]`), else a slice range start:limit[:stride].
    const bool typed = StartsWith(":") && !StartsWith("::") && !ColonStartsNumber();
    if (typed) {
      TryConsume(":");
      element.type = std::make_shared<MlirType>();
      if (!ReadType(element.type.get())) return false;
    } else if (element.kind == MlirAttr::kInt && StartsWith(":")) {
      MlirAttr range;
      range.kind = MlirAttr::kList;
      range.s = "range";
      range.loc = element.loc;
      range.list.push_back(element);
      while (TryConsume(":")) {
        MlirAttr part;
        if (!ReadNumber(&part)) return false;
        range.list.push_back(part);
      }
      element = std::move(range);
    }
    attr->list.push_back(std::move(element));
  } while (TryConsume(","));
  return Expect("]", "to close the list");
}

bool Reader::ReadHashAttr(MlirAttr* attr) {
  // '#dialect<kind VALUE>', '#dialect.name<fields>', or '#alias'.
  SkipSpace();
  Location loc = Here();
  Advance();  // '#'
  std::string name = ReadIdent();
  if (name.empty()) return FailAt(loc, "expected an attribute name after '#'");
  attr->loc = loc;
  if (Peek() != '<') {
    return FailAt(loc, absl::StrCat("attribute alias '#", name,
                                    "' is not supported here (write the attribute inline)"));
  }
  attr->dict_name = name;
  const bool ours = absl::StartsWith(name, "stablehlo") || absl::StartsWith(name, "mhlo") ||
                    absl::StartsWith(name, "chlo");
  if (!ours) {
    // Another dialect's attribute (#sdy.op_sharding_rule<([i, j])->([i])>,
    // #tpu.core_type<tc>): its fields when it has `name = value` ones, else
    // kept opaque, as its text.
    const size_t open = pos_;
    const int open_line = line_;
    const size_t open_start = line_start_;
    Advance();
    const bool fields = ContinuesOperation() || StartsWith(">");
    pos_ = open;
    line_ = open_line;
    line_start_ = open_start;
    if (!fields) {
      if (!SkipBalanced()) return false;
      attr->kind = MlirAttr::kWord;
      attr->s = std::string(text_.substr(open, pos_ - open));
      return true;
    }
  }
  Advance();  // '<'
  SkipSpace();
  if (name == "stablehlo" || name == "mhlo" || name == "chlo") {
    // #stablehlo<comparison_direction GT>: an enum.
    std::string kind = ReadIdent();
    std::string value = ReadIdent();
    if (value.empty()) return Fail("expected an enum value");
    attr->kind = MlirAttr::kWord;
    attr->s = value;
    attr->dict_name = absl::StrCat(name, ".", kind);
    return Expect(">", "to close the enum attribute");
  }
  if (name == "stablehlo.bounds" || name == "mhlo.bounds") {
    attr->kind = MlirAttr::kList;
    if (TryConsume(">")) return true;
    do {
      MlirAttr b;
      if (TryConsume("?")) {
        b.kind = MlirAttr::kWord;
        b.s = "?";
      } else if (!ReadNumber(&b)) {
        return false;
      }
      attr->list.push_back(b);
    } while (TryConsume(","));
    return Expect(">", "to close the bounds");
  }
  if (StartsWith("[")) {
    // #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
    attr->kind = MlirAttr::kList;
    attr->s = "conv";
    for (int part = 0; part < 3; ++part) {
      MlirAttr dims;
      if (!ReadList(&dims)) return false;
      attr->list.push_back(std::move(dims));
      if (part == 0 && !Expect("x", "between the conv dimension lists")) return false;
      if (part == 1 && !Expect("->", "before the conv output dimensions")) return false;
    }
    return Expect(">", "to close the attribute");
  }
  TryConsume("raw");
  attr->kind = MlirAttr::kDict;
  if (TryConsume(">")) return true;
  return ReadAttrDict(&attr->dict, '>');
}

bool Reader::ReadAttrDict(std::map<std::string, MlirAttr>* dict, char close) {
  // The opening bracket has been consumed.
  std::string closing(1, close);
  if (TryConsume(closing)) return true;
  do {
    SkipSpace();
    std::string name;
    if (Peek() == '"') {
      if (!ReadString(&name)) return false;
    } else {
      name = ReadIdent();
      if (name.empty()) return Fail(absl::StrCat("expected an attribute name", NextDescription()));
    }
    MlirAttr value;
    value.loc = Here();
    if (TryConsume("=")) {
      if (!ReadAttrValue(&value, /*in_dict=*/true)) return false;
    }
    (*dict)[name] = std::move(value);
  } while (TryConsume(","));
  return Expect(closing, "to close the attributes");
}

bool Reader::ReadAttrValue(MlirAttr* attr, bool in_dict) {
  DepthGuard guard(this);
  if (!guard.ok()) return TooDeep();
  SkipSpace();
  *attr = MlirAttr();
  attr->loc = Here();
  char c = Peek();
  if (c == '[') {
    if (!ReadList(attr)) return false;
    // dot_general's "[0] x [1]" and the convolution's "[..]x[..]->[..]".
    if (StartsWith("x")) {
      size_t save_pos = pos_;
      int save_line = line_;
      size_t save_start = line_start_;
      TryConsume("x");
      if (!StartsWith("[")) {
        pos_ = save_pos;
        line_ = save_line;
        line_start_ = save_start;
        return true;
      }
      MlirAttr first = std::move(*attr);
      MlirAttr second;
      if (!ReadList(&second)) return false;
      *attr = MlirAttr();
      attr->kind = MlirAttr::kList;
      attr->loc = first.loc;
      attr->s = "pair";
      attr->list.push_back(std::move(first));
      attr->list.push_back(std::move(second));
      if (TryConsume("->")) {
        MlirAttr third;
        if (!ReadList(&third)) return false;
        attr->s = "conv";
        attr->list.push_back(std::move(third));
      }
    }
    return true;
  }
  if (c == '{') {
    Advance();
    attr->kind = MlirAttr::kDict;
    return ReadAttrDict(&attr->dict, '}');
  }
  if (c == '<') {
    // A struct attribute in its pretty op form, the dialect prefix left out
    // (dot_general's `algorithm = <lhs_precision_type = tf32, ...>`).
    Advance();
    attr->kind = MlirAttr::kDict;
    return ReadAttrDict(&attr->dict, '>');
  }
  if (c == '"') {
    attr->kind = MlirAttr::kString;
    if (!ReadString(&attr->s)) return false;
  } else if (c == '@') {
    attr->kind = MlirAttr::kSymbol;
    if (!ReadSymbol(&attr->s)) return false;
  } else if (c == '#') {
    return ReadHashAttr(attr);
  } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+') {
    if (!ReadNumber(attr)) return false;
  } else if (StartsWith("dense<")) {
    TryConsume("dense");
    attr->kind = MlirAttr::kDense;
    if (!ReadAngleBody(&attr->s)) return false;
  } else if (StartsWith("dense_resource<")) {
    return Fail("dense_resource<...> literals are not supported: write the values with dense<...>");
  } else if (StartsWith("array<")) {
    TryConsume("array");
    TryConsume("<");
    attr->kind = MlirAttr::kList;
    std::string element;
    if (!ReadElementType(&element)) return false;
    if (TryConsume(":")) {
      do {
        MlirAttr v;
        if (!ReadAttrValue(&v, /*in_dict=*/false)) return false;
        attr->list.push_back(std::move(v));
      } while (TryConsume(","));
    }
    return Expect(">", "to close array<...>");
  } else if (StartsWith("tensor<") || StartsWith("tuple<") || StartsWith("!") ||
             StartsWith("complex<")) {
    attr->kind = MlirAttr::kType;
    attr->type = std::make_shared<MlirType>();
    if (!ReadType(attr->type.get())) return false;
    return true;
  } else if (c == '?') {
    Advance();
    attr->kind = MlirAttr::kWord;
    attr->s = "?";
    return true;
  } else if (IsIdentStart(c)) {
    std::string word = ReadIdent();
    if (word == "true" || word == "false") {
      attr->kind = MlirAttr::kBool;
      attr->b = word == "true";
      attr->i = attr->b ? 1 : 0;
    } else if (word == "unit") {
      attr->kind = MlirAttr::kUnit;
    } else {
      attr->kind = MlirAttr::kWord;
      attr->s = word;
      if (Peek() == '<' && !SkipBalanced()) return false;  // affine_map<...> and the like
    }
  } else {
    return Fail(absl::StrCat("expected an attribute value", NextDescription()));
  }
  // "3 : i64", "1.0 : f32", dense<...> : tensor<...> and the like (in the
  // pretty forms the type after a literal is the operation's signature).
  if (in_dict) {
    if (StartsWith(":") && !StartsWith("::")) {
      TryConsume(":");
      attr->type = std::make_shared<MlirType>();
      if (!ReadType(attr->type.get())) return false;
    }
  }
  return true;
}

bool Reader::ReadBlockArgs(std::vector<std::pair<std::string, MlirType>>* args) {
  // '(' consumed by the caller.
  if (TryConsume(")")) return true;
  do {
    std::string name;
    if (!ReadValueName(&name)) return false;
    if (!Expect(":", "after a block argument")) return false;
    MlirType type;
    if (!ReadType(&type)) return false;
    if (StartsWith("{")) {
      TryConsume("{");
      std::map<std::string, MlirAttr> attributes;
      if (!ReadAttrDict(&attributes, '}')) return false;
      type.sharding = ShardingOf(attributes);
    }
    if (!SkipLoc()) return false;
    args->emplace_back(std::move(name), std::move(type));
  } while (TryConsume(","));
  return Expect(")", "to close the block arguments");
}

bool Reader::ReadRegionBody(MlirRegion* region) {
  DepthGuard guard(this);
  if (!guard.ok()) return TooDeep();
  Location open = Here();
  region->blocks.emplace_back();
  while (true) {
    SkipSpace();
    if (AtEnd()) return FailAt(open, "unterminated region: expected '}'");
    if (Peek() == '}') {
      Advance();
      return true;
    }
    if (Peek() == '^') {
      // A block label: ^bb0(%a: t, ...):
      while (!AtEnd() && (IsIdentChar(Peek()) || Peek() == '^')) Advance();
      MlirBlock* block = &region->blocks.back();
      if (!block->operations.empty() || !block->arguments.empty()) {
        region->blocks.emplace_back();
        block = &region->blocks.back();
      }
      if (TryConsume("(") && !ReadBlockArgs(&block->arguments)) return false;
      if (!Expect(":", "after the block label")) return false;
      continue;
    }
    MlirOperation op;
    if (!ReadOperation(&op)) return false;
    region->blocks.back().operations.push_back(std::move(op));
  }
}

bool Reader::ReadSignature(MlirOperation* op) {
  if (!TryConsume(":")) return true;
  if (TryConsume("(")) {
    op->has_function_type = true;
    if (!TryConsume(")")) {
      if (!ReadTypeList(&op->operand_types)) return false;
      if (!Expect(")", "to close the operand types")) return false;
    }
    if (!Expect("->", "in the function type")) return false;
    return ReadFunctionResults(&op->result_types);
  }
  if (!ReadTypeList(&op->types, &op->attributes)) return false;
  if (TryConsume("->")) {
    // chlo's "tensor<..> -> tensor<..>" form.
    op->has_function_type = true;
    op->operand_types = std::move(op->types);
    op->types.clear();
    return ReadFunctionResults(&op->result_types);
  }
  return true;
}

bool Reader::ReadGenericOperation(MlirOperation* op) {
  if (!ReadString(&op->name)) return false;
  if (!Expect("(", "to open the operands of a generic operation")) return false;
  if (!TryConsume(")")) {
    do {
      MlirValueRef ref;
      if (!ReadValueRef(&ref)) return false;
      op->operands.push_back(std::move(ref));
    } while (TryConsume(","));
    if (!Expect(")", "to close the operands")) return false;
  }
  if (StartsWith("[")) return Fail("operations with successor blocks are not supported");
  if (TryConsume("<{")) {
    if (!ReadAttrDict(&op->attributes, '}')) return false;
    if (!Expect(">", "to close the properties")) return false;
  }
  if (StartsWith("(")) {
    TryConsume("(");
    do {
      op->regions.emplace_back();
      if (!ReadRegion(&op->regions.back())) return false;
    } while (TryConsume(","));
    if (!Expect(")", "to close the regions")) return false;
  }
  if (TryConsume("{")) {
    if (!ReadAttrDict(&op->attributes, '}')) return false;
  }
  if (!StartsWith(":"))
    return Fail(absl::StrCat("expected ':' and the operation's type", NextDescription()));
  return ReadSignature(op);
}

bool Reader::ReadParenItems(MlirOperation* op) {
  // '(' consumed: operands and name = value items.
  if (TryConsume(")")) return true;
  do {
    SkipSpace();
    if (Peek() == '%') {
      MlirValueRef ref;
      if (!ReadValueRef(&ref)) return false;
      op->operands.push_back(std::move(ref));
      continue;
    }
    std::string name = ReadIdent();
    if (name.empty()) return Fail(absl::StrCat("expected an operand", NextDescription()));
    if (!Expect("=", "after an attribute name")) return false;
    MlirAttr value;
    if (!ReadAttrValue(&value, /*in_dict=*/false)) return false;
    op->attributes[name] = std::move(value);
  } while (TryConsume(","));
  return Expect(")", "to close the operands");
}

bool Reader::ReadWhile(MlirOperation* op) {
  // stablehlo.while(%iterArg = %init, ...) : types cond { } do { }
  if (!Expect("(", "after stablehlo.while")) return false;
  if (!TryConsume(")")) {
    do {
      std::string bound;
      if (!ReadValueName(&bound)) return false;
      if (!Expect("=", "after a loop variable")) return false;
      MlirValueRef init;
      if (!ReadValueRef(&init)) return false;
      op->bound_names.push_back(bound);
      op->operands.push_back(std::move(init));
    } while (TryConsume(","));
    if (!Expect(")", "to close the loop variables")) return false;
  }
  if (TryConsume("attributes")) {
    if (!Expect("{", "after 'attributes'") || !ReadAttrDict(&op->attributes, '}')) return false;
  }
  if (StartsWith(":") && !ReadSignature(op)) return false;
  for (absl::string_view keyword : {"cond", "do"}) {
    if (!Expect(keyword, "in stablehlo.while")) return false;
    op->regions.emplace_back();
    if (!ReadRegion(&op->regions.back())) return false;
  }
  return true;
}

bool Reader::ReadReduce(MlirOperation* op) {
  // stablehlo.reduce(%a init: %b, ...) applies OP across dimensions = [..] : type
  // stablehlo.reduce(%a init: %b, ...) across dimensions = [..] : type
  //   reducer(%x: t, %y: t) (%x1: t, %y1: t) { ... }
  // Variadic: "(%a init: %x), (%b init: %y)".
  std::vector<MlirValueRef> inputs, inits;
  do {
    if (!Expect("(", "before a reduce operand")) return false;
    do {
      MlirValueRef input, init;
      if (!ReadValueRef(&input)) return false;
      if (!Expect("init", "after a reduce input") || !Expect(":", "after 'init'")) return false;
      if (!ReadValueRef(&init)) return false;
      inputs.push_back(std::move(input));
      inits.push_back(std::move(init));
    } while (TryConsume(","));
    if (!Expect(")", "to close the reduce operands")) return false;
  } while (TryConsume(","));
  op->num_inputs = static_cast<int>(inputs.size());
  op->operands = std::move(inputs);
  for (auto& init : inits) op->operands.push_back(std::move(init));
  if (TryConsume("applies")) {
    op->applies = ReadIdent();
    if (op->applies.empty()) return Fail("expected the operation after 'applies'");
  }
  if (!Expect("across", "in stablehlo.reduce") || !Expect("dimensions", "after 'across'") ||
      !Expect("=", "after 'dimensions'")) {
    return false;
  }
  MlirAttr dims;
  if (!ReadAttrValue(&dims, /*in_dict=*/false)) return false;
  op->attributes["dimensions"] = std::move(dims);
  if (TryConsume("{")) {
    if (!ReadAttrDict(&op->attributes, '}')) return false;
  }
  if (!ReadSignature(op)) return false;
  if (!op->applies.empty()) return true;
  if (!Expect("reducer", "(the reduction body) in stablehlo.reduce")) return false;
  // Pairs (lhs_i, rhs_i); the block takes every lhs, then every rhs.
  std::vector<std::pair<std::string, MlirType>> lhs, rhs;
  while (TryConsume("(")) {
    std::vector<std::pair<std::string, MlirType>> pair;
    if (!ReadBlockArgs(&pair)) return false;
    if (pair.size() != 2) return Fail("each reducer argument group holds two values");
    lhs.push_back(pair[0]);
    rhs.push_back(pair[1]);
  }
  op->regions.emplace_back();
  MlirRegion& region = op->regions.back();
  if (!Expect("{", "to open the reducer")) return false;
  if (!ReadRegionBody(&region)) return false;
  MlirBlock& entry = region.blocks.front();
  entry.arguments = lhs;
  entry.arguments.insert(entry.arguments.end(), rhs.begin(), rhs.end());
  return true;
}

bool Reader::ReadPrettyOperation(MlirOperation* op) {
  op->name = ReadIdent();
  if (op->name.empty()) return Fail(absl::StrCat("expected an operation", NextDescription()));
  const std::string& name = op->name;
  if (name == "stablehlo.while" && StartsWith("(")) return ReadWhile(op) && SkipLoc();
  if (name == "stablehlo.reduce" && StartsWith("(")) return ReadReduce(op) && SkipLoc();
  const bool is_return = name == "return" || name == "func.return" || name == "stablehlo.return" ||
                         name == "mhlo.return";
  // Items up to the signature. An item on a new line that starts another
  // operation ends an operation without one.
  while (true) {
    bool newline = SkipSpace();
    if (AtEnd()) break;
    char c = Peek();
    if (c == ':' || c == '}') break;
    if (StartsWith("loc(")) break;
    if (c == ',') {
      Advance();
      continue;
    }
    if (newline && (c == '%' || c == '^' || c == '"' ||
                    (IsIdentStart(c) && !StartsWith("reducer") && !StartsWith("cond") &&
                     !StartsWith("do") && !ContinuesOperation()))) {
      break;
    }
    if (is_return && c != '%') break;
    if (c == '%') {
      MlirValueRef ref;
      if (!ReadValueRef(&ref)) return false;
      // get_tuple_element's %t[0].
      if (Peek() == '[') {
        MlirAttr index;
        if (!ReadList(&index)) return false;
        op->positional.push_back(std::move(index));
      }
      op->operands.push_back(std::move(ref));
      continue;
    }
    if (c == '(') {
      Advance();
      if (!ReadParenItems(op)) return false;
      continue;
    }
    if (StartsWith("<{")) {
      TryConsume("<{");
      if (!ReadAttrDict(&op->attributes, '}') || !Expect(">", "to close the properties")) {
        return false;
      }
      continue;
    }
    if (c == '{') {
      Advance();
      if (!ReadAttrDict(&op->attributes, '}')) return false;
      continue;
    }
    if (IsIdentStart(c) && !StartsWith("dense<") && !StartsWith("array<") && !StartsWith("true") &&
        !StartsWith("false")) {
      // name = value, or a bare word (GT, FLOAT, a region keyword).
      size_t save_pos = pos_;
      int save_line = line_;
      size_t save_start = line_start_;
      std::string word = ReadIdent();
      if (word == "cond" || word == "do" || word == "reducer") {
        return Fail(absl::StrCat("unexpected '", word, "' in ", name));
      }
      if (TryConsume("=")) {
        MlirAttr value;
        if (!ReadAttrValue(&value, /*in_dict=*/false)) return false;
        op->attributes[word] = std::move(value);
        continue;
      }
      pos_ = save_pos;
      line_ = save_line;
      line_start_ = save_start;
    }
    MlirAttr item;
    if (!ReadAttrValue(&item, /*in_dict=*/false)) return false;
    op->positional.push_back(std::move(item));
  }
  if (!ReadSignature(op)) return false;
  // A region after the signature (custom forms with a trailing body; an
  // attribute dict there, `: tensor<f64> {tolerance = 0.1 : f64}`, was read
  // with the types).
  if (StartsWith("{") && !is_return) {
    TryConsume("{");
    op->regions.emplace_back();
    if (!ReadRegionBody(&op->regions.back())) return false;
  }
  return SkipLoc();
}

bool Reader::ReadOperation(MlirOperation* op) {
  SkipSpace();
  op->loc = Here();
  if (Peek() == '%') {
    do {
      std::string result;
      if (!ReadValueName(&result)) return false;
      int count = 1;
      if (Peek() == ':') {
        Advance();
        size_t start = pos_;
        while (std::isdigit(static_cast<unsigned char>(Peek()))) Advance();
        if (!absl::SimpleAtoi(text_.substr(start, pos_ - start), &count) || count < 0) {
          return Fail("expected a result count after ':'");
        }
      }
      op->results.emplace_back(std::move(result), count);
    } while (TryConsume(","));
    if (!Expect("=", "after the results")) return false;
    SkipSpace();
  }
  op->loc = Here();
  if (Peek() == '"') {
    if (!ReadGenericOperation(op)) return false;
    return SkipLoc();
  }
  return ReadPrettyOperation(op);
}

bool Reader::ReadFunction(MlirFunction* fn) {
  fn->loc = Here();
  if (!Expect("func.func", "")) return false;
  if (TryConsume("private")) {
    fn->is_public = false;
  } else if (TryConsume("nested")) {
    fn->is_public = false;
  } else {
    TryConsume("public");
  }
  if (!ReadSymbol(&fn->name)) return false;
  if (!Expect("(", "to open the function's arguments")) return false;
  if (!ReadBlockArgs(&fn->arguments)) return false;
  if (TryConsume("->")) {
    if (!ReadFunctionResults(&fn->results)) return false;
  }
  if (TryConsume("attributes")) {
    std::map<std::string, MlirAttr> ignored;
    if (!Expect("{", "after 'attributes'") || !ReadAttrDict(&ignored, '}')) return false;
  }
  if (!Expect("{", "to open the function body")) return false;
  if (!ReadRegionBody(&fn->body)) return false;
  fn->body.blocks.front().arguments = fn->arguments;
  return SkipLoc();
}

absl::StatusOr<MlirModule> Reader::ReadModule() {
  MlirModule module;
  bool in_module = false;
  bool saw_module = false;
  while (true) {
    SkipSpace();
    if (AtEnd()) break;
    if (Peek() == '#' || Peek() == '!') {
      // A location, attribute or type alias (#loc1 = loc(...),
      // #mesh = #sdy.mesh<...>, !t = tensor<...>): kept opaque; a use of
      // one is refused where it appears.
      const char* what = Peek() == '#' ? "an attribute alias" : "a type alias";
      while (!AtEnd() && Peek() != '=' && Peek() != '\n') Advance();
      if (!TryConsume("=")) {
        Fail(absl::StrCat("expected '=' in ", what));
        return Error();
      }
      SkipSpace();
      if (!AtEnd() && (Peek() == '#' || Peek() == '!')) Advance();
      while (!AtEnd() && IsIdentChar(Peek())) Advance();
      if (!AtEnd() && (Peek() == '(' || Peek() == '<') && !SkipBalanced()) return Error();
      continue;
    }
    if (in_module && Peek() == '}') {
      Advance();
      in_module = false;
      if (!SkipLoc()) return Error();
      continue;
    }
    if (StartsWith("module")) {
      if (saw_module) {
        Fail("a second module in one input: separate modules with '// -----'");
        return Error();
      }
      module.loc = Here();
      TryConsume("module");
      saw_module = in_module = true;
      if (StartsWith("@")) {
        if (!ReadSymbol(&module.name)) return Error();
      }
      if (TryConsume("attributes")) {
        if (!Expect("{", "after 'attributes'") || !ReadAttrDict(&module.attributes, '}')) {
          return Error();
        }
      }
      if (!Expect("{", "to open the module body")) return Error();
      continue;
    }
    if (StartsWith("func.func")) {
      MlirFunction fn;
      if (!ReadFunction(&fn)) return Error();
      module.functions.push_back(std::move(fn));
      continue;
    }
    if (StartsWith("sdy.") || StartsWith("memref.global")) {
      // Shardy meshes and the like at module level: declarations only.
      while (!AtEnd() && Peek() != '\n') {
        if (Peek() == '<' || Peek() == '{' || Peek() == '(' || Peek() == '[') {
          if (!SkipBalanced()) return Error();
        } else {
          Advance();
        }
      }
      continue;
    }
    Fail(absl::StrCat("expected 'module' or 'func.func'", NextDescription()));
    return Error();
  }
  if (in_module) {
    FailAt(module.loc, "unterminated module: expected '}'");
    return Error();
  }
  if (module.functions.empty()) {
    Fail("no func.func in the input");
    return Error();
  }
  return module;
}

}  // namespace

absl::StatusOr<MlirModule> ParseMlirModule(absl::string_view text, absl::string_view path,
                                           int first_line) {
  Reader reader(text, path, first_line);
  return reader.ReadModule();
}

std::vector<MlirChunk> SplitMlirInput(absl::string_view text) {
  std::vector<MlirChunk> chunks;
  size_t start = 0;
  int line = 1, start_line = 1;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == absl::string_view::npos) end = text.size();
    absl::string_view l = absl::StripAsciiWhitespace(text.substr(pos, end - pos));
    if (l == "// -----") {
      // Keep the lines before the separator in place (newlines) so that
      // positions in the chunk are positions in the file.
      chunks.push_back({text.substr(start, pos - start), start_line});
      start = end + 1;
      start_line = line + 1;
    }
    ++line;
    pos = end + 1;
  }
  if (start <= text.size())
    chunks.push_back({text.substr(std::min(start, text.size())), start_line});
  return chunks;
}

bool LooksLikeMlirText(absl::string_view bytes) {
  for (absl::string_view line : absl::StrSplit(bytes.substr(0, 1 << 16), '\n')) {
    absl::string_view l = absl::StripAsciiWhitespace(line);
    if (l.empty() || absl::StartsWith(l, "//")) continue;
    return absl::StartsWith(l, "module") || absl::StartsWith(l, "func.func") ||
           absl::StartsWith(l, "#loc");
  }
  return false;
}

}  // namespace aot::stablehlo
