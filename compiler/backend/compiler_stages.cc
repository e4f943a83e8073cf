#include "compiler/backend/compiler_stages.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace aot {
namespace {

constexpr StageInfo kStages[] = {
    {CompilerStage::kHlo, "hlo", "the module as parsed, printed back as HLO text"},
    {CompilerStage::kHloOptimized, "hlo-optimized",
     "after simplification and layout normalization, before fusion"},
    {CompilerStage::kHloFused, "hlo-fused", "the optimized, fused HLO embedded in the executable",
     "hlo-backend"},
    {CompilerStage::kDot, "dot",
     "the fused HLO as a Graphviz graph (DOT text): a node per instruction, operands as edges, "
     "computations as clusters (--node=NAME --radius=K, --computation=NAME to draw less)"},
    {CompilerStage::kBufferAssignment, "buffer-assignment",
     "allocations, their kinds and sizes, and each value's slice"},
    {CompilerStage::kThunks, "thunks", "the thunk sequence of the executable, without binaries"},
    {CompilerStage::kLlvmUnoptimized, "llvm-unoptimized",
     "the LLVM IR of every kernel as emitted, before the LLVM pipeline",
     "llvm-before-optimizations"},
    {CompilerStage::kLlvm, "llvm", "the optimized LLVM IR of every kernel",
     "llvm-after-optimizations"},
    {CompilerStage::kPtx, "ptx", "the PTX of every kernel (CUDA targets only)", "", true},
};

}  // namespace

absl::Span<const StageInfo> CompilerStages() { return kStages; }

std::optional<CompilerStage> FindCompilerStage(absl::string_view name) {
  for (const StageInfo& s : kStages) {
    if (name == s.name || (*s.xla_name != '\0' && name == s.xla_name)) return s.stage;
  }
  return std::nullopt;
}

absl::string_view CompilerStageName(CompilerStage stage) {
  for (const StageInfo& s : kStages) {
    if (s.stage == stage) return s.name;
  }
  return "unknown";
}

std::string ListCompilerStages(bool cuda) {
  std::string out;
  for (const StageInfo& s : kStages) {
    if (s.cuda_only && !cuda) continue;
    absl::StrAppend(
        &out, absl::StrFormat("  %-18s %s%s\n", s.name, s.description,
                              *s.xla_name != '\0' ? absl::StrCat(" (XLA: ", s.xla_name, ")") : ""));
  }
  return out;
}

}  // namespace aot
