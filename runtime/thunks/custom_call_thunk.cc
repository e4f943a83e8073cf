#include "runtime/thunks/custom_call_thunk.h"

#include "absl/strings/str_cat.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<CustomCallThunk>> CustomCallThunk::FromProto(
    ThunkInfoProto info, const CustomCallThunkProto& c, LoadContext& context) {
  LoadContext::PathScope scope(context, "custom_call");
  auto thunk = std::unique_ptr<CustomCallThunk>(new CustomCallThunk(std::move(info)));
  if (c.api_version() != CustomCallThunkProto::API_VERSION_LEGACY &&
      c.api_version() != CustomCallThunkProto::API_VERSION_TYPED_FFI) {
    return context.Error("api_version", absl::StrCat("unsupported custom-call API version ",
                                                     static_cast<int>(c.api_version())));
  }
  auto resolved = context.ffi()->Resolve(c.target_name());
  AOT_RETURN_IF_ERROR_AND(resolved, context.Error("target_name", _.message()));
  thunk->resolved_ = *resolved;
  // The handler this platform calls: its own device handler, else the host
  // handler (with buffers staged through host memory on a device).
  const PlatformKind kind =
      context.platform() != nullptr ? context.platform()->kind() : PLATFORM_HOST;
  if (kind != PLATFORM_HOST && resolved->device_handlers != nullptr) {
    if (auto it = resolved->device_handlers->find(kind); it != resolved->device_handlers->end()) {
      thunk->device_handler_ = &it->second;
    }
  }
  if (thunk->device_handler_ == nullptr && resolved->handler == nullptr) {
    return context.Error(
        "target_name",
        absl::StrCat("FFI handler '", resolved->canonical_name, "' has no handler for platform ",
                     PlatformKind_Name(kind), " (and no host handler)"));
  }
  thunk->target_name_ = c.target_name();
  thunk->api_version_ = c.api_version();
  auto read = [&](const google::protobuf::RepeatedPtrField<CustomCallOperandProto>& in,
                  absl::string_view field, bool writable,
                  std::vector<Operand>* out) -> absl::Status {
    for (int i = 0; i < in.size(); ++i) {
      std::string name = absl::StrCat(field, "[", i, "]");
      const CustomCallOperandProto& op = in.Get(i);
      AOT_RETURN_IF_ERROR(writable ? context.CheckWritableSlice(op.slice(), name + ".slice")
                                   : context.CheckSlice(op.slice(), name + ".slice"));
      int64_t bytes = runtime_shape::ByteSize(op.shape());
      if (bytes < 0 || op.shape().dimensions_size() > 64) {
        return context.Error(name + ".shape", "is not a valid array shape");
      }
      if (bytes != op.slice().size()) {
        return context.Error(
            name, absl::StrCat("shape ", runtime_shape::ToString(op.shape()), " needs ", bytes,
                               " bytes, slice has ", op.slice().size()));
      }
      out->push_back(Operand{op.shape(), BufferSlice::FromProto(op.slice())});
    }
    return absl::OkStatus();
  };
  AOT_RETURN_IF_ERROR(read(c.operands(), "operands", false, &thunk->operands_));
  AOT_RETURN_IF_ERROR(read(c.results(), "results", true, &thunk->results_));
  thunk->opaque_ = c.opaque();
  thunk->attributes_ = c.attributes();
  return thunk;
}

absl::Status CustomCallThunk::Execute(const ExecuteParams& params) const {
  FfiCallFrame frame;
  frame.opaque = opaque_;
  frame.attributes = &attributes_;
  // A device handler gets device buffers and the stream; a host handler on
  // a device platform gets host copies (staged around the call).
  if (device_handler_ != nullptr) {
    frame.stream = params.stream->native_handle();
    for (const Operand& op : operands_) {
      frame.operands.push_back(FfiBuffer{params.buffers->Resolve(op.slice).ptr, &op.shape});
    }
    for (const Operand& op : results_) {
      frame.results.push_back(FfiBuffer{params.buffers->Resolve(op.slice).ptr, &op.shape});
    }
    if (absl::Status s = (*device_handler_)(frame); !s.ok()) {
      return absl::Status(s.code(),
                          absl::StrCat("custom call '", target_name_, "': ", s.message()));
    }
    return absl::OkStatus();
  }
  bool host = params.platform->kind() == PLATFORM_HOST;
  std::vector<std::vector<uint8_t>> staging;
  auto bind = [&](const Operand& op, bool copy_in) -> absl::StatusOr<FfiBuffer> {
    DeviceMemory mem = params.buffers->Resolve(op.slice);
    if (host) return FfiBuffer{mem.ptr, &op.shape};
    staging.emplace_back(static_cast<size_t>(op.slice.size));
    if (copy_in && op.slice.size > 0) {
      AOT_RETURN_IF_ERROR(
          params.stream->CopyDeviceToHost(mem, staging.back().data(), op.slice.size));
    }
    return FfiBuffer{staging.back().data(), &op.shape};
  };
  staging.reserve(operands_.size() + results_.size());
  for (const Operand& op : operands_) {
    AOT_ASSIGN_OR_RETURN(auto b, bind(op, true));
    frame.operands.push_back(b);
  }
  for (const Operand& op : results_) {
    AOT_ASSIGN_OR_RETURN(auto b, bind(op, false));
    frame.results.push_back(b);
  }
  if (absl::Status s = (*resolved_.handler)(frame); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("custom call '", target_name_, "': ", s.message()));
  }
  if (!host) {
    for (size_t i = 0; i < results_.size(); ++i) {
      DeviceMemory mem = params.buffers->Resolve(results_[i].slice);
      if (results_[i].slice.size == 0) continue;
      AOT_RETURN_IF_ERROR(
          params.stream->CopyHostToDevice(frame.results[i].data, mem, results_[i].slice.size));
    }
  }
  return absl::OkStatus();
}

ThunkProto CustomCallThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  CustomCallThunkProto* c = proto.mutable_custom_call();
  c->set_target_name(target_name_);
  c->set_api_version(api_version_);
  for (const Operand& op : operands_) {
    CustomCallOperandProto* o = c->add_operands();
    *o->mutable_shape() = op.shape;
    *o->mutable_slice() = op.slice.ToProto();
  }
  for (const Operand& op : results_) {
    CustomCallOperandProto* o = c->add_results();
    *o->mutable_shape() = op.shape;
    *o->mutable_slice() = op.slice.ToProto();
  }
  c->set_opaque(opaque_);
  *c->mutable_attributes() = attributes_;
  return proto;
}

}  // namespace aot
