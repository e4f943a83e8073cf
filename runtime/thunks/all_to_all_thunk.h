#ifndef AOT_RUNTIME_THUNKS_ALL_TO_ALL_THUNK_H_
#define AOT_RUNTIME_THUNKS_ALL_TO_ALL_THUNK_H_

#include <memory>

#include "runtime/thunks/collective_thunk.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// all-to-all: block (or buffer) j of the source goes to member j; the
// destination gathers what each member sent, in group order
// (AllToAllThunkProto).
class AllToAllThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<AllToAllThunk>> FromProto(ThunkInfoProto info,
                                                                  const AllToAllThunkProto& proto,
                                                                  LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  explicit AllToAllThunk(ThunkInfoProto info) : Thunk(Kind::kAllToAll, std::move(info)) {}
  CollectiveConfig config_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_ALL_TO_ALL_THUNK_H_
