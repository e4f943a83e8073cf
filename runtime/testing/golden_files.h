#ifndef AOT_RUNTIME_TESTING_GOLDEN_FILES_H_
#define AOT_RUNTIME_TESTING_GOLDEN_FILES_H_

// A golden artifact of the bundled corpus for the runtime's own tests,
// which may not use the harness (layering): the version's MANIFEST.json
// names its blob in golden/store (format 2), or the version holds
// <test>.pbtxt (format 1, before `aot-compat repack`). The blob is the
// artifact without its build stamp, which the runtime does not read.

#include <string>

#include "absl/status/statusor.h"
#include "proto/executable.pb.h"

namespace aot {
namespace testing {

// `version_dir` is golden/executables/<target>/v<N> (relative to the
// repository root, the tests' working directory). Errors name the file.
absl::StatusOr<ExecutableProto> ReadGoldenExecutable(const std::string& version_dir,
                                                     const std::string& test);

}  // namespace testing
}  // namespace aot

#endif  // AOT_RUNTIME_TESTING_GOLDEN_FILES_H_
