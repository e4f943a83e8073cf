#include "compiler/interpreter/replicated_evaluator.h"

#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// Participants run as threads: keep the count sane.
constexpr int64_t kMaxParticipants = 1024;

std::string ParticipantName(int64_t id, int64_t num_partitions) {
  if (num_partitions == 1) return absl::StrCat("replica ", id);
  return absl::StrCat("replica ", id / num_partitions, ", partition ", id % num_partitions);
}

}  // namespace

absl::StatusOr<std::vector<Literal>> EvaluateReplicated(
    const HloModule& module, absl::Span<const std::vector<Literal>> arguments,
    const ReplicatedEvaluationOptions& options, const CustomCallRegistry* registry) {
  if (options.replica_count < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("replica_count ", options.replica_count, " is negative"));
  }
  const int64_t replicas =
      options.replica_count > 0 ? options.replica_count : module.config().replica_count;
  const int64_t partitions = module.config().num_partitions;
  if (replicas < 1 || partitions < 1 || replicas > kMaxParticipants ||
      partitions > kMaxParticipants || replicas * partitions > kMaxParticipants) {
    return absl::InvalidArgumentError(absl::StrCat("cannot evaluate ", replicas, " replica(s) x ",
                                                   partitions, " partition(s) (at most ",
                                                   kMaxParticipants, " participants)"));
  }
  const int64_t count = replicas * partitions;
  if (static_cast<int64_t>(arguments.size()) != count) {
    return absl::InvalidArgumentError(absl::StrCat(
        "module '", module.name(), "' runs on ", replicas, " replica(s) x ", partitions,
        " partition(s): ", count, " argument lists are needed, got ", arguments.size()));
  }
  CollectiveRendezvous rendezvous(options.timeout);
  std::vector<std::optional<absl::StatusOr<Literal>>> results(count);
  std::mutex mu;
  absl::Status first_failure;  // guarded by mu
  auto run = [&](int64_t id) {
    HloEvaluator evaluator(registry);
    CollectiveParticipant participant;
    participant.replica_id = id / partitions;
    participant.partition_id = id % partitions;
    participant.replica_count = replicas;
    participant.num_partitions = partitions;
    participant.rendezvous = &rendezvous;
    evaluator.set_participant(participant);
    absl::StatusOr<Literal> result = evaluator.Evaluate(module, arguments[id]);
    if (!result.ok()) {
      const std::string name = ParticipantName(id, partitions);
      absl::Status named(result.status().code(),
                         absl::StrCat(name, ": ", result.status().message()));
      {
        std::lock_guard<std::mutex> lock(mu);
        // A Cancelled error is the echo of another participant's abort.
        if (first_failure.ok() && named.code() != absl::StatusCode::kCancelled) {
          first_failure = named;
        }
      }
      rendezvous.Abort(absl::CancelledError(absl::StrCat("aborted: ", name, " failed")));
      result = named;
    }
    results[id] = std::move(result);
  };
  std::vector<std::thread> threads;
  threads.reserve(count);
  for (int64_t id = 0; id < count; ++id) threads.emplace_back(run, id);
  for (std::thread& t : threads) t.join();
  AOT_RETURN_IF_ERROR(first_failure);
  std::vector<Literal> out;
  out.reserve(count);
  for (std::optional<absl::StatusOr<Literal>>& r : results) {
    if (!r->ok()) return r->status();
    out.push_back(*std::move(*r));
  }
  return out;
}

}  // namespace aot
