#include "compiler/target/target_selection.h"

#include "absl/strings/str_cat.h"
#include "compiler/target/target_config.h"
#include "runtime/platform/host/cpu_features.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<PlatformKind> ParsePlatformName(absl::string_view name) {
  if (name == "host") return PLATFORM_HOST;
  if (name == "cuda" || name == "gpu") return PLATFORM_CUDA;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown platform '", name, "' (known: host, cuda)"));
}

absl::string_view PlatformName(PlatformKind platform) {
  switch (platform) {
    case PLATFORM_HOST:
      return "host";
    case PLATFORM_CUDA:
      return "cuda";
    default:
      return "unspecified";
  }
}

std::string DefaultTargetName(PlatformKind platform, const std::set<std::string>& host_features) {
  if (platform == PLATFORM_CUDA) return "h100";
  HostIsaLevel level = BestHostIsaLevel(host_features);
  int n = level == HOST_ISA_LEVEL_UNSPECIFIED ? 2 : static_cast<int>(level);
  return absl::StrCat("host-x86-64-v", n);
}

absl::StatusOr<TargetConfigProto> SelectTarget(PlatformKind platform,
                                               absl::string_view target_config) {
  std::string name = target_config.empty() ? DefaultTargetName(platform, DetectHostCpuFeatures())
                                           : std::string(target_config);
  auto target = ResolveTargetConfig(name);
  AOT_RETURN_IF_ERROR(target);
  if (target->platform() != platform) {
    return absl::InvalidArgumentError(absl::StrCat(
        "target config '", name, "' is for platform ", PlatformName(target->platform()), ", not ",
        PlatformName(platform), " (pass a ", PlatformName(platform),
        " target, or --platform=", PlatformName(target->platform()), ")"));
  }
  return target;
}

}  // namespace aot
