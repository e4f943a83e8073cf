#include "runtime/thunks/memset_thunk.h"

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<MemsetThunk>> MemsetThunk::FromProto(ThunkInfoProto info,
                                                                    const MemsetThunkProto& m,
                                                                    LoadContext& context) {
  LoadContext::PathScope scope(context, "memset");
  AOT_RETURN_IF_ERROR(context.CheckWritableSlice(m.destination(), "destination"));
  if (m.pattern() != 0 && m.destination().size() % 4 != 0) {
    return context.Error("destination",
                         absl::StrCat("size ", m.destination().size(),
                                      " is not a multiple of 4 for a 32-bit pattern"));
  }
  auto thunk = std::unique_ptr<MemsetThunk>(new MemsetThunk(std::move(info)));
  thunk->destination_ = BufferSlice::FromProto(m.destination());
  thunk->pattern_ = m.pattern();
  return thunk;
}

absl::Status MemsetThunk::Execute(const ExecuteParams& params) const {
  if (destination_.size == 0) return absl::OkStatus();
  return params.stream->Memset32(params.buffers->Resolve(destination_), pattern_,
                                 destination_.size);
}

ThunkProto MemsetThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  *proto.mutable_memset()->mutable_destination() = destination_.ToProto();
  proto.mutable_memset()->set_pattern(pattern_);
  return proto;
}

}  // namespace aot
