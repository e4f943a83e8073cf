#ifndef AOT_RUNTIME_THUNKS_ALL_REDUCE_THUNK_H_
#define AOT_RUNTIME_THUNKS_ALL_REDUCE_THUNK_H_

#include <memory>

#include "runtime/thunks/collective_thunk.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// all-reduce: each destination = its source combined element-wise over the group
// (AllReduceThunkProto).
class AllReduceThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<AllReduceThunk>> FromProto(ThunkInfoProto info,
                                                                   const AllReduceThunkProto& proto,
                                                                   LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  explicit AllReduceThunk(ThunkInfoProto info) : Thunk(Kind::kAllReduce, std::move(info)) {}
  CollectiveConfig config_;
  ReductionOp reduction_ = ReductionOp::kSum;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_ALL_REDUCE_THUNK_H_
