#ifndef AOT_COMPILER_BACKEND_THUNK_EMITTER_H_
#define AOT_COMPILER_BACKEND_THUNK_EMITTER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/backend/buffer_assignment.h"
#include "compiler/codegen/kernel_emitter.h"
#include "compiler/hlo/hlo_module.h"
#include "proto/executable.pb.h"
#include "proto/target.pb.h"

namespace aot {

// Turns a scheduled, buffer-assigned module into the thunk sequence of
// CONTRACT.md s. 2: kernels (fusions and unfused ops, compiled by LLVM),
// GEMMs (f32/f64 dots on BLAS/cuBLAS), custom calls (FFI), copies, and
// while/conditional control thunks with nested sequences.
class ThunkEmitter {
 public:
  ThunkEmitter(const BufferAssignment& assignment, const TargetConfigProto& target,
               const KernelEmitOptions& options)
      : assignment_(assignment), target_(target), options_(options) {}

  // f16 / bf16 dots become f16 / bf16 GEMM thunks on CUDA (cuBLAS, tensor
  // cores, f32 accumulation) instead of generated kernels: the emission
  // flag emit_low_precision_gemm (runtimes before its support refuse
  // those element types).
  void set_low_precision_gemm(bool on) { low_precision_gemm_ = on; }
  // Convolutions cuDNN takes (CudnnConvolutionParams, filter packed)
  // become convolution thunks on CUDA: the emission flag
  // emit_cudnn_convolution.
  void set_cudnn_convolutions(bool on) { cudnn_convolutions_ = on; }

  // The entry computation's sequence, with the final copies into the
  // output allocation.
  absl::StatusOr<std::vector<ThunkProto>> EmitEntry(const HloModule& module);

  // Every kernel EmitEntry compiled, in emission order. Kernels compile
  // after the whole sequence is emitted, in parallel (one thread per
  // hardware thread); the executable does not depend on the thread count.
  const std::vector<CompiledKernel>& kernels() const { return kernels_; }
  int64_t gemm_count() const { return gemm_count_; }

 private:
  absl::Status EmitComputation(const HloComputation& computation,
                               google::protobuf::RepeatedPtrField<ThunkProto>* out);
  absl::Status EmitInstruction(const HloInstruction& instr,
                               google::protobuf::RepeatedPtrField<ThunkProto>* out);
  absl::Status EmitTupleCopy(const HloInstruction& instr,
                             google::protobuf::RepeatedPtrField<ThunkProto>* out);
  absl::Status EmitKernel(const HloInstruction& instr,
                          google::protobuf::RepeatedPtrField<ThunkProto>* out);
  absl::StatusOr<bool> TryEmitGemm(const HloInstruction& instr,
                                   google::protobuf::RepeatedPtrField<ThunkProto>* out);
  absl::Status EmitCustomCall(const HloInstruction& instr,
                              google::protobuf::RepeatedPtrField<ThunkProto>* out);
  absl::Status EmitWhile(const HloInstruction& instr,
                         google::protobuf::RepeatedPtrField<ThunkProto>* out);
  absl::Status EmitConditional(const HloInstruction& instr,
                               google::protobuf::RepeatedPtrField<ThunkProto>* out);
  void EmitCopy(const std::string& name, const BufferSliceProto& from, const BufferSliceProto& to,
                google::protobuf::RepeatedPtrField<ThunkProto>* out);
  // Compiles every kernel EmitKernel deferred and fills in the kernel
  // thunks of `thunks` (nested sequences included) by kernel name.
  absl::Status CompilePendingKernels(google::protobuf::RepeatedPtrField<ThunkProto>* thunks);

  const BufferAssignment& assignment_;
  const TargetConfigProto& target_;
  KernelEmitOptions options_;
  std::vector<KernelSpec> pending_;
  std::vector<CompiledKernel> kernels_;
  int64_t gemm_count_ = 0;
  bool low_precision_gemm_ = false;
  bool cudnn_convolutions_ = false;
};

// Whether `instruction` is an op this backend supports on `platform`; the
// error names the instruction and says what is missing.
absl::Status CheckSupported(const HloInstruction& instruction, PlatformKind platform);

}  // namespace aot

#endif  // AOT_COMPILER_BACKEND_THUNK_EMITTER_H_
