#ifndef AOT_RUNTIME_THUNKS_GEMM_THUNK_H_
#define AOT_RUNTIME_THUNKS_GEMM_THUNK_H_

#include <memory>

#include "runtime/thunks/thunk.h"

namespace aot {

// Batched matrix multiply through the platform's BLAS (OpenBLAS on host,
// cuBLAS on CUDA) (GemmThunkProto).
class GemmThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<GemmThunk>> FromProto(ThunkInfoProto info,
                                                              const GemmThunkProto& proto,
                                                              LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  GemmThunk(ThunkInfoProto info) : Thunk(Kind::kGemm, std::move(info)) {}
  BufferSlice lhs_, rhs_, output_;
  GemmParams params_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_GEMM_THUNK_H_
