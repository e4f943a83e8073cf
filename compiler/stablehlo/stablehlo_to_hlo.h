#ifndef AOT_COMPILER_STABLEHLO_STABLEHLO_TO_HLO_H_
#define AOT_COMPILER_STABLEHLO_STABLEHLO_TO_HLO_H_

// StableHLO (and the CHLO ops JAX emits, and the check dialect's
// assertions) converted to this project's HLO text, which then takes the
// HLO parser, the verifier and the whole pipeline like any other module.
//
// The conversion writes HLO text rather than building the IR directly so
// that HLO's own parser does every shape and attribute check once; each
// HLO line remembers the MLIR operation it came from, so an error the HLO
// parser or verifier finds is reported at that operation's file:line:col.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/stablehlo/mlir_text.h"

namespace aot::stablehlo {

// One assertion of the check dialect (check.expect_eq, expect_eq_const,
// expect_almost_eq[_const], expect_close, and the custom_call
// @check.expect_* / @check.eq forms). Both sides are outputs of the
// converted entry computation, after the function's own results.
struct CheckSpec {
  enum Kind { kEq, kAlmostEq, kClose };
  Kind kind = kEq;
  int actual_output = 0;
  int expected_output = 0;
  double tolerance = 1e-4;  // kAlmostEq: |a - e| <= tol * max(1, |e|)
  int64_t min_ulp = 0;      // kClose: min_ulp <= ulps(a, e) <= max_ulp
  int64_t max_ulp = 3;
  std::string op;     // the operation as written, "check.expect_eq"
  std::string where;  // "path:line:col"
};

struct ConvertOptions {
  // The function to make the HLO entry: empty picks "main", else the only
  // public function.
  std::string entry;
  // The actual sizes of the entry's arguments, when known (the run's
  // inputs): an argument with `?` sizes takes them (shape polymorphism, as
  // StableHLO's refine-arguments); empty: none given.
  std::vector<std::vector<int64_t>> entry_argument_dims;
};

struct ConvertedProgram {
  std::string hlo_text;
  std::string module_name;
  std::string entry_function;
  int num_results = 0;  // the entry function's own results
  // True when the entry's root is a tuple of (results..., check values...)
  // rather than its single result.
  bool tuple_root = false;
  std::vector<CheckSpec> checks;
  // Per line of hlo_text (0-based): where the line came from, as
  // "path:line:col (op)", or empty.
  std::vector<std::string> line_origins;
  // HLO instruction name -> the same origin.
  std::map<std::string, std::string> instruction_origins;
};

// Converts a parsed module. Errors are InvalidArgument naming
// "path:line:col" and the operation.
absl::StatusOr<ConvertedProgram> ConvertToHlo(const MlirModule& module, absl::string_view path,
                                              const ConvertOptions& options = {});

// Parses and converts MLIR text (one module; see SplitMlirInput for files
// with "// -----" separators).
absl::StatusOr<ConvertedProgram> ConvertStableHloText(absl::string_view text,
                                                      absl::string_view path,
                                                      const ConvertOptions& options = {},
                                                      int first_line = 1);

// Rewrites an error from the HLO parser ("L:C: message") or verifier
// (naming an instruction) to the MLIR operation the HLO came from.
absl::Status MapHloErrorToSource(const ConvertedProgram& program, const absl::Status& status);

// The programs a file holds, as aot-run runs them: each "// -----" piece,
// and in it the entry ("main" when there is one) or else every public
// function without arguments (StableHLO's interpreter tests).
struct StableHloTest {
  absl::string_view text;
  int first_line = 1;
  std::string function;
};
absl::StatusOr<std::vector<StableHloTest>> ListStableHloTests(absl::string_view text,
                                                              absl::string_view path);

// The op names the conversion accepts, by dialect ("stablehlo.add",
// "chlo.erf", "check.expect_eq", ...), and those it refuses by name with
// the reason; for the support table.
struct OpSupport {
  std::string name;
  bool supported = false;
  std::string note;
};
std::vector<OpSupport> StableHloOpSupport();

}  // namespace aot::stablehlo

#endif  // AOT_COMPILER_STABLEHLO_STABLEHLO_TO_HLO_H_
