#include "runtime/platform/host/cpu_features.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

namespace aot {

std::vector<std::string> RequiredCpuFeatures(HostIsaLevel level) {
  std::vector<std::string> features;
  if (level >= X86_64_V2) {
    features.insert(features.end(),
                    {"cx16", "popcnt", "sahf", "sse3", "sse4.1", "sse4.2", "ssse3"});
  }
  if (level >= X86_64_V3) {
    features.insert(features.end(),
                    {"avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave"});
  }
  if (level >= X86_64_V4) {
    features.insert(features.end(), {"avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512vl"});
  }
  return features;
}

std::set<std::string> DetectHostCpuFeatures() {
  std::set<std::string> out;
  for (const auto& entry : llvm::sys::getHostCPUFeatures()) {
    if (entry.getValue()) out.insert(entry.getKey().str());
  }
  return out;
}

namespace {

std::vector<std::string> MissingFeatures(HostIsaLevel level,
                                         const std::set<std::string>& features) {
  std::vector<std::string> missing;
  for (const std::string& f : RequiredCpuFeatures(level)) {
    if (features.count(f) == 0) missing.push_back(f);
  }
  return missing;
}

}  // namespace

HostIsaLevel BestHostIsaLevel(const std::set<std::string>& features) {
  HostIsaLevel best = HOST_ISA_LEVEL_UNSPECIFIED;
  for (HostIsaLevel level : {X86_64_V2, X86_64_V3, X86_64_V4}) {
    if (!MissingFeatures(level, features).empty()) break;
    best = level;
  }
  return best;
}

absl::Status CheckHostIsaLevel(HostIsaLevel level, const std::set<std::string>& features) {
  if (level < X86_64_V2 || level > X86_64_V4) {
    return absl::FailedPreconditionError(
        absl::StrCat("capability.host.isa_level ", static_cast<int>(level),
                     " is not an x86-64 level this runtime knows (v2, v3, v4)"));
  }
  std::vector<std::string> missing = MissingFeatures(level, features);
  if (missing.empty()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "capability mismatch: the artifact was compiled for x86-64-v", static_cast<int>(level),
      ", which needs CPU features this machine lacks: ", absl::StrJoin(missing, ", "),
      " (this machine supports up to ",
      BestHostIsaLevel(features) == HOST_ISA_LEVEL_UNSPECIFIED
          ? std::string("below x86-64-v2")
          : absl::StrCat("x86-64-v", static_cast<int>(BestHostIsaLevel(features))),
      ")"));
}

}  // namespace aot
