#include "harness/release/release.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "harness/schema/schema_check.h"
#include "proto/schema.h"
#include "runtime/abi_version.h"
#include "runtime/executable/client.h"
#include "runtime/executable/load_passes.h"
#include "runtime/ffi/ffi_registry.h"
#include "runtime/hlo_opcode_table.h"
#include "runtime/platform/host/host_kernel_loader.h"
#include "runtime/runtime_fingerprint.h"
#include "runtime/thunks/gemm_thunk.h"
#include "runtime/thunks/thunk.h"
#include "runtime/thunks/thunk_registry.h"
#include "support/build_info.h"
#include "support/file_io.h"
#include "support/sha256.h"
#include "support/status_macros.h"

namespace aot {

namespace fs = std::filesystem;

std::map<std::string, std::string> RuntimeFlagDefaults(const LoadOptions& options) {
  return {
      {"memory_budget_bytes", absl::StrCat(options.memory_budget_bytes)},
      {"max_control_nesting", absl::StrCat(options.max_control_nesting)},
      {"enable_command_buffers", options.enable_command_buffers ? "true" : "false"},
      {"device_less", options.device_less ? "true" : "false"},
  };
}

ReleaseSnapshot CaptureRuntimeCapabilities() {
  ReleaseSnapshot r;
  r.git_commit = BuildGitCommit();
  r.git_describe = BuildGitDescribe();
  r.schema_fingerprint = SchemaFingerprint();
  RuntimeAbiVersion abi = RuntimeAbiVersion::Current();
  r.abi_version = abi.abi_version;
  r.toolchain["llvm"] = abi.llvm.ToString();
  if (abi.cuda) r.toolchain["cuda"] = abi.cuda->ToString();
  if (abi.cublas) r.toolchain["cublas"] = abi.cublas->ToString();
  if (abi.ptxas) r.toolchain["ptxas"] = abi.ptxas->ToString();
  r.platforms = AvailablePlatforms();
  r.thunk_kinds = ThunkRegistry::Global().KindNames();
  r.hlo_opcodes = RuntimeKnownHloOpcodes();
  absl::c_sort(r.hlo_opcodes);
  r.ffi_handlers = FfiRegistry::Global().HandlerNames();
  for (const FfiRegistry::AliasInfo& a : FfiRegistry::Global().Aliases()) {
    r.ffi_aliases.push_back({a.alias, a.target, a.expiry});
  }
  r.host_kernel_symbols = HostKernelSymbolAllowList();
  r.flag_defaults = RuntimeFlagDefaults(LoadOptions());
  r.load_passes = LoadPassNames();
  for (PrimitiveType type : GemmThunk::SupportedElementTypes()) {
    r.gemm_element_types.push_back(PrimitiveType_Name(type));
  }
  r.runtime_fingerprint = RuntimeBuildFingerprint();
  return r;
}

absl::Status CheckReleasable(const ReleaseSnapshot& release) {
  if (!IsBuiltFromCommit(release.git_describe, release.git_commit)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "this binary was built from '", release.git_describe,
        "', not a commit: a release must name the commit it was built from (commit and "
        "rebuild, or pass --allow_dirty)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<CutReleaseResult> CutRelease(const std::string& golden_dir, const std::string& date,
                                            bool allow_dirty) {
  if (!Date::Parse(date).ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--date '", date, "' is not YYYY-MM-DD"));
  }
  CutReleaseResult result;
  ReleaseSnapshot release = CaptureRuntimeCapabilities();
  release.date = date;
  release.cut_at = absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::Now(), absl::UTCTimeZone());
  if (!allow_dirty) {
    AOT_RETURN_IF_ERROR(CheckReleasable(release));
  }
  // The schema snapshot: an existing one with this fingerprint, or a new one.
  std::string schema_dir = (fs::path(golden_dir) / "schema").string();
  google::protobuf::FileDescriptorSet set = SchemaDescriptorSet();
  if (auto snapshots = ListSnapshots(schema_dir); snapshots.ok()) {
    for (const std::string& path : *snapshots) {
      AOT_ASSIGN_OR_RETURN(auto existing, ReadDescriptorSet(path));
      if (DescriptorSetFingerprint(existing) == release.schema_fingerprint) {
        result.snapshot_path = path;
      }
    }
  }
  if (result.snapshot_path.empty()) {
    result.snapshot_path = DefaultSnapshotPath(schema_dir, date, set);
    AOT_RETURN_IF_ERROR(WriteSnapshot(result.snapshot_path, set));
    result.wrote_snapshot = true;
  }
  release.descriptor_set =
      fs::path(result.snapshot_path).lexically_relative(golden_dir).generic_string();
  std::string hash = ReleaseCapabilityHash(release);
  release.id = absl::StrCat(date, "-", hash.substr(0, 8));
  AOT_ASSIGN_OR_RETURN(auto existing, LoadReleases(golden_dir));
  if (!existing.empty() && ReleaseCapabilityHash(existing.back()) == hash) {
    result.path = (fs::path(golden_dir) / "releases" / (existing.back().id + ".json")).string();
    return result;
  }
  result.path = (fs::path(golden_dir) / "releases" / (release.id + ".json")).string();
  std::error_code ec;
  fs::create_directories(fs::path(result.path).parent_path(), ec);
  if (ec) {
    return absl::InternalError(absl::StrCat(
        "cannot create ", fs::path(result.path).parent_path().string(), ": ", ec.message()));
  }
  if (fs::exists(result.path, ec)) {
    return absl::AlreadyExistsError(
        absl::StrCat(result.path, " exists; releases are never overwritten"));
  }
  AOT_RETURN_IF_ERROR(WriteFileAtomically(result.path, ReleaseToJson(release).dump(2) + "\n"));
  result.wrote_release = true;
  return result;
}

}  // namespace aot
