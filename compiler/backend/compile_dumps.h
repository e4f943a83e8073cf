#ifndef AOT_COMPILER_BACKEND_COMPILE_DUMPS_H_
#define AOT_COMPILER_BACKEND_COMPILE_DUMPS_H_

// The stages of a compile written to a directory, one file each
// (<base>.<stage>.<ext>, XLA's --xla_dump_to): aotc's --xla_aot_dump_to and
// the compiler library's XLA_AOT_FLAGS="--xla_aot_dump_to=DIR" both write
// them through this.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/backend/compiler.h"
#include "compiler/backend/compiler_stages.h"
#include "compiler/hlo/hlo_graph_dot.h"
#include "proto/target.pb.h"

namespace aot {

// The text of a stage the compiled module kept (CompileOptions::keep_dumps):
// hlo-fused, buffer-assignment, thunks, llvm-unoptimized, llvm, ptx. Empty
// for the stages before compiling (hlo, hlo-optimized).
std::string StageDump(CompilerStage stage, const CompiledModule& compiled);

// The dot stage: the fused HLO, as the executable embeds it, drawn as a
// Graphviz graph (all of it, or what `options` chooses).
absl::StatusOr<std::string> FusedHloDot(const CompiledModule& compiled,
                                        const DotGraphOptions& options = {});

class StageDumper {
 public:
  // Nothing is written when `dir` is empty.
  StageDumper(std::string dir, std::string base) : dir_(std::move(dir)), base_(std::move(base)) {}
  bool enabled() const { return !dir_.empty(); }

  // Writes <dir>/<base><suffix> atomically, making the directory first.
  absl::Status Write(absl::string_view suffix, absl::string_view text);
  // The compiled module's stages (its dumps were kept); ptx for CUDA only.
  absl::Status WriteCompiled(const CompiledModule& compiled, PlatformKind platform);

  const std::vector<std::string>& written() const { return written_; }

 private:
  std::string dir_;
  std::string base_;
  bool made_ = false;
  std::vector<std::string> written_;
};

}  // namespace aot

#endif  // AOT_COMPILER_BACKEND_COMPILE_DUMPS_H_
