#ifndef AOT_RUNTIME_THUNKS_COPY_THUNK_H_
#define AOT_RUNTIME_THUNKS_COPY_THUNK_H_

#include <memory>

#include "runtime/thunks/thunk.h"

namespace aot {

// Device-to-device copy of one slice into another of the same size.
class CopyThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<CopyThunk>> FromProto(ThunkInfoProto info,
                                                              const CopyThunkProto& proto,
                                                              LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  CopyThunk(ThunkInfoProto info) : Thunk(Kind::kCopy, std::move(info)) {}
  BufferSlice source_, destination_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_COPY_THUNK_H_
