#ifndef AOT_HARNESS_GATE_QUALIFICATION_H_
#define AOT_HARNESS_GATE_QUALIFICATION_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/gate/gate.h"
#include "harness/report/qualification_report.h"

namespace aot {

// The release qualification report's data from a gate run: the replay
// matrix, the dated versions of every target and the releases on one
// timeline, the gate's checks, blockers and notices. Fails on a replay
// status the report does not know, or when the golden versions' dates or
// the releases cannot be read.
absl::StatusOr<QualificationData> QualificationFromGate(const GateReport& gate,
                                                        const std::string& golden_dir,
                                                        const std::vector<std::string>& targets);

// Adds `forward-check --build_runtime ... --json` output (OldRunsJson: the
// runtimes, each with a verdict per artifact) to the report's old-runtime
// cells. InvalidArgument naming `origin` and the element when it is not
// that form.
absl::Status AddOldRuntimeRuns(const nlohmann::json& json, const std::string& origin,
                               QualificationData* data);

}  // namespace aot

#endif  // AOT_HARNESS_GATE_QUALIFICATION_H_
