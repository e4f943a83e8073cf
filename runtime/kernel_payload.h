#ifndef AOT_RUNTIME_KERNEL_PAYLOAD_H_
#define AOT_RUNTIME_KERNEL_PAYLOAD_H_

#include <string>

#include "absl/status/status.h"
#include "proto/executable.pb.h"

namespace aot {

// KernelBinaryProto.payload_sha256: lower-case hex SHA-256 over `object`,
// `ptx` and `cubin`, in that order. The compiler records it; the runtime
// checks it before a loader sees the machine code.
std::string KernelPayloadSha256(const KernelBinaryProto& binary);

// OK when `payload_sha256` is unset (an artifact of an older compiler) or
// matches; InvalidArgument naming both digests otherwise.
absl::Status CheckKernelPayload(const KernelBinaryProto& binary);

}  // namespace aot

#endif  // AOT_RUNTIME_KERNEL_PAYLOAD_H_
