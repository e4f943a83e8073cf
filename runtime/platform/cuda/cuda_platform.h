#ifndef AOT_RUNTIME_PLATFORM_CUDA_CUDA_PLATFORM_H_
#define AOT_RUNTIME_PLATFORM_CUDA_CUDA_PLATFORM_H_

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/platform/platform.h"

namespace aot {

// The CUDA platform. The driver (libcuda.so.1) and cuBLAS are opened at run
// time, so binaries start on machines without a GPU. Each execution runs on
// its own pooled non-blocking stream with stream-ordered copies and memsets
// (host transfers staged through pinned memory); command buffers are CUDA
// graphs instantiated once and updated in place. Without a device the
// platform still loads artifacts through load steps 1-2 (kernels are
// validated from their PTX: entry point, target, parameter count) and
// reports that it cannot execute. `device_ordinal` picks the device (the
// participants of a multi-replica executable run on a platform each, on
// the devices of its device assignment); a device the machine lacks makes
// the platform report that it cannot execute, naming it. Collectives go
// through NCCL (runtime/platform/cuda/nccl_collectives.h).
absl::StatusOr<std::unique_ptr<Platform>> CreateCudaPlatform(bool device_less = false,
                                                             int device_ordinal = 0);

// Number of parameters of `.entry kernel_name(...)` in PTX text; NotFound
// when the entry is missing.
absl::StatusOr<int64_t> PtxEntryArity(absl::string_view ptx, absl::string_view kernel_name);
// The `.target sm_XX` of PTX text ("sm_90"), or empty.
std::string PtxTarget(absl::string_view ptx);

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_CUDA_CUDA_PLATFORM_H_
