#include "runtime/thunks/all_gather_thunk.h"

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<AllGatherThunk>> AllGatherThunk::FromProto(
    ThunkInfoProto info, const AllGatherThunkProto& proto, LoadContext& context) {
  LoadContext::PathScope scope(context, "all_gather");
  auto thunk = std::unique_ptr<AllGatherThunk>(new AllGatherThunk(std::move(info)));
  AOT_ASSIGN_OR_RETURN(
      thunk->config_, CollectiveConfig::FromProto(
                          proto.config(), context,
                          [](const CollectiveConfig::Buffer& b, int64_t group_size) -> std::string {
                            if (b.destination.size == b.source.size * group_size) return "";
                            return absl::StrCat("destination size ", b.destination.size,
                                                " is not the group size (", group_size,
                                                ") times the source size ", b.source.size);
                          }));
  return thunk;
}

absl::Status AllGatherThunk::Execute(const ExecuteParams& params) const {
  for (const CollectiveConfig::Buffer& b : config_.buffers()) {
    AOT_RETURN_IF_ERROR(RunCollective(*this, "all-gather", config_, params,
                                      [&](CollectiveBackend& backend, const CollectiveCall& call) {
                                        return backend.AllGather(
                                            call, params.buffers->Resolve(b.source),
                                            params.buffers->Resolve(b.destination), b.source.size);
                                      }));
  }
  return absl::OkStatus();
}

ThunkProto AllGatherThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  *proto.mutable_all_gather()->mutable_config() = config_.ToProto();
  return proto;
}

}  // namespace aot
