#include "compiler/passes/hlo_dce.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

absl::StatusOr<bool> RunOnComputation(HloComputation* computation) {
  // Live: reachable from the root or from a side-effecting instruction.
  absl::flat_hash_set<const HloInstruction*> live;
  std::vector<const HloInstruction*> worklist;
  auto mark = [&](const HloInstruction* h) {
    if (live.insert(h).second) worklist.push_back(h);
  };
  if (computation->root_instruction() != nullptr) {
    mark(computation->root_instruction());
  }
  const std::vector<HloInstruction*> instructions = computation->instructions();
  for (const HloInstruction* h : instructions) {
    if (h->opcode() == HloOpcode::kParameter || HasSideEffect(*h)) mark(h);
  }
  while (!worklist.empty()) {
    const HloInstruction* h = worklist.back();
    worklist.pop_back();
    for (const HloInstruction* op : h->operands()) mark(op);
  }
  // A dead instruction has only dead users; sweeping users-first (reverse
  // definition order) until nothing is left also copes with a computation
  // whose definition order a pass left broken.
  bool changed = false;
  bool progress = true;
  while (progress) {
    progress = false;
    const std::vector<HloInstruction*> current = computation->instructions();
    for (auto it = current.rbegin(); it != current.rend(); ++it) {
      HloInstruction* h = *it;
      if (live.contains(h) || h->user_count() != 0) continue;
      AOT_RETURN_IF_ERROR(computation->RemoveInstruction(h));
      changed = progress = true;
    }
  }
  return changed;
}

}  // namespace

absl::StatusOr<bool> HloDce::Run(HloModule* module) {
  bool changed = false;
  for (HloComputation* c : module->computations()) {
    AOT_ASSIGN_OR_RETURN(bool c_changed, RunOnComputation(c));
    changed |= c_changed;
  }
  const size_t before = module->computations().size();
  module->RemoveUnreachableComputations();
  if (module->computations().size() != before) changed = true;
  return changed;
}

}  // namespace aot
