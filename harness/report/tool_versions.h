#ifndef AOT_HARNESS_REPORT_TOOL_VERSIONS_H_
#define AOT_HARNESS_REPORT_TOOL_VERSIONS_H_

#include <string>
#include <utility>
#include <vector>

namespace aot {

// The versions of everything a build of the project consists of: its own
// git describe, runtime ABI, schema fingerprint, and each dependency.
// Ordered name/value pairs, for `aot-compat version` and reports.
std::vector<std::pair<std::string, std::string>> ToolVersions();

}  // namespace aot

#endif  // AOT_HARNESS_REPORT_TOOL_VERSIONS_H_
