#include "runtime/thunks/sequential_thunk.h"

#include "absl/strings/str_cat.h"
#include "runtime/thunks/thunk_registry.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<ThunkSequence> SequenceFromProto(const SequentialThunkProto& proto,
                                                absl::string_view field, LoadContext& context) {
  return ThunkRegistry::Global().SequenceFromProto(proto.thunks(), absl::StrCat(field, ".thunks"),
                                                   context);
}

SequentialThunkProto SequenceToProto(const ThunkSequence& thunks) {
  SequentialThunkProto proto;
  for (const auto& thunk : thunks) thunk->AppendToProto(proto.mutable_thunks());
  return proto;
}

absl::StatusOr<std::unique_ptr<SequentialThunk>> SequentialThunk::FromProto(
    ThunkInfoProto info, const SequentialThunkProto& proto, LoadContext& context) {
  AOT_ASSIGN_OR_RETURN(auto thunks, SequenceFromProto(proto, "sequential", context));
  return std::make_unique<SequentialThunk>(std::move(info), std::move(thunks));
}

absl::Status SequentialThunk::Execute(const ExecuteParams& params) const {
  return ExecuteSequence(thunks_, params);
}

ThunkProto SequentialThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  *proto.mutable_sequential() = SequenceToProto(thunks_);
  return proto;
}

}  // namespace aot
