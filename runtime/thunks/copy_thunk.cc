#include "runtime/thunks/copy_thunk.h"

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<CopyThunk>> CopyThunk::FromProto(ThunkInfoProto info,
                                                                const CopyThunkProto& c,
                                                                LoadContext& context) {
  LoadContext::PathScope scope(context, "copy");
  AOT_RETURN_IF_ERROR(context.CheckSlice(c.source(), "source"));
  AOT_RETURN_IF_ERROR(context.CheckWritableSlice(c.destination(), "destination"));
  if (c.source().size() != c.destination().size()) {
    return context.Error("destination",
                         absl::StrCat("size ", c.destination().size(), " differs from source size ",
                                      c.source().size()));
  }
  auto thunk = std::unique_ptr<CopyThunk>(new CopyThunk(std::move(info)));
  thunk->source_ = BufferSlice::FromProto(c.source());
  thunk->destination_ = BufferSlice::FromProto(c.destination());
  return thunk;
}

absl::Status CopyThunk::Execute(const ExecuteParams& params) const {
  if (source_.size == 0) return absl::OkStatus();
  return params.stream->CopyDeviceToDevice(params.buffers->Resolve(source_),
                                           params.buffers->Resolve(destination_), source_.size);
}

ThunkProto CopyThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  *proto.mutable_copy()->mutable_source() = source_.ToProto();
  *proto.mutable_copy()->mutable_destination() = destination_.ToProto();
  return proto;
}

}  // namespace aot
