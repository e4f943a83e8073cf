#include "runtime/thunks/all_reduce_thunk.h"

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<AllReduceThunk>> AllReduceThunk::FromProto(
    ThunkInfoProto info, const AllReduceThunkProto& proto, LoadContext& context) {
  LoadContext::PathScope scope(context, "all_reduce");
  auto thunk = std::unique_ptr<AllReduceThunk>(new AllReduceThunk(std::move(info)));
  AOT_ASSIGN_OR_RETURN(thunk->config_, CollectiveConfig::FromProto(proto.config(), context,
                                                                   CollectiveConfig::SameSizes));
  AOT_RETURN_IF_ERROR(CheckReduction(proto.reduction(), proto.config().element_type(), context));
  thunk->reduction_ = ReductionKindFromProto(proto.reduction());
  return thunk;
}

absl::Status AllReduceThunk::Execute(const ExecuteParams& params) const {
  for (const CollectiveConfig::Buffer& b : config_.buffers()) {
    AOT_RETURN_IF_ERROR(RunCollective(*this, "all-reduce", config_, params,
                                      [&](CollectiveBackend& backend, const CollectiveCall& call) {
                                        return backend.AllReduce(
                                            call, params.buffers->Resolve(b.source),
                                            params.buffers->Resolve(b.destination),
                                            b.source.size / config_.element_bytes(), reduction_);
                                      }));
  }
  return absl::OkStatus();
}

ThunkProto AllReduceThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  *proto.mutable_all_reduce()->mutable_config() = config_.ToProto();
  proto.mutable_all_reduce()->set_reduction(ReductionKindToProto(reduction_));
  return proto;
}

}  // namespace aot
