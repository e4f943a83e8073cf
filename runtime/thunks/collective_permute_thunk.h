#ifndef AOT_RUNTIME_THUNKS_COLLECTIVE_PERMUTE_THUNK_H_
#define AOT_RUNTIME_THUNKS_COLLECTIVE_PERMUTE_THUNK_H_

#include <memory>

#include "runtime/thunks/collective_thunk.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// collective-permute: each source participant's buffer goes to its target;
// a participant no pair targets gets zeros (CollectivePermuteThunkProto).
class CollectivePermuteThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<CollectivePermuteThunk>> FromProto(
      ThunkInfoProto info, const CollectivePermuteThunkProto& proto, LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  explicit CollectivePermuteThunk(ThunkInfoProto info)
      : Thunk(Kind::kCollectivePermute, std::move(info)) {}
  CollectiveConfig config_;
  std::vector<std::pair<int64_t, int64_t>> pairs_;
  std::vector<int64_t> send_to_, receive_from_;  // by participant (-1: none)
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_COLLECTIVE_PERMUTE_THUNK_H_
