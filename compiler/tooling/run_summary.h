#ifndef AOT_COMPILER_TOOLING_RUN_SUMMARY_H_
#define AOT_COMPILER_TOOLING_RUN_SUMMARY_H_

// What aot-run reports per file: timing, the comparison with the reference
// interpreter (with the tolerance used) and the one-line summary.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/literal.h"
#include "compiler/hlo/shape.h"

namespace aot {

// The median of `samples_ms` (mean of the middle two for an even count); 0
// for none.
double MedianMs(std::vector<double> samples_ms);

struct RunTiming {
  double load_ms = 0;
  double first_ms = 0;
  double steady_ms = 0;  // median of the steady-state runs
};

enum class ReferenceResult { kMatch, kMismatch, kSkipped };
struct ReferenceOutcome {
  ReferenceResult result = ReferenceResult::kSkipped;
  // Mismatch: first differing element and count; skipped: why.
  std::string detail;
  // The tolerance used ("f32: atol=1e-05 rtol=0.0001"), for a comparison.
  std::string tolerance;
};

// The tolerance CompareLiteralsWithDefaultTolerance uses for each distinct
// leaf element type of `shape`, in first-use order: "f32: atol=1e-05
// rtol=0.0001; s32: bitwise".
std::string DescribeDefaultTolerance(const Shape& shape);

// Compares a result with the reference (expected) value.
ReferenceOutcome CompareWithReference(const Literal& expected, const Literal& actual);
ReferenceOutcome SkippedReference(absl::string_view why);

// True for the runtime's "this platform cannot execute here" error
// (FailedPrecondition from Executable::Execute on a machine without the
// device): the executable loaded, but running it is not possible.
bool IsCannotExecute(const absl::Status& status);

// One line (no newline) per file:
//   "<file>: <shape> load X ms, first Y ms, steady Z ms, reference: match
//   (...)"
// or, when execution was skipped,
//   "<file>: <shape> load X ms, execution skipped (<why>), reference: skipped"
std::string FormatRunSummary(absl::string_view file, const Shape& result_shape,
                             const RunTiming& timing, const ReferenceOutcome& reference);
std::string FormatSkippedRunSummary(absl::string_view file, const Shape& result_shape,
                                    double load_ms, absl::string_view why);

// With several output files, file i of OUT.json goes to OUT.i.json.
std::string OutputPathFor(const std::string& outputs, size_t index, size_t count);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_RUN_SUMMARY_H_
