#include "runtime/thunks/while_thunk.h"

#include "absl/strings/str_cat.h"
#include "runtime/thunks/sequential_thunk.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<WhileThunk>> WhileThunk::FromProto(ThunkInfoProto info,
                                                                  const WhileThunkProto& w,
                                                                  LoadContext& context) {
  LoadContext::PathScope scope(context, "while_loop");
  auto thunk = std::unique_ptr<WhileThunk>(new WhileThunk(std::move(info)));
  AOT_RETURN_IF_ERROR(context.CheckWritableSlice(w.predicate(), "predicate"));
  if (w.predicate().size() < 1) return context.Error("predicate", "is empty");
  if (w.trip_count() < 0) return context.Error("trip_count", "is negative");
  AOT_ASSIGN_OR_RETURN(auto condition, SequenceFromProto(w.condition(), "condition", context));
  AOT_ASSIGN_OR_RETURN(auto body, SequenceFromProto(w.body(), "body", context));
  thunk->condition_ = std::move(condition);
  thunk->body_ = std::move(body);
  thunk->predicate_ = BufferSlice::FromProto(w.predicate());
  thunk->trip_count_ = w.trip_count();
  return thunk;
}

absl::Status WhileThunk::Execute(const ExecuteParams& params) const {
  DeviceMemory predicate = params.buffers->Resolve(predicate_);
  while (true) {
    // Also between iterations: a loop of empty sequences runs no thunk.
    AOT_RETURN_IF_ERROR(CheckExecutionLimits(
        params, [&] { return absl::StrCat("an iteration of while loop '", info().name(), "'"); }));
    AOT_RETURN_IF_ERROR(ExecuteSequence(condition_, params));
    uint8_t value = 0;
    AOT_RETURN_IF_ERROR(params.stream->CopyDeviceToHost(predicate, &value, 1));
    if (value == 0) return absl::OkStatus();
    AOT_RETURN_IF_ERROR(ExecuteSequence(body_, params));
  }
}

ThunkProto WhileThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  WhileThunkProto* w = proto.mutable_while_loop();
  *w->mutable_condition() = SequenceToProto(condition_);
  *w->mutable_body() = SequenceToProto(body_);
  *w->mutable_predicate() = predicate_.ToProto();
  w->set_trip_count(trip_count_);
  return proto;
}

}  // namespace aot
