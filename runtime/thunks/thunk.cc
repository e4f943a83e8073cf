#include "runtime/thunks/thunk.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace aot {

absl::Status LoadContext::Error(absl::string_view field, absl::string_view message) const {
  std::string where = path_;
  if (!field.empty()) absl::StrAppend(&where, where.empty() ? "" : ".", field);
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", message));
}

absl::Status LoadContext::CheckSlice(const BufferSliceProto& slice, absl::string_view field) const {
  int64_t index = slice.allocation_index();
  if (index < 0 || index >= executable_->buffer_allocations_size()) {
    return Error(field, absl::StrCat("allocation_index ", index, " out of range [0, ",
                                     executable_->buffer_allocations_size(), ")"));
  }
  int64_t size = executable_->buffer_allocations(static_cast<int>(index)).size();
  if (slice.offset() < 0 || slice.size() < 0) {
    return Error(field,
                 absl::StrCat("negative offset ", slice.offset(), " or size ", slice.size()));
  }
  if (slice.offset() > size || slice.size() > size - slice.offset()) {
    return Error(field, absl::StrCat("slice [", slice.offset(), ", +", slice.size(),
                                     ") exceeds allocation ", index, " of ", size, " bytes"));
  }
  return absl::OkStatus();
}

bool IsAliasedParameterAllocation(const ExecutableProto& executable, int64_t allocation_index) {
  // Validation made each aliased leaf's slice its parameter's allocation.
  for (const InputOutputAliasProto& alias : executable.input_output_aliases()) {
    if (executable.result()
            .leaves(static_cast<int>(alias.result_leaf()))
            .slice()
            .allocation_index() == allocation_index) {
      return true;
    }
  }
  return false;
}

absl::Status LoadContext::CheckWritableSlice(const BufferSliceProto& slice,
                                             absl::string_view field) const {
  AOT_RETURN_IF_ERROR(CheckSlice(slice, field));
  const BufferAllocationProto& allocation =
      executable_->buffer_allocations(static_cast<int>(slice.allocation_index()));
  // A parameter is written only when a result leaf aliases it
  // (ExecutableProto.input_output_aliases): the execution then gives that
  // allocation a buffer of its own or the donated argument.
  if (allocation.kind() == BufferAllocationProto::PARAMETER &&
      IsAliasedParameterAllocation(*executable_, slice.allocation_index())) {
    return absl::OkStatus();
  }
  if (allocation.kind() == BufferAllocationProto::PARAMETER ||
      allocation.kind() == BufferAllocationProto::CONSTANT) {
    return Error(field, absl::StrCat("writes allocation ", slice.allocation_index(),
                                     ", which is a read-only ",
                                     BufferAllocationProto::Kind_Name(allocation.kind())));
  }
  return absl::OkStatus();
}

LoadContext::PathScope::PathScope(LoadContext& context, std::string segment)
    : context_(context), saved_size_(context.path_.size()) {
  if (!context_.path_.empty() && !segment.empty() && segment[0] != '[') {
    context_.path_ += ".";
  }
  context_.path_ += segment;
}

LoadContext::PathScope::~PathScope() { context_.path_.resize(saved_size_); }

int64_t LoadContext::participant_count() const {
  const DeviceAssignmentProto& d = executable_->device_assignment();
  return d.replica_count() > 0 ? d.replica_count() * std::max<int64_t>(d.partition_count(), 1) : 1;
}

absl::string_view ThunkKindName(Thunk::Kind kind) {
  switch (kind) {
    case Thunk::Kind::kKernel:
      return "kernel";
    case Thunk::Kind::kGemm:
      return "gemm";
    case Thunk::Kind::kCopy:
      return "copy";
    case Thunk::Kind::kMemset:
      return "memset";
    case Thunk::Kind::kCustomCall:
      return "custom_call";
    case Thunk::Kind::kSequential:
      return "sequential";
    case Thunk::Kind::kWhile:
      return "while_loop";
    case Thunk::Kind::kConditional:
      return "conditional";
    case Thunk::Kind::kConvolution:
      return "convolution";
    case Thunk::Kind::kAllReduce:
      return "all_reduce";
    case Thunk::Kind::kAllGather:
      return "all_gather";
    case Thunk::Kind::kReduceScatter:
      return "reduce_scatter";
    case Thunk::Kind::kAllToAll:
      return "all_to_all";
    case Thunk::Kind::kCollectivePermute:
      return "collective_permute";
    case Thunk::Kind::kCollectiveBroadcast:
      return "collective_broadcast";
    case Thunk::Kind::kReplicaId:
      return "replica_id";
    case Thunk::Kind::kPartitionId:
      return "partition_id";
    case Thunk::Kind::kCommandBuffer:
      return "command_buffer";
  }
  return "unknown";
}

absl::Status CheckExecutionLimits(const ExecuteParams& params,
                                  absl::FunctionRef<std::string()> before) {
  if (params.options == nullptr) return absl::OkStatus();
  const ExecuteOptions& o = *params.options;
  if (o.cancelled != nullptr && o.cancelled->load(std::memory_order_relaxed)) {
    return absl::CancelledError(absl::StrCat("execution cancelled before ", before()));
  }
  if (o.deadline != absl::InfiniteFuture() && absl::Now() > o.deadline) {
    return absl::DeadlineExceededError(
        absl::StrCat("execution passed its deadline before ", before()));
  }
  return absl::OkStatus();
}

absl::Status ExecuteSequence(const ThunkSequence& thunks, const ExecuteParams& params) {
  for (const auto& thunk : thunks) {
    auto label = [&] {
      return absl::StrCat(ThunkKindName(thunk->kind()), " thunk '", thunk->info().name(), "'");
    };
    AOT_RETURN_IF_ERROR(CheckExecutionLimits(params, label));
    if (absl::Status s = thunk->Execute(params); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat(label(), ": ", s.message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace aot
