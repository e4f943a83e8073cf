#ifndef AOT_COMPILER_CODEGEN_IR_ARRAY_H_
#define AOT_COMPILER_CODEGEN_IR_ARRAY_H_

#include <cstdint>
#include <vector>

#include "compiler/hlo/shape.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Value.h"

namespace aot {

// The LLVM type an element is computed in: i1 for pred, iN for integers,
// float for f16/bf16/f32 (16-bit floats are widened), double for f64.
llvm::Type* ComputeType(PrimitiveType type, llvm::LLVMContext& context);
// The LLVM type an element is stored as (i8 for pred, i16 for f16/bf16).
llvm::Type* StorageType(PrimitiveType type, llvm::LLVMContext& context);

// An index into an array: row-major logical, as a linear i64 and/or one i64
// per dimension (the other form is derived on demand and cached).
class IrIndex {
 public:
  IrIndex() = default;  // scalar
  static IrIndex Linear(llvm::Value* linear, const Shape& shape);
  static IrIndex Multi(std::vector<llvm::Value*> multi, const Shape& shape);

  const std::vector<int64_t>& dims() const { return dims_; }
  bool has_linear() const { return linear_ != nullptr; }
  // The multi-dimensional form (computed once from the linear one).
  const std::vector<llvm::Value*>& multi(llvm::IRBuilder<>& b) const;
  llvm::Value* linear(llvm::IRBuilder<>& b) const;
  bool IsScalar() const { return dims_.empty(); }

 private:
  std::vector<int64_t> dims_;
  mutable llvm::Value* linear_ = nullptr;
  mutable std::vector<llvm::Value*> multi_;
  mutable bool has_multi_ = false;
};

// A buffer argument of a kernel: base pointer plus shape (with layout).
class IrArray {
 public:
  IrArray() = default;
  IrArray(llvm::Value* base, Shape shape) : base_(base), shape_(std::move(shape)) {}
  const Shape& shape() const { return shape_; }
  llvm::Value* base() const { return base_; }
  // Address of the element at `index` (physical offset from the layout).
  llvm::Value* ElementAddress(llvm::IRBuilder<>& b, const IrIndex& index) const;
  // Loads / stores a value in its compute type.
  llvm::Value* Load(llvm::IRBuilder<>& b, const IrIndex& index) const;
  void Store(llvm::IRBuilder<>& b, const IrIndex& index, llvm::Value* value) const;

 private:
  llvm::Value* base_ = nullptr;
  Shape shape_;
};

// Storage <-> compute conversions (16-bit floats with round to nearest
// even, done with integer ops so no runtime library call is needed).
llvm::Value* StorageToCompute(llvm::IRBuilder<>& b, llvm::Value* stored, PrimitiveType type);
llvm::Value* ComputeToStorage(llvm::IRBuilder<>& b, llvm::Value* value, PrimitiveType type);
// Rounds a float holding an f16/bf16 result to that type (still a float).
llvm::Value* RoundToType(llvm::IRBuilder<>& b, llvm::Value* value, PrimitiveType type);

}  // namespace aot

#endif  // AOT_COMPILER_CODEGEN_IR_ARRAY_H_
