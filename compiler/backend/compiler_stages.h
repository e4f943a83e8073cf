#ifndef AOT_COMPILER_BACKEND_COMPILER_STAGES_H_
#define AOT_COMPILER_BACKEND_COMPILER_STAGES_H_

// The points of a compilation whose intermediate form can be dumped
// (aotc --stage=NAME), in pipeline order. The one place their names live.

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace aot {

enum class CompilerStage {
  kHlo,               // the module as parsed
  kHloOptimized,      // after simplification and layout normalization
  kHloFused,          // the optimized, fused HLO embedded in the executable
  kDot,               // kHloFused as a Graphviz graph (DOT text)
  kBufferAssignment,  // allocations and slices
  kThunks,            // the thunk sequence
  kLlvmUnoptimized,   // LLVM IR of the kernels as emitted, before the LLVM pipeline
  kLlvm,              // optimized LLVM IR of the kernels
  kPtx,               // PTX of the kernels (cuda only)
};

struct StageInfo {
  CompilerStage stage;
  const char* name;
  const char* description;
  // XLA's name of the stage (hlo-opt --stage, the tools guide), where it
  // differs: taken as an alias.
  const char* xla_name = "";
  // Produced only for CUDA targets.
  bool cuda_only = false;
};

// Every stage, in pipeline order.
absl::Span<const StageInfo> CompilerStages();
// The stage named `name` ("hlo-optimized", or XLA's name of it,
// "llvm-after-optimizations"), if any.
std::optional<CompilerStage> FindCompilerStage(absl::string_view name);
absl::string_view CompilerStageName(CompilerStage stage);
// One stage per line: "  name  description (XLA: name)"; with
// `cuda` false, only the stages a host compile produces.
std::string ListCompilerStages(bool cuda = true);

}  // namespace aot

#endif  // AOT_COMPILER_BACKEND_COMPILER_STAGES_H_
