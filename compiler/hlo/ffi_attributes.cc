#include "compiler/hlo/ffi_attributes.h"

#include <cctype>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace aot {
namespace {

// A small reader for the dictionary's flat grammar (name = literal [: type]).
// Hand-written: the MLIR attribute parser is not linked here, and this is
// the whole of the grammar typed-FFI attributes use.
class Reader {
 public:
  explicit Reader(absl::string_view text) : text_(text) {}
  void Skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Consume(char c) {
    Skip();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool AtEnd() {
    Skip();
    return pos_ >= text_.size();
  }
  // A run of characters up to a delimiter of the grammar.
  absl::string_view Token() {
    Skip();
    if (pos_ < text_.size() && text_[pos_] == '"') return Quoted();
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}' && text_[pos_] != '=' &&
           text_[pos_] != ':' && !std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }
  absl::string_view Quoted() {
    const size_t start = pos_++;
    while (pos_ < text_.size() && text_[pos_] != '"') pos_ += text_[pos_] == '\\' ? 2 : 1;
    if (pos_ < text_.size()) ++pos_;
    return text_.substr(start, std::min(pos_, text_.size()) - start);
  }

 private:
  absl::string_view text_;
  size_t pos_ = 0;
};

absl::Status Bad(absl::string_view name, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(
      "typed-FFI attribute", name.empty() ? "" : absl::StrCat(" '", name, "'"), ": ", what));
}

}  // namespace

absl::StatusOr<std::vector<CustomCallAttributeProto>> ParseFfiAttributes(absl::string_view text) {
  std::vector<CustomCallAttributeProto> out;
  text = absl::StripAsciiWhitespace(text);
  if (text.empty()) return out;
  Reader r(text);
  if (!r.Consume('{')) return Bad("", "the attributes must be a dictionary {name = value, ...}");
  if (r.Consume('}')) {
    if (!r.AtEnd()) return Bad("", "text after the closing '}'");
    return out;
  }
  do {
    std::string name(r.Token());
    if (name.empty()) return Bad("", "expected an attribute name");
    if (name.front() == '"') name = name.substr(1, name.size() - 2);
    if (!r.Consume('=')) return Bad(name, "expected '=' after the name");
    absl::string_view value = r.Token();
    if (value.empty()) return Bad(name, "expected a value");
    std::string type;
    if (r.Consume(':')) type = std::string(r.Token());
    CustomCallAttributeProto a;
    a.set_name(name);
    int64_t i = 0;
    double f = 0;
    if (value == "true" || value == "false") {
      a.set_b(value == "true");
    } else if (value.front() == '"') {
      std::string s;
      std::string error;
      if (!absl::CUnescape(value.substr(1, value.size() - 2), &s, &error)) {
        return Bad(name, absl::StrCat("bad string: ", error));
      }
      a.set_str(s);
    } else if (!absl::StartsWith(type, "f") && !absl::StartsWith(type, "bf") &&
               absl::SimpleAtoi(value, &i)) {
      a.set_i64(i);
    } else if (absl::SimpleAtod(value, &f)) {
      a.set_f64(f);
    } else {
      return Bad(name, absl::StrCat("'", value, "' is not a number, bool or string"));
    }
    out.push_back(std::move(a));
  } while (r.Consume(','));
  if (!r.Consume('}')) return Bad("", "expected ',' or '}'");
  if (!r.AtEnd()) return Bad("", "text after the closing '}'");
  return out;
}

const CustomCallAttributeProto* FindFfiAttribute(
    const std::vector<CustomCallAttributeProto>& attributes, absl::string_view name) {
  for (const CustomCallAttributeProto& a : attributes) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

}  // namespace aot
