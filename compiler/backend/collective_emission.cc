#include "compiler/backend/collective_emission.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// The ops whose thunk cuts or concatenates along `dimensions[0]`.
bool CutsAlongDimension(const HloInstruction& instr) {
  switch (instr.opcode()) {
    case HloOpcode::kAllGather:
    case HloOpcode::kReduceScatter:
      return true;
    case HloOpcode::kAllToAll:
      return !instr.dimensions().empty();  // the array form
    default:
      return false;
  }
}

// Flat concatenation along `d` is concatenation along the dimension: the
// shapes are in the default (row-major) layout and every dimension before
// `d` has size 1.
bool IsFlatAlong(const Shape& shape, int64_t d) {
  if (!shape.IsArray() || !shape.HasDefaultLayout()) return false;
  for (int64_t i = 0; i < d; ++i) {
    if (shape.dimensions(i) != 1) return false;
  }
  return true;
}

Shape Permuted(const Shape& shape, const std::vector<int64_t>& perm) {
  std::vector<int64_t> dims;
  for (int64_t p : perm) dims.push_back(shape.dimensions(p));
  return Shape(shape.element_type(), std::move(dims));
}

ReductionKindProto ToProto(ReductionKind kind) {
  switch (kind) {
    case ReductionKind::kSum:
      return REDUCTION_KIND_SUM;
    case ReductionKind::kProduct:
      return REDUCTION_KIND_PRODUCT;
    case ReductionKind::kMin:
      return REDUCTION_KIND_MIN;
    case ReductionKind::kMax:
      return REDUCTION_KIND_MAX;
  }
  return REDUCTION_KIND_UNSPECIFIED;
}

const HloModule& ModuleOf(const HloInstruction& instr) { return *instr.parent()->parent(); }

}  // namespace

int64_t ParticipantCount(const HloModule& module) {
  return std::max<int64_t>(module.config().replica_count, 1) *
         std::max<int64_t>(module.config().num_partitions, 1);
}

DeviceAssignmentProto DeviceAssignmentFor(const HloModule& module) {
  DeviceAssignmentProto d;
  d.set_replica_count(std::max<int64_t>(module.config().replica_count, 1));
  d.set_partition_count(std::max<int64_t>(module.config().num_partitions, 1));
  for (int64_t i = 0; i < ParticipantCount(module); ++i) d.add_device_ids(i);
  return d;
}

absl::StatusOr<bool> MakeCollectiveDimensionsMajor(HloModule* module) {
  return ReplaceInTopLevelComputations(
      module,
      [](HloComputation* computation, NameUniquer& names,
         HloInstruction* instr) -> absl::StatusOr<HloInstruction*> {
        if (!CutsAlongDimension(*instr)) return nullptr;
        const int64_t d = instr->dimensions()[0];
        bool flat = true;
        for (const HloInstruction* operand : instr->operands()) {
          flat = flat && IsFlatAlong(operand->shape(), d);
        }
        if (instr->shape().IsTuple()) {
          for (const Shape& leaf : instr->shape().tuple_shapes()) {
            flat = flat && IsFlatAlong(leaf, d);
          }
        } else {
          flat = flat && IsFlatAlong(instr->shape(), d);
        }
        if (flat) return nullptr;
        if (instr->operand_count() != 1 || instr->shape().IsTuple()) {
          return UnimplementedInstruction(
              *instr,
              "a variadic collective along a dimension that is not the most "
              "major one of row-major operands");
        }
        const int64_t rank = instr->shape().rank();
        std::vector<int64_t> perm = {d}, inverse(rank);
        for (int64_t i = 0; i < rank; ++i) {
          if (i != d) perm.push_back(i);
        }
        for (int64_t i = 0; i < rank; ++i) inverse[perm[i]] = i;
        HloInstruction* x = instr->operand(0);
        auto to_major =
            HloInstruction::Create(HloOpcode::kTranspose, Permuted(x->shape(), perm), {x});
        to_major->mutable_attrs()->dimensions = perm;
        to_major->set_name(names.GetUniqueName(absl::StrCat(instr->name(), ".major")));
        HloInstruction* major = AddWithNewId(computation, std::move(to_major));
        auto op = CloneWithOperands(*instr, {major});
        *op->mutable_shape() = Permuted(instr->shape(), perm);
        op->mutable_attrs()->dimensions = {0};
        op->set_name(names.GetUniqueName(absl::StrCat(instr->name(), ".flat")));
        HloInstruction* flat_op = AddWithNewId(computation, std::move(op));
        auto back = HloInstruction::Create(HloOpcode::kTranspose, instr->shape(), {flat_op});
        back->mutable_attrs()->dimensions = inverse;
        back->set_name(names.GetUniqueName(instr->name()));
        return AddWithNewId(computation, std::move(back));
      });
}

bool EmitsCollectiveThunk(const HloInstruction& instr) {
  switch (instr.opcode()) {
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllGather:
    case HloOpcode::kReduceScatter:
    case HloOpcode::kAllToAll:
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectiveBroadcast:
      return true;
    case HloOpcode::kReplicaId:
    case HloOpcode::kPartitionId:
      return instr.parent() != nullptr && instr.parent()->parent() != nullptr &&
             ParticipantCount(ModuleOf(instr)) > 1;
    default:
      return false;
  }
}

absl::StatusOr<ThunkProto> EmitCollectiveThunk(const HloInstruction& instr,
                                               const BufferAssignment& assignment) {
  ThunkProto t;
  t.mutable_info()->set_name(instr.name());
  t.mutable_info()->set_profile_annotation(instr.name());
  if (instr.opcode() == HloOpcode::kReplicaId || instr.opcode() == HloOpcode::kPartitionId) {
    AOT_ASSIGN_OR_RETURN(BufferSliceProto slice, assignment.GetSlice(instr));
    ParticipantIdThunkProto* p =
        instr.opcode() == HloOpcode::kReplicaId ? t.mutable_replica_id() : t.mutable_partition_id();
    *p->mutable_destination() = slice;
    return t;
  }
  const HloModule& module = ModuleOf(instr);
  const int64_t replicas = std::max<int64_t>(module.config().replica_count, 1);
  const int64_t partitions = std::max<int64_t>(module.config().num_partitions, 1);
  CollectiveConfigProto config;
  if (instr.opcode() == HloOpcode::kCollectivePermute) {
    auto* all = config.add_groups();
    for (int64_t p = 0; p < replicas * partitions; ++p) all->add_participants(p);
  } else {
    AOT_ASSIGN_OR_RETURN(auto groups, CollectiveParticipantGroups(instr, replicas, partitions));
    for (const std::vector<int64_t>& group : groups) {
      auto* g = config.add_groups();
      for (int64_t p : group) g->add_participants(p);
    }
  }
  const PrimitiveType type = instr.operand(0)->shape().element_type();
  for (const HloInstruction* operand : instr.operands()) {
    if (!operand->shape().IsArray() || operand->shape().element_type() != type) {
      return UnimplementedInstruction(instr,
                                      "collective operands must be arrays of one element type");
    }
  }
  config.set_element_type(type);
  config.set_channel_id(instr.attrs().channel_id.value_or(0));
  for (int64_t i = 0; i < instr.operand_count(); ++i) {
    const Shape& result = instr.shape().IsTuple() ? instr.shape().tuple_shapes()[i] : instr.shape();
    if (!CutsAlongDimension(instr) &&
        result.LayoutOrDefault() != instr.operand(i)->shape().LayoutOrDefault()) {
      return UnimplementedInstruction(instr, "operand and result layouts differ");
    }
    CollectiveBufferProto* buffer = config.add_buffers();
    AOT_ASSIGN_OR_RETURN(*buffer->mutable_source(), assignment.GetSlice(*instr.operand(i)));
    ShapeIndex index;
    if (instr.shape().IsTuple()) index.push_back(i);
    AOT_ASSIGN_OR_RETURN(*buffer->mutable_destination(), assignment.GetSlice(instr, index));
  }
  auto reduction = [&]() -> absl::StatusOr<ReductionKindProto> {
    std::optional<ReductionKind> kind = MatchReductionComputation(*instr.to_apply());
    if (!kind) {
      return UnimplementedInstruction(
          instr,
          "the reduction computation is not a single add, multiply, minimum "
          "or maximum (the reductions collectives run); the interpreter "
          "evaluates it");
    }
    return ToProto(*kind);
  };
  switch (instr.opcode()) {
    case HloOpcode::kAllReduce: {
      AOT_ASSIGN_OR_RETURN(auto kind, reduction());
      *t.mutable_all_reduce()->mutable_config() = std::move(config);
      t.mutable_all_reduce()->set_reduction(kind);
      break;
    }
    case HloOpcode::kReduceScatter: {
      AOT_ASSIGN_OR_RETURN(auto kind, reduction());
      *t.mutable_reduce_scatter()->mutable_config() = std::move(config);
      t.mutable_reduce_scatter()->set_reduction(kind);
      break;
    }
    case HloOpcode::kAllGather:
      *t.mutable_all_gather()->mutable_config() = std::move(config);
      break;
    case HloOpcode::kAllToAll:
      *t.mutable_all_to_all()->mutable_config() = std::move(config);
      break;
    case HloOpcode::kCollectiveBroadcast:
      *t.mutable_collective_broadcast()->mutable_config() = std::move(config);
      break;
    case HloOpcode::kCollectivePermute: {
      AOT_ASSIGN_OR_RETURN(auto pairs, CollectivePermutePairs(instr, replicas, partitions));
      *t.mutable_collective_permute()->mutable_config() = std::move(config);
      for (const auto& [source, target] : pairs) {
        auto* pair = t.mutable_collective_permute()->add_pairs();
        pair->set_source(source);
        pair->set_target(target);
      }
      break;
    }
    default:
      return UnimplementedInstruction(instr,
                                      "not a collective this backend emits (async forms are made "
                                      "synchronous first)");
  }
  return t;
}

}  // namespace aot
