#ifndef AOT_COMPILER_TOOLING_RUN_COUNTS_H_
#define AOT_COMPILER_TOOLING_RUN_COUNTS_H_

// A run's replica and partition counts as XLA's runners take them
// (run_hlo_module, multihost_hlo_runner): XLA's tests and JAX's dumps keep
// the counts in the module's config rather than its header, so the flags
// give them.

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

struct RunCounts {
  int64_t replicas = 0;    // --num_replicas; 0: not given
  int64_t partitions = 0;  // --num_partitions; 0: not given
};

// Sets the module's replica_count / num_partitions from `counts` where its
// header has none (1), and refuses a count that disagrees with the header
// (InvalidArgument naming both). A module whose shardings name more
// devices than the run has, run without --num_partitions, runs
// unpartitioned on one device as XLA runs it without SPMD: its shardings
// are dropped and the returned note says so and which flag partitions it
// ("" when nothing was dropped).
absl::StatusOr<std::string> ApplyRunCounts(HloModule& module, const RunCounts& counts);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_RUN_COUNTS_H_
