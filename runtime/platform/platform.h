#ifndef AOT_RUNTIME_PLATFORM_PLATFORM_H_
#define AOT_RUNTIME_PLATFORM_PLATFORM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "proto/executable.pb.h"
#include "proto/target.pb.h"

namespace aot {

class CollectiveBackend;  // runtime/platform/collectives.h

// A buffer in the platform's memory (host memory for the host platform,
// device memory for CUDA).
struct DeviceMemory {
  void* ptr = nullptr;
  int64_t size = 0;
};

// A kernel resolved and ready to launch. Owned by a KernelLoader.
class KernelHandle {
 public:
  virtual ~KernelHandle() = default;
  virtual absl::string_view name() const = 0;
  // Number of buffer arguments the kernel takes (from its binary).
  virtual int64_t arity() const = 0;
};

// Loads the kernels of one executable (host: one JIT session; CUDA: the
// modules). Lives as long as the executable.
class KernelLoader {
 public:
  virtual ~KernelLoader() = default;
  // Resolves `kernel_name` in `binary`. Errors name the kernel and why
  // (format, unresolvable symbols, missing entry point).
  virtual absl::StatusOr<const KernelHandle*> Load(const KernelBinaryProto& binary,
                                                   absl::string_view kernel_name) = 0;
};

// C = alpha * op(A) op(B) + beta * C, row-major, batched (GemmThunkProto).
struct GemmParams {
  PrimitiveType element_type = F32;
  int64_t batch_size = 1, m = 0, n = 0, k = 0;
  bool transpose_lhs = false, transpose_rhs = false;
  double alpha = 1.0, beta = 0.0;
  int64_t lhs_batch_stride = 0, rhs_batch_stride = 0, output_batch_stride = 0;
};

// A convolution (ConvolutionThunkProto): logical dimensions in the order
// input [N, C, S...], filter [O, C / groups, S...], output [N, O, S...],
// each with the element stride of every dimension in its buffer.
struct ConvolutionParams {
  PrimitiveType element_type = F32;
  std::vector<int64_t> input_dims, input_strides;
  std::vector<int64_t> filter_dims, filter_strides;
  std::vector<int64_t> output_dims, output_strides;
  // Per spatial dimension.
  std::vector<int64_t> window_strides, padding, dilations;
  int64_t feature_group_count = 1;
};

// How the filter of `params` is packed: 0 for (O, C, S...) (cuDNN's
// NCHW filter format), 1 for (O, S..., C) (NHWC), -1 for neither. Unit
// dimensions may have any stride.
inline int PackedFilterOrder(const ConvolutionParams& params) {
  const size_t rank = params.filter_dims.size();
  auto packed = [&](const std::vector<size_t>& minor_to_major) {
    int64_t stride = 1;
    for (size_t d : minor_to_major) {
      if (params.filter_dims[d] != 1 && params.filter_strides[d] != stride) return false;
      stride *= params.filter_dims[d];
    }
    return true;
  };
  if (rank < 2 || params.filter_strides.size() != rank) return -1;
  std::vector<size_t> nchw, nhwc = {1};
  for (size_t d = rank; d-- > 0;) nchw.push_back(d);
  for (size_t d = rank; d-- > 2;) nhwc.push_back(d);
  nhwc.push_back(0);
  if (packed(nchw)) return 0;
  if (packed(nhwc)) return 1;
  return -1;
}

// A pre-resolved kernel launch (the host command buffer's unit of work).
struct KernelLaunch {
  const KernelHandle* kernel = nullptr;
  LaunchDimensionsProto dims;
};

// An ordered queue of work on one platform. Every operation of one execution
// goes to one stream, in order; operations on different streams are
// independent. A stream belongs to one execution at a time (Platform::
// AcquireStream hands it out, its destructor gives it back), so executions on
// different threads never share one.
//
// Operations may complete after they return (CUDA: asynchronous on the
// device stream) except where a method says otherwise; Synchronize waits for
// all of them.
class Stream {
 public:
  virtual ~Stream() = default;
  // `src` may be reused as soon as this returns (the platform stages it).
  virtual absl::Status CopyHostToDevice(const void* src, DeviceMemory dst, int64_t size) = 0;
  // Returns once `dst` holds the bytes (waits for the work queued before it).
  virtual absl::Status CopyDeviceToHost(DeviceMemory src, void* dst, int64_t size) = 0;
  virtual absl::Status CopyDeviceToDevice(DeviceMemory src, DeviceMemory dst, int64_t size) = 0;
  virtual absl::Status Memset32(DeviceMemory dst, uint32_t pattern, int64_t size) = 0;
  virtual absl::Status Launch(const KernelHandle& kernel, const LaunchDimensionsProto& dims,
                              absl::Span<const DeviceMemory> args) = 0;
  virtual absl::Status Gemm(const GemmParams& params, DeviceMemory lhs, DeviceMemory rhs,
                            DeviceMemory output) = 0;
  virtual absl::Status Convolution(const ConvolutionParams& params, DeviceMemory input,
                                   DeviceMemory filter, DeviceMemory output) = 0;
  virtual absl::Status Synchronize() = 0;
  // The platform's own stream object (CUDA: the CUstream) for work queued
  // by others on this stream (device FFI handlers); null on the host.
  virtual void* native_handle() const { return nullptr; }
};

// Several kernel launches recorded once (at load) and submitted as one unit
// (host: the pre-resolved list; CUDA: a graph instantiated on first use and
// updated in place when buffer addresses change). Thread-safe.
class CommandBuffer {
 public:
  virtual ~CommandBuffer() = default;
  // `args[i]` are the arguments of launch i.
  virtual absl::Status Launch(Stream& stream, absl::Span<const std::vector<DeviceMemory>> args) = 0;
};

// Everything a thunk needs from the machine it runs on.
class Platform {
 public:
  virtual ~Platform() = default;
  virtual absl::string_view name() const = 0;
  virtual PlatformKind kind() const = 0;

  // FailedPrecondition when this machine cannot run code compiled for
  // `capability`; the message states what the artifact needs and what
  // this machine has.
  virtual absl::Status CheckCapability(const CapabilityProto& capability) const = 0;
  // Launch dimensions within this platform's limits.
  virtual absl::Status CheckLaunchDimensions(const LaunchDimensionsProto& dims) const = 0;
  // Whether this platform's DNN library runs the convolution (CUDA: cuDNN
  // takes the filter packed (O, C, S...) or (O, S..., C) only); checked at
  // load, device-less too.
  virtual absl::Status CheckConvolution(const ConvolutionParams& params) const {
    return absl::OkStatus();
  }
  // Whether kernels can actually run here (false: CUDA without a device).
  virtual bool CanExecute() const = 0;

  virtual absl::StatusOr<std::unique_ptr<KernelLoader>> CreateKernelLoader() = 0;

  virtual absl::StatusOr<DeviceMemory> Allocate(int64_t size) = 0;
  virtual void Free(DeviceMemory memory) = 0;

  // A stream for one execution (from a pool; given back when destroyed).
  virtual absl::StatusOr<std::unique_ptr<Stream>> AcquireStream() = 0;
  // A command buffer of `launches` (kernels owned by a loader that outlives
  // it).
  virtual std::unique_ptr<CommandBuffer> CreateCommandBuffer(
      std::vector<KernelLaunch> launches) = 0;

  // The data movement of collective operations between the
  // `participant_count` participants of one execution, each running on a
  // platform like this one (host: threads of this process; CUDA: a device
  // each, through NCCL). A member that does not reach a collective within
  // `timeout` fails the others with DeadlineExceeded.
  virtual absl::StatusOr<std::unique_ptr<CollectiveBackend>> CreateCollectiveBackend(
      int64_t participant_count, absl::Duration timeout) = 0;
};

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_PLATFORM_H_
