#include "compiler/target/target_config.h"

#include <algorithm>
#include <filesystem>
#include <span>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "support/embedded_file.h"
#include "support/file_io.h"
#include "support/proto_util.h"
#include "support/status_macros.h"

namespace aot {

// Generated from compiler/target/specs/*.txtpb by cmake/EmbedFiles.cmake.
std::span<const EmbeddedFile> ShippedTargetFiles();

namespace {

constexpr absl::string_view kSpecSuffix = ".txtpb";

}  // namespace

absl::StatusOr<TargetConfigProto> ParseTargetConfig(absl::string_view text,
                                                    absl::string_view source) {
  TargetConfigProto config;
  if (absl::Status parsed = ParseTextProto(text, &config); !parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(source, ":", parsed.message()));
  }
  AOT_RETURN_IF_ERROR(ValidateTargetConfig(config, source));
  return config;
}

absl::Status ValidateTargetConfig(const TargetConfigProto& config, absl::string_view source) {
  auto invalid = [&](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(source, ": invalid target config: ", what));
  };
  if (config.name().empty()) return invalid("'name' is empty");
  const DeviceDescriptionProto& d = config.device_description();
  const CapabilityProto& cap = d.capability();
  switch (config.platform()) {
    case PLATFORM_HOST:
      if (cap.capability_case() != CapabilityProto::kHost) {
        return invalid("platform PLATFORM_HOST needs device_description.capability.host");
      }
      if (cap.host().isa_level() == HOST_ISA_LEVEL_UNSPECIFIED) {
        return invalid("device_description.capability.host.isa_level is unset");
      }
      if (!absl::StartsWith(config.llvm_triple(), "x86_64")) {
        return invalid(
            absl::StrCat("llvm_triple '", config.llvm_triple(), "' is not an x86_64 triple"));
      }
      if (config.llvm_cpu() != absl::StrCat("x86-64-v", static_cast<int>(cap.host().isa_level()))) {
        return invalid(absl::StrCat("llvm_cpu '", config.llvm_cpu(), "' does not match isa_level ",
                                    HostIsaLevel_Name(cap.host().isa_level())));
      }
      break;
    case PLATFORM_CUDA: {
      if (cap.capability_case() != CapabilityProto::kCuda) {
        return invalid("platform PLATFORM_CUDA needs device_description.capability.cuda");
      }
      int major = cap.cuda().major(), minor = cap.cuda().minor();
      if (major < 5 || major > 12 || minor < 0 || minor > 9) {
        return invalid(absl::StrCat("compute capability ", major, ".", minor, " is out of range"));
      }
      if (!absl::StartsWith(config.llvm_triple(), "nvptx64")) {
        return invalid(
            absl::StrCat("llvm_triple '", config.llvm_triple(), "' is not an nvptx64 triple"));
      }
      if (config.llvm_cpu() != absl::StrCat("sm_", major, minor)) {
        return invalid(absl::StrCat("llvm_cpu '", config.llvm_cpu(),
                                    "' does not match compute capability ", major, ".", minor));
      }
      break;
    }
    default:
      return invalid("'platform' must be PLATFORM_HOST or PLATFORM_CUDA");
  }
  struct Limit {
    const char* name;
    int64_t value;
  };
  for (const Limit& limit :
       {Limit{"threads_per_block_limit", d.threads_per_block_limit()},
        Limit{"threads_per_warp", d.threads_per_warp()}, Limit{"core_count", d.core_count()},
        Limit{"block_dim_limit_x", d.block_dim_limit_x()},
        Limit{"block_dim_limit_y", d.block_dim_limit_y()},
        Limit{"block_dim_limit_z", d.block_dim_limit_z()},
        Limit{"device_memory_size", d.device_memory_size()}}) {
    if (limit.value <= 0) {
      return invalid(
          absl::StrCat("device_description.", limit.name, " must be positive, got ", limit.value));
    }
  }
  if (d.shared_memory_per_block() < 0 || d.memory_bandwidth() < 0 || d.l2_cache_size() < 0 ||
      d.clock_rate_ghz() < 0) {
    return invalid("device_description has a negative size or rate");
  }
  return absl::OkStatus();
}

std::vector<std::string> ShippedTargetConfigNames() {
  std::vector<std::string> names;
  for (const EmbeddedFile& file : ShippedTargetFiles()) {
    absl::string_view name = file.name;
    if (absl::EndsWith(name, kSpecSuffix)) {
      name.remove_suffix(kSpecSuffix.size());
    }
    names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<TargetConfigProto> ShippedTargetConfig(absl::string_view name) {
  std::string file_name = absl::StrCat(name, kSpecSuffix);
  for (const EmbeddedFile& file : ShippedTargetFiles()) {
    if (file.name == file_name) {
      return ParseTargetConfig(file.contents, absl::StrCat("compiler/target/specs/", file_name));
    }
  }
  return absl::NotFoundError(absl::StrCat("no target config named '", name, "' (shipped: ",
                                          absl::StrJoin(ShippedTargetConfigNames(), ", "),
                                          "; or pass a path to a .txtpb file)"));
}

absl::StatusOr<TargetConfigProto> ResolveTargetConfig(absl::string_view name_or_path) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(std::string(name_or_path), ec)) {
    AOT_ASSIGN_OR_RETURN(auto text, ReadFileToString(std::string(name_or_path), 1 << 20));
    return ParseTargetConfig(text, name_or_path);
  }
  return ShippedTargetConfig(name_or_path);
}

}  // namespace aot
