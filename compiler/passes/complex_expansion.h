#ifndef AOT_COMPILER_PASSES_COMPLEX_EXPANSION_H_
#define AOT_COMPILER_PASSES_COMPLEX_EXPANSION_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// Rewrites complex (c64, c128) arithmetic into arithmetic on the real and
// imaginary parts (f32, f64), as XLA's emitters do per element, so the
// code generators never compute on a complex type. A complex array keeps
// its layout in memory, (real, imaginary) pairs: ops that only move values
// (parameter, tuple, broadcast, reshape, transpose, slice, concatenate,
// pad, select, gather, dynamic-(update-)slice, copy, while, ...) stay as
// they are and move the pairs as 8- or 16-byte elements. Each rewritten op
// reads its operands' parts through bitcast-convert (c64[d] -> f32[d,2])
// and a slice, and gives its value back the same way (concatenate, then
// bitcast-convert), so the module's parameters, results and every buffer
// keep their complex types.
//
// Rewritten: add, subtract, multiply, divide (Smith's scaling), power,
// negate, sign, exponential, exponential-minus-one, log, log-plus-one,
// logistic, sqrt, rsqrt, cbrt, sine, cosine, tan, tanh, abs, real, imag,
// complex, convert to complex, compare (EQ, NE), dot and convolution (four
// real products each), a reduce or a scatter whose reducer adds its
// parameters (one per part), and fft
// (each transformed dimension as a product with the DFT matrix of its
// length, up to kMaxFftLength). Any other op on complex values (a reduce
// or scatter with another reducer, sort, ...) fails the compile, naming the
// instruction. Returns whether anything changed.
absl::StatusOr<bool> ExpandComplexArithmetic(HloModule* module);

// The longest transformed dimension of an fft this pass compiles: each
// dimension becomes a product with a length x length constant matrix.
inline constexpr int64_t kMaxFftLength = 1024;

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_COMPLEX_EXPANSION_H_
