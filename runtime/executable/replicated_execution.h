#ifndef AOT_RUNTIME_EXECUTABLE_REPLICATED_EXECUTION_H_
#define AOT_RUNTIME_EXECUTABLE_REPLICATED_EXECUTION_H_

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "runtime/executable/executable.h"

namespace aot {

struct ReplicatedExecuteOptions {
  // A participant that does not reach a collective within this time fails
  // every participant waiting for it with DeadlineExceeded.
  absl::Duration collective_timeout = absl::Seconds(60);
  // Deadline and cancellation of every participant's execution.
  absl::Time deadline = absl::InfiniteFuture();
  // Test hook: these participants are never started (a replica that never
  // arrives).
  std::vector<int64_t> absent_participants;
};

// Runs `run(participant, options)` once per participant of `executable`
// (ExecutableProto.device_assignment: participant i is replica
// i / partitions, partition i % partitions), each on a thread of its own;
// `options` carries the participant's CollectiveParams (and the deadline),
// sharing one collective backend of the executable's platform. `run`
// executes the participant's share (Executable::Execute / ExecuteInto with
// those options). The first failure wins, names the replica and stops the
// others (they are not left waiting).
absl::Status RunParticipants(
    const Executable& executable, const ReplicatedExecuteOptions& options,
    absl::FunctionRef<absl::Status(int64_t participant, const ExecuteOptions& options)> run);

// The participants of `executables`: one executable that every participant
// runs, or one per participant (InvalidArgument otherwise).
absl::StatusOr<int64_t> ParticipantCount(absl::Span<const Executable* const> executables);

// Runs a multi-participant executable (ExecutableProto.device_assignment):
// participant i (replica i / partitions, partition i % partitions) runs
// `executables[i]` on `arguments[i]` on a thread of its own, with its own
// buffers; the collectives meet through the platform's collective backend
// (host: a rendezvous; CUDA: NCCL, one device each). `executables` holds
// one executable per participant or a single one that every participant
// runs (the host: one loaded executable, one arena per execution).
// Returns each participant's result leaves (as Executable::Execute). The
// first failure wins and stops the others (they are not left waiting);
// its message names the replica.
absl::StatusOr<std::vector<std::vector<std::vector<uint8_t>>>> ExecuteReplicated(
    absl::Span<const Executable* const> executables,
    absl::Span<const std::vector<std::vector<uint8_t>>> arguments,
    const ReplicatedExecuteOptions& options = {});

}  // namespace aot

#endif  // AOT_RUNTIME_EXECUTABLE_REPLICATED_EXECUTION_H_
