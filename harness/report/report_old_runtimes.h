#ifndef AOT_HARNESS_REPORT_REPORT_OLD_RUNTIMES_H_
#define AOT_HARNESS_REPORT_REPORT_OLD_RUNTIMES_H_

#include <string>

#include "harness/report/qualification_report.h"

namespace aot {

// The page's "Older runtimes" section: a row per artifact, a column per
// older runtime with its verdict, then every artifact a runtime did not
// run with the verdict and why. Nothing when there are no such runs.
void AppendOldRuntimesHtml(const QualificationData& data, std::string* out);

}  // namespace aot

#endif  // AOT_HARNESS_REPORT_REPORT_OLD_RUNTIMES_H_
