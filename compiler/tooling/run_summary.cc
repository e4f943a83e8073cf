#include "compiler/tooling/run_summary.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "compiler/tooling/literal_execution.h"

namespace aot {

double MedianMs(std::vector<double> samples_ms) {
  if (samples_ms.empty()) return 0;
  std::sort(samples_ms.begin(), samples_ms.end());
  size_t n = samples_ms.size();
  if (n % 2 == 1) return samples_ms[n / 2];
  return (samples_ms[n / 2 - 1] + samples_ms[n / 2]) / 2;
}

std::string DescribeDefaultTolerance(const Shape& shape) {
  std::vector<PrimitiveType> types;
  for (const Shape& leaf : shape.FlattenLeaves()) {
    if (std::find(types.begin(), types.end(), leaf.element_type()) == types.end()) {
      types.push_back(leaf.element_type());
    }
  }
  std::vector<std::string> parts;
  for (PrimitiveType type : types) {
    Tolerance t = DefaultTolerance(type);
    if (t.bitwise()) {
      parts.push_back(absl::StrCat(PrimitiveTypeName(type), ": bitwise"));
    } else {
      parts.push_back(absl::StrCat(PrimitiveTypeName(type), ": atol=", t.atol, " rtol=", t.rtol));
    }
  }
  return absl::StrJoin(parts, "; ");
}

ReferenceOutcome CompareWithReference(const Literal& expected, const Literal& actual) {
  ReferenceOutcome outcome;
  outcome.tolerance = DescribeDefaultTolerance(expected.shape());
  absl::Status s = CompareLiteralsWithDefaultTolerance(expected, actual);
  if (s.ok()) {
    outcome.result = ReferenceResult::kMatch;
  } else {
    outcome.result = ReferenceResult::kMismatch;
    outcome.detail = std::string(s.message());
  }
  return outcome;
}

ReferenceOutcome SkippedReference(absl::string_view why) {
  ReferenceOutcome outcome;
  outcome.result = ReferenceResult::kSkipped;
  outcome.detail = std::string(why);
  return outcome;
}

bool IsCannotExecute(const absl::Status& status) {
  return status.code() == absl::StatusCode::kFailedPrecondition &&
         absl::StrContains(status.message(), "cannot execute");
}

namespace {

std::string Ms(double ms) { return absl::StrFormat("%.3f ms", ms); }

std::string FormatReference(const ReferenceOutcome& r) {
  switch (r.result) {
    case ReferenceResult::kMatch:
      return absl::StrCat("reference: match (tolerance ", r.tolerance, ")");
    case ReferenceResult::kMismatch:
      return absl::StrCat("reference: mismatch (", r.detail, "; tolerance ", r.tolerance, ")");
    case ReferenceResult::kSkipped:
      return r.detail.empty() ? std::string("reference: skipped")
                              : absl::StrCat("reference: skipped (", r.detail, ")");
  }
  return "reference: skipped";
}

}  // namespace

std::string FormatRunSummary(absl::string_view file, const Shape& result_shape,
                             const RunTiming& timing, const ReferenceOutcome& reference) {
  return absl::StrCat(file, ": ", result_shape.ToString(false), " load ", Ms(timing.load_ms),
                      ", first ", Ms(timing.first_ms), ", steady ", Ms(timing.steady_ms), ", ",
                      FormatReference(reference));
}

std::string FormatSkippedRunSummary(absl::string_view file, const Shape& result_shape,
                                    double load_ms, absl::string_view why) {
  std::string reason(why);
  for (char& c : reason) {
    if (c == '\n') c = ' ';
  }
  return absl::StrCat(file, ": ", result_shape.ToString(false), " load ", Ms(load_ms),
                      ", execution skipped (", reason, "), reference: skipped");
}

std::string OutputPathFor(const std::string& outputs, size_t index, size_t count) {
  if (count == 1) return outputs;
  std::string stem = outputs;
  if (absl::EndsWith(stem, ".json")) stem.resize(stem.size() - 5);
  return absl::StrCat(stem, ".", index, ".json");
}

}  // namespace aot
