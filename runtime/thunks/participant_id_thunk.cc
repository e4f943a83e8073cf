#include "runtime/thunks/participant_id_thunk.h"

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<ParticipantIdThunk>> ParticipantIdThunk::FromProto(
    ThunkInfoProto info, const ParticipantIdThunkProto& proto, bool partition,
    LoadContext& context) {
  LoadContext::PathScope scope(context, partition ? "partition_id" : "replica_id");
  AOT_RETURN_IF_ERROR(context.CheckWritableSlice(proto.destination(), "destination"));
  if (proto.destination().size() != 4) {
    return context.Error("destination", absl::StrCat("size ", proto.destination().size(),
                                                     ", a u32 scalar has 4 bytes"));
  }
  auto thunk =
      std::unique_ptr<ParticipantIdThunk>(new ParticipantIdThunk(std::move(info), partition));
  thunk->destination_ = BufferSlice::FromProto(proto.destination());
  return thunk;
}

absl::Status ParticipantIdThunk::Execute(const ExecuteParams& params) const {
  const CollectiveParams* c = params.options ? params.options->collectives : nullptr;
  uint32_t id = 0;
  if (c != nullptr)
    id = static_cast<uint32_t>(kind() == Kind::kPartitionId ? c->partition : c->replica);
  return params.stream->CopyHostToDevice(&id, params.buffers->Resolve(destination_), sizeof(id));
}

ThunkProto ParticipantIdThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  ParticipantIdThunkProto* p =
      kind() == Kind::kPartitionId ? proto.mutable_partition_id() : proto.mutable_replica_id();
  *p->mutable_destination() = destination_.ToProto();
  return proto;
}

}  // namespace aot
