#ifndef AOT_RUNTIME_THUNKS_CONDITIONAL_THUNK_H_
#define AOT_RUNTIME_THUNKS_CONDITIONAL_THUNK_H_

#include <memory>
#include <vector>

#include "runtime/thunks/thunk.h"

namespace aot {

// Runs one of several branches, selected by a pred[] (true -> 0, false ->
// 1) or an s32[] index (out of range -> the last branch), as XLA does.
class ConditionalThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<ConditionalThunk>> FromProto(
      ThunkInfoProto info, const ConditionalThunkProto& proto, LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

  std::vector<ThunkSequence>& branches() { return branches_; }

 private:
  ConditionalThunk(ThunkInfoProto info) : Thunk(Kind::kConditional, std::move(info)) {}
  BufferSlice branch_index_;
  bool branch_index_is_bool_ = false;
  std::vector<ThunkSequence> branches_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_CONDITIONAL_THUNK_H_
