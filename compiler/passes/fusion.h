#ifndef AOT_COMPILER_PASSES_FUSION_H_
#define AOT_COMPILER_PASSES_FUSION_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// Fusion [fusion]: groups instructions into `fusion` instructions, each of
// which the codegen emits as one kernel. Runs on the entry computation and
// on computations called by while/conditional/call; never inside scalar
// bodies (to_apply of reduce, sort, ...) or fusion computations.
//
// Kinds (attrs().fusion_kind):
//  - "kLoop": elementwise-style ops producing one array: every element of
//    the root is computed from its index (broadcast, reshape, bitcast,
//    transpose, slice, concatenate, pad, iota, reverse, dynamic-slice,
//    constants and every elementwise op, select/clamp/convert/compare
//    included).
//  - "kInput": exactly one `reduce` with one array result (the "hero"),
//    plus kLoop-style producers of its operands and, optionally, an
//    epilogue after it. The kernel contract for the epilogue: let IN be
//    the reduce operand's dimensions, OUT the reduce result's, and KEPT
//    the operand dimensions not reduced (in order). Either
//      (a) the root has dimensions OUT and the reduce result reaches it
//          only through elementwise ops ("mean = sum / n"), or
//      (b) a row reduction (KEPT are the leading dimensions 0..k-1, at
//          least one kept and one reduced, so each row is a contiguous run
//          of the default-layout input) whose root has dimensions IN, and
//          the reduce result reaches the root only through elementwise ops
//          on OUT, then a broadcast with dimensions=KEPT to IN, then
//          elementwise ops on IN (softmax's exp / broadcast(sum)). A
//          kernel reduces one row and then computes the epilogue for that
//          row; instructions of the reduce's input chain that the epilogue
//          also reads (exp in softmax) are recomputed, never stored.
//    Other instructions of the fusion are kLoop-style and may read fused
//    values of any shape (layer norm's mean, broadcast back to rows, feeds
//    the variance reduce).
//    The root is the reduce itself when there is no epilogue.
// Every fusion has an array result with the default layout, and every
// fused instruction and fused parameter has the default layout: a `copy`
// that changes layout (see layout-normalization) is never fused, and
// neither is anything whose operands or result have another layout.
//
// Rules:
//  - Instructions are visited from the root towards the parameters; an
//    unfused fusible instruction starts a new fusion, which then absorbs
//    producers of its members to a fixed point.
//  - A producer is absorbed when all its users are already in the fusion
//    (it then disappears from the outer computation). A cheap producer
//    (broadcast, iota, constant, reshape, bitcast) with users elsewhere is
//    duplicated into the fusion instead; expensive ones never are.
//  - Never fused: parameter, tuple, get-tuple-element, dot, convolution,
//    custom-call, while, conditional, call, sort, scatter, gather,
//    reduce-window, select-and-scatter, dynamic-update-slice, fusion,
//    variadic reduce, anything with a tuple shape, layout-changing copies.
//  - A constant (with at most max_fused_constant_elements elements) is
//    copied into the fusions that read it; alone it stays a constant.
//  - A fusion never contains a fusion and never more than one reduce; a
//    single fusible op alone still becomes a kLoop fusion (one kernel).
// Names are deterministic: "fusion.N" and "fused_computation.N", N = 1, 2,
// ... in module print order (computations callees first, fusions by their
// root's position in the computation's post order), skipping names in use.
// Fused parameters are "param_0", "param_1", ... in order of first use; the
// fusion's operands are the matching outer values.
class InstructionFusion : public HloPass {
 public:
  static constexpr absl::string_view kName = "fusion";
  InstructionFusion() = default;
  explicit InstructionFusion(const FusionOptions& options) : options_(options) {}
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;

 private:
  FusionOptions options_;
};

// Whether `instruction` is an op a kLoop fusion can contain (ignoring
// layouts and constant sizes).
bool IsLoopFusibleOpcode(const HloInstruction& instruction);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_FUSION_H_
