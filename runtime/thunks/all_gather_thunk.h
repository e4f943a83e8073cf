#ifndef AOT_RUNTIME_THUNKS_ALL_GATHER_THUNK_H_
#define AOT_RUNTIME_THUNKS_ALL_GATHER_THUNK_H_

#include <memory>

#include "runtime/thunks/collective_thunk.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// all-gather: each destination = the group's sources concatenated in group
// order (AllGatherThunkProto).
class AllGatherThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<AllGatherThunk>> FromProto(ThunkInfoProto info,
                                                                   const AllGatherThunkProto& proto,
                                                                   LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  explicit AllGatherThunk(ThunkInfoProto info) : Thunk(Kind::kAllGather, std::move(info)) {}
  CollectiveConfig config_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_ALL_GATHER_THUNK_H_
