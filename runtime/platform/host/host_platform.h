#ifndef AOT_RUNTIME_PLATFORM_HOST_HOST_PLATFORM_H_
#define AOT_RUNTIME_PLATFORM_HOST_HOST_PLATFORM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/platform/platform.h"

namespace aot {

// The host (CPU) platform: kernels are x86-64 objects loaded with
// ORC/JITLink and run as grids of blocks over a thread pool; GEMM through
// OpenBLAS. `cpu_features_override` (tests) replaces the detected features.
// Freed host blocks of at least kHostCachedBlockMin bytes are cached for
// reuse by an allocation of the same size, kHostBlockCacheBytes at most.
inline constexpr int64_t kHostCachedBlockMin = int64_t{1} << 20;
inline constexpr int64_t kHostBlockCacheBytes = int64_t{256} << 20;

absl::StatusOr<std::unique_ptr<Platform>> CreateHostPlatform(
    const std::vector<std::string>& cpu_features_override = {});

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_HOST_HOST_PLATFORM_H_
