#ifndef AOT_COMPILER_INTERPRETER_EVALUATOR_H_
#define AOT_COMPILER_INTERPRETER_EVALUATOR_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/literal.h"
#include "compiler/interpreter/custom_call_registry.h"
#include "support/rendezvous.h"

namespace aot {

// What each member of a group brings to a collective: the operands of the
// collective instruction, in operand order (shared, never copied).
using CollectiveValues = std::shared_ptr<const std::vector<Literal>>;
using CollectiveRendezvous = Rendezvous<CollectiveValues>;

// Who an evaluator is among the participants of a multi-participant
// evaluation (EvaluateReplicated in replicated_evaluator.h sets it up).
// Participant ids are replica_id * num_partitions + partition_id.
struct CollectiveParticipant {
  int64_t replica_id = 0;
  int64_t partition_id = 0;
  int64_t replica_count = 1;
  int64_t num_partitions = 1;
  // Where the members of a group meet at each collective (not owned); null
  // for a lone participant, whose collectives run over groups of one.
  CollectiveRendezvous* rendezvous = nullptr;
};

// The reference interpreter: evaluates HLO with XLA's semantics, one
// instruction at a time, on Literals (row-major logical data, so layouts
// never change a result). It is the oracle compiled results are checked
// against, in the role of XLA's HloEvaluator / Interpreter platform.
//
// Semantics worth knowing (the details are in the kernels):
//  - f16/bf16 arithmetic is done in float and rounded back to nearest even
//    after every op; f32 in float; f64 in double.
//  - Integer arithmetic wraps; x/0 = -1 (signed) or all ones (unsigned),
//    x%0 = x, INT_MIN/-1 = INT_MIN, INT_MIN%-1 = 0; shifts by >= the bit
//    width give 0 (or -1 for a negative arithmetic right shift).
//  - maximum/minimum propagate NaN; compare is IEEE unless the instruction
//    says comparison_type=TOTALORDER.
//  - reduce/reduce-window fold sequentially from the init value in
//    row-major order (reduce-window skips padding and base-dilation holes,
//    which equals padding with an identity init value); dot and
//    convolution accumulate in the result type (f16/bf16 in float, rounded
//    once).
//  - select-and-scatter: the first element of a window wins unless
//    select(selected, candidate) is false; then
//    out[selected] = scatter(out[selected], source), the order the CPU/GPU
//    emitters use (XLA's HloEvaluator passes (source, out) instead).
//  - convolution batch_group_count follows StableHLO: output feature f
//    belongs to group f / (features / groups), which reads input batches
//    [group * batch / groups, ...).
//  - dynamic-slice/dynamic-update-slice/gather clamp start indices; scatter
//    skips an update window that does not fit in the operand.
//  - replica-id and partition-id are the participant's ids (0 and 0 for a
//    lone participant); collectives follow XLA: groups from replica_groups
//    (collective_ops.h), all-reduce folds the members' values in group
//    order with to_apply, all-gather concatenates in group order,
//    reduce-scatter keeps the member's block of the all-reduce,
//    all-to-all sends chunk j (or operand j) to member j,
//    collective-permute gives a participant that is no target zeros,
//    collective-broadcast copies the group's first member; a -start does
//    the work and its -done extracts the result. Evaluate() runs a module
//    of one participant (collectives over groups of one) and refuses one
//    of more: EvaluateReplicated runs one evaluator per participant.
//  - custom-call dispatches on custom_call_target through the registry.
// Errors name the instruction: "instruction 'gather.4' (gather): ...".
//
// Not thread-safe: use one evaluator per thread.
class HloEvaluator {
 public:
  explicit HloEvaluator(const CustomCallRegistry* registry = &CustomCallRegistry::Global());
  ~HloEvaluator();
  HloEvaluator(const HloEvaluator&) = delete;
  HloEvaluator& operator=(const HloEvaluator&) = delete;

  // Evaluates the module's entry computation. The arguments must match the
  // entry parameters in number and shape (layouts are ignored); an error
  // names the mismatching parameter. A module of more than one participant
  // (replica_count * num_partitions > 1) is FailedPrecondition unless
  // set_participant() gave this evaluator a rendezvous.
  absl::StatusOr<Literal> Evaluate(const HloModule& module, absl::Span<const Literal> arguments);

  // Evaluates one computation on the given arguments.
  absl::StatusOr<Literal> EvaluateComputation(const HloComputation& computation,
                                              absl::Span<const Literal* const> arguments);

  // Makes this evaluator one participant of a multi-participant
  // evaluation: replica-id / partition-id return its ids and collectives
  // meet the other members of their group at `participant.rendezvous`
  // under the key "<collective calls so far>:<group's first member>" (the
  // count restarts with every Evaluate / EvaluateComputation).
  void set_participant(const CollectiveParticipant& participant);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aot

#endif  // AOT_COMPILER_INTERPRETER_EVALUATOR_H_
