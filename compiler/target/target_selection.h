#ifndef AOT_COMPILER_TARGET_TARGET_SELECTION_H_
#define AOT_COMPILER_TARGET_TARGET_SELECTION_H_

// Which target a compile is for: platform names and the default spec of a
// platform on this machine.

#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/target.pb.h"

namespace aot {

// "host" -> PLATFORM_HOST, "cuda" (or "gpu") -> PLATFORM_CUDA.
absl::StatusOr<PlatformKind> ParsePlatformName(absl::string_view name);
absl::string_view PlatformName(PlatformKind platform);

// The shipped spec used when no --target_config is given: for the host,
// "host-x86-64-vN" for the best level `host_features` support (v2 when they
// support none); for cuda, "h100".
std::string DefaultTargetName(PlatformKind platform, const std::set<std::string>& host_features);

// The target of a compile: `target_config` (a shipped name or a .txtpb path)
// or the default for `platform`. InvalidArgument when the config's platform
// is not `platform`.
absl::StatusOr<TargetConfigProto> SelectTarget(PlatformKind platform,
                                               absl::string_view target_config);

}  // namespace aot

#endif  // AOT_COMPILER_TARGET_TARGET_SELECTION_H_
