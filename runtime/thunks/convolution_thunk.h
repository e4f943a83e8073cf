#ifndef AOT_RUNTIME_THUNKS_CONVOLUTION_THUNK_H_
#define AOT_RUNTIME_THUNKS_CONVOLUTION_THUNK_H_

#include <memory>

#include "runtime/thunks/thunk.h"

namespace aot {

// A convolution through the platform's DNN library: cuDNN on CUDA, a
// direct loop on the host (ConvolutionThunkProto). Emitted behind the
// emission flag emit_cudnn_convolution.
class ConvolutionThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<ConvolutionThunk>> FromProto(
      ThunkInfoProto info, const ConvolutionThunkProto& proto, LoadContext& context);
  // Writes `params` into the proto's fields (all but the three slices):
  // the one mapping between the two, for ToProto and the compiler.
  static void ParamsToProto(const ConvolutionParams& params, ConvolutionThunkProto* proto);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  ConvolutionThunk(ThunkInfoProto info) : Thunk(Kind::kConvolution, std::move(info)) {}
  BufferSlice input_, filter_, output_;
  ConvolutionParams params_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_CONVOLUTION_THUNK_H_
