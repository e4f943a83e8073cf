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
  kBufferAssignment,  // allocations and slices
  kThunks,            // the thunk sequence
  kLlvm,              // optimized LLVM IR of the kernels
  kPtx,               // PTX of the kernels (cuda only)
};

struct StageInfo {
  CompilerStage stage;
  const char* name;
  const char* description;
};

// Every stage, in pipeline order.
absl::Span<const StageInfo> CompilerStages();
// The stage named `name` ("hlo-optimized"), if any.
std::optional<CompilerStage> FindCompilerStage(absl::string_view name);
absl::string_view CompilerStageName(CompilerStage stage);
// One stage per line: "  name  description".
std::string ListCompilerStages();

}  // namespace aot

#endif  // AOT_COMPILER_BACKEND_COMPILER_STAGES_H_
