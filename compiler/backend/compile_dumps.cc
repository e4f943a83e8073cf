#include "compiler/backend/compile_dumps.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_parser.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {

std::string StageDump(CompilerStage stage, const CompiledModule& result) {
  constexpr char kNoKernels[] = "no kernels (every op is a library call or a copy)\n";
  switch (stage) {
    case CompilerStage::kHloFused:
      return result.optimized_hlo();
    case CompilerStage::kDot: {
      auto dot = FusedHloDot(result);
      return dot.ok()
                 ? *dot
                 : absl::StrCat("// cannot draw the fused HLO: ", dot.status().message(), "\n");
    }
    case CompilerStage::kBufferAssignment:
      return result.buffer_assignment();
    case CompilerStage::kThunks:
      return result.ThunksToString();
    case CompilerStage::kLlvm:
      return result.llvm_ir().empty() ? absl::StrCat("; ", kNoKernels) : result.llvm_ir();
    case CompilerStage::kLlvmUnoptimized:
      return result.unoptimized_llvm_ir().empty() ? absl::StrCat("; ", kNoKernels)
                                                  : result.unoptimized_llvm_ir();
    case CompilerStage::kPtx:
      return result.ptx().empty() ? absl::StrCat("// ", kNoKernels) : result.ptx();
    case CompilerStage::kHlo:
    case CompilerStage::kHloOptimized:
      break;  // dumped before compiling
  }
  return "";
}

absl::StatusOr<std::string> FusedHloDot(const CompiledModule& compiled,
                                        const DotGraphOptions& options) {
  AOT_ASSIGN_OR_RETURN(auto module, ParseHloModule(compiled.optimized_hlo()));
  return HloModuleToDot(*module, options);
}

absl::Status StageDumper::Write(absl::string_view suffix, absl::string_view text) {
  if (!enabled()) return absl::OkStatus();
  if (!made_) {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) {
      return absl::FailedPreconditionError(
          absl::StrCat("--xla_aot_dump_to=", dir_, ": cannot make the directory: ", ec.message()));
    }
    made_ = true;
  }
  const std::string path = (std::filesystem::path(dir_) / absl::StrCat(base_, suffix)).string();
  AOT_RETURN_IF_ERROR(WriteFileAtomically(path, text));
  written_.push_back(path);
  return absl::OkStatus();
}

absl::Status StageDumper::WriteCompiled(const CompiledModule& compiled, PlatformKind platform) {
  for (CompilerStage stage :
       {CompilerStage::kHloFused, CompilerStage::kBufferAssignment, CompilerStage::kThunks,
        CompilerStage::kLlvmUnoptimized, CompilerStage::kLlvm, CompilerStage::kPtx}) {
    if (stage == CompilerStage::kPtx && platform != PLATFORM_CUDA) continue;
    const std::string suffix =
        stage == CompilerStage::kLlvm              ? std::string(".ll")
        : stage == CompilerStage::kLlvmUnoptimized ? std::string(".unoptimized.ll")
        : stage == CompilerStage::kPtx
            ? std::string(".ptx")
            : absl::StrCat(".", CompilerStageName(stage),
                           stage == CompilerStage::kHloFused ? ".hlo" : ".txt");
    AOT_RETURN_IF_ERROR(Write(suffix, StageDump(stage, compiled)));
  }
  return absl::OkStatus();
}

}  // namespace aot
