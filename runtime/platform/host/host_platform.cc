#include "runtime/platform/host/host_platform.h"

#include <cblas.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/platform/host/cpu_features.h"
#include "runtime/platform/host/host_collectives.h"
#include "runtime/platform/host/host_kernel_abi.h"
#include "runtime/platform/host/host_kernel_loader.h"
#include "runtime/platform/host/thread_pool.h"
#include "support/float16.h"
#include "support/status_macros.h"

namespace aot {

namespace {

constexpr int64_t kAlignment = 64;
constexpr int64_t kMaxThreadsPerBlock = 1024;
constexpr int64_t kMaxGridBlocks = int64_t{1} << 31;

// One convolution (ConvolutionParams) by its definition: T is the stored
// element (uint16_t for f16/bf16), Acc the accumulator.
template <typename T, typename Acc>
absl::Status DirectConvolution(const ConvolutionParams& p, DeviceMemory input, DeviceMemory filter,
                               DeviceMemory output) {
  const bool bf16 = p.element_type == BF16;
  auto load = [&](const void* base, int64_t offset) -> Acc {
    const T v = static_cast<const T*>(base)[offset];
    if constexpr (std::is_same_v<T, uint16_t>) {
      return bf16 ? Bf16BitsToFloat(v) : HalfBitsToFloat(v);
    } else {
      return static_cast<Acc>(v);
    }
  };
  auto store = [&](int64_t offset, Acc v) {
    T* out = static_cast<T*>(output.ptr) + offset;
    if constexpr (std::is_same_v<T, uint16_t>) {
      *out = bf16 ? FloatToBf16Bits(v) : FloatToHalfBits(v);
    } else {
      *out = static_cast<T>(v);
    }
  };
  // Up to 3 spatial dimensions, missing ones of extent 1.
  constexpr int kMaxSpatial = 3;
  const int spatial = static_cast<int>(p.window_strides.size());
  int64_t in_extent[kMaxSpatial], out_extent[kMaxSpatial], k_extent[kMaxSpatial];
  int64_t in_stride[kMaxSpatial], out_stride[kMaxSpatial], k_stride[kMaxSpatial];
  int64_t step[kMaxSpatial], pad[kMaxSpatial], dilation[kMaxSpatial];
  for (int i = 0; i < kMaxSpatial; ++i) {
    const bool used = i < spatial;
    in_extent[i] = used ? p.input_dims[2 + i] : 1;
    out_extent[i] = used ? p.output_dims[2 + i] : 1;
    k_extent[i] = used ? p.filter_dims[2 + i] : 1;
    in_stride[i] = used ? p.input_strides[2 + i] : 0;
    out_stride[i] = used ? p.output_strides[2 + i] : 0;
    k_stride[i] = used ? p.filter_strides[2 + i] : 0;
    step[i] = used ? p.window_strides[i] : 1;
    pad[i] = used ? p.padding[i] : 0;
    dilation[i] = used ? p.dilations[i] : 1;
  }
  const int64_t batch = p.input_dims[0], outputs = p.output_dims[1];
  const int64_t per_group_in = p.filter_dims[1];
  const int64_t per_group_out = outputs / p.feature_group_count;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t o = 0; o < outputs; ++o) {
      const int64_t group = o / per_group_out;
      for (int64_t y0 = 0; y0 < out_extent[0]; ++y0) {
        for (int64_t y1 = 0; y1 < out_extent[1]; ++y1) {
          for (int64_t y2 = 0; y2 < out_extent[2]; ++y2) {
            const int64_t y[kMaxSpatial] = {y0, y1, y2};
            Acc acc = 0;
            for (int64_t c = 0; c < per_group_in; ++c) {
              const int64_t ic = group * per_group_in + c;
              for (int64_t k0 = 0; k0 < k_extent[0]; ++k0) {
                for (int64_t k1 = 0; k1 < k_extent[1]; ++k1) {
                  for (int64_t k2 = 0; k2 < k_extent[2]; ++k2) {
                    const int64_t k[kMaxSpatial] = {k0, k1, k2};
                    int64_t in_offset = n * p.input_strides[0] + ic * p.input_strides[1];
                    int64_t k_offset = o * p.filter_strides[0] + c * p.filter_strides[1];
                    bool inside = true;
                    for (int i = 0; i < kMaxSpatial; ++i) {
                      const int64_t x = y[i] * step[i] - pad[i] + k[i] * dilation[i];
                      inside &= x >= 0 && x < in_extent[i];
                      in_offset += x * in_stride[i];
                      k_offset += k[i] * k_stride[i];
                    }
                    if (inside) acc += load(input.ptr, in_offset) * load(filter.ptr, k_offset);
                  }
                }
              }
            }
            int64_t out_offset = n * p.output_strides[0] + o * p.output_strides[1];
            for (int i = 0; i < kMaxSpatial; ++i) out_offset += y[i] * out_stride[i];
            store(out_offset, acc);
          }
        }
      }
    }
  }
  return absl::OkStatus();
}

// Host work runs when it is queued (kernels on the platform's thread pool),
// so every operation is complete when it returns.
class HostStream : public Stream {
 public:
  explicit HostStream(ThreadPool* pool) : pool_(pool) {}

  // Every execution acquires a stream: their storage is recycled through a
  // free list, so a steady-state execution allocates nothing.
  static void* operator new(size_t size) {
    FreeList& list = Recycled();
    {
      std::lock_guard<std::mutex> lock(list.mu);
      if (!list.blocks.empty()) {
        void* p = list.blocks.back();
        list.blocks.pop_back();
        return p;
      }
    }
    return ::operator new(size);
  }
  static void operator delete(void* p) {
    FreeList& list = Recycled();
    std::lock_guard<std::mutex> lock(list.mu);
    list.blocks.push_back(p);
  }

  absl::Status CopyHostToDevice(const void* src, DeviceMemory dst, int64_t size) override {
    std::memcpy(dst.ptr, src, static_cast<size_t>(size));
    return absl::OkStatus();
  }
  absl::Status CopyDeviceToHost(DeviceMemory src, void* dst, int64_t size) override {
    std::memcpy(dst, src.ptr, static_cast<size_t>(size));
    return absl::OkStatus();
  }
  absl::Status CopyDeviceToDevice(DeviceMemory src, DeviceMemory dst, int64_t size) override {
    std::memmove(dst.ptr, src.ptr, static_cast<size_t>(size));
    return absl::OkStatus();
  }
  absl::Status Memset32(DeviceMemory dst, uint32_t pattern, int64_t size) override {
    if (pattern == 0) {
      std::memset(dst.ptr, 0, static_cast<size_t>(size));
      return absl::OkStatus();
    }
    auto* p = static_cast<uint32_t*>(dst.ptr);
    for (int64_t i = 0; i < size / 4; ++i) p[i] = pattern;
    return absl::OkStatus();
  }

  absl::Status Launch(const KernelHandle& kernel, const LaunchDimensionsProto& dims,
                      absl::Span<const DeviceMemory> args) override {
    const auto& host_kernel = static_cast<const HostKernelHandle&>(kernel);
    absl::InlinedVector<void*, 16> pointers(args.size());  // no heap for <= 16 args
    for (size_t i = 0; i < args.size(); ++i) pointers[i] = args[i].ptr;
    const int64_t gx = dims.block_count_x(), gy = dims.block_count_y();
    const int64_t total = gx * gy * dims.block_count_z();
    AotHostKernelFn fn = host_kernel.fn();
    pool_->ParallelFor(total, [&](int64_t block) {
      AotHostKernelFrame frame;
      frame.args = pointers.data();
      frame.block_x = block % gx;
      frame.block_y = (block / gx) % gy;
      frame.block_z = block / (gx * gy);
      frame.grid_x = gx;
      frame.grid_y = gy;
      frame.grid_z = dims.block_count_z();
      frame.threads_x = dims.threads_per_block_x();
      frame.threads_y = dims.threads_per_block_y();
      frame.threads_z = dims.threads_per_block_z();
      fn(&frame);
    });
    return absl::OkStatus();
  }

  absl::Status Gemm(const GemmParams& p, DeviceMemory lhs, DeviceMemory rhs,
                    DeviceMemory output) override {
    const int lda = static_cast<int>(p.transpose_lhs ? p.m : p.k);
    const int ldb = static_cast<int>(p.transpose_rhs ? p.k : p.n);
    const int ldc = static_cast<int>(p.n);
    const CBLAS_TRANSPOSE ta = p.transpose_lhs ? CblasTrans : CblasNoTrans;
    const CBLAS_TRANSPOSE tb = p.transpose_rhs ? CblasTrans : CblasNoTrans;
    for (int64_t b = 0; b < p.batch_size; ++b) {
      if (p.element_type == F32) {
        const float* a = static_cast<const float*>(lhs.ptr) + b * p.lhs_batch_stride;
        const float* bb = static_cast<const float*>(rhs.ptr) + b * p.rhs_batch_stride;
        float* c = static_cast<float*>(output.ptr) + b * p.output_batch_stride;
        cblas_sgemm(CblasRowMajor, ta, tb, static_cast<int>(p.m), static_cast<int>(p.n),
                    static_cast<int>(p.k), static_cast<float>(p.alpha), a, lda, bb, ldb,
                    static_cast<float>(p.beta), c, ldc);
      } else if (p.element_type == F64) {
        const double* a = static_cast<const double*>(lhs.ptr) + b * p.lhs_batch_stride;
        const double* bb = static_cast<const double*>(rhs.ptr) + b * p.rhs_batch_stride;
        double* c = static_cast<double*>(output.ptr) + b * p.output_batch_stride;
        cblas_dgemm(CblasRowMajor, ta, tb, static_cast<int>(p.m), static_cast<int>(p.n),
                    static_cast<int>(p.k), p.alpha, a, lda, bb, ldb, p.beta, c, ldc);
      } else if (p.element_type == F16 || p.element_type == BF16) {
        // OpenBLAS has no half-precision GEMM in every build (sbgemm only
        // where compiled in, no hgemm), so each matrix is widened to f32,
        // multiplied by cblas_sgemm and the result rounded back to nearest
        // even: cuBLAS's f32-accumulating GEMM up to summation order.
        const bool bf16 = p.element_type == BF16;
        auto widen = [&](const void* base, int64_t offset, int64_t count) {
          const uint16_t* bits = static_cast<const uint16_t*>(base) + offset;
          std::vector<float> f(static_cast<size_t>(count));
          for (int64_t i = 0; i < count; ++i) {
            f[i] = bf16 ? Bf16BitsToFloat(bits[i]) : HalfBitsToFloat(bits[i]);
          }
          return f;
        };
        std::vector<float> a = widen(lhs.ptr, b * p.lhs_batch_stride, p.m * p.k);
        std::vector<float> bb = widen(rhs.ptr, b * p.rhs_batch_stride, p.k * p.n);
        std::vector<float> c = p.beta != 0.0
                                   ? widen(output.ptr, b * p.output_batch_stride, p.m * p.n)
                                   : std::vector<float>(static_cast<size_t>(p.m * p.n));
        cblas_sgemm(CblasRowMajor, ta, tb, static_cast<int>(p.m), static_cast<int>(p.n),
                    static_cast<int>(p.k), static_cast<float>(p.alpha), a.data(), lda, bb.data(),
                    ldb, static_cast<float>(p.beta), c.data(), ldc);
        uint16_t* out = static_cast<uint16_t*>(output.ptr) + b * p.output_batch_stride;
        for (int64_t i = 0; i < p.m * p.n; ++i) {
          out[i] = bf16 ? FloatToBf16Bits(c[i]) : FloatToHalfBits(c[i]);
        }
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("host GEMM does not support ", PrimitiveType_Name(p.element_type)));
      }
    }
    return absl::OkStatus();
  }

  // The compiler emits convolution thunks for CUDA (cuDNN) only; here they
  // run as a direct loop, correct rather than fast (accumulating in f32,
  // f64 for f64), so the thunk has the same meaning on every platform.
  absl::Status Convolution(const ConvolutionParams& p, DeviceMemory input, DeviceMemory filter,
                           DeviceMemory output) override {
    switch (p.element_type) {
      case F32:
        return DirectConvolution<float, float>(p, input, filter, output);
      case F64:
        return DirectConvolution<double, double>(p, input, filter, output);
      case F16:
      case BF16:
        return DirectConvolution<uint16_t, float>(p, input, filter, output);
      default:
        return absl::InvalidArgumentError(
            absl::StrCat("host convolution does not support ", PrimitiveType_Name(p.element_type)));
    }
  }

  absl::Status Synchronize() override { return absl::OkStatus(); }

 private:
  ThreadPool* pool_;

  struct FreeList {
    std::mutex mu;
    std::vector<void*> blocks;  // storage of destroyed streams
  };
  // Never destroyed (a stream may be freed during static destruction), and
  // reachable from here, so leak checkers do not count the blocks.
  static FreeList& Recycled() {
    static FreeList* list = new FreeList();
    return *list;
  }
};

class HostCommandBuffer : public CommandBuffer {
 public:
  explicit HostCommandBuffer(std::vector<KernelLaunch> launches) : launches_(std::move(launches)) {}
  absl::Status Launch(Stream& stream, absl::Span<const std::vector<DeviceMemory>> args) override {
    // The launch list was resolved at load time; run it back to back.
    for (size_t i = 0; i < launches_.size(); ++i) {
      AOT_RETURN_IF_ERROR(stream.Launch(*launches_[i].kernel, launches_[i].dims, args[i]));
    }
    return absl::OkStatus();
  }

 private:
  std::vector<KernelLaunch> launches_;
};

// Threads that run a host executable's kernels, the calling thread
// included: AOT_HOST_THREADS (1 to 1024) when set, else one per hardware
// thread. Benchmarks and servers that run several executables (or SPMD
// partitions) at once set it to divide the cores.
int HostThreadCount() {
  if (const char* env = std::getenv("AOT_HOST_THREADS")) {
    int n = 0;
    if (absl::SimpleAtoi(env, &n) && n >= 1 && n <= 1024) return n;
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

class HostPlatform : public Platform {
 public:
  explicit HostPlatform(std::set<std::string> features)
      : features_(std::move(features)), pool_(HostThreadCount() - 1) {}

  absl::string_view name() const override { return "host"; }
  PlatformKind kind() const override { return PLATFORM_HOST; }
  bool CanExecute() const override { return true; }

  absl::Status CheckCapability(const CapabilityProto& capability) const override {
    if (capability.capability_case() != CapabilityProto::kHost) {
      return absl::FailedPreconditionError(
          absl::StrCat("capability mismatch: the artifact was compiled for ",
                       capability.capability_case() == CapabilityProto::kCuda
                           ? absl::StrCat("CUDA compute capability ", capability.cuda().major(),
                                          ".", capability.cuda().minor())
                           : std::string("an unknown platform"),
                       "; this is the host (CPU) platform"));
    }
    return CheckHostIsaLevel(capability.host().isa_level(), features_);
  }

  absl::Status CheckLaunchDimensions(const LaunchDimensionsProto& d) const override {
    int64_t threads = d.threads_per_block_x() * d.threads_per_block_y() * d.threads_per_block_z();
    if (d.threads_per_block_x() > kMaxThreadsPerBlock ||
        d.threads_per_block_y() > kMaxThreadsPerBlock ||
        d.threads_per_block_z() > kMaxThreadsPerBlock || threads > kMaxThreadsPerBlock) {
      return absl::InvalidArgumentError(absl::StrCat(
          "threads per block ", d.threads_per_block_x(), "x", d.threads_per_block_y(), "x",
          d.threads_per_block_z(), " exceed the host limit of ", kMaxThreadsPerBlock));
    }
    if (d.block_count_x() > kMaxGridBlocks || d.block_count_y() > 65535 ||
        d.block_count_z() > 65535 ||
        d.block_count_x() * d.block_count_y() > kMaxGridBlocks / d.block_count_z()) {
      return absl::InvalidArgumentError(
          absl::StrCat("grid ", d.block_count_x(), "x", d.block_count_y(), "x", d.block_count_z(),
                       " exceeds the host limits (x <= 2^31, y, z <= 65535, total <= 2^31)"));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::unique_ptr<KernelLoader>> CreateKernelLoader() override {
    return CreateHostKernelLoader();
  }

  ~HostPlatform() override {
    for (const auto& [size, ptr] : cache_) std::free(ptr);
  }

  // Blocks of kHostCachedBlockMin bytes or more are kept when freed (up to
  // kHostBlockCacheBytes in all) and handed out again for the same rounded
  // size: a fresh large block comes from mmap and page-faults on first
  // touch, which costs more than the kernels that fill it (a new result
  // buffer per Executable::ExecuteBuffers). Hand-written: the C library's
  // allocator returns such blocks to the system at once.
  absl::StatusOr<DeviceMemory> Allocate(int64_t size) override {
    const int64_t rounded =
        std::max<int64_t>(kAlignment, (size + kAlignment - 1) / kAlignment * kAlignment);
    const bool large = rounded >= kHostCachedBlockMin;
    if (large) {
      std::lock_guard<std::mutex> lock(cache_mu_);
      if (auto it = cache_.find(rounded); it != cache_.end()) {
        void* ptr = it->second;
        cache_.erase(it);
        cached_bytes_ -= rounded;
        live_.emplace(ptr, rounded);
        return DeviceMemory{ptr, size};
      }
    }
    void* ptr = std::aligned_alloc(kAlignment, static_cast<size_t>(rounded));
    if (ptr == nullptr) {
      return absl::ResourceExhaustedError(absl::StrCat("cannot allocate ", size, " bytes"));
    }
    if (large) {
      std::lock_guard<std::mutex> lock(cache_mu_);
      live_.emplace(ptr, rounded);
    }
    return DeviceMemory{ptr, size};
  }
  void Free(DeviceMemory memory) override {
    if (memory.ptr == nullptr) return;
    {
      std::lock_guard<std::mutex> lock(cache_mu_);
      auto it = live_.find(memory.ptr);
      if (it != live_.end()) {
        const int64_t rounded = it->second;
        live_.erase(it);
        if (cached_bytes_ + rounded <= kHostBlockCacheBytes) {
          cache_.emplace(rounded, memory.ptr);
          cached_bytes_ += rounded;
          return;
        }
      }
    }
    std::free(memory.ptr);
  }

  absl::StatusOr<std::unique_ptr<Stream>> AcquireStream() override {
    return std::unique_ptr<Stream>(new HostStream(&pool_));
  }
  std::unique_ptr<CommandBuffer> CreateCommandBuffer(std::vector<KernelLaunch> launches) override {
    return std::make_unique<HostCommandBuffer>(std::move(launches));
  }
  // Participants are threads of this process (each with its own stream).
  absl::StatusOr<std::unique_ptr<CollectiveBackend>> CreateCollectiveBackend(
      int64_t participant_count, absl::Duration timeout) override {
    return CreateHostCollectiveBackend(timeout);
  }

 private:
  std::set<std::string> features_;
  ThreadPool pool_;
  std::mutex cache_mu_;
  std::multimap<int64_t, void*> cache_;      // rounded size -> free block
  std::unordered_map<void*, int64_t> live_;  // large blocks handed out
  int64_t cached_bytes_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Platform>> CreateHostPlatform(
    const std::vector<std::string>& cpu_features_override) {
  std::set<std::string> features =
      cpu_features_override.empty()
          ? DetectHostCpuFeatures()
          : std::set<std::string>(cpu_features_override.begin(), cpu_features_override.end());
  return std::unique_ptr<Platform>(new HostPlatform(std::move(features)));
}

}  // namespace aot
