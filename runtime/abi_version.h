#ifndef AOT_RUNTIME_ABI_VERSION_H_
#define AOT_RUNTIME_ABI_VERSION_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "proto/executable.pb.h"

namespace aot {

// The runtime's ABI number. Bump it when the runtime starts to require
// something of artifacts that older compilers did not provide; an artifact
// records the minimum it needs in AbiVersionProto.runtime_abi_version.
inline constexpr int kRuntimeAbiVersion = 1;

struct ToolVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;

  static ToolVersion FromProto(const VersionProto& proto);
  VersionProto ToProto() const;
  bool IsZero() const { return major == 0 && minor == 0 && patch == 0; }
  std::string ToString() const;
  friend auto operator<=>(const ToolVersion&, const ToolVersion&) = default;
};

// What this runtime offers: its ABI number and the toolchain components it
// runs artifacts with (CONTRACT.md s. 3, "toolchain ABI mismatch").
struct RuntimeAbiVersion {
  int abi_version = kRuntimeAbiVersion;
  ToolVersion llvm;
  std::optional<ToolVersion> cuda;  // the CUDA driver API, when built
  std::optional<ToolVersion> cublas;
  std::optional<ToolVersion> ptxas;

  // The runtime as built (LLVM it links, CUDA when compiled with it).
  static RuntimeAbiVersion Current();

  // OK when this runtime meets every minimum the artifact records;
  // otherwise FailedPrecondition stating the requirement and what this
  // runtime has.
  absl::Status IsCompatibleWith(const AbiVersionProto& artifact) const;

  std::string ToString() const;
};

}  // namespace aot

#endif  // AOT_RUNTIME_ABI_VERSION_H_
