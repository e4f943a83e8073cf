#ifndef AOT_RUNTIME_EXECUTABLE_DEVICE_BUFFER_H_
#define AOT_RUNTIME_EXECUTABLE_DEVICE_BUFFER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "proto/hlo.pb.h"
#include "runtime/platform/platform.h"

namespace aot {

// One array in a platform's memory (PjRt's PjRtBuffer): created once from
// host bytes (or as an execution's result) and passed to
// Executable::ExecuteBuffers without copies. Its bytes are in the physical
// layout of its shape. A buffer an execution consumed (donation) is
// deleted: every use afterwards is FailedPrecondition. Not thread-safe: one
// thread at a time may use a buffer (executions that only read it may run
// concurrently).
class DeviceBuffer {
 public:
  // A buffer holding `bytes` (exactly the shape's byte size).
  static absl::StatusOr<std::unique_ptr<DeviceBuffer>> FromHostBuffer(
      std::shared_ptr<Platform> platform, const ShapeProto& shape, absl::Span<const uint8_t> bytes);
  // An uninitialized buffer of the shape's byte size.
  static absl::StatusOr<std::unique_ptr<DeviceBuffer>> Allocate(std::shared_ptr<Platform> platform,
                                                                const ShapeProto& shape);

  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  const ShapeProto& shape() const { return shape_; }
  int64_t size_bytes() const { return memory_.size; }
  // The platform memory (null once deleted).
  DeviceMemory memory() const { return memory_; }
  Platform* platform() const { return platform_.get(); }
  bool is_deleted() const { return deleted_; }

  // Copies the bytes out (`out` holds exactly size_bytes()).
  absl::Status CopyToHost(absl::Span<uint8_t> out) const;
  absl::StatusOr<std::vector<uint8_t>> ToHost() const;

  // Frees the memory now; later uses are FailedPrecondition.
  void Delete();

  // OK, or FailedPrecondition naming `what` when deleted or donated.
  absl::Status CheckUsable(absl::string_view what) const;

  // Moves the memory out (donation): this buffer is deleted without
  // freeing it; the caller owns the memory.
  DeviceMemory Release();
  // A buffer that owns `memory` (allocated on `platform`).
  static std::unique_ptr<DeviceBuffer> Adopt(std::shared_ptr<Platform> platform,
                                             const ShapeProto& shape, DeviceMemory memory);

 private:
  DeviceBuffer(std::shared_ptr<Platform> platform, ShapeProto shape, DeviceMemory memory)
      : platform_(std::move(platform)), shape_(std::move(shape)), memory_(memory) {}

  std::shared_ptr<Platform> platform_;
  ShapeProto shape_;
  DeviceMemory memory_;
  bool deleted_ = false;
  bool donated_ = false;
};

}  // namespace aot

#endif  // AOT_RUNTIME_EXECUTABLE_DEVICE_BUFFER_H_
