#ifndef AOT_HARNESS_REPORT_QUALIFICATION_REPORT_H_
#define AOT_HARNESS_REPORT_QUALIFICATION_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace aot {

// The release qualification report: what `ci/` qualification found, written
// three ways into one directory:
//   report.json  the data (QualificationToJson), for tools;
//   junit.xml    JUnit XML, one <testsuite> per target/version and one
//                "gate" suite with a testcase per gate check, for CI UIs;
//   index.html   one self-contained page (inline CSS and SVG, nothing
//                fetched) for people.

// One replay of one golden test.
struct ReportCell {
  std::string target;        // "host-x86-64-v3"
  int version = 0;           // N of golden/executables/<target>/v<N>
  std::string version_date;  // YYYY-MM-DD the version was created
  std::string test;          // module name, e.g. "add_mul"
  std::string status;        // "pass" | "fail" | "skipped" | "expired"
  std::string reason;        // why (for fail / skipped / expired)
  double load_ms = 0;
  double run_ms = 0;
};

// Something dated on the version / release timeline.
struct TimelineEntry {
  std::string kind;   // "version" | "release"
  std::string label;  // "host-x86-64-v3 v1" or "2026-11-30-1a2b3c4d"
  std::string date;   // YYYY-MM-DD
};

// A finding that blocks the release, and how to clear it.
struct ReportBlocker {
  std::string check;  // the ReportCheck::name it belongs to
  std::string message;
  std::string fix;
};

// A finding worth reading that does not block the release.
struct ReportNotice {
  std::string check;
  std::string message;
};

// One gate check: "schema-check", "backward", "forward", "ledger", "lint",
// "verify", ...
struct ReportCheck {
  std::string name;
  bool ok = true;
  std::string summary;
};

struct QualificationData {
  std::string title = "AOT release qualification";
  std::string now;                    // the clock used, YYYY-MM-DD
  std::string backward_window_start;  // YYYY-MM-DD
  std::string forward_window_start;   // YYYY-MM-DD
  std::string verdict;                // "pass" | "blocked"
  std::string tool_version;           // free text (git describe, ...)
  std::vector<ReportCheck> checks;
  std::vector<ReportCell> cells;
  std::vector<TimelineEntry> timeline;
  std::vector<ReportBlocker> blockers;
  std::vector<ReportNotice> notices;
};

// The report as JSON (every field, in declaration order).
nlohmann::ordered_json QualificationToJson(const QualificationData& data);

// The inverse of QualificationToJson. Missing optional keys take their
// defaults; unknown keys are ignored. Fails with InvalidArgument naming the
// bad key (e.g. "cells[2].status") on a wrong type, a missing required key
// ("verdict"; a cell's target/version/test/status; a timeline entry's
// kind/label/date; a check's name/ok; a blocker's or notice's check/message),
// an unknown status/verdict/kind, a malformed date or a negative or
// non-finite timing.
absl::StatusOr<QualificationData> QualificationFromJson(const nlohmann::json& json);

// JUnit XML. Suites are ordered by target, then version; a cell is a
// <testcase> with a <failure> (fail) or <skipped> (skipped; expired, with a
// message starting "expired:"). The "gate" suite has a testcase per check,
// failing when the check is not ok or has blockers (whose messages and fixes
// make the failure's body); a blocker naming no check gets a failing
// testcase of its own.
std::string RenderJunitXml(const QualificationData& data);

// The self-contained HTML page.
std::string RenderHtml(const QualificationData& data);

// Creates `out_dir` (and its parents) and writes report.json, junit.xml and
// index.html into it, each atomically. Fails, naming the path, when
// `out_dir` exists and is not a directory or cannot be created or written.
absl::Status WriteQualificationReport(const QualificationData& data, const std::string& out_dir);

}  // namespace aot

#endif  // AOT_HARNESS_REPORT_QUALIFICATION_REPORT_H_
