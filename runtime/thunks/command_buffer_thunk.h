#ifndef AOT_RUNTIME_THUNKS_COMMAND_BUFFER_THUNK_H_
#define AOT_RUNTIME_THUNKS_COMMAND_BUFFER_THUNK_H_

#include <memory>
#include <vector>

#include "runtime/thunks/kernel_thunk.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// Consecutive kernel launches submitted as one unit (host: a pre-resolved
// launch list; CUDA: a graph instantiated once and updated in place). Built by the load-time
// command-buffer pass at every load and never serialized: AppendToProto writes the kernel thunks it
// was built from.
class CommandBufferThunk : public Thunk {
 public:
  CommandBufferThunk(std::vector<std::unique_ptr<KernelThunk>> kernels, Platform& platform);

  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;  // not used: see AppendToProto
  void AppendToProto(google::protobuf::RepeatedPtrField<ThunkProto>* out) const override;

  int64_t size() const { return static_cast<int64_t>(kernels_.size()); }

 private:
  std::vector<std::unique_ptr<KernelThunk>> kernels_;
  std::unique_ptr<CommandBuffer> command_buffer_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_COMMAND_BUFFER_THUNK_H_
