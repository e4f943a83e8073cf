#ifndef AOT_COMPILER_PASSES_LAYOUT_NORMALIZATION_H_
#define AOT_COMPILER_PASSES_LAYOUT_NORMALIZATION_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// Layout normalization [layout-normalization]. Values are logical (a
// Literal is row-major whatever its layout), so a layout only says how a
// buffer is stored; this pass makes every buffer the default descending
// layout except at the entry computation's boundary (its ABI):
//  - every instruction of every computation gets the default layout
//    (constants' literals too), except the entry computation's parameters,
//    which take the layouts of the module's entry_computation_layout (or
//    keep their own when there is none);
//  - an entry parameter with a non-default layout gets a `copy` to the
//    default layout right after it, and its users read the copy (a tuple
//    parameter: get-tuple-element, copy of the leaves that need it, tuple);
//  - if the entry result's declared layout (entry_computation_layout's
//    result, else the root's own shape before the pass) is not the
//    default, a final `copy` to that layout becomes the root (tuples
//    leaf by leaf).
// Afterwards a `copy` whose operand and result layouts differ exists only
// right after an entry parameter or as (part of) the entry root; the
// codegen emits it as a physical transpose. Copies that became no-ops are
// left for algsimp.
class LayoutNormalization : public HloPass {
 public:
  static constexpr absl::string_view kName = "layout-normalization";
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_LAYOUT_NORMALIZATION_H_
