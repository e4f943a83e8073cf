#ifndef AOT_HARNESS_REPORT_REPORT_TESTING_H_
#define AOT_HARNESS_REPORT_REPORT_TESTING_H_

// What the qualification report's tests share: sample data and a small XML
// 1.0 checker for junit.xml.

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "harness/report/qualification_report.h"

namespace aot::testing {

// Three versions of two targets (every status, a failing check with its
// blocker, a notice) on a timeline with one release.
QualificationData Sample();

// Sample() with markup characters, control characters and invalid UTF-8 in
// a reason, a test name, a check summary, a fix and the tool version.
QualificationData HostileSample();
// The reason HostileSample() gives cells[2], and what is left of it once the
// characters XML forbids are dropped.
inline constexpr absl::string_view kHostileReason = "bad <tag> & \"quoted\" 'it'\x01\x1b end";
inline constexpr absl::string_view kHostileReasonStripped = "bad <tag> & \"quoted\" 'it' end";

// One date only (a zero-length span), an undated release, and timings that
// are all zero or non-finite.
QualificationData DegenerateSample();

// An XML element as XmlChecker parses it: values unescaped.
struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<std::unique_ptr<XmlElement>> children;
  std::string text;

  std::vector<const XmlElement*> Children(absl::string_view tag) const;
  // The attribute's value, or "<absent>".
  std::string Attr(const std::string& key) const;
};

// A tiny XML 1.0 checker: elements, attributes, text, the XML declaration and
// the five predefined entities plus character references. It rejects what a
// real parser rejects in the subset we emit: unbalanced tags, a raw '<' or a
// stray '&' in attribute values or text, characters XML forbids, and
// duplicate attributes. Values come back unescaped.
class XmlChecker {
 public:
  // `text` must outlive the checker.
  explicit XmlChecker(absl::string_view text) : text_(text) {}

  // The root element, or null with `error()` set.
  std::unique_ptr<XmlElement> Parse();
  const std::string& error() const { return error_; }

 private:
  std::nullptr_t Fail(absl::string_view why);
  void SkipSpace();
  std::string ParseName();
  // Unescapes character data up to `stop`; fails on '<', a bad entity or a
  // forbidden control character.
  bool ParseChars(char stop, std::string* out);
  std::unique_ptr<XmlElement> ParseElement();

  absl::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

// The <testsuite> of `root` named `name`, or null.
const XmlElement* Suite(const XmlElement& root, absl::string_view name);

// Whether `text` has a number that must not appear in markup: NaN or
// infinity, as C, JS or printf would spell it, as an attribute value or an
// element's text.
bool HasNonFiniteNumber(const std::string& text);

}  // namespace aot::testing

#endif  // AOT_HARNESS_REPORT_REPORT_TESTING_H_
