#ifndef AOT_RUNTIME_THUNKS_KERNEL_THUNK_H_
#define AOT_RUNTIME_THUNKS_KERNEL_THUNK_H_

#include <memory>
#include <string>
#include <vector>

#include "runtime/thunks/buffer_slice.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// Launches one compiled kernel over a grid (KernelThunkProto). The kernel's
// binary is embedded in the thunk and loaded through the platform's
// KernelLoader at load time.
class KernelThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<KernelThunk>> FromProto(ThunkInfoProto info,
                                                                const KernelThunkProto& proto,
                                                                LoadContext& context);

  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

  const KernelHandle* kernel() const { return kernel_; }
  const LaunchDimensionsProto& launch_dimensions() const { return dims_; }
  const std::vector<BufferSlice>& arguments() const { return arguments_; }

 private:
  KernelThunk(ThunkInfoProto info) : Thunk(Kind::kKernel, std::move(info)) {}

  std::string kernel_name_;
  LaunchDimensionsProto dims_;
  std::vector<BufferSlice> arguments_;
  std::vector<bool> written_;
  int64_t shared_memory_bytes_ = 0;
  // The embedded binary stays in the executable's proto; not copied.
  const KernelBinaryProto* binary_ = nullptr;
  const KernelHandle* kernel_ = nullptr;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_KERNEL_THUNK_H_
