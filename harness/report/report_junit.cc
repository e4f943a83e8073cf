#include "harness/report/report_junit.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/report/escaping.h"

namespace aot {

namespace {

// A replay's load plus run time, in seconds.
double CellSeconds(const ReplayRecord& cell) {
  return (FiniteNonNegative(cell.load_ms) + FiniteNonNegative(cell.run_ms)) / 1000.0;
}

// A suite's testcases, failures and skips, and its time in seconds.
struct Counts {
  size_t tests = 0, failures = 0, skipped = 0;
  double seconds = 0;
};

// Appends the <testcase> of one replay to `cases` and counts it.
void AppendCellCase(const std::string& classname, const ReplayRecord& cell, Counts* counts,
                    std::string* cases) {
  ++counts->tests;
  counts->seconds += CellSeconds(cell);
  absl::StrAppend(cases, "    <testcase classname=\"", classname, "\" name=\"",
                  EscapeXmlAttribute(cell.test), "\" time=\"", MarkupNumber(CellSeconds(cell), 3),
                  "\"");
  switch (cell.status) {
    case ReplayStatus::kPass:
      absl::StrAppend(cases, "/>\n");
      return;
    case ReplayStatus::kSkipped:
    case ReplayStatus::kExpired: {
      ++counts->skipped;
      std::string message =
          cell.reason.empty() ? std::string(ReplayStatusName(cell.status)) : cell.reason;
      if (cell.status == ReplayStatus::kExpired && !absl::StartsWith(message, "expired:")) {
        message = absl::StrCat("expired: ",
                               cell.reason.empty() ? "outside the backward window" : cell.reason);
      }
      absl::StrAppend(cases, ">\n      <skipped message=\"", EscapeXmlAttribute(message), "\"/>\n");
      break;
    }
    case ReplayStatus::kFail: {
      ++counts->failures;
      std::string message = cell.reason.empty() ? "failed" : cell.reason;
      absl::StrAppend(cases, ">\n      <failure message=\"", EscapeXmlAttribute(message),
                      "\" type=\"", EscapeXmlAttribute(ReplayStatusName(cell.status)), "\">",
                      EscapeXmlText(message), "</failure>\n");
      break;
    }
  }
  absl::StrAppend(cases, "    </testcase>\n");
}

}  // namespace

std::string RenderJunitXml(const QualificationData& data) {
  std::string suites;
  Counts total;

  for (const auto& [key, cells] : GroupByVersion(data)) {
    Counts counts;
    std::string cases;
    std::string classname = EscapeXmlAttribute(ColumnName(key));
    for (const ReplayRecord* cell : cells) AppendCellCase(classname, *cell, &counts, &cases);
    absl::StrAppend(&suites, "  <testsuite name=\"", classname, "\" tests=\"", counts.tests,
                    "\" failures=\"", counts.failures, "\" errors=\"0\" skipped=\"", counts.skipped,
                    "\" time=\"", MarkupNumber(counts.seconds, 3), "\">\n    <properties>\n",
                    "      <property name=\"target\" value=\"", EscapeXmlAttribute(key.first),
                    "\"/>\n      <property name=\"version\" value=\"", key.second,
                    "\"/>\n      <property name=\"version_date\" value=\"",
                    EscapeXmlAttribute(cells.front()->version_date), "\"/>\n    </properties>\n",
                    cases, "  </testsuite>\n");
    total.tests += counts.tests;
    total.failures += counts.failures;
    total.skipped += counts.skipped;
    total.seconds += counts.seconds;
  }

  // The gate: one testcase per check, plus one per check that only a
  // blocker names.
  std::vector<GateCheck> checks = data.checks;
  for (const GateBlocker& b : data.blockers) {
    bool known =
        std::any_of(checks.begin(), checks.end(), [&](auto& c) { return c.name == b.check; });
    if (!known) checks.push_back({b.check, false, "blocked"});
  }
  Counts gate;
  std::string cases;
  for (const GateCheck& check : checks) {
    ++gate.tests;
    std::string body;
    for (const GateBlocker& b : data.blockers) {
      if (b.check != check.name) continue;
      absl::StrAppend(&body, "blocker: ", BlockerMessage(b), "\n");
      if (!b.fix.empty()) absl::StrAppend(&body, "fix: ", b.fix, "\n");
    }
    absl::StrAppend(&cases, "    <testcase classname=\"gate\" name=\"",
                    EscapeXmlAttribute(check.name), "\" time=\"0.000\"");
    if (check.ok && body.empty()) {
      absl::StrAppend(&cases, "/>\n");
      continue;
    }
    ++gate.failures;
    std::string message = check.summary.empty() ? "check failed" : check.summary;
    absl::StrAppend(&cases, ">\n      <failure message=\"", EscapeXmlAttribute(message),
                    "\" type=\"blocked\">", EscapeXmlText(body.empty() ? message : body),
                    "</failure>\n    </testcase>\n");
  }
  absl::StrAppend(
      &suites, "  <testsuite name=\"gate\" tests=\"", gate.tests, "\" failures=\"", gate.failures,
      "\" errors=\"0\" skipped=\"0\" ", "time=\"0.000\">\n    <properties>\n",
      "      <property name=\"verdict\" value=\"", EscapeXmlAttribute(VerdictName(data.verdict)),
      "\"/>\n      <property name=\"now\" value=\"", EscapeXmlAttribute(data.now),
      "\"/>\n      <property name=\"backward_window_start\" value=\"",
      EscapeXmlAttribute(data.backward_window_start),
      "\"/>\n      <property name=\"forward_window_start\" value=\"",
      EscapeXmlAttribute(data.forward_window_start),
      "\"/>\n      <property name=\"tool_version\" value=\"", EscapeXmlAttribute(data.tool_version),
      "\"/>\n    </properties>\n", cases, "  </testsuite>\n");
  total.tests += gate.tests;
  total.failures += gate.failures;

  // Each older runtime: one testcase per artifact, failing unless it ran
  // (passed) or was loaded and validated.
  for (const auto& [runtime, cells] : GroupByRuntime(data)) {
    Counts counts;
    std::string runtime_cases;
    for (const OldRuntimeCell* c : cells) {
      ++counts.tests;
      absl::StrAppend(&runtime_cases, "    <testcase classname=\"",
                      EscapeXmlAttribute(absl::StrCat("old-runtime.", runtime, ".", c->target)),
                      "\" name=\"", EscapeXmlAttribute(c->test), "\" time=\"0.000\"");
      if (OldRunOk(c->verdict)) {
        absl::StrAppend(&runtime_cases, "/>\n");
        continue;
      }
      ++counts.failures;
      const std::string message = absl::StrCat(OldRunVerdictName(c->verdict), ": ", c->detail);
      absl::StrAppend(&runtime_cases, ">\n      <failure message=\"", EscapeXmlAttribute(message),
                      "\" type=\"", OldRunVerdictName(c->verdict), "\">", EscapeXmlText(message),
                      "</failure>\n    </testcase>\n");
    }
    absl::StrAppend(
        &suites, "  <testsuite name=\"", EscapeXmlAttribute(absl::StrCat("old-runtime.", runtime)),
        "\" tests=\"", counts.tests, "\" failures=\"", counts.failures,
        "\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n    <properties>\n",
        "      <property name=\"commit\" value=\"", EscapeXmlAttribute(cells.front()->commit),
        "\"/>\n    </properties>\n", runtime_cases, "  </testsuite>\n");
    total.tests += counts.tests;
    total.failures += counts.failures;
  }

  return absl::StrCat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"",
                      EscapeXmlAttribute(data.title), "\" tests=\"", total.tests, "\" failures=\"",
                      total.failures, "\" errors=\"0\" skipped=\"", total.skipped, "\" time=\"",
                      MarkupNumber(total.seconds, 3), "\">\n", suites, "</testsuites>\n");
}

}  // namespace aot
