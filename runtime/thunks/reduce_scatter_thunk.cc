#include "runtime/thunks/reduce_scatter_thunk.h"

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<ReduceScatterThunk>> ReduceScatterThunk::FromProto(
    ThunkInfoProto info, const ReduceScatterThunkProto& proto, LoadContext& context) {
  LoadContext::PathScope scope(context, "reduce_scatter");
  auto thunk = std::unique_ptr<ReduceScatterThunk>(new ReduceScatterThunk(std::move(info)));
  AOT_ASSIGN_OR_RETURN(
      thunk->config_, CollectiveConfig::FromProto(
                          proto.config(), context,
                          [](const CollectiveConfig::Buffer& b, int64_t group_size) -> std::string {
                            if (b.source.size == b.destination.size * group_size) return "";
                            return absl::StrCat(
                                "source size ", b.source.size, " is not the group size (",
                                group_size, ") times the destination size ", b.destination.size);
                          }));
  AOT_RETURN_IF_ERROR(CheckReduction(proto.reduction(), proto.config().element_type(), context));
  thunk->reduction_ = ReductionKindFromProto(proto.reduction());
  return thunk;
}

absl::Status ReduceScatterThunk::Execute(const ExecuteParams& params) const {
  for (const CollectiveConfig::Buffer& b : config_.buffers()) {
    AOT_RETURN_IF_ERROR(RunCollective(
        *this, "reduce-scatter", config_, params,
        [&](CollectiveBackend& backend, const CollectiveCall& call) {
          return backend.ReduceScatter(call, params.buffers->Resolve(b.source),
                                       params.buffers->Resolve(b.destination),
                                       b.destination.size / config_.element_bytes(), reduction_);
        }));
  }
  return absl::OkStatus();
}

ThunkProto ReduceScatterThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  *proto.mutable_reduce_scatter()->mutable_config() = config_.ToProto();
  proto.mutable_reduce_scatter()->set_reduction(ReductionKindToProto(reduction_));
  return proto;
}

}  // namespace aot
