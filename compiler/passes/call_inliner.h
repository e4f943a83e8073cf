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

// Gives every conditional branch and while condition or body a computation
// of its own (XLA's FlattenCallGraph for control flow): a computation that
// two sites run is copied for the second, recursively. Buffer assignment
// places a computation's values once per instruction, so a computation
// shared by two conditionals (as inlining one function twice makes) would
// run both with the slices of the last site visited, over values still
// live at the first. Copies are named "<name>.flat<k>" (instructions
// too). Returns whether anything changed.
absl::StatusOr<bool> FlattenCallGraph(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_CALL_INLINER_H_
