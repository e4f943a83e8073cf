#include "runtime/thunks/command_buffer_thunk.h"

#include "absl/strings/str_cat.h"

namespace aot {

namespace {

ThunkInfoProto CommandBufferInfo(const std::vector<std::unique_ptr<KernelThunk>>& kernels) {
  ThunkInfoProto info;
  info.set_name(absl::StrCat("command_buffer(", kernels.front()->info().name(), "..",
                             kernels.back()->info().name(), ")"));
  return info;
}

}  // namespace

CommandBufferThunk::CommandBufferThunk(std::vector<std::unique_ptr<KernelThunk>> kernels,
                                       Platform& platform)
    : Thunk(Kind::kCommandBuffer, CommandBufferInfo(kernels)), kernels_(std::move(kernels)) {
  std::vector<KernelLaunch> launches;
  launches.reserve(kernels_.size());
  for (const auto& k : kernels_) {
    launches.push_back(KernelLaunch{k->kernel(), k->launch_dimensions()});
  }
  command_buffer_ = platform.CreateCommandBuffer(std::move(launches));
}

absl::Status CommandBufferThunk::Execute(const ExecuteParams& params) const {
  // The argument lists are rebuilt in per-thread storage that keeps its
  // capacity, so a steady-state execution allocates nothing. Execute is
  // never re-entered on one thread while Launch runs (a command buffer
  // holds kernels only).
  thread_local std::vector<std::vector<DeviceMemory>> args;
  if (args.size() < kernels_.size()) args.resize(kernels_.size());
  for (size_t i = 0; i < kernels_.size(); ++i) {
    args[i].clear();
    for (const BufferSlice& slice : kernels_[i]->arguments()) {
      args[i].push_back(params.buffers->Resolve(slice));
    }
  }
  return command_buffer_->Launch(*params.stream, absl::MakeConstSpan(args.data(), kernels_.size()));
}

ThunkProto CommandBufferThunk::ToProto() const {
  // A command buffer has no serialized form; the sequence it replaces is
  // written by AppendToProto.
  ThunkProto proto = ProtoWithInfo();
  proto.mutable_sequential();
  for (const auto& k : kernels_) *proto.mutable_sequential()->add_thunks() = k->ToProto();
  return proto;
}

void CommandBufferThunk::AppendToProto(google::protobuf::RepeatedPtrField<ThunkProto>* out) const {
  for (const auto& k : kernels_) *out->Add() = k->ToProto();
}

}  // namespace aot
