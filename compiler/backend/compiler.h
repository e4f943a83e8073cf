#ifndef AOT_COMPILER_BACKEND_COMPILER_H_
#define AOT_COMPILER_BACKEND_COMPILER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/backend/compiler_stages.h"
#include "compiler/hlo/hlo_module.h"
#include "proto/executable.pb.h"
#include "proto/target.pb.h"
#include "runtime/executable/client.h"

namespace aot {

struct CompileOptions {
  // HLO passes (see compiler/passes/hlo_pass.h DefaultPipeline).
  bool enable_fusion = true;
  bool enable_constant_folding = true;
  // Keep per-kernel LLVM IR and the intermediate HLO for --stage dumps.
  bool keep_dumps = false;
  // Compile PTX to cubin with ptxas when it is installed.
  bool compile_cubin = true;
  // Threads compiling kernels (0: one per hardware thread). The executable
  // is the same whatever the count.
  int compile_threads = 0;
  // Recorded as metadata.source_path (debug only).
  std::string source_path;
  // Emission flags of the staged rollout (compiler/rollout/emission_ledger.h)
  // turned on for this compile besides those on by default: the artifact
  // may then hold constructs that runtimes of the forward window reject.
  std::vector<std::string> emission_flags;
};

// The producer side of the contract: an HLO module compiled for one target
// into a serialized ExecutableProto (XLA's GpuAotCompilationResult).
class CompiledModule {
 public:
  const ExecutableProto& proto() const { return proto_; }
  // Deterministic serialization (map-free schema, deterministic mode).
  std::string SerializeAsString() const;
  // Loads the executable into a runtime client of the target's platform.
  absl::StatusOr<std::unique_ptr<Executable>> LoadExecutable(const Client& client) const;

  // Dumps (filled with CompileOptions::keep_dumps).
  const std::string& optimized_hlo() const { return optimized_hlo_; }
  const std::string& buffer_assignment() const { return buffer_assignment_; }
  std::string ThunksToString() const;  // the thunk sequence without binaries
  const std::string& llvm_ir() const { return llvm_ir_; }
  // The kernels' IR as emitted, before the LLVM pipeline (keep_dumps).
  const std::string& unoptimized_llvm_ir() const { return unoptimized_llvm_ir_; }
  const std::string& ptx() const { return ptx_; }

  int64_t kernel_count() const { return kernel_count_; }
  int64_t gemm_count() const { return gemm_count_; }
  double compile_ms() const { return compile_ms_; }
  // Wall time of each phase of Compile, in order (aotc --verbose).
  const std::vector<std::pair<std::string, double>>& phase_ms() const { return phase_ms_; }

 private:
  friend absl::StatusOr<std::unique_ptr<CompiledModule>> Compile(const HloModule&,
                                                                 const TargetConfigProto&,
                                                                 const CompileOptions&);
  ExecutableProto proto_;
  std::string optimized_hlo_, buffer_assignment_, llvm_ir_, unoptimized_llvm_ir_, ptx_;
  int64_t kernel_count_ = 0, gemm_count_ = 0;
  double compile_ms_ = 0;
  std::vector<std::pair<std::string, double>> phase_ms_;
};

// Compiles `module` for `target`. Errors are InvalidArgument (ill-typed
// module, naming the instruction) or Unimplemented (an op or form the
// target does not support, naming the instruction and what).
absl::StatusOr<std::unique_ptr<CompiledModule>> Compile(const HloModule& module,
                                                        const TargetConfigProto& target,
                                                        const CompileOptions& options = {});

// Runs only the HLO pipeline (inlining, simplification, layout, fusion) on
// a copy of `module`, stopping after `stop_after`: kHloOptimized stops
// before fusion; kHloFused (or any later stage) runs everything.
absl::StatusOr<std::unique_ptr<HloModule>> OptimizeHlo(
    const HloModule& module, const CompileOptions& options,
    CompilerStage stop_after = CompilerStage::kHloFused);

// The ABI requirements the compiler records for a target.
AbiVersionProto AbiVersionFor(const TargetConfigProto& target);

}  // namespace aot

#endif  // AOT_COMPILER_BACKEND_COMPILER_H_
