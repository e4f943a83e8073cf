#ifndef AOT_RUNTIME_PLATFORM_HOST_CPU_FEATURES_H_
#define AOT_RUNTIME_PLATFORM_HOST_CPU_FEATURES_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "proto/target.pb.h"

namespace aot {

// CPU features (LLVM spelling) an x86-64 psABI level requires. The
// runtime's own table: it does not trust the artifact's list.
std::vector<std::string> RequiredCpuFeatures(HostIsaLevel level);

// Features of the CPU this process runs on.
std::set<std::string> DetectHostCpuFeatures();

// The highest level `features` satisfy (X86_64_V2..V4), or
// HOST_ISA_LEVEL_UNSPECIFIED below v2.
HostIsaLevel BestHostIsaLevel(const std::set<std::string>& features);

// FailedPrecondition naming the level and the missing features when
// `features` do not satisfy `level`.
absl::Status CheckHostIsaLevel(HostIsaLevel level, const std::set<std::string>& features);

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_HOST_CPU_FEATURES_H_
