#ifndef AOT_COMPILER_PASSES_NARROW_TYPE_EXPANSION_H_
#define AOT_COMPILER_PASSES_NARROW_TYPE_EXPANSION_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// Makes every computation on the narrow element types (8-bit and 4-bit
// floats, integers of 1, 2 and 4 bits; IsNarrowType) a computation in a
// wider type, as XLA's float normalization does for types a device cannot
// compute in: the operands are converted to WideComputeType (f32 for the
// floats, s8/u8 for the integers), the op runs there, and its result is
// converted back, rounded once per instruction, as the interpreter
// evaluates it. Ops that only hand values on (PassesValuesOn), convert and
// byte-wide bitcast-convert stay: kernels hold a narrow value as its byte.
//
// Refused, naming the instruction (the interpreter refuses them too): ops
// with a called computation over narrow values (reduce, sort, scatter,
// map, ...), bitcast-convert from or to a type narrower than a byte, and
// shift-right-logical, count-leading-zeros and popcnt on narrow integers.
// Returns whether anything changed.
absl::StatusOr<bool> ExpandNarrowTypes(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_NARROW_TYPE_EXPANSION_H_
