#ifndef AOT_COMPILER_PASSES_HLO_DCE_H_
#define AOT_COMPILER_PASSES_HLO_DCE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// Dead code elimination [dce]: in every computation, removes the
// instructions the root does not reach, except parameters, custom-calls
// with side effects (custom_call_has_side_effect=true) and collectives (as
// XLA keeps them: every participant must make the same collective calls);
// then removes the
// computations no instruction reachable from the entry calls.
class HloDce : public HloPass {
 public:
  static constexpr absl::string_view kName = "dce";
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_HLO_DCE_H_
