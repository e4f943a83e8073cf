#ifndef AOT_RUNTIME_THUNKS_GEMM_THUNK_H_
#define AOT_RUNTIME_THUNKS_GEMM_THUNK_H_

#include <memory>
#include <vector>

#include "runtime/thunks/thunk.h"

namespace aot {

// Batched matrix multiply through the platform's BLAS (OpenBLAS on host,
// cuBLAS on CUDA) (GemmThunkProto).
class GemmThunk : public Thunk {
 public:
  // The element types a GEMM thunk of this runtime accepts (a release
  // records them: older releases read f32 and f64 only). f16 and bf16
  // multiply in f32 (cuBLAS: tensor cores with f32 accumulation; host:
  // through f32 copies) and round the result to the element type.
  static const std::vector<PrimitiveType>& SupportedElementTypes();

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
