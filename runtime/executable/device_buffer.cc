#include "runtime/executable/device_buffer.h"

#include "absl/strings/str_cat.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<std::unique_ptr<DeviceBuffer>> DeviceBuffer::Allocate(
    std::shared_ptr<Platform> platform, const ShapeProto& shape) {
  if (platform == nullptr) return absl::InvalidArgumentError("DeviceBuffer: no platform");
  if (!runtime_shape::IsArray(shape) || runtime_shape::ByteSize(shape) < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("DeviceBuffer: ", runtime_shape::ToString(shape), " is not an array shape"));
  }
  AOT_ASSIGN_OR_RETURN(DeviceMemory memory, platform->Allocate(runtime_shape::ByteSize(shape)));
  return Adopt(std::move(platform), shape, memory);
}

absl::StatusOr<std::unique_ptr<DeviceBuffer>> DeviceBuffer::FromHostBuffer(
    std::shared_ptr<Platform> platform, const ShapeProto& shape, absl::Span<const uint8_t> bytes) {
  AOT_ASSIGN_OR_RETURN(std::unique_ptr<DeviceBuffer> buffer, Allocate(platform, shape));
  if (static_cast<int64_t>(bytes.size()) != buffer->size_bytes()) {
    return absl::InvalidArgumentError(absl::StrCat("DeviceBuffer: ", bytes.size(), " bytes for ",
                                                   runtime_shape::ToString(shape), ", which needs ",
                                                   buffer->size_bytes()));
  }
  if (!bytes.empty()) {
    AOT_ASSIGN_OR_RETURN(std::unique_ptr<Stream> stream, buffer->platform_->AcquireStream());
    AOT_RETURN_IF_ERROR(stream->CopyHostToDevice(bytes.data(), buffer->memory_, bytes.size()));
    AOT_RETURN_IF_ERROR(stream->Synchronize());
  }
  return buffer;
}

std::unique_ptr<DeviceBuffer> DeviceBuffer::Adopt(std::shared_ptr<Platform> platform,
                                                  const ShapeProto& shape, DeviceMemory memory) {
  return std::unique_ptr<DeviceBuffer>(new DeviceBuffer(std::move(platform), shape, memory));
}

DeviceBuffer::~DeviceBuffer() { Delete(); }

void DeviceBuffer::Delete() {
  if (!deleted_ && memory_.ptr != nullptr) platform_->Free(memory_);
  memory_ = DeviceMemory{};
  deleted_ = true;
}

DeviceMemory DeviceBuffer::Release() {
  DeviceMemory memory = memory_;
  memory_ = DeviceMemory{};
  deleted_ = true;
  donated_ = true;
  return memory;
}

absl::Status DeviceBuffer::CheckUsable(absl::string_view what) const {
  if (!deleted_) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat(what, " (", runtime_shape::ToString(shape_), ") was ",
                   donated_ ? "donated to an earlier execution" : "deleted"));
}

absl::Status DeviceBuffer::CopyToHost(absl::Span<uint8_t> out) const {
  AOT_RETURN_IF_ERROR(CheckUsable("buffer"));
  if (static_cast<int64_t>(out.size()) != size_bytes()) {
    return absl::InvalidArgumentError(absl::StrCat("DeviceBuffer::CopyToHost: ", out.size(),
                                                   " bytes for a buffer of ", size_bytes()));
  }
  if (out.empty()) return absl::OkStatus();
  AOT_ASSIGN_OR_RETURN(std::unique_ptr<Stream> stream, platform_->AcquireStream());
  AOT_RETURN_IF_ERROR(stream->CopyDeviceToHost(memory_, out.data(), out.size()));
  return stream->Synchronize();
}

absl::StatusOr<std::vector<uint8_t>> DeviceBuffer::ToHost() const {
  std::vector<uint8_t> bytes(static_cast<size_t>(std::max<int64_t>(size_bytes(), 0)));
  AOT_RETURN_IF_ERROR(CopyToHost(absl::MakeSpan(bytes)));
  return bytes;
}

}  // namespace aot
