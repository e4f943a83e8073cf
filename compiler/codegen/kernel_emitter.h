#ifndef AOT_COMPILER_CODEGEN_KERNEL_EMITTER_H_
#define AOT_COMPILER_CODEGEN_KERNEL_EMITTER_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_instruction.h"
#include "proto/executable.pb.h"
#include "proto/target.pb.h"

namespace aot {

// What one kernel computes: an HLO instruction (a fusion, or an op that is
// not fused) whose inputs and outputs are buffers passed as arguments, in
// this order: inputs, outputs, then scratch buffers (KernelScratchShapes).
struct KernelSpec {
  std::string name;                             // entry symbol
  const HloInstruction* instruction = nullptr;  // fusion or op
  std::vector<Shape> input_shapes;              // per input argument
  std::vector<Shape> output_shapes;             // per output argument
  std::vector<Shape> scratch_shapes;            // per scratch argument
  // A dynamic-update-slice whose output buffer is its operand's
  // (BufferAssignment::UpdatesInPlace), or a scatter whose output the
  // thunk emitter filled with its operand (ScatterUsesAtomics): the kernel
  // writes only the update.
  bool update_in_place = false;
};

struct CompiledKernel {
  std::string name;
  LaunchDimensionsProto launch_dimensions;
  KernelBinaryProto binary;
  // Textual LLVM IR before and after optimization (for --stage dumps).
  std::string llvm_ir;
  std::string optimized_llvm_ir;
};

struct KernelEmitOptions {
  // Keep the textual IR in CompiledKernel (costs time; for dumps only).
  bool keep_llvm_ir = false;
  // Compile PTX to a cubin with ptxas when it is installed.
  bool compile_cubin = true;
  // Threads the thunk emitter compiles kernels on (0: one per hardware
  // thread).
  int compile_threads = 0;
};

// Inputs of a kernel for `instruction`: the operands of an unfused op, the
// operands of a fusion (in fused-parameter order).
std::vector<const HloInstruction*> KernelInputs(const HloInstruction& instruction);

// Scratch buffers the kernel for `instruction` needs beyond its outputs
// (buffer assignment gives each a slice live only while the kernel runs):
// a sort whose rows are longer than kSortMergeMinLength merge-sorts through
// one scratch array per output. Empty for every other kernel.
inline constexpr int64_t kSortMergeMinLength = 64;
std::vector<Shape> KernelScratchShapes(const HloInstruction& instruction);

// Whether the kernel of `instruction` on `target` is a scatter that
// applies its updates in parallel, each with one atomic operation (CUDA;
// a single-operand scatter whose combiner is one add, maximum, minimum,
// and, or or xor of its parameters on a type with that atomic, or an
// overwrite with unique_indices). Its output buffer must then already hold
// the operand when it runs (the thunk emitter copies it there first, and
// sets KernelSpec::update_in_place): the kernel writes only the updates.
bool ScatterUsesAtomics(const HloInstruction& instruction, const TargetConfigProto& target);

// Every undefined symbol of host kernel object `object` is one the
// runtime's loader resolves (its allow-list, HostKernelSymbolAllowList);
// otherwise Unimplemented naming kernel `name` and each symbol the runtime
// would refuse, so a module that compiles also loads (LLVM's libcall
// simplifier can introduce calls such as exp2f or ldexpf).
absl::Status CheckHostObjectImports(absl::string_view name, absl::string_view object);

// Emits, optimizes and compiles the kernel for the target: an x86-64 ELF
// object implementing the host kernel ABI (runtime/platform/host/
// host_kernel_abi.h), or PTX (+cubin) for CUDA. Errors name the
// instruction and the unsupported construct.
absl::StatusOr<CompiledKernel> CompileKernel(const KernelSpec& spec,
                                             const TargetConfigProto& target,
                                             const KernelEmitOptions& options);

}  // namespace aot

#endif  // AOT_COMPILER_CODEGEN_KERNEL_EMITTER_H_
