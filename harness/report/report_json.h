#ifndef AOT_HARNESS_REPORT_REPORT_JSON_H_
#define AOT_HARNESS_REPORT_REPORT_JSON_H_

// The qualification report's JSON codec: report.json, the data for tools.

#include <string>

#include "absl/status/statusor.h"
#include "harness/report/qualification_report.h"
#include "nlohmann/json.hpp"

namespace aot {

// The report as JSON (every field, in declaration order; enums by their
// names; a blocker as its check, BlockerMessage and fix).
nlohmann::ordered_json QualificationToJson(const QualificationData& data);

// The inverse of QualificationToJson. Missing optional keys take their
// defaults; unknown keys are ignored. Fails with InvalidArgument naming the
// bad key (e.g. "cells[2].status") on a wrong type, a missing required key
// ("verdict"; a cell's target/version/test/status; a timeline entry's
// kind/label/date; a check's name/ok; a blocker's or notice's check/message),
// an unknown status/verdict/kind, a malformed date or a negative or
// non-finite timing.
absl::StatusOr<QualificationData> QualificationFromJson(const nlohmann::json& json);

// The text of report.json: QualificationToJson indented by 2, invalid UTF-8
// replaced by U+FFFD, with a final newline.
std::string RenderReportJson(const QualificationData& data);

}  // namespace aot

#endif  // AOT_HARNESS_REPORT_REPORT_JSON_H_
