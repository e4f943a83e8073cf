#ifndef AOT_RUNTIME_THUNKS_COLLECTIVE_BROADCAST_THUNK_H_
#define AOT_RUNTIME_THUNKS_COLLECTIVE_BROADCAST_THUNK_H_

#include <memory>

#include "runtime/thunks/collective_thunk.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// collective-broadcast: every destination of a group = the source of the
// group's first member (CollectiveBroadcastThunkProto).
class CollectiveBroadcastThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<CollectiveBroadcastThunk>> FromProto(
      ThunkInfoProto info, const CollectiveBroadcastThunkProto& proto, LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  explicit CollectiveBroadcastThunk(ThunkInfoProto info)
      : Thunk(Kind::kCollectiveBroadcast, std::move(info)) {}
  CollectiveConfig config_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_COLLECTIVE_BROADCAST_THUNK_H_
