#include "runtime/thunks/all_to_all_thunk.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<AllToAllThunk>> AllToAllThunk::FromProto(
    ThunkInfoProto info, const AllToAllThunkProto& proto, LoadContext& context) {
  LoadContext::PathScope scope(context, "all_to_all");
  auto thunk = std::unique_ptr<AllToAllThunk>(new AllToAllThunk(std::move(info)));
  AOT_ASSIGN_OR_RETURN(thunk->config_, CollectiveConfig::FromProto(proto.config(), context,
                                                                   CollectiveConfig::SameSizes));
  const CollectiveConfig& c = thunk->config_;
  const int64_t group_size = c.group_size();
  const auto& buffers = c.buffers();
  if (buffers.size() == 1) {
    if (buffers[0].source.size % (group_size * c.element_bytes()) != 0) {
      return context.Error("config.buffers[0]",
                           absl::StrCat("size ", buffers[0].source.size, " does not split into ",
                                        group_size, " blocks"));
    }
  } else if (static_cast<int64_t>(buffers.size()) == group_size) {
    for (const CollectiveConfig::Buffer& b : buffers) {
      if (b.source.size != buffers[0].source.size) {
        return context.Error("config.buffers", "buffers of different sizes");
      }
    }
  } else {
    return context.Error("config.buffers", absl::StrCat(buffers.size(),
                                                        " buffers: one (split into blocks) or one "
                                                        "per group member (",
                                                        group_size, ") expected"));
  }
  return thunk;
}

absl::Status AllToAllThunk::Execute(const ExecuteParams& params) const {
  return RunCollective(*this, "all-to-all", config_, params,
                       [&](CollectiveBackend& backend, const CollectiveCall& call) {
                         const auto& buffers = config_.buffers();
                         const int64_t members = static_cast<int64_t>(call.group.size());
                         std::vector<DeviceMemory> src, dst;
                         int64_t bytes = 0;
                         if (buffers.size() == 1) {
                           DeviceMemory s = params.buffers->Resolve(buffers[0].source);
                           DeviceMemory d = params.buffers->Resolve(buffers[0].destination);
                           bytes = buffers[0].source.size / members;
                           for (int64_t j = 0; j < members; ++j) {
                             src.push_back({static_cast<char*>(s.ptr) + j * bytes, bytes});
                             dst.push_back({static_cast<char*>(d.ptr) + j * bytes, bytes});
                           }
                         } else {
                           bytes = buffers[0].source.size;
                           for (const CollectiveConfig::Buffer& b : buffers) {
                             src.push_back(params.buffers->Resolve(b.source));
                             dst.push_back(params.buffers->Resolve(b.destination));
                           }
                         }
                         return backend.AllToAll(call, src, dst, bytes);
                       });
}

ThunkProto AllToAllThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  *proto.mutable_all_to_all()->mutable_config() = config_.ToProto();
  return proto;
}

}  // namespace aot
