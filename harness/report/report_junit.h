#ifndef AOT_HARNESS_REPORT_REPORT_JUNIT_H_
#define AOT_HARNESS_REPORT_REPORT_JUNIT_H_

// The qualification report as JUnit XML: junit.xml, for CI UIs.

#include <string>

#include "harness/report/qualification_report.h"

namespace aot {

// JUnit XML. Suites are ordered by target, then version; a cell is a
// <testcase> with a <failure> (fail) or <skipped> (skipped; expired, with a
// message starting "expired:"). The "gate" suite has a testcase per check,
// failing when the check is not ok or has blockers (whose messages and fixes
// make the failure's body); a blocker naming no check gets a failing
// testcase of its own.
std::string RenderJunitXml(const QualificationData& data);

}  // namespace aot

#endif  // AOT_HARNESS_REPORT_REPORT_JUNIT_H_
