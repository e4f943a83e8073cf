#ifndef AOT_COMPILER_TOOLING_STABLEHLO_CHECKS_H_
#define AOT_COMPILER_TOOLING_STABLEHLO_CHECKS_H_

// The check dialect's assertions of a converted StableHLO program,
// evaluated on the result of a run (interpreter or compiled, any platform):
// the conversion makes each check's (actual, expected) pair outputs of the
// entry computation, so the comparison happens here, on the host.

#include <string>
#include <vector>

#include "compiler/hlo/literal.h"
#include "compiler/stablehlo/stablehlo_to_hlo.h"

namespace aot {

struct CheckOutcome {
  bool passed = false;
  // "path:line:col check.expect_eq: ok" or the first mismatching element.
  std::string message;
};

// One outcome per check, in program order. A result that is not the tuple
// the conversion made is one failed outcome saying so.
std::vector<CheckOutcome> EvaluateStableHloChecks(const std::vector<stablehlo::CheckSpec>& checks,
                                                  const Literal& result);

// The entry function's own results of `result` (without the checks' values):
// the result itself when the root is not a tuple.
Literal StableHloFunctionResults(const stablehlo::ConvertedProgram& program, const Literal& result);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_STABLEHLO_CHECKS_H_
