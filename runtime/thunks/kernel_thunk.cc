#include "runtime/thunks/kernel_thunk.h"

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "runtime/kernel_payload.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<KernelThunk>> KernelThunk::FromProto(ThunkInfoProto info,
                                                                    const KernelThunkProto& k,
                                                                    LoadContext& context) {
  LoadContext::PathScope scope(context, "kernel");
  auto thunk = std::unique_ptr<KernelThunk>(new KernelThunk(std::move(info)));
  if (k.kernel_name().empty()) return context.Error("kernel_name", "is empty");
  thunk->kernel_name_ = k.kernel_name();
  const LaunchDimensionsProto& d = k.launch_dimensions();
  for (int64_t v : {d.block_count_x(), d.block_count_y(), d.block_count_z(),
                    d.threads_per_block_x(), d.threads_per_block_y(), d.threads_per_block_z()}) {
    if (v < 1) {
      return context.Error("launch_dimensions",
                           absl::StrCat("every dimension must be >= 1, got ", v));
    }
  }
  if (absl::Status s = context.platform()->CheckLaunchDimensions(d); !s.ok()) {
    return context.Error("launch_dimensions", s.message());
  }
  thunk->dims_ = d;
  if (k.written_size() != k.arguments_size()) {
    return context.Error("written", absl::StrCat("has ", k.written_size(), " entries for ",
                                                 k.arguments_size(), " arguments"));
  }
  thunk->arguments_.reserve(k.arguments_size());
  for (int i = 0; i < k.arguments_size(); ++i) {
    std::string field = absl::StrCat("arguments[", i, "]");
    AOT_RETURN_IF_ERROR(k.written(i) ? context.CheckWritableSlice(k.arguments(i), field)
                                     : context.CheckSlice(k.arguments(i), field));
    thunk->arguments_.push_back(BufferSlice::FromProto(k.arguments(i)));
    thunk->written_.push_back(k.written(i));
  }
  if (k.shared_memory_bytes() < 0) {
    return context.Error("shared_memory_bytes", "is negative");
  }
  thunk->shared_memory_bytes_ = k.shared_memory_bytes();
  thunk->binary_ = &k.binary();
  if (absl::Status s = CheckKernelPayload(k.binary()); !s.ok()) {
    return context.Error("binary.payload_sha256", s.message());
  }
  auto kernel = context.kernels()->Load(k.binary(), k.kernel_name());
  AOT_RETURN_IF_ERROR_AND(kernel, context.Error("binary", _.message()));
  if ((*kernel)->arity() != k.arguments_size()) {
    return context.Error("arguments",
                         absl::StrCat("kernel '", k.kernel_name(), "' takes ", (*kernel)->arity(),
                                      " arguments, the thunk passes ", k.arguments_size()));
  }
  thunk->kernel_ = *kernel;
  return thunk;
}

absl::Status KernelThunk::Execute(const ExecuteParams& params) const {
  absl::InlinedVector<DeviceMemory, 8> args;
  args.reserve(arguments_.size());
  for (const BufferSlice& slice : arguments_) {
    args.push_back(params.buffers->Resolve(slice));
  }
  return params.stream->Launch(*kernel_, dims_, args);
}

ThunkProto KernelThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  KernelThunkProto* k = proto.mutable_kernel();
  k->set_kernel_name(kernel_name_);
  *k->mutable_launch_dimensions() = dims_;
  for (size_t i = 0; i < arguments_.size(); ++i) {
    *k->add_arguments() = arguments_[i].ToProto();
    k->add_written(written_[i]);
  }
  *k->mutable_binary() = *binary_;
  k->set_shared_memory_bytes(shared_memory_bytes_);
  return proto;
}

}  // namespace aot
