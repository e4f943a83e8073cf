#ifndef AOT_RUNTIME_THUNKS_WHILE_THUNK_H_
#define AOT_RUNTIME_THUNKS_WHILE_THUNK_H_

#include <memory>

#include "runtime/thunks/thunk.h"

namespace aot {

// do { condition; if (!*predicate) break; body; } while (true)
class WhileThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<WhileThunk>> FromProto(ThunkInfoProto info,
                                                               const WhileThunkProto& proto,
                                                               LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

  ThunkSequence& condition() { return condition_; }
  ThunkSequence& body() { return body_; }

 private:
  WhileThunk(ThunkInfoProto info) : Thunk(Kind::kWhile, std::move(info)) {}
  ThunkSequence condition_;
  ThunkSequence body_;
  BufferSlice predicate_;
  int64_t trip_count_ = 0;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_WHILE_THUNK_H_
