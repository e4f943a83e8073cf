#ifndef AOT_RUNTIME_THUNKS_MEMSET_THUNK_H_
#define AOT_RUNTIME_THUNKS_MEMSET_THUNK_H_

#include <memory>

#include "runtime/thunks/thunk.h"

namespace aot {

// Fills a slice with zero bytes or a repeated 32-bit pattern.
class MemsetThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<MemsetThunk>> FromProto(ThunkInfoProto info,
                                                                const MemsetThunkProto& proto,
                                                                LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  MemsetThunk(ThunkInfoProto info) : Thunk(Kind::kMemset, std::move(info)) {}
  BufferSlice destination_;
  uint32_t pattern_ = 0;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_MEMSET_THUNK_H_
