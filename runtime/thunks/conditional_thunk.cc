#include "runtime/thunks/conditional_thunk.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "runtime/thunks/sequential_thunk.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<ConditionalThunk>> ConditionalThunk::FromProto(
    ThunkInfoProto info, const ConditionalThunkProto& c, LoadContext& context) {
  LoadContext::PathScope scope(context, "conditional");
  auto thunk = std::unique_ptr<ConditionalThunk>(new ConditionalThunk(std::move(info)));
  AOT_RETURN_IF_ERROR(context.CheckSlice(c.branch_index(), "branch_index"));
  int64_t expected = c.branch_index_is_bool() ? 1 : 4;
  if (c.branch_index().size() != expected) {
    return context.Error("branch_index", absl::StrCat("must be ", expected, " bytes (",
                                                      c.branch_index_is_bool() ? "pred[]" : "s32[]",
                                                      "), got ", c.branch_index().size()));
  }
  if (c.branches_size() < 1) return context.Error("branches", "is empty");
  if (c.branch_index_is_bool() && c.branches_size() != 2) {
    return context.Error(
        "branches", absl::StrCat("a pred[] selector needs 2 branches, got ", c.branches_size()));
  }
  for (int i = 0; i < c.branches_size(); ++i) {
    AOT_ASSIGN_OR_RETURN(
        auto branch, SequenceFromProto(c.branches(i), absl::StrCat("branches[", i, "]"), context));
    thunk->branches_.push_back(std::move(branch));
  }
  thunk->branch_index_ = BufferSlice::FromProto(c.branch_index());
  thunk->branch_index_is_bool_ = c.branch_index_is_bool();
  return thunk;
}

absl::Status ConditionalThunk::Execute(const ExecuteParams& params) const {
  DeviceMemory index_memory = params.buffers->Resolve(branch_index_);
  int64_t branch;
  if (branch_index_is_bool_) {
    uint8_t value = 0;
    AOT_RETURN_IF_ERROR(params.stream->CopyDeviceToHost(index_memory, &value, 1));
    branch = value != 0 ? 0 : 1;
  } else {
    int32_t value = 0;
    AOT_RETURN_IF_ERROR(params.stream->CopyDeviceToHost(index_memory, &value, 4));
    int64_t n = static_cast<int64_t>(branches_.size());
    branch = (value < 0 || value >= n) ? n - 1 : value;
  }
  return ExecuteSequence(branches_[branch], params);
}

ThunkProto ConditionalThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  ConditionalThunkProto* c = proto.mutable_conditional();
  *c->mutable_branch_index() = branch_index_.ToProto();
  c->set_branch_index_is_bool(branch_index_is_bool_);
  for (const ThunkSequence& branch : branches_) {
    *c->add_branches() = SequenceToProto(branch);
  }
  return proto;
}

}  // namespace aot
