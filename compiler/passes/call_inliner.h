#ifndef AOT_COMPILER_PASSES_CALL_INLINER_H_
#define AOT_COMPILER_PASSES_CALL_INLINER_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// Replaces every `call` instruction with a copy of the called computation's
// instructions (repeatedly, so nested calls disappear too), then removes
// computations nothing calls. Deterministic: inlined instructions are named
// "<call name>.<callee instruction name>". Returns whether anything changed.
absl::StatusOr<bool> InlineCalls(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_CALL_INLINER_H_
