#include "runtime/thunks/collective_broadcast_thunk.h"

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<CollectiveBroadcastThunk>> CollectiveBroadcastThunk::FromProto(
    ThunkInfoProto info, const CollectiveBroadcastThunkProto& proto, LoadContext& context) {
  LoadContext::PathScope scope(context, "collective_broadcast");
  auto thunk =
      std::unique_ptr<CollectiveBroadcastThunk>(new CollectiveBroadcastThunk(std::move(info)));
  AOT_ASSIGN_OR_RETURN(thunk->config_, CollectiveConfig::FromProto(proto.config(), context,
                                                                   CollectiveConfig::SameSizes));
  return thunk;
}

absl::Status CollectiveBroadcastThunk::Execute(const ExecuteParams& params) const {
  for (const CollectiveConfig::Buffer& b : config_.buffers()) {
    AOT_RETURN_IF_ERROR(RunCollective(*this, "collective-broadcast", config_, params,
                                      [&](CollectiveBackend& backend, const CollectiveCall& call) {
                                        return backend.Broadcast(
                                            call, params.buffers->Resolve(b.source),
                                            params.buffers->Resolve(b.destination), b.source.size);
                                      }));
  }
  return absl::OkStatus();
}

ThunkProto CollectiveBroadcastThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  *proto.mutable_collective_broadcast()->mutable_config() = config_.ToProto();
  return proto;
}

}  // namespace aot
