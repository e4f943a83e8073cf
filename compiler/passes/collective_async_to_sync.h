#ifndef AOT_COMPILER_PASSES_COLLECTIVE_ASYNC_TO_SYNC_H_
#define AOT_COMPILER_PASSES_COLLECTIVE_ASYNC_TO_SYNC_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// Async collectives to synchronous ones [collective-async-to-sync]: each
// all-reduce-start / all-gather-start / collective-permute-start becomes
// the synchronous op (same operands, attributes and to_apply) and its
// -done is replaced by that op. Other users of a start read what the
// start's value holds: an all-reduce-start's users the all-reduce; a
// get-tuple-element of an all-gather-start or collective-permute-start its
// operand(s) (element 0), the result (element 1) or zero u32 contexts
// (elements 2 and 3 of a collective-permute-start); any other user a tuple
// of those. A module without async collectives is left untouched (not
// even reordered).
class CollectiveAsyncToSync : public HloPass {
 public:
  static constexpr absl::string_view kName = "collective-async-to-sync";
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_COLLECTIVE_ASYNC_TO_SYNC_H_
