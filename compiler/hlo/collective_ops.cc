#include "compiler/hlo/collective_ops.h"

#include <algorithm>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// An iota list may not expand to more ids than this (input is untrusted).
constexpr int64_t kMaxIotaIds = int64_t{1} << 24;

template <typename... Args>
absl::Status InstructionError(const HloInstruction& instruction, const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat(DescribeInstruction(instruction), ": ", args...));
}

// The synchronous op of a -start/-done form (the opcode itself otherwise).
HloOpcode SyncOpcode(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAllReduceDone:
      return HloOpcode::kAllReduce;
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kAllGatherDone:
      return HloOpcode::kAllGather;
    case HloOpcode::kCollectivePermuteStart:
    case HloOpcode::kCollectivePermuteDone:
      return HloOpcode::kCollectivePermute;
    default:
      return opcode;
  }
}

std::string Counts(int64_t replica_count, int64_t num_partitions) {
  return absl::StrCat(replica_count, " replica", replica_count == 1 ? "" : "s", " x ",
                      num_partitions, " partition", num_partitions == 1 ? "" : "s");
}

std::string PairsToString(const std::vector<std::pair<int64_t, int64_t>>& pairs) {
  return absl::StrCat("{",
                      absl::StrJoin(pairs, ",",
                                    [](std::string* out, const std::pair<int64_t, int64_t>& p) {
                                      absl::StrAppend(out, "{", p.first, ",", p.second, "}");
                                    }),
                      "}");
}

absl::Status CheckCounts(const HloInstruction& instruction, int64_t replica_count,
                         int64_t num_partitions) {
  if (replica_count < 1 || num_partitions < 1 || replica_count > (int64_t{1} << 20) ||
      num_partitions > (int64_t{1} << 20)) {
    return InstructionError(instruction, "invalid participant counts (",
                            Counts(replica_count, num_partitions), ")");
  }
  return absl::OkStatus();
}

}  // namespace

absl::string_view CollectiveOpGroupModeName(CollectiveOpGroupMode mode) {
  switch (mode) {
    case CollectiveOpGroupMode::kCrossReplica:
      return "cross-replica";
    case CollectiveOpGroupMode::kCrossPartition:
      return "cross-partition";
    case CollectiveOpGroupMode::kCrossReplicaAndPartition:
      return "cross-replica-and-partition";
    case CollectiveOpGroupMode::kFlattenedId:
      return "flattened-id";
  }
  return "?";
}

bool IsCollectiveOpcode(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAllReduceDone:
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kAllGatherDone:
    case HloOpcode::kReduceScatter:
    case HloOpcode::kAllToAll:
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart:
    case HloOpcode::kCollectivePermuteDone:
    case HloOpcode::kCollectiveBroadcast:
      return true;
    default:
      return false;
  }
}

bool IsAsyncCollectiveStart(HloOpcode opcode) {
  return opcode == HloOpcode::kAllReduceStart || opcode == HloOpcode::kAllGatherStart ||
         opcode == HloOpcode::kCollectivePermuteStart;
}

bool IsAsyncCollectiveDone(HloOpcode opcode) {
  return opcode == HloOpcode::kAllReduceDone || opcode == HloOpcode::kAllGatherDone ||
         opcode == HloOpcode::kCollectivePermuteDone;
}

bool HasReplicaGroups(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kReduceScatter:
    case HloOpcode::kAllToAll:
    case HloOpcode::kCollectiveBroadcast:
      return true;
    default:
      return false;
  }
}

absl::StatusOr<CollectiveOpGroupMode> GetCollectiveOpGroupMode(const HloInstruction& instruction) {
  if (!IsCollectiveOpcode(instruction.opcode())) {
    return InstructionError(instruction, "is not a collective");
  }
  const HloAttributes& at = instruction.attrs();
  const HloOpcode sync = SyncOpcode(instruction.opcode());
  const bool takes_global_ids = sync == HloOpcode::kAllReduce || sync == HloOpcode::kAllGather ||
                                sync == HloOpcode::kReduceScatter;
  if (at.use_global_device_ids && !takes_global_ids) {
    return InstructionError(instruction, "use_global_device_ids=true does not apply to ",
                            HloOpcodeString(sync));
  }
  if (!at.channel_id.has_value()) {
    if (at.use_global_device_ids) {
      return InstructionError(instruction, "use_global_device_ids=true needs a channel_id");
    }
    return CollectiveOpGroupMode::kCrossReplica;
  }
  if (!takes_global_ids) return CollectiveOpGroupMode::kCrossPartition;
  return at.use_global_device_ids ? CollectiveOpGroupMode::kFlattenedId
                                  : CollectiveOpGroupMode::kCrossReplicaAndPartition;
}

absl::StatusOr<std::vector<std::vector<int64_t>>> CollectiveParticipantGroups(
    const HloInstruction& instruction, int64_t replica_count, int64_t num_partitions) {
  AOT_RETURN_IF_ERROR(CheckCounts(instruction, replica_count, num_partitions));
  AOT_ASSIGN_OR_RETURN(CollectiveOpGroupMode mode, GetCollectiveOpGroupMode(instruction));
  const int64_t r_count = replica_count;
  const int64_t p_count = num_partitions;
  std::vector<std::vector<int64_t>> out;
  const HloOpcode sync = SyncOpcode(instruction.opcode());
  if (sync == HloOpcode::kCollectivePermute) {
    if (mode == CollectiveOpGroupMode::kCrossReplica) {
      for (int64_t p = 0; p < p_count; ++p) {
        std::vector<int64_t>& group = out.emplace_back();
        for (int64_t r = 0; r < r_count; ++r) group.push_back(r * p_count + p);
      }
    } else {
      for (int64_t r = 0; r < r_count; ++r) {
        std::vector<int64_t>& group = out.emplace_back();
        for (int64_t p = 0; p < p_count; ++p) group.push_back(r * p_count + p);
      }
    }
    return out;
  }
  if (!HasReplicaGroups(instruction.opcode())) {
    return InstructionError(instruction, "has no participant groups of its own");
  }
  int64_t id_limit = r_count;
  absl::string_view id_name = "replica";
  if (mode == CollectiveOpGroupMode::kCrossPartition) {
    id_limit = p_count;
    id_name = "partition";
  } else if (mode == CollectiveOpGroupMode::kFlattenedId) {
    id_limit = r_count * p_count;
    id_name = "participant";
  }
  std::vector<std::vector<int64_t>> groups = instruction.attrs().replica_groups;
  if (groups.empty()) {
    std::vector<int64_t>& all = groups.emplace_back();
    for (int64_t i = 0; i < id_limit; ++i) all.push_back(i);
  }
  auto error = [&](const auto&... args) {
    return InstructionError(
        instruction, "replica_groups ", ReplicaGroupsToString(instruction.attrs().replica_groups),
        " (", CollectiveOpGroupModeName(mode), ", ", Counts(r_count, p_count), "): ", args...);
  };
  std::vector<int> seen(id_limit, 0);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].empty()) return error("group ", g, " is empty");
    for (int64_t id : groups[g]) {
      if (id < 0 || id >= id_limit) {
        return error(id_name, " ", id, " is out of range [0, ", id_limit, ")");
      }
      if (seen[id]++ != 0) return error(id_name, " ", id, " appears more than once");
    }
  }
  for (int64_t id = 0; id < id_limit; ++id) {
    if (seen[id] == 0) return error(id_name, " ", id, " is in no group");
  }
  switch (mode) {
    case CollectiveOpGroupMode::kCrossReplica:
      for (int64_t p = 0; p < p_count; ++p) {
        for (const std::vector<int64_t>& g : groups) {
          std::vector<int64_t>& group = out.emplace_back();
          for (int64_t r : g) group.push_back(r * p_count + p);
        }
      }
      break;
    case CollectiveOpGroupMode::kCrossPartition:
      for (int64_t r = 0; r < r_count; ++r) {
        for (const std::vector<int64_t>& g : groups) {
          std::vector<int64_t>& group = out.emplace_back();
          for (int64_t p : g) group.push_back(r * p_count + p);
        }
      }
      break;
    case CollectiveOpGroupMode::kCrossReplicaAndPartition:
      for (const std::vector<int64_t>& g : groups) {
        std::vector<int64_t>& group = out.emplace_back();
        for (int64_t r : g) {
          for (int64_t p = 0; p < p_count; ++p) group.push_back(r * p_count + p);
        }
      }
      break;
    case CollectiveOpGroupMode::kFlattenedId:
      out = std::move(groups);
      break;
  }
  return out;
}

absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> CollectivePermutePairs(
    const HloInstruction& instruction, int64_t replica_count, int64_t num_partitions) {
  if (SyncOpcode(instruction.opcode()) != HloOpcode::kCollectivePermute) {
    return InstructionError(instruction, "is not a collective-permute");
  }
  AOT_RETURN_IF_ERROR(CheckCounts(instruction, replica_count, num_partitions));
  AOT_ASSIGN_OR_RETURN(CollectiveOpGroupMode mode, GetCollectiveOpGroupMode(instruction));
  const bool cross_replica = mode == CollectiveOpGroupMode::kCrossReplica;
  const int64_t id_limit = cross_replica ? replica_count : num_partitions;
  const absl::string_view id_name = cross_replica ? "replica" : "partition";
  const auto& pairs = instruction.attrs().source_target_pairs;
  auto error = [&](const auto&... args) {
    return InstructionError(instruction, "source_target_pairs ", PairsToString(pairs), " (",
                            CollectiveOpGroupModeName(mode), ", ",
                            Counts(replica_count, num_partitions), "): ", args...);
  };
  std::vector<int> sources(id_limit, 0), targets(id_limit, 0);
  for (const auto& [source, target] : pairs) {
    for (int64_t id : {source, target}) {
      if (id < 0 || id >= id_limit) {
        return error(id_name, " ", id, " is out of range [0, ", id_limit, ")");
      }
    }
    if (sources[source]++ != 0) return error("source ", source, " appears more than once");
    if (targets[target]++ != 0) return error("target ", target, " appears more than once");
  }
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& [source, target] : pairs) {
    if (cross_replica) {
      for (int64_t p = 0; p < num_partitions; ++p) {
        out.emplace_back(source * num_partitions + p, target * num_partitions + p);
      }
    } else {
      for (int64_t r = 0; r < replica_count; ++r) {
        out.emplace_back(r * num_partitions + source, r * num_partitions + target);
      }
    }
  }
  return out;
}

absl::StatusOr<std::vector<std::vector<int64_t>>> ExpandIotaReplicaGroupList(
    const IotaReplicaGroupList& iota) {
  auto error = [&](const auto&... args) {
    return absl::InvalidArgumentError(
        absl::StrCat("iota replica groups ", IotaReplicaGroupListToString(iota), ": ", args...));
  };
  if (iota.num_groups < 1 || iota.group_size < 1) {
    return error("the group count and size must be positive");
  }
  if (iota.num_groups > kMaxIotaIds || iota.group_size > kMaxIotaIds ||
      iota.num_groups * iota.group_size > kMaxIotaIds) {
    return error("more than ", kMaxIotaIds, " ids");
  }
  if (iota.reshape_dims.empty()) return error("no reshape dimensions");
  int64_t total = 1;
  for (int64_t d : iota.reshape_dims) {
    if (d < 1) return error("reshape dimension ", d, " is not positive");
    if (d > kMaxIotaIds || total * d > kMaxIotaIds) return error("more than ", kMaxIotaIds, " ids");
    total *= d;
  }
  if (total != iota.num_groups * iota.group_size) {
    return error("the reshape dimensions hold ", total, " ids, the groups ",
                 iota.num_groups * iota.group_size);
  }
  const size_t rank = iota.reshape_dims.size();
  std::vector<int64_t> perm = iota.transpose_perm;
  if (perm.empty()) {
    for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(i));
  }
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  bool is_permutation = sorted.size() == rank;
  for (size_t i = 0; is_permutation && i < rank; ++i) {
    is_permutation = sorted[i] == static_cast<int64_t>(i);
  }
  if (!is_permutation) {
    return error("the transpose is not a permutation of the ", rank, " reshape dimensions");
  }
  // Row-major strides of the reshaped ids; the transposed array's
  // dimension i is the reshaped dimension perm[i].
  std::vector<int64_t> strides(rank, 1);
  for (size_t i = rank - 1; i > 0; --i) strides[i - 1] = strides[i] * iota.reshape_dims[i];
  std::vector<int64_t> dims(rank);
  for (size_t i = 0; i < rank; ++i) dims[i] = iota.reshape_dims[perm[i]];
  std::vector<int64_t> ids;
  ids.reserve(total);
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t id = 0;
    for (size_t i = 0; i < rank; ++i) id += index[i] * strides[perm[i]];
    ids.push_back(id);
    for (size_t i = rank; i-- > 0;) {
      if (++index[i] < dims[i]) break;
      index[i] = 0;
    }
  }
  std::vector<std::vector<int64_t>> groups(iota.num_groups);
  for (int64_t g = 0; g < iota.num_groups; ++g) {
    groups[g].assign(ids.begin() + g * iota.group_size, ids.begin() + (g + 1) * iota.group_size);
  }
  return groups;
}

std::optional<ReductionKind> MatchReductionComputation(const HloComputation& computation) {
  const HloInstruction* root = computation.root_instruction();
  if (root == nullptr || computation.num_parameters() != 2) return std::nullopt;
  std::optional<ReductionKind> kind;
  switch (root->opcode()) {
    case HloOpcode::kAdd:
      kind = ReductionKind::kSum;
      break;
    case HloOpcode::kMultiply:
      kind = ReductionKind::kProduct;
      break;
    case HloOpcode::kMinimum:
      kind = ReductionKind::kMin;
      break;
    case HloOpcode::kMaximum:
      kind = ReductionKind::kMax;
      break;
    default:
      return std::nullopt;
  }
  const HloInstruction* p0 = computation.parameter_instruction(0);
  const HloInstruction* p1 = computation.parameter_instruction(1);
  if (p0 == nullptr || p1 == nullptr || root->operand_count() != 2) return std::nullopt;
  const Shape& type = root->shape();
  if (!type.IsArray() || type.rank() != 0) return std::nullopt;
  for (const HloInstruction* p : {p0, p1}) {
    if (!p->shape().IsArray() || p->shape().rank() != 0 ||
        p->shape().element_type() != type.element_type()) {
      return std::nullopt;
    }
  }
  const HloInstruction* a = root->operand(0);
  const HloInstruction* b = root->operand(1);
  if ((a == p0 && b == p1) || (a == p1 && b == p0)) return kind;
  return std::nullopt;
}

absl::string_view ReductionKindName(ReductionKind kind) {
  switch (kind) {
    case ReductionKind::kSum:
      return "sum";
    case ReductionKind::kProduct:
      return "product";
    case ReductionKind::kMin:
      return "min";
    case ReductionKind::kMax:
      return "max";
  }
  return "?";
}

}  // namespace aot
