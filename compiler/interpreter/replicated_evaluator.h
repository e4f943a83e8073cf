#ifndef AOT_COMPILER_INTERPRETER_REPLICATED_EVALUATOR_H_
#define AOT_COMPILER_INTERPRETER_REPLICATED_EVALUATOR_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/literal.h"
#include "compiler/interpreter/custom_call_registry.h"

namespace aot {

struct ReplicatedEvaluationOptions {
  int64_t replica_count = 0;  // 0: the module config's replica_count
  // How long a participant waits at a collective for a member that never
  // reaches it (then every waiting member fails with DeadlineExceeded).
  absl::Duration timeout = absl::Seconds(60);
};

// Evaluates the module once per participant (replica_count *
// num_partitions of them, participant i being replica i / num_partitions,
// partition i % num_partitions), each on its own thread with its own
// HloEvaluator, exchanging values at each collective through a Rendezvous
// (support/rendezvous.h; key "<participant's collective call
// count>:<group's first member>"). arguments[i] are participant i's
// arguments; participant i's result is at [i].
//
// Errors name the participant ("replica 2: instruction 'ar' (all-reduce):
// ...", "replica 1, partition 0: ..." when there are partitions). When one
// participant fails, the rendezvous is aborted so the others stop at once;
// the returned error is the first real failure, not the others' echoes of
// the abort.
absl::StatusOr<std::vector<Literal>> EvaluateReplicated(
    const HloModule& module, absl::Span<const std::vector<Literal>> arguments,
    const ReplicatedEvaluationOptions& options = {},
    const CustomCallRegistry* registry = &CustomCallRegistry::Global());

}  // namespace aot

#endif  // AOT_COMPILER_INTERPRETER_REPLICATED_EVALUATOR_H_
