#ifndef AOT_COMPILER_CODEGEN_ELEMENTAL_EMITTER_H_
#define AOT_COMPILER_CODEGEN_ELEMENTAL_EMITTER_H_

#include <functional>
#include <initializer_list>
#include <map>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/codegen/ir_array.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace aot {

// Emits LLVM IR computing one element of an HLO value from its index, the
// way XLA's elemental IR emitter does: elementwise ops recurse into their
// operands at the same index; broadcast, reshape, transpose, slice, pad,
// concatenate, reverse, iota, dynamic-(update-)slice and gather map the
// index; reduce, reduce-window, dot and convolution emit loops. Values are
// in their compute type (ir_array.h). Semantics match the reference
// interpreter (compiler/interpreter/evaluator.h).
class ElementalEmitter {
 public:
  // Loads element `index` of an instruction that is an input of the kernel
  // (a fusion parameter or an unfused operand).
  using InputLoader =
      std::function<absl::StatusOr<llvm::Value*>(const HloInstruction&, const IrIndex&)>;
  // Whether an instruction is such an input.
  using IsInput = std::function<bool(const HloInstruction&)>;

  enum class Device { kHost, kGpu };

  ElementalEmitter(llvm::IRBuilder<>* b, llvm::Module* module, Device device, IsInput is_input,
                   InputLoader loader);

  // The element of a single-array instruction at `index`.
  absl::StatusOr<llvm::Value*> Emit(const HloInstruction& instruction, const IrIndex& index);
  // All results of an instruction at `index` (several for a variadic
  // reduce / reduce-window; one otherwise).
  absl::StatusOr<std::vector<llvm::Value*>> EmitAll(const HloInstruction& instruction,
                                                    const IrIndex& index);
  // Inlines a scalar computation (a reducer or comparator) on `args`.
  absl::StatusOr<std::vector<llvm::Value*>> EmitScalarComputation(
      const HloComputation& computation, const std::vector<llvm::Value*>& args);

  // An i64 alloca in the function's entry block, initialized to `init`.
  llvm::AllocaInst* EntryAlloca(llvm::Type* type, llvm::Value* init = nullptr);

  // Loop helper: for (i = 0; i < n; ++i) body(i). Values cached inside the
  // body are not visible after it.
  absl::Status EmitLoop(int64_t n, const std::function<absl::Status(llvm::Value*)>& body);
  // EmitLoop whose iterations are independent (each writes its own output
  // elements; kernel blocks already run such iterations on different
  // threads): its loads and stores of kernel buffers (not of allocas) are
  // marked llvm.loop.parallel_accesses, so the vectorizer needs no runtime
  // alias checks, which it cannot build when an input is read at a
  // non-affine index (a row value broadcast along the row).
  absl::Status EmitParallelLoop(int64_t n, const std::function<absl::Status(llvm::Value*)>& body);
  // for (i = start; i < n; i += step) body(i), `start` an i64 value (a
  // GPU thread's first element). Values cached inside the body are not
  // visible after it.
  absl::Status EmitStridedLoop(llvm::Value* start, int64_t n, int64_t step,
                               const std::function<absl::Status(llvm::Value*)>& body);
  // for (i = start; i < end; i += step) body(i), both bounds i64 values
  // (non-negative). Values cached inside the body are not visible after it.
  absl::Status EmitRangeLoop(llvm::Value* start, llvm::Value* end, int64_t step,
                             const std::function<absl::Status(llvm::Value*)>& body);
  // if (condition) body(). Values cached inside the body are not visible
  // after it.
  absl::Status EmitIf(llvm::Value* condition, const std::function<absl::Status()>& body);

  // From now on every element of `instruction` is `values` (computed once
  // for the whole kernel, such as a GPU block's row reduction whose every
  // use in the block reads that row). The values must dominate all later
  // emission.
  void SetUniformValue(const HloInstruction* instruction, std::vector<llvm::Value*> values) {
    uniform_[instruction] = std::move(values);
  }

  llvm::IRBuilder<>& builder() { return *b_; }

  // Clamps an i64 to [lo, hi].
  llvm::Value* Clamp(llvm::Value* v, int64_t lo, int64_t hi);
  // Converts a compute value between element types (XLA's convert).
  llvm::Value* Convert(llvm::Value* v, PrimitiveType from, PrimitiveType to);

 private:
  absl::StatusOr<std::vector<llvm::Value*>> EmitUncached(const HloInstruction& instruction,
                                                         const IrIndex& index);
  absl::StatusOr<llvm::Value*> EmitUnary(const HloInstruction& instr, llvm::Value* x);
  absl::StatusOr<llvm::Value*> EmitBinary(const HloInstruction& instr, llvm::Value* x,
                                          llvm::Value* y);
  llvm::Value* EmitCompare(const HloInstruction& instr, llvm::Value* x, llvm::Value* y,
                           PrimitiveType type);
  absl::StatusOr<std::vector<llvm::Value*>> EmitReduce(const HloInstruction& instr,
                                                       const IrIndex& index);
  absl::StatusOr<std::vector<llvm::Value*>> EmitReduceUncached(const HloInstruction& instr,
                                                               const IrIndex& index);
  absl::StatusOr<std::vector<llvm::Value*>> EmitReduceWindow(const HloInstruction& instr,
                                                             const IrIndex& index);
  // Reduction accumulators (one alloca per operand of a variadic reduce):
  // their current values, and one step of the reducer `to_apply` on `args`
  // (the accumulators' values followed by the new elements) stored back.
  std::vector<llvm::Value*> LoadAccumulators(absl::Span<const PrimitiveType> types,
                                             absl::Span<llvm::AllocaInst* const> acc);
  absl::Status Accumulate(const HloComputation& to_apply, const std::vector<llvm::Value*>& args,
                          absl::Span<llvm::AllocaInst* const> acc);
  absl::StatusOr<llvm::Value*> EmitDot(const HloInstruction& instr, const IrIndex& index);
  absl::StatusOr<llvm::Value*> EmitConvolution(const HloInstruction& instr, const IrIndex& index);
  absl::StatusOr<llvm::Value*> EmitGather(const HloInstruction& instr, const IrIndex& index);
  absl::StatusOr<llvm::Value*> EmitConstant(const HloInstruction& instr, const IrIndex& index);
  // Calls an LLVM intrinsic or (GPU) a libdevice function.
  llvm::Value* MathCall(const char* name, std::vector<llvm::Value*> args);
  // a * b + c (fused where the target has FMA).
  llvm::Value* MulAdd(llvm::Value* a, llvm::Value* b, llvm::Value* c);
  // The polynomial with `coefficients` (highest degree first) at x.
  llvm::Value* Horner(llvm::Value* x, std::initializer_list<double> coefficients);
  // exp and tanh: vectorizable polynomials for host f32, MathCall otherwise.
  llvm::Value* Exp(llvm::Value* x);
  // Host f32 e^x as p * 2^n for x within Exp's clamp: {p, n as i32}.
  std::pair<llvm::Value*, llvm::Value*> ExpReduced(llvm::Value* x);
  // 2^n as an f32 (n an i32 in [-126, 127]).
  llvm::Value* Pow2(llvm::Value* n, llvm::Type* f);
  llvm::Value* Tanh(llvm::Value* x);
  llvm::Value* IntPower(llvm::Value* base, llvm::Value* exponent, bool is_signed);

  struct CacheKey {
    const HloInstruction* instruction;
    std::vector<llvm::Value*> index;
    bool operator<(const CacheKey& o) const {
      if (instruction != o.instruction) return instruction < o.instruction;
      return index < o.index;
    }
  };
  std::vector<llvm::Value*> IndexKey(const IrIndex& index);

  llvm::IRBuilder<>* b_;
  llvm::Module* module_;
  Device device_;
  IsInput is_input_;
  InputLoader loader_;
  std::map<const HloInstruction*, std::vector<llvm::Value*>> uniform_;
  // Scopes of cached values: lookups search all, inserts go to the last.
  std::vector<std::map<CacheKey, std::vector<llvm::Value*>>> cache_;
};

}  // namespace aot

#endif  // AOT_COMPILER_CODEGEN_ELEMENTAL_EMITTER_H_
