#include "runtime/executable/replicated_execution.h"

#include <algorithm>
#include <mutex>
#include <thread>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "runtime/platform/collectives.h"
#include "support/status_macros.h"

namespace aot {

absl::Status RunParticipants(
    const Executable& executable, const ReplicatedExecuteOptions& options,
    absl::FunctionRef<absl::Status(int64_t participant, const ExecuteOptions& options)> run) {
  const int64_t participants = executable.participant_count();
  const DeviceAssignmentProto& assignment = executable.proto().device_assignment();
  const int64_t partitions = std::max<int64_t>(assignment.partition_count(), 1);
  // Device-less: the same error a single execution gives, before any
  // collective backend (NCCL) is opened.
  AOT_RETURN_IF_ERROR(executable.CheckPlatformCanExecute());
  AOT_ASSIGN_OR_RETURN(
      std::unique_ptr<CollectiveBackend> backend,
      executable.platform()->CreateCollectiveBackend(participants, options.collective_timeout));
  std::mutex mu;
  absl::Status first_error;
  auto fail = [&](int64_t participant, const absl::Status& status) {
    std::string who = absl::StrCat("replica ", participant / partitions);
    if (partitions > 1) absl::StrAppend(&who, " partition ", participant % partitions);
    absl::Status named(status.code(), absl::StrCat(who, ": ", status.message()));
    std::lock_guard<std::mutex> lock(mu);
    if (first_error.ok()) {
      first_error = named;
      backend->Abort(named);
    }
  };
  std::vector<std::thread> threads;
  for (int64_t p = 0; p < participants; ++p) {
    if (absl::c_linear_search(options.absent_participants, p)) continue;
    threads.emplace_back([&, p] {
      CollectiveParams params;
      params.participant = p;
      params.replica = p / partitions;
      params.partition = p % partitions;
      params.participant_count = participants;
      params.backend = backend.get();
      ExecuteOptions execute;
      execute.deadline = options.deadline;
      execute.collectives = &params;
      if (absl::Status s = run(p, execute); !s.ok()) fail(p, s);
    });
  }
  for (std::thread& t : threads) t.join();
  AOT_RETURN_IF_ERROR(first_error);
  if (!options.absent_participants.empty()) {
    return absl::InternalError("participants were absent but the others did not fail");
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ParticipantCount(absl::Span<const Executable* const> executables) {
  if (executables.empty()) return absl::InvalidArgumentError("no executable");
  const int64_t participants = executables[0]->participant_count();
  if (executables.size() != 1 && static_cast<int64_t>(executables.size()) != participants) {
    return absl::InvalidArgumentError(
        absl::StrCat(executables.size(), " executables for ", participants, " participants"));
  }
  return participants;
}

absl::StatusOr<std::vector<std::vector<std::vector<uint8_t>>>> ExecuteReplicated(
    absl::Span<const Executable* const> executables,
    absl::Span<const std::vector<std::vector<uint8_t>>> arguments,
    const ReplicatedExecuteOptions& options) {
  AOT_ASSIGN_OR_RETURN(const int64_t participants, ParticipantCount(executables));
  const Executable& first = *executables[0];
  if (static_cast<int64_t>(arguments.size()) != participants) {
    return absl::InvalidArgumentError(absl::StrCat("the executable runs on ", participants,
                                                   " participants, got arguments for ",
                                                   arguments.size()));
  }
  std::vector<std::vector<std::vector<uint8_t>>> results(participants);
  AOT_RETURN_IF_ERROR(RunParticipants(
      first, options, [&](int64_t p, const ExecuteOptions& execute) -> absl::Status {
        const Executable& executable = *executables[executables.size() == 1 ? 0 : p];
        std::vector<absl::Span<const uint8_t>> spans(arguments[p].begin(), arguments[p].end());
        AOT_ASSIGN_OR_RETURN(results[p], executable.Execute(spans, execute));
        return absl::OkStatus();
      }));
  return results;
}

}  // namespace aot
