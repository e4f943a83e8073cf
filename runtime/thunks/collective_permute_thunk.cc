#include "runtime/thunks/collective_permute_thunk.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<CollectivePermuteThunk>> CollectivePermuteThunk::FromProto(
    ThunkInfoProto info, const CollectivePermuteThunkProto& proto, LoadContext& context) {
  LoadContext::PathScope scope(context, "collective_permute");
  auto thunk = std::unique_ptr<CollectivePermuteThunk>(new CollectivePermuteThunk(std::move(info)));
  AOT_ASSIGN_OR_RETURN(thunk->config_, CollectiveConfig::FromProto(proto.config(), context,
                                                                   CollectiveConfig::SameSizes));
  const int64_t participants = context.participant_count();
  if (thunk->config_.group_size() != participants) {
    return context.Error("config.groups",
                         "a collective permute has one group of every "
                         "participant");
  }
  if (thunk->config_.buffers().size() != 1) {
    return context.Error("config.buffers", "a collective permute has one buffer");
  }
  thunk->send_to_.assign(participants, -1);
  thunk->receive_from_.assign(participants, -1);
  for (int i = 0; i < proto.pairs_size(); ++i) {
    const int64_t source = proto.pairs(i).source(), target = proto.pairs(i).target();
    const std::string field = absl::StrCat("pairs[", i, "]");
    if (source < 0 || source >= participants || target < 0 || target >= participants) {
      return context.Error(
          field, absl::StrCat("(", source, ", ", target, ") out of range [0, ", participants, ")"));
    }
    if (thunk->send_to_[source] != -1) {
      return context.Error(field, absl::StrCat("participant ", source, " sends twice"));
    }
    if (thunk->receive_from_[target] != -1) {
      return context.Error(field, absl::StrCat("participant ", target, " receives twice"));
    }
    thunk->send_to_[source] = target;
    thunk->receive_from_[target] = source;
    thunk->pairs_.emplace_back(source, target);
  }
  return thunk;
}

absl::Status CollectivePermuteThunk::Execute(const ExecuteParams& params) const {
  const CollectiveConfig::Buffer& b = config_.buffers()[0];
  DeviceMemory src = params.buffers->Resolve(b.source);
  DeviceMemory dst = params.buffers->Resolve(b.destination);
  bool received = false;
  AOT_RETURN_IF_ERROR(RunCollective(
      *this, "collective-permute", config_, params,
      [&](CollectiveBackend& backend, const CollectiveCall& call) {
        auto at = [](const std::vector<int64_t>& v, int64_t p) -> std::optional<int64_t> {
          if (v[p] < 0) return std::nullopt;
          return v[p];
        };
        std::optional<int64_t> send_to = at(send_to_, call.participant);
        std::optional<int64_t> receive_from = at(receive_from_, call.participant);
        received = receive_from.has_value();
        return backend.CollectivePermute(call, src, dst, b.source.size, send_to, receive_from);
      }));
  // No pair targets this participant: zeros (after the exchange, since the
  // destination may be the source a peer reads).
  if (!received && b.destination.size > 0) {
    return params.stream->Memset32(dst, 0, b.destination.size);
  }
  return absl::OkStatus();
}

ThunkProto CollectivePermuteThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  auto* p = proto.mutable_collective_permute();
  *p->mutable_config() = config_.ToProto();
  for (const auto& [source, target] : pairs_) {
    auto* pair = p->add_pairs();
    pair->set_source(source);
    pair->set_target(target);
  }
  return proto;
}

}  // namespace aot
