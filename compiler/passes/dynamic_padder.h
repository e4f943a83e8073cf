#ifndef AOT_COMPILER_PASSES_DYNAMIC_PADDER_H_
#define AOT_COMPILER_PASSES_DYNAMIC_PADDER_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// XLA's bounded dynamic dimensions made static, in the role of XLA's
// DynamicPadder: values keep their bound-sized buffers and each dynamic
// dimension's size becomes an s32[] instruction, following the rule set of
// compiler/hlo/dynamic_dimensions.h (the one the interpreter evaluates):
//  - set-dimension-size(x, n) -> x, its dimension sized clamp(0, n, bound);
//  - get-dimension-size -> the size instruction (or the bound);
//  - reduce and dot: the padding they fold or contract is replaced first
//    (select(iota < size, x, init or 0));
//  - dynamic-reshape -> a gather of the operand's valid elements, in
//    row-major order, into the result's valid region (zero past them);
//  - elementwise ops, broadcast, transpose and reshape carry sizes on, and
//    so do slice, pad, reverse, concatenate, dynamic-slice,
//    dynamic-update-slice, sort and reduce-window along other dimensions.
// Sizes stay in the computation that made them: a dynamic value that is a
// computation's root, or reaches any other op, is Unimplemented naming the
// instruction. Runs first, before get-dimension-size becomes a constant,
// so nothing dynamic reaches the pipeline or an artifact (no new opcode or
// field in what the runtime reads). Returns whether anything changed.
absl::StatusOr<bool> LowerDynamicDimensions(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_DYNAMIC_PADDER_H_
