#ifndef AOT_COMPILER_VERIFIER_SHAPE_INFERENCE_H_
#define AOT_COMPILER_VERIFIER_SHAPE_INFERENCE_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/shape.h"

namespace aot {

// Computes the result shape of `instruction` (element type and dimensions,
// no layout) from its operands' shapes, its attributes and its called
// computations, following XLA's shape inference. Where XLA cannot infer a
// result (parameter, constant, iota, custom-call, the element type of
// convert, the dimensions of broadcast/reshape/bitcast, the result type of
// dot/convolution) the declared shape supplies it, after checking what can
// be checked.
//
// Also checks what the inference relies on: operand counts, the presence
// and sanity of the opcode's attributes, and the count and signatures of
// called computations. Never crashes on malformed input: every problem is
// an InvalidArgument error of the form
//   instruction 'add.3' (add): operand 1 has shape s32[2] but operand 0 has
//   f32[2]
absl::StatusOr<Shape> InferShape(const HloInstruction& instruction);

}  // namespace aot

#endif  // AOT_COMPILER_VERIFIER_SHAPE_INFERENCE_H_
