#ifndef AOT_HARNESS_RELEASE_RELEASE_H_
#define AOT_HARNESS_RELEASE_RELEASE_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/release/release_snapshot.h"
#include "nlohmann/json.hpp"
#include "runtime/thunks/thunk.h"
#include "support/date.h"

namespace aot {

// The flags the runtime reads at load (LoadOptions), as a release records
// their defaults.
std::map<std::string, std::string> RuntimeFlagDefaults(const LoadOptions& options);

// This binary's runtime: registries, opcode table, flag defaults, ABI and
// toolchain, build commit. Id, date and descriptor set are left empty.
ReleaseSnapshot CaptureRuntimeCapabilities();

struct CutReleaseResult {
  std::string path;            // the release file
  std::string snapshot_path;   // the schema snapshot it references
  bool wrote_release = false;  // false: an identical release exists
  bool wrote_snapshot = false;
};

// Cuts a release of this binary's runtime dated `date`: reuses the schema
// snapshot under golden_dir/schema whose fingerprint matches the built-in
// schema (or writes one), then writes golden_dir/releases/<date>-<id>.json.
// Nothing is overwritten: when the newest release has the same
// capabilities (commit aside), nothing is written.
// A build of uncommitted changes (git describe ends in "-dirty") or outside
// git cannot name the commit it releases: FailedPrecondition (CutRelease
// checks it unless `allow_dirty`).
absl::Status CheckReleasable(const ReleaseSnapshot& release);
absl::StatusOr<CutReleaseResult> CutRelease(const std::string& golden_dir, const std::string& date,
                                            bool allow_dirty = false);

}  // namespace aot

#endif  // AOT_HARNESS_RELEASE_RELEASE_H_
