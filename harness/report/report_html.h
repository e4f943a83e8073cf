#ifndef AOT_HARNESS_REPORT_REPORT_HTML_H_
#define AOT_HARNESS_REPORT_REPORT_HTML_H_

// The qualification report as one self-contained HTML page: index.html, for
// people.

#include <string>

#include "harness/report/qualification_report.h"

namespace aot {

// The page: the verdict, the checks, the target x version x test replay
// grid, the window boundaries on a timeline of versions and releases, the
// load/run time per version, every blocker with its fix and the notices.
// Inline CSS and SVG only; nothing is fetched.
std::string RenderHtml(const QualificationData& data);

}  // namespace aot

#endif  // AOT_HARNESS_REPORT_REPORT_HTML_H_
