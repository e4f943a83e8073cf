#ifndef AOT_COMPILER_TARGET_TARGET_CONFIG_H_
#define AOT_COMPILER_TARGET_TARGET_CONFIG_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/target.pb.h"

namespace aot {

// Parses a TargetConfigProto from text format and validates it. Errors name
// `source` (a path or spec name) and the line:column of a syntax error.
absl::StatusOr<TargetConfigProto> ParseTargetConfig(absl::string_view text,
                                                    absl::string_view source);

// Checks that a target description is usable for device-less compilation:
// a platform, a capability of that platform, an LLVM triple and CPU that
// agree with it, and positive limits.
absl::Status ValidateTargetConfig(const TargetConfigProto& config, absl::string_view source);

// Names of the specs shipped in compiler/target/specs/ (built into the binary),
// sorted: "a100", "h100", "host-x86-64-v2", ...
std::vector<std::string> ShippedTargetConfigNames();

// A shipped spec by name; NotFound lists the known names.
absl::StatusOr<TargetConfigProto> ShippedTargetConfig(absl::string_view name);

// `name_or_path` is a path to a .txtpb file when such a file exists,
// otherwise the name of a shipped spec.
absl::StatusOr<TargetConfigProto> ResolveTargetConfig(absl::string_view name_or_path);

}  // namespace aot

#endif  // AOT_COMPILER_TARGET_TARGET_CONFIG_H_
