#include "compiler/tooling/run_counts.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/hlo_sharding.h"
#include "support/status_macros.h"

namespace aot {
namespace {

absl::Status CheckCount(const char* flag, int64_t given, const char* field, int64_t* header) {
  if (given <= 0) return absl::OkStatus();
  if (*header > 1 && *header != given) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, "=", given, " disagrees with the module's ", field, "=", *header,
                     " (give ", *header, " or leave it out)"));
  }
  *header = given;
  return absl::OkStatus();
}

// How many devices the sharding names: one more than the largest id.
int64_t DevicesNamed(const HloSharding& sharding) {
  switch (sharding.kind()) {
    case HloSharding::Kind::kMaximal:
      return sharding.device() + 1;
    case HloSharding::Kind::kTiled: {
      int64_t most = 0;
      for (int64_t d : sharding.devices()) most = std::max(most, d + 1);
      return most;
    }
    case HloSharding::Kind::kTuple: {
      int64_t most = 0;
      for (const HloSharding& e : sharding.tuple_elements()) most = std::max(most, DevicesNamed(e));
      return most;
    }
    default:
      return 0;
  }
}

}  // namespace

absl::StatusOr<std::string> ApplyRunCounts(HloModule& module, const RunCounts& counts) {
  HloModuleConfig& config = *module.mutable_config();
  absl::Status s =
      CheckCount("num_replicas", counts.replicas, "replica_count", &config.replica_count);
  if (s.ok()) {
    s = CheckCount("num_partitions", counts.partitions, "num_partitions", &config.num_partitions);
  }
  AOT_RETURN_IF_ERROR(s);
  if (counts.partitions > 0 || config.num_partitions > 1) return std::string();
  // One partition: do the shardings fit the devices the run has (its
  // replicas)? If not, they are for an SPMD run this one is not.
  const int64_t devices = std::max<int64_t>(config.replica_count, 1);
  int64_t needed = 0;
  std::vector<HloInstruction*> sharded;
  for (HloComputation* c : module.computations()) {
    for (HloInstruction* instruction : c->instructions()) {
      const std::string& text = instruction->attrs().sharding;
      if (text.empty()) continue;
      sharded.push_back(instruction);
      absl::StatusOr<HloSharding> sharding = HloSharding::Parse(text);
      // A sharding that does not parse is the verifier's to report.
      if (!sharding.ok()) return std::string();
      if (!sharding->Validate(instruction->shape(), devices).ok()) {
        needed = std::max(needed, DevicesNamed(*sharding));
      }
    }
  }
  if (needed == 0) return std::string();
  for (HloInstruction* instruction : sharded) instruction->mutable_attrs()->sharding.clear();
  return absl::StrCat("ran unpartitioned on one device: the module's shardings are for ", needed,
                      " devices and the run has ", devices, " (--num_partitions=", needed,
                      " partitions it)");
}

}  // namespace aot
