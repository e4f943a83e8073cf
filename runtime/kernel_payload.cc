#include "runtime/kernel_payload.h"

#include "absl/strings/str_cat.h"
#include "support/sha256.h"

namespace aot {

std::string KernelPayloadSha256(const KernelBinaryProto& binary) {
  Sha256 hash;
  hash.Update(binary.object());
  hash.Update(binary.ptx());
  hash.Update(binary.cubin());
  return hash.HexDigest();
}

absl::Status CheckKernelPayload(const KernelBinaryProto& binary) {
  if (binary.payload_sha256().empty()) return absl::OkStatus();
  std::string actual = KernelPayloadSha256(binary);
  if (actual == binary.payload_sha256()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("payload_sha256 is ", binary.payload_sha256(),
                                                 " but the kernel's object/ptx/", "cubin hash to ",
                                                 actual, ": the machine code is corrupted"));
}

}  // namespace aot
