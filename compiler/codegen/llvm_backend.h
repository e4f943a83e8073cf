#ifndef AOT_COMPILER_CODEGEN_LLVM_BACKEND_H_
#define AOT_COMPILER_CODEGEN_LLVM_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Module.h"
#include "proto/target.pb.h"

namespace aot {

// Turns LLVM IR kernels into what kernel thunks embed: x86-64 ELF objects
// for the host platform, PTX (and a cubin from ptxas, when the CUDA toolkit
// is installed) for CUDA. Device-less: nothing here needs a GPU.

// Prepares `module` for the target (triple, data layout) so IR emission
// uses the right types.
absl::Status ConfigureModuleForTarget(llvm::Module& module, const TargetConfigProto& target);

// Marks every library function not on the runtime's host kernel allow-list
// unavailable, so optimization never introduces a call the loader would
// refuse (OptimizeModule does this for host targets).
void RestrictToHostKernelAllowList(llvm::TargetLibraryInfoImpl& library);

// Runs LLVM's O3 pipeline on `module` (vectorization included).
absl::Status OptimizeModule(llvm::Module& module, const TargetConfigProto& target);

// Host: relocatable ELF object for target.llvm_cpu() ("x86-64-v3").
absl::StatusOr<std::string> EmitHostObject(llvm::Module& module, const TargetConfigProto& target);
// CUDA: PTX text for target.llvm_cpu() ("sm_90").
absl::StatusOr<std::string> EmitPtx(llvm::Module& module, const TargetConfigProto& target);

// Links CUDA's libdevice into `module` (math functions); NotFound when the
// toolkit's libdevice is not installed.
absl::Status LinkLibdevice(llvm::Module& module);

// ptxas, when available.
struct PtxasInfo {
  std::string path;  // empty when not found
  int major = 0, minor = 0;
};
const PtxasInfo& FindPtxas();
// Compiles PTX to a cubin for "sm_XX" with ptxas (in a temp dir).
absl::StatusOr<std::string> CompilePtxToCubin(const std::string& ptx, const std::string& sm);

// The module as textual LLVM IR (for --stage=llvm).
std::string ModuleToString(const llvm::Module& module);

}  // namespace aot

#endif  // AOT_COMPILER_CODEGEN_LLVM_BACKEND_H_
