#ifndef AOT_COMPILER_CODEGEN_MINIFLOAT_IR_H_
#define AOT_COMPILER_CODEGEN_MINIFLOAT_IR_H_

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Value.h"
#include "support/minifloat.h"

namespace aot {

// The narrow float types (f8*, f4e2m1fn) in kernels: one byte per element
// (their compute type is i8), converted with integer arithmetic, bit for
// bit as support/minifloat.h converts them (the interpreter and literals).
// LLVM has no IR type for most of these formats, and the NVPTX and x86
// back ends convert none of them, so the conversion is emitted here.

// The value of `code` (an i8; bits above the format's width ignored) as an
// f32: exact, every value of these formats is an f32.
llvm::Value* EmitMinifloatToFloat(llvm::IRBuilder<>& b, llvm::Value* code,
                                  const MinifloatFormat& format);

// `value` (an f64) rounded to the nearest code of `format` (ties to the even
// code), as an i8, with DoubleToMinifloat's overflow, NaN and sign rules.
llvm::Value* EmitDoubleToMinifloat(llvm::IRBuilder<>& b, llvm::Value* value,
                                   const MinifloatFormat& format);

}  // namespace aot

#endif  // AOT_COMPILER_CODEGEN_MINIFLOAT_IR_H_
