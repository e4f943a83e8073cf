#include "harness/report/report_testing.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace aot::testing {

namespace {

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == ':';
}

}  // namespace

QualificationData Sample() {
  QualificationData d;
  d.now = "2026-12-01";
  d.backward_window_start = "2026-06-01";
  d.forward_window_start = "2026-11-17";
  d.verdict = Verdict::kBlocked;
  d.tool_version = "v0.3-12-gabcdef0";
  d.checks = {{"schema-check", true, "no breaking changes"},
              {"backward", false, "1 replay failed"},
              {"forward", true, "all emitted fields readable by v-14d"}};
  d.cells = {
      {"host-x86-64-v3", 1, "2026-03-02", "add_mul", ReplayStatus::kExpired,
       "created 2026-03-02, before the backward window", 0, 0},
      {"host-x86-64-v3", 2, "2026-09-10", "add_mul", ReplayStatus::kPass, "", 1.25, 0.5},
      {"host-x86-64-v3", 2, "2026-09-10", "softmax", ReplayStatus::kFail, "output mismatch at [3]",
       2.0, 4.0},
      {"host-x86-64-v3", 2, "2026-09-10", "gemm_f16", ReplayStatus::kSkipped, "needs AVX-512", 0,
       0},
      {"host-x86-64-v2", 1, "2026-10-01", "add_mul", ReplayStatus::kPass, "", 1.0, 0.25},
      {"host-x86-64-v2", 1, "2026-10-01", "softmax", ReplayStatus::kPass, "", 1.5, 0.75},
  };
  d.timeline = {{TimelineKind::kVersion, "host-x86-64-v3 v1", "2026-03-02"},
                {TimelineKind::kVersion, "host-x86-64-v3 v2", "2026-09-10"},
                {TimelineKind::kVersion, "host-x86-64-v2 v1", "2026-10-01"},
                {TimelineKind::kRelease, "2026-11-30-1a2b3c4d", "2026-11-30"}};
  d.blockers = {{.check = "backward",
                 .message = "softmax fails on host-x86-64-v3 v2",
                 .fix = "restore the old rounding of exp() in runtime/kernels"}};
  d.notices = {{"lint", "fallback aot.gelu_tanh may be removed in June 2027"}};
  return d;
}

QualificationData HostileSample() {
  QualificationData d = Sample();
  d.cells[2].reason = std::string(kHostileReason);
  d.cells[2].test = "soft<max>";
  d.checks[1].summary = "a\"b<c";
  d.blockers[0].fix = "use <b>&amp;</b>";
  d.tool_version = "bad utf-8 \xff\xfe here";
  return d;
}

QualificationData DegenerateSample() {
  QualificationData d;
  d.verdict = Verdict::kPass;
  d.now = "2026-12-01";
  d.backward_window_start = "2026-12-01";
  d.forward_window_start = "2026-12-01";
  d.timeline = {{TimelineKind::kVersion, "t v1", "2026-12-01"},
                {TimelineKind::kRelease, "r", "not a date"}};
  d.cells = {{"t", 1, "2026-12-01", "a", ReplayStatus::kPass, "", 0, 0},
             {"t", 2, "2026-12-01", "a", ReplayStatus::kSkipped, "", 0, 0},
             {"u", 1, "2026-12-01", "a", ReplayStatus::kFail, "", std::nan(""),
              std::numeric_limits<double>::infinity()}};
  return d;
}

std::vector<const XmlElement*> XmlElement::Children(absl::string_view tag) const {
  std::vector<const XmlElement*> found;
  for (const auto& child : children) {
    if (child->name == tag) found.push_back(child.get());
  }
  return found;
}

std::string XmlElement::Attr(const std::string& key) const {
  auto it = attributes.find(key);
  return it == attributes.end() ? "<absent>" : it->second;
}

std::unique_ptr<XmlElement> XmlChecker::Parse() {
  if (absl::StartsWith(text_, "<?xml")) {
    size_t end = text_.find("?>");
    if (end == absl::string_view::npos) return Fail("unterminated <?xml");
    pos_ = end + 2;
  }
  SkipSpace();
  auto root = ParseElement();
  if (root == nullptr) return nullptr;
  SkipSpace();
  if (pos_ != text_.size()) return Fail("content after the root element");
  return root;
}

std::nullptr_t XmlChecker::Fail(absl::string_view why) {
  if (error_.empty()) error_ = absl::StrCat(why, " at offset ", pos_);
  return nullptr;
}

void XmlChecker::SkipSpace() {
  while (pos_ < text_.size() &&
         absl::string_view(" \t\r\n").find(text_[pos_]) != absl::string_view::npos) {
    ++pos_;
  }
}

std::string XmlChecker::ParseName() {
  size_t start = pos_;
  while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
  return std::string(text_.substr(start, pos_ - start));
}

bool XmlChecker::ParseChars(char stop, std::string* out) {
  while (pos_ < text_.size() && text_[pos_] != stop) {
    char c = text_[pos_];
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '<') return Fail("raw '<' in character data"), false;
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      return Fail("control character forbidden by XML 1.0"), false;
    }
    if (c != '&') {
      out->push_back(c);
      ++pos_;
      continue;
    }
    size_t semi = text_.find(';', pos_);
    if (semi == absl::string_view::npos || semi - pos_ > 10) {
      return Fail("stray '&'"), false;
    }
    absl::string_view entity = text_.substr(pos_ + 1, semi - pos_ - 1);
    static const std::map<std::string, char> kNamed = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    if (auto it = kNamed.find(std::string(entity)); it != kNamed.end()) {
      out->push_back(it->second);
    } else if (absl::StartsWith(entity, "#")) {
      bool hex = absl::StartsWith(entity, "#x");
      std::string digits(entity.substr(hex ? 2 : 1));
      if (digits.empty()) return Fail("empty character reference"), false;
      long code = std::strtol(digits.c_str(), nullptr, hex ? 16 : 10);
      if (code != 9 && code != 10 && code != 13 && code < 0x20) {
        return Fail("reference to a forbidden character"), false;
      }
      if (code >= 0x80) return Fail("unexpected non-ASCII reference"), false;
      out->push_back(static_cast<char>(code));
    } else {
      return Fail("unknown entity"), false;
    }
    pos_ = semi + 1;
  }
  return true;
}

std::unique_ptr<XmlElement> XmlChecker::ParseElement() {
  if (pos_ >= text_.size() || text_[pos_] != '<') return Fail("expected '<'");
  ++pos_;
  auto element = std::make_unique<XmlElement>();
  element->name = ParseName();
  if (element->name.empty()) return Fail("expected an element name");
  while (true) {
    SkipSpace();
    if (pos_ >= text_.size()) return Fail("unterminated start tag");
    if (absl::StartsWith(text_.substr(pos_), "/>")) {
      pos_ += 2;
      return element;
    }
    if (text_[pos_] == '>') {
      ++pos_;
      break;
    }
    std::string key = ParseName();
    if (key.empty()) return Fail("expected an attribute name");
    if (pos_ + 1 >= text_.size() || text_[pos_] != '=' || text_[pos_ + 1] != '"') {
      return Fail("expected =\"");
    }
    pos_ += 2;
    std::string value;
    if (!ParseChars('"', &value)) return nullptr;
    if (pos_ >= text_.size()) return Fail("unterminated attribute value");
    ++pos_;
    if (!element->attributes.emplace(key, value).second) {
      return Fail("duplicate attribute");
    }
  }
  while (true) {
    if (!ParseChars('<', &element->text)) return nullptr;
    if (pos_ >= text_.size()) return Fail("unterminated element");
    if (absl::StartsWith(text_.substr(pos_), "</")) {
      pos_ += 2;
      if (ParseName() != element->name) return Fail("mismatched end tag");
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '>') {
        return Fail("expected '>'");
      }
      ++pos_;
      return element;
    }
    auto child = ParseElement();
    if (child == nullptr) return nullptr;
    element->children.push_back(std::move(child));
  }
}

const XmlElement* Suite(const XmlElement& root, absl::string_view name) {
  for (const XmlElement* suite : root.Children("testsuite")) {
    if (suite->Attr("name") == name) return suite;
  }
  return nullptr;
}

bool HasNonFiniteNumber(const std::string& text) {
  static const std::regex kBad("(=\"|>)\\s*[-+]?(nan|inf)", std::regex::icase);
  return std::regex_search(text, kBad);
}

}  // namespace aot::testing
