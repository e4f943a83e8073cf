#include "runtime/abi_version.h"

#include "absl/strings/str_cat.h"
#include "llvm/Config/llvm-config.h"
#include "support/status_macros.h"

#ifdef AOT_HAVE_CUDA
#include <cuda.h>
#endif

namespace aot {

ToolVersion ToolVersion::FromProto(const VersionProto& proto) {
  return ToolVersion{proto.major(), proto.minor(), proto.patch()};
}

VersionProto ToolVersion::ToProto() const {
  VersionProto proto;
  proto.set_major(major);
  proto.set_minor(minor);
  proto.set_patch(patch);
  return proto;
}

std::string ToolVersion::ToString() const { return absl::StrCat(major, ".", minor, ".", patch); }

RuntimeAbiVersion RuntimeAbiVersion::Current() {
  RuntimeAbiVersion v;
  v.llvm = ToolVersion{LLVM_VERSION_MAJOR, LLVM_VERSION_MINOR, LLVM_VERSION_PATCH};
#ifdef AOT_HAVE_CUDA
  v.cuda = ToolVersion{CUDA_VERSION / 1000, (CUDA_VERSION % 1000) / 10, 0};
#endif
  return v;
}

namespace {

absl::Status CheckComponent(absl::string_view name, const std::optional<ToolVersion>& have,
                            const ToolchainVersionProto& artifact) {
  if (!artifact.has_minimum()) return absl::OkStatus();
  ToolVersion minimum = ToolVersion::FromProto(artifact.minimum());
  if (minimum.IsZero()) return absl::OkStatus();
  if (!have.has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("artifact requires ", name, " >= ", minimum.ToString(), " (abi_version.", name,
                     ".minimum); this runtime has no ", name));
  }
  if (*have < minimum) {
    return absl::FailedPreconditionError(
        absl::StrCat("artifact requires ", name, " >= ", minimum.ToString(), " (abi_version.", name,
                     ".minimum); this runtime has ", name, " ", have->ToString()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status RuntimeAbiVersion::IsCompatibleWith(const AbiVersionProto& artifact) const {
  if (artifact.runtime_abi_version() > abi_version) {
    return absl::FailedPreconditionError(absl::StrCat(
        "artifact requires runtime ABI version >= ", artifact.runtime_abi_version(),
        " (abi_version.runtime_abi_version); this runtime has ABI version ", abi_version));
  }
  AOT_RETURN_IF_ERROR(CheckComponent("llvm", llvm, artifact.llvm()));
  AOT_RETURN_IF_ERROR(CheckComponent("cuda", cuda, artifact.cuda()));
  AOT_RETURN_IF_ERROR(CheckComponent("cublas", cublas, artifact.cublas()));
  return CheckComponent("ptxas", ptxas, artifact.ptxas());
}

std::string RuntimeAbiVersion::ToString() const {
  std::string out = absl::StrCat("abi ", abi_version, ", llvm ", llvm.ToString());
  if (cuda) absl::StrAppend(&out, ", cuda ", cuda->ToString());
  if (cublas) absl::StrAppend(&out, ", cublas ", cublas->ToString());
  if (ptxas) absl::StrAppend(&out, ", ptxas ", ptxas->ToString());
  return out;
}

}  // namespace aot
