#ifndef AOT_RUNTIME_THUNKS_REDUCE_SCATTER_THUNK_H_
#define AOT_RUNTIME_THUNKS_REDUCE_SCATTER_THUNK_H_

#include <memory>

#include "runtime/thunks/collective_thunk.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// reduce-scatter: each destination = this member's block of its source
// combined over the group (ReduceScatterThunkProto).
class ReduceScatterThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<ReduceScatterThunk>> FromProto(
      ThunkInfoProto info, const ReduceScatterThunkProto& proto, LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  explicit ReduceScatterThunk(ThunkInfoProto info) : Thunk(Kind::kReduceScatter, std::move(info)) {}
  CollectiveConfig config_;
  ReductionOp reduction_ = ReductionOp::kSum;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_REDUCE_SCATTER_THUNK_H_
