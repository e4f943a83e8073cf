#ifndef AOT_COMPILER_HLO_COLLECTIVE_OPS_H_
#define AOT_COMPILER_HLO_COLLECTIVE_OPS_H_

// Facts about collective instructions shared by the verifier, the passes
// and the interpreter: which opcodes are collectives, how XLA reads their
// replica_groups (the group mode), the groups of participants an
// instruction runs over, and which reduction a to_apply computation is.
//
// Participants are numbered globally, replica-major:
//   participant id = replica * num_partitions + partition.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/hlo_opcode.h"

namespace aot {

// How the ids in replica_groups (and source_target_pairs) are read.
enum class CollectiveOpGroupMode {
  // Ids are replicas; each group runs once per partition.
  kCrossReplica,
  // Ids are partitions; each group runs once per replica.
  kCrossPartition,
  // Ids are replicas; a group takes every partition of its replicas.
  kCrossReplicaAndPartition,
  // Ids are participant ids (replica * num_partitions + partition).
  kFlattenedId,
};
// "cross-replica", "cross-partition", "cross-replica-and-partition",
// "flattened-id".
absl::string_view CollectiveOpGroupModeName(CollectiveOpGroupMode mode);

// XLA's rule: no channel_id -> kCrossReplica (use_global_device_ids must be
// false); channel_id and an op without use_global_device_ids (all-to-all,
// collective-permute, collective-broadcast) -> kCrossPartition;
// all-reduce/all-gather/reduce-scatter with channel_id:
// use_global_device_ids false -> kCrossReplicaAndPartition, true ->
// kFlattenedId. The -start forms follow their synchronous op. Errors
// (InvalidArgument) name the instruction.
absl::StatusOr<CollectiveOpGroupMode> GetCollectiveOpGroupMode(const HloInstruction& instruction);

// The collectives and their -start/-done forms (not replica-id or
// partition-id).
bool IsCollectiveOpcode(HloOpcode opcode);
// The -start/-done forms only.
bool IsAsyncCollectiveStart(HloOpcode opcode);
bool IsAsyncCollectiveDone(HloOpcode opcode);
// Whether the opcode carries replica_groups (all-reduce, all-gather,
// reduce-scatter, all-to-all, collective-broadcast and the -start forms).
bool HasReplicaGroups(HloOpcode opcode);

// The groups of participants the collective runs over, each in group
// order; empty replica_groups means one group of all (per mode). Every
// participant appears in exactly one group; ids out of range, duplicates,
// or participants not covered are InvalidArgument naming the instruction
// ("instruction 'ar' (all-reduce): replica_groups ..."). For
// collective-permute (which has no replica_groups) the groups are the sets
// of participants the pairs connect: all replicas of each partition
// (cross-replica) or all partitions of each replica (cross-partition).
absl::StatusOr<std::vector<std::vector<int64_t>>> CollectiveParticipantGroups(
    const HloInstruction& instruction, int64_t replica_count, int64_t num_partitions);

// collective-permute(-start): (source, target) pairs of global participant
// ids, in the order of source_target_pairs (for each pair, every partition
// or replica it applies to). No source and no target appears twice.
absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> CollectivePermutePairs(
    const HloInstruction& instruction, int64_t replica_count, int64_t num_partitions);

// The explicit groups of an iota replica group list; InvalidArgument when
// the list is inconsistent (sizes, a transpose that is not a permutation).
absl::StatusOr<std::vector<std::vector<int64_t>>> ExpandIotaReplicaGroupList(
    const IotaReplicaGroupList& iota);

enum class ReductionKind { kSum, kProduct, kMin, kMax };
// The reduction a to_apply computation performs when it is a single binary
// add/multiply/minimum/maximum of its two scalar parameters (either
// order), else nullopt.
std::optional<ReductionKind> MatchReductionComputation(const HloComputation& computation);
// "sum", "product", "min", "max".
absl::string_view ReductionKindName(ReductionKind kind);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_COLLECTIVE_OPS_H_
