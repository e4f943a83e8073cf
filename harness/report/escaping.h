#ifndef AOT_HARNESS_REPORT_ESCAPING_H_
#define AOT_HARNESS_REPORT_ESCAPING_H_

// Text and numbers made safe for the qualification report's markup: JUnit
// XML (report_junit.h) and the HTML page with its inline SVG (report_html.h).

#include <string>

#include "absl/strings/string_view.h"

namespace aot {

// Each escapes `text`: valid UTF-8 out (a malformed sequence becomes
// U+FFFD), the characters XML 1.0 forbids (s. 2.2) dropped, & < > " as
// entities.
//
// XML character data: ' as &apos;, carriage return as &#13;.
std::string EscapeXmlText(absl::string_view text);
// An XML attribute value: as EscapeXmlText, and tab / newline as &#9; /
// &#10; so that attribute normalization keeps them.
std::string EscapeXmlAttribute(absl::string_view text);
// HTML text or attribute value: ' as &#39;, whitespace as is.
std::string EscapeHtml(absl::string_view text);

// `value` with `precision` decimals ("%.*f"), for XML and SVG: never "nan"
// or "inf" (a non-finite value prints as 0).
std::string MarkupNumber(double value, int precision);

// `value` when it is finite and positive, else 0: a timing as the report
// counts it.
double FiniteNonNegative(double value);

}  // namespace aot

#endif  // AOT_HARNESS_REPORT_ESCAPING_H_
