#include "runtime/thunks/thunk_registry.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/unknown_field_set.h"
#include "runtime/thunks/all_gather_thunk.h"
#include "runtime/thunks/all_reduce_thunk.h"
#include "runtime/thunks/all_to_all_thunk.h"
#include "runtime/thunks/collective_broadcast_thunk.h"
#include "runtime/thunks/collective_permute_thunk.h"
#include "runtime/thunks/conditional_thunk.h"
#include "runtime/thunks/convolution_thunk.h"
#include "runtime/thunks/copy_thunk.h"
#include "runtime/thunks/custom_call_thunk.h"
#include "runtime/thunks/gemm_thunk.h"
#include "runtime/thunks/kernel_thunk.h"
#include "runtime/thunks/memset_thunk.h"
#include "runtime/thunks/participant_id_thunk.h"
#include "runtime/thunks/reduce_scatter_thunk.h"
#include "runtime/thunks/sequential_thunk.h"
#include "runtime/thunks/while_thunk.h"
#include "support/status_macros.h"

namespace aot {

const ThunkRegistry& ThunkRegistry::Global() {
  static const ThunkRegistry* registry = [] {
    auto* r = new ThunkRegistry();
    r->Register(ThunkProto::kKernel, "kernel",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return KernelThunk::FromProto(p.info(), p.kernel(), c);
                });
    r->Register(ThunkProto::kGemm, "gemm",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return GemmThunk::FromProto(p.info(), p.gemm(), c);
                });
    r->Register(ThunkProto::kCopy, "copy",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return CopyThunk::FromProto(p.info(), p.copy(), c);
                });
    r->Register(ThunkProto::kMemset, "memset",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return MemsetThunk::FromProto(p.info(), p.memset(), c);
                });
    r->Register(ThunkProto::kCustomCall, "custom_call",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return CustomCallThunk::FromProto(p.info(), p.custom_call(), c);
                });
    r->Register(ThunkProto::kSequential, "sequential",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return SequentialThunk::FromProto(p.info(), p.sequential(), c);
                });
    r->Register(ThunkProto::kWhileLoop, "while_loop",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return WhileThunk::FromProto(p.info(), p.while_loop(), c);
                });
    r->Register(ThunkProto::kConditional, "conditional",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return ConditionalThunk::FromProto(p.info(), p.conditional(), c);
                });
    r->Register(ThunkProto::kConvolution, "convolution",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return ConvolutionThunk::FromProto(p.info(), p.convolution(), c);
                });
    r->Register(ThunkProto::kAllReduce, "all_reduce",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return AllReduceThunk::FromProto(p.info(), p.all_reduce(), c);
                });
    r->Register(ThunkProto::kAllGather, "all_gather",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return AllGatherThunk::FromProto(p.info(), p.all_gather(), c);
                });
    r->Register(ThunkProto::kReduceScatter, "reduce_scatter",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return ReduceScatterThunk::FromProto(p.info(), p.reduce_scatter(), c);
                });
    r->Register(ThunkProto::kAllToAll, "all_to_all",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return AllToAllThunk::FromProto(p.info(), p.all_to_all(), c);
                });
    r->Register(ThunkProto::kCollectivePermute, "collective_permute",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return CollectivePermuteThunk::FromProto(p.info(), p.collective_permute(), c);
                });
    r->Register(ThunkProto::kCollectiveBroadcast, "collective_broadcast",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return CollectiveBroadcastThunk::FromProto(p.info(), p.collective_broadcast(), c);
                });
    r->Register(ThunkProto::kReplicaId, "replica_id",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return ParticipantIdThunk::FromProto(p.info(), p.replica_id(), false, c);
                });
    r->Register(ThunkProto::kPartitionId, "partition_id",
                [](const ThunkProto& p, LoadContext& c) -> absl::StatusOr<std::unique_ptr<Thunk>> {
                  return ParticipantIdThunk::FromProto(p.info(), p.partition_id(), true, c);
                });
    return r;
  }();
  return *registry;
}

void ThunkRegistry::Register(ThunkProto::ImplCase kind, std::string name, FromProtoFn fn) {
  entries_[static_cast<int>(kind)] = Entry{std::move(name), fn};
}

absl::StatusOr<std::unique_ptr<Thunk>> ThunkRegistry::FromProto(const ThunkProto& proto,
                                                                LoadContext& context) const {
  auto it = entries_.find(static_cast<int>(proto.impl_case()));
  if (it == entries_.end()) {
    const auto& unknown = proto.GetReflection()->GetUnknownFields(proto);
    std::vector<int> numbers;
    for (int i = 0; i < unknown.field_count(); ++i) {
      numbers.push_back(unknown.field(i).number());
    }
    if (proto.impl_case() == ThunkProto::IMPL_NOT_SET && !numbers.empty()) {
      return context.Error(
          "", absl::StrCat("unknown thunk kind (ThunkProto field ", absl::StrJoin(numbers, ", "),
                           ", not known to this runtime; emitted by a "
                           "newer compiler?)"));
    }
    if (proto.impl_case() == ThunkProto::IMPL_NOT_SET) {
      return context.Error("", "thunk has no kind (ThunkProto.impl is unset)");
    }
    return context.Error(
        "", absl::StrCat("thunk kind ", proto.impl_case(), " has no deserializer in this runtime"));
  }
  return it->second.fn(proto, context);
}

absl::StatusOr<ThunkSequence> ThunkRegistry::SequenceFromProto(
    const google::protobuf::RepeatedPtrField<ThunkProto>& protos, absl::string_view field,
    LoadContext& context) const {
  if (context.depth() >= context.options().max_control_nesting) {
    return context.Error(field, absl::StrCat("control thunks nested deeper than ",
                                             context.options().max_control_nesting));
  }
  context.set_depth(context.depth() + 1);
  ThunkSequence sequence;
  sequence.reserve(protos.size());
  absl::Status status;
  for (int i = 0; i < protos.size(); ++i) {
    LoadContext::PathScope scope(context, absl::StrCat(field, "[", i, "]"));
    auto thunk = FromProto(protos.Get(i), context);
    if (!thunk.ok()) {
      status = thunk.status();
      break;
    }
    sequence.push_back(*std::move(thunk));
  }
  context.set_depth(context.depth() - 1);
  AOT_RETURN_IF_ERROR(status);
  return sequence;
}

std::vector<std::string> ThunkRegistry::KindNames() const {
  std::vector<std::string> names;
  for (const auto& [kind, entry] : entries_) names.push_back(entry.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace aot
