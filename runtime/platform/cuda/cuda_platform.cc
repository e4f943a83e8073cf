#include "runtime/platform/cuda/cuda_platform.h"

#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "runtime/platform/collectives.h"
#include "runtime/platform/cuda/cuda_driver.h"
#include "runtime/platform/cuda/nccl_api.h"
#include "runtime/platform/cuda/nccl_collectives.h"
#include "runtime/platform/rng_state_abi.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<int64_t> PtxEntryArity(absl::string_view ptx, absl::string_view kernel_name) {
  size_t pos = 0;
  while ((pos = ptx.find(".entry", pos)) != absl::string_view::npos) {
    size_t name_start = pos + 6;
    while (name_start < ptx.size() && absl::ascii_isspace(ptx[name_start])) ++name_start;
    size_t name_end = name_start;
    while (name_end < ptx.size() && (absl::ascii_isalnum(ptx[name_end]) || ptx[name_end] == '_' ||
                                     ptx[name_end] == '$' || ptx[name_end] == '.')) {
      ++name_end;
    }
    if (ptx.substr(name_start, name_end - name_start) == kernel_name) {
      size_t open = ptx.find('(', name_end);
      size_t close = ptx.find(')', name_end);
      if (open == absl::string_view::npos || close == absl::string_view::npos || close < open) {
        // `.entry k` without a parameter list.
        return 0;
      }
      absl::string_view params = ptx.substr(open, close - open);
      int64_t count = 0;
      for (size_t p = 0; (p = params.find(".param", p)) != absl::string_view::npos; p += 6) {
        ++count;
      }
      return count;
    }
    pos = name_end;
  }
  return absl::NotFoundError(absl::StrCat("PTX has no .entry '", kernel_name, "'"));
}

std::string PtxTarget(absl::string_view ptx) {
  size_t pos = ptx.find(".target");
  if (pos == absl::string_view::npos) return "";
  pos += 7;
  while (pos < ptx.size() && absl::ascii_isspace(ptx[pos])) ++pos;
  size_t end = pos;
  while (end < ptx.size() && (absl::ascii_isalnum(ptx[end]) || ptx[end] == '_')) ++end;
  return std::string(ptx.substr(pos, end - pos));
}

absl::StatusOr<CudaDriverApi> OpenCudaDriver() {
  void* handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return absl::UnavailableError(absl::StrCat("cannot open libcuda.so.1: ", ::dlerror()));
  }
  CudaDriverApi api;
  const char* missing = nullptr;
#define AOT_CUDA_DRIVER_RESOLVE(member, symbol)                                 \
  api.member = reinterpret_cast<decltype(api.member)>(::dlsym(handle, symbol)); \
  if (api.member == nullptr && missing == nullptr) missing = symbol;
  AOT_CUDA_DRIVER_FUNCTIONS(AOT_CUDA_DRIVER_RESOLVE)
#undef AOT_CUDA_DRIVER_RESOLVE
  if (missing != nullptr) {
    return absl::UnavailableError(
        absl::StrCat("libcuda.so.1 lacks the driver entry point ", missing));
  }
  return api;
}

absl::StatusOr<CublasApi> OpenCublas() {
  void* lib = nullptr;
  for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
    lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (lib != nullptr) break;
  }
  if (lib == nullptr) return absl::UnavailableError("cannot open libcublas");
  CublasApi c;
  auto sym = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
    return fn != nullptr;
  };
  if (!sym(c.create, "cublasCreate_v2") || !sym(c.destroy, "cublasDestroy_v2") ||
      !sym(c.set_stream, "cublasSetStream_v2") ||
      !sym(c.sgemm_strided_batched, "cublasSgemmStridedBatched") ||
      !sym(c.dgemm_strided_batched, "cublasDgemmStridedBatched") ||
      !sym(c.gemm_strided_batched_ex, "cublasGemmStridedBatchedEx")) {
    return absl::UnavailableError("libcublas lacks a required entry point");
  }
  return c;
}

absl::StatusOr<CudnnApi> OpenCudnn() {
  void* lib = nullptr;
  for (const char* name : {"libcudnn.so.9", "libcudnn.so.8", "libcudnn.so"}) {
    lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (lib != nullptr) break;
  }
  if (lib == nullptr) return absl::UnavailableError("cannot open libcudnn");
  CudnnApi c;
  const char* missing = nullptr;
  auto sym = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
    if (fn == nullptr && missing == nullptr) missing = name;
  };
  sym(c.create, "cudnnCreate");
  sym(c.destroy, "cudnnDestroy");
  sym(c.set_stream, "cudnnSetStream");
  sym(c.create_tensor_descriptor, "cudnnCreateTensorDescriptor");
  sym(c.set_tensor_nd_descriptor, "cudnnSetTensorNdDescriptor");
  sym(c.destroy_tensor_descriptor, "cudnnDestroyTensorDescriptor");
  sym(c.create_filter_descriptor, "cudnnCreateFilterDescriptor");
  sym(c.set_filter_nd_descriptor, "cudnnSetFilterNdDescriptor");
  sym(c.destroy_filter_descriptor, "cudnnDestroyFilterDescriptor");
  sym(c.create_convolution_descriptor, "cudnnCreateConvolutionDescriptor");
  sym(c.set_convolution_nd_descriptor, "cudnnSetConvolutionNdDescriptor");
  sym(c.set_convolution_group_count, "cudnnSetConvolutionGroupCount");
  sym(c.set_convolution_math_type, "cudnnSetConvolutionMathType");
  sym(c.destroy_convolution_descriptor, "cudnnDestroyConvolutionDescriptor");
  sym(c.get_convolution_forward_algorithm_v7, "cudnnGetConvolutionForwardAlgorithm_v7");
  sym(c.convolution_forward, "cudnnConvolutionForward");
  if (missing != nullptr) {
    return absl::UnavailableError(absl::StrCat("libcudnn lacks the entry point ", missing));
  }
  return c;
}

namespace {

// How cuDNN takes a convolution's filter (PackedFilterOrder): its NCHW
// or NHWC filter format; -1 when packed neither way.
int CudnnFilterFormat(const ConvolutionParams& p) {
  switch (PackedFilterOrder(p)) {
    case 0:
      return kCudnnTensorNchw;
    case 1:
      return kCudnnTensorNhwc;
    default:
      return -1;
  }
}

// Device workspace a stream gives cuDNN convolutions: algorithms that need
// more are not chosen (allocated once per stream, on its first one).
constexpr int64_t kCudnnWorkspaceBytes = int64_t{64} << 20;

constexpr int kCublasOpN = 0;
constexpr int kCublasOpT = 1;

// Host transfers go through page-locked staging so they are truly
// asynchronous on the stream; a transfer larger than this is staged in
// pieces (bounding the pinned memory each pooled stream holds).
constexpr int64_t kMaxStagingBytes = int64_t{64} << 20;

class CudaKernelHandle : public KernelHandle {
 public:
  CudaKernelHandle(std::string name, CUfunction fn, int64_t arity)
      : name_(std::move(name)), fn_(fn), arity_(arity) {}
  absl::string_view name() const override { return name_; }
  int64_t arity() const override { return arity_; }
  CUfunction fn() const { return fn_; }

 private:
  std::string name_;
  CUfunction fn_;
  int64_t arity_;
};

class CudaPlatform;

class CudaKernelLoader : public KernelLoader {
 public:
  explicit CudaKernelLoader(CudaPlatform* platform) : platform_(platform) {}
  ~CudaKernelLoader() override;
  absl::StatusOr<const KernelHandle*> Load(const KernelBinaryProto& binary,
                                           absl::string_view kernel_name) override;

 private:
  // Stores the device address of the executable's random state (allocated
  // at the first module that needs it) in the module's
  // kCudaRngStatePointerSymbol (runtime/platform/rng_state_abi.h).
  absl::Status BindRngState(CUmodule module);

  CudaPlatform* platform_;
  std::vector<CUmodule> modules_;
  std::vector<std::unique_ptr<CudaKernelHandle>> handles_;
  DeviceMemory rng_state_;  // {low, high}; allocated on first use
};

// Pooled per-stream state: one non-blocking stream, its cuBLAS handle
// (created on first GEMM; bound to this stream once, so GEMMs of different
// executions never re-target a shared handle) and its pinned staging.
struct StreamSlot {
  CUstream stream = nullptr;
  CublasHandle cublas = nullptr;
  CudnnHandle cudnn = nullptr;  // created on the first convolution
  CUdeviceptr cudnn_workspace = 0;
  void* staging = nullptr;  // page-locked host memory
  int64_t staging_capacity = 0;
  int64_t staging_used = 0;  // bytes queued for transfer since the last sync
};

class CudaPlatform : public Platform {
 public:
  ~CudaPlatform() override {
    for (auto& slot : slots_) {
      if (slot->cublas != nullptr) cublas_.destroy(slot->cublas);
      if (slot->cudnn != nullptr) cudnn_.destroy(slot->cudnn);
      if (slot->cudnn_workspace != 0) driver_.cuMemFree(slot->cudnn_workspace);
      if (slot->staging != nullptr) driver_.cuMemFreeHost(slot->staging);
      if (slot->stream != nullptr) driver_.cuStreamDestroy(slot->stream);
    }
  }

  // Opens the driver; without one (or with `device_less`) the platform
  // validates artifacts and reports that it cannot execute.
  absl::Status Init(bool device_less, int device_ordinal) {
    if (device_less) {
      unavailable_reason_ = "device-less load requested (LoadOptions::device_less)";
      return absl::OkStatus();
    }
    auto driver = OpenCudaDriver();
    if (!driver.ok()) {
      unavailable_reason_ = std::string(driver.status().message());
      return absl::OkStatus();
    }
    return InitWithApis(*driver, OpenCublas(), OpenCudnn(), device_ordinal);
  }

  absl::Status InitWithApis(const CudaDriverApi& driver, absl::StatusOr<CublasApi> cublas,
                            absl::StatusOr<CudnnApi> cudnn, int device_ordinal) {
    driver_ = driver;
    if (cudnn.ok()) {
      cudnn_ = *cudnn;
      has_cudnn_ = true;
    } else {
      cudnn_error_ = std::string(cudnn.status().message());
    }
    if (CUresult r = driver_.cuInit(0); r != CUDA_SUCCESS) {
      unavailable_reason_ = absl::StrCat("cuInit failed: ", ErrorString(r));
      return absl::OkStatus();
    }
    int count = 0;
    if (driver_.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
      unavailable_reason_ = "no CUDA device";
      return absl::OkStatus();
    }
    if (device_ordinal < 0 || device_ordinal >= count) {
      unavailable_reason_ =
          absl::StrCat("CUDA device ", device_ordinal, " requested; this machine has ", count,
                       " device", count == 1 ? "" : "s");
      return absl::OkStatus();
    }
    if (CUresult r = driver_.cuDeviceGet(&device_, device_ordinal); r != CUDA_SUCCESS) {
      return Error("cuDeviceGet", r);
    }
    driver_.cuDeviceGetAttribute(&major_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_);
    driver_.cuDeviceGetAttribute(&minor_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_);
    driver_.cuDeviceGetAttribute(&max_threads_, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, device_);
    if (CUresult r = driver_.cuDevicePrimaryCtxRetain(&context_, device_); r != CUDA_SUCCESS) {
      return Error("cuDevicePrimaryCtxRetain", r);
    }
    if (cublas.ok()) {
      cublas_ = *cublas;
      has_cublas_ = true;
    } else {
      cublas_error_ = std::string(cublas.status().message());
    }
    has_device_ = true;
    return absl::OkStatus();
  }

  absl::string_view name() const override { return "cuda"; }
  PlatformKind kind() const override { return PLATFORM_CUDA; }
  bool CanExecute() const override { return has_device_; }

  absl::Status CheckCapability(const CapabilityProto& capability) const override {
    if (capability.capability_case() != CapabilityProto::kCuda) {
      return absl::FailedPreconditionError(
          "capability mismatch: the artifact was not compiled for CUDA; this is the CUDA "
          "platform");
    }
    if (!has_device_) return absl::OkStatus();  // device-less: validated, not executed
    if (capability.cuda().major() != major_ || capability.cuda().minor() != minor_) {
      return absl::FailedPreconditionError(
          absl::StrCat("capability mismatch: the artifact was compiled for compute capability ",
                       capability.cuda().major(), ".", capability.cuda().minor(), " (sm_",
                       capability.cuda().major(), capability.cuda().minor(), "); device 0 is ",
                       major_, ".", minor_));
    }
    return absl::OkStatus();
  }

  absl::Status CheckLaunchDimensions(const LaunchDimensionsProto& d) const override {
    int64_t limit = has_device_ ? max_threads_ : 1024;
    int64_t threads = d.threads_per_block_x() * d.threads_per_block_y() * d.threads_per_block_z();
    if (d.threads_per_block_x() > limit || d.threads_per_block_y() > limit ||
        d.threads_per_block_z() > 64 || threads > limit) {
      return absl::InvalidArgumentError(
          absl::StrCat("threads per block ", d.threads_per_block_x(), "x", d.threads_per_block_y(),
                       "x", d.threads_per_block_z(), " exceed the CUDA limit of ", limit));
    }
    if (d.block_count_x() > 2147483647 || d.block_count_y() > 65535 || d.block_count_z() > 65535) {
      return absl::InvalidArgumentError("grid exceeds the CUDA limits (2^31-1, 65535, 65535)");
    }
    return absl::OkStatus();
  }

  // cuDNN's legacy API takes 4- and 5-dimensional tensors (2 or 3 spatial
  // dimensions), int extents and a packed filter.
  absl::Status CheckConvolution(const ConvolutionParams& p) const override {
    const size_t spatial = p.window_strides.size();
    if (spatial != 2 && spatial != 3) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cuDNN convolutions take 2 or 3 spatial dimensions, this one has ", spatial));
    }
    for (const auto* v : {&p.input_dims, &p.input_strides, &p.filter_dims, &p.output_dims,
                          &p.output_strides, &p.window_strides, &p.padding, &p.dilations}) {
      for (int64_t x : *v) {
        if (x > 2147483647) {
          return absl::InvalidArgumentError(
              absl::StrCat("cuDNN takes int extents and strides, got ", x));
        }
      }
    }
    if (CudnnFilterFormat(p) < 0) {
      return absl::InvalidArgumentError(
          "cuDNN takes the filter packed as (O, C, spatial...) or (O, spatial..., C)");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::unique_ptr<KernelLoader>> CreateKernelLoader() override {
    return std::unique_ptr<KernelLoader>(new CudaKernelLoader(this));
  }

  absl::StatusOr<DeviceMemory> Allocate(int64_t size) override {
    if (!has_device_) return Unavailable();
    AOT_RETURN_IF_ERROR(MakeCurrent());
    CUdeviceptr ptr = 0;
    if (CUresult r = driver_.cuMemAlloc(&ptr, std::max<int64_t>(size, 1)); r != CUDA_SUCCESS) {
      return Error("cuMemAlloc", r);
    }
    return DeviceMemory{reinterpret_cast<void*>(ptr), size};
  }
  void Free(DeviceMemory memory) override {
    if (has_device_ && memory.ptr != nullptr) {
      driver_.cuMemFree(reinterpret_cast<CUdeviceptr>(memory.ptr));
    }
  }

  absl::StatusOr<std::unique_ptr<Stream>> AcquireStream() override;
  std::unique_ptr<CommandBuffer> CreateCommandBuffer(std::vector<KernelLaunch> launches) override;
  absl::StatusOr<std::unique_ptr<CollectiveBackend>> CreateCollectiveBackend(
      int64_t participant_count, absl::Duration timeout) override;

  // Gives a stream back to the pool (CudaStream's destructor).
  void ReleaseSlot(StreamSlot* slot) {
    std::lock_guard<std::mutex> lock(pool_mu_);
    free_slots_.push_back(slot);
  }

  absl::StatusOr<CUfunction> LoadModule(const KernelBinaryProto& binary,
                                        absl::string_view kernel_name,
                                        std::vector<CUmodule>& modules) {
    AOT_RETURN_IF_ERROR(MakeCurrent());
    CUmodule module = nullptr;
    CUresult r = CUDA_ERROR_INVALID_IMAGE;
    if (!binary.cubin().empty()) r = driver_.cuModuleLoadData(&module, binary.cubin().data());
    if (r != CUDA_SUCCESS) {
      // PTX fallback (JIT by the driver).
      r = driver_.cuModuleLoadData(&module, binary.ptx().c_str());
    }
    if (r != CUDA_SUCCESS) return Error("cuModuleLoadData", r);
    modules.push_back(module);
    CUfunction fn = nullptr;
    std::string name(kernel_name);
    if (CUresult fr = driver_.cuModuleGetFunction(&fn, module, name.c_str()); fr != CUDA_SUCCESS) {
      return Error(absl::StrCat("cuModuleGetFunction(", kernel_name, ")"), fr);
    }
    return fn;
  }
  void UnloadModule(CUmodule module) {
    if (has_device_) driver_.cuModuleUnload(module);
  }
  bool has_device() const { return has_device_; }

  const CudaDriverApi& driver() const { return driver_; }
  const CublasApi* cublas() const { return has_cublas_ ? &cublas_ : nullptr; }
  const std::string& cublas_error() const { return cublas_error_; }
  const CudnnApi* cudnn() const { return has_cudnn_ ? &cudnn_ : nullptr; }
  const std::string& cudnn_error() const { return cudnn_error_; }
  absl::Status MakeCurrent() const {
    return Check("cuCtxSetCurrent", driver_.cuCtxSetCurrent(context_));
  }
  std::string ErrorString(CUresult r) const {
    const char* text = nullptr;
    if (driver_.cuGetErrorString != nullptr) driver_.cuGetErrorString(r, &text);
    return text != nullptr ? text : absl::StrCat("CUresult ", static_cast<int>(r));
  }
  absl::Status Error(absl::string_view what, CUresult r) const {
    return absl::InternalError(absl::StrCat(what, " failed: ", ErrorString(r)));
  }
  absl::Status Check(absl::string_view what, CUresult r) const {
    return r == CUDA_SUCCESS ? absl::OkStatus() : Error(what, r);
  }
  absl::Status Unavailable() const {
    return absl::FailedPreconditionError(
        absl::StrCat("CUDA platform cannot execute here: ", unavailable_reason_));
  }

 private:
  CudaDriverApi driver_;
  bool has_device_ = false;
  std::string unavailable_reason_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  int major_ = 0, minor_ = 0, max_threads_ = 1024;
  CublasApi cublas_;
  bool has_cublas_ = false;
  std::string cublas_error_;
  CudnnApi cudnn_;
  bool has_cudnn_ = false;
  std::string cudnn_error_ = "not opened";

  std::mutex pool_mu_;
  std::vector<std::unique_ptr<StreamSlot>> slots_;
  std::vector<StreamSlot*> free_slots_;
};

// One execution's stream. Every operation is queued on the slot's
// non-blocking stream with the driver's stream-ordered calls; nothing goes
// to the legacy default stream, which would not be ordered against it.
class CudaStream : public Stream {
 public:
  CudaStream(CudaPlatform* platform, StreamSlot* slot) : platform_(platform), slot_(slot) {}
  // This stream's device context, current on the calling thread.
  absl::Status MakeCurrent() const { return platform_->MakeCurrent(); }
  ~CudaStream() override {
    // Whatever the execution left queued finishes before another takes the
    // stream (and its staging) over.
    Synchronize().IgnoreError();
    platform_->ReleaseSlot(slot_);
  }

  absl::Status CopyHostToDevice(const void* src, DeviceMemory dst, int64_t size) override {
    AOT_RETURN_IF_ERROR(platform_->MakeCurrent());
    for (int64_t offset = 0; offset < size;) {
      int64_t piece = std::min(size - offset, kMaxStagingBytes);
      AOT_ASSIGN_OR_RETURN(char* staging, Stage(piece));
      std::memcpy(staging, static_cast<const char*>(src) + offset, static_cast<size_t>(piece));
      AOT_RETURN_IF_ERROR(platform_->Check(
          "cuMemcpyHtoDAsync",
          driver().cuMemcpyHtoDAsync(Ptr(dst) + offset, staging, piece, slot_->stream)));
      offset += piece;
    }
    return absl::OkStatus();
  }

  absl::Status CopyDeviceToHost(DeviceMemory src, void* dst, int64_t size) override {
    AOT_RETURN_IF_ERROR(platform_->MakeCurrent());
    for (int64_t offset = 0; offset < size;) {
      int64_t piece = std::min(size - offset, kMaxStagingBytes);
      AOT_ASSIGN_OR_RETURN(char* staging, Stage(piece));
      AOT_RETURN_IF_ERROR(platform_->Check(
          "cuMemcpyDtoHAsync",
          driver().cuMemcpyDtoHAsync(staging, Ptr(src) + offset, piece, slot_->stream)));
      AOT_RETURN_IF_ERROR(Synchronize());
      std::memcpy(static_cast<char*>(dst) + offset, staging, static_cast<size_t>(piece));
      offset += piece;
    }
    return absl::OkStatus();
  }

  absl::Status CopyDeviceToDevice(DeviceMemory src, DeviceMemory dst, int64_t size) override {
    AOT_RETURN_IF_ERROR(platform_->MakeCurrent());
    return platform_->Check("cuMemcpyDtoDAsync",
                            driver().cuMemcpyDtoDAsync(Ptr(dst), Ptr(src), size, slot_->stream));
  }

  absl::Status Memset32(DeviceMemory dst, uint32_t pattern, int64_t size) override {
    AOT_RETURN_IF_ERROR(platform_->MakeCurrent());
    if (pattern == 0) {
      return platform_->Check("cuMemsetD8Async",
                              driver().cuMemsetD8Async(Ptr(dst), 0, size, slot_->stream));
    }
    return platform_->Check("cuMemsetD32Async",
                            driver().cuMemsetD32Async(Ptr(dst), pattern, size / 4, slot_->stream));
  }

  absl::Status Launch(const KernelHandle& kernel, const LaunchDimensionsProto& d,
                      absl::Span<const DeviceMemory> args) override {
    AOT_RETURN_IF_ERROR(platform_->MakeCurrent());
    const auto& k = static_cast<const CudaKernelHandle&>(kernel);
    std::vector<CUdeviceptr> pointers(args.size());
    std::vector<void*> params(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      pointers[i] = Ptr(args[i]);
      params[i] = &pointers[i];
    }
    return platform_->Check(
        "cuLaunchKernel",
        driver().cuLaunchKernel(k.fn(), d.block_count_x(), d.block_count_y(), d.block_count_z(),
                                d.threads_per_block_x(), d.threads_per_block_y(),
                                d.threads_per_block_z(), 0, slot_->stream, params.data(), nullptr));
  }

  absl::Status Gemm(const GemmParams& p, DeviceMemory lhs, DeviceMemory rhs,
                    DeviceMemory output) override {
    const CublasApi* cublas = platform_->cublas();
    if (cublas == nullptr) {
      return absl::UnavailableError(
          absl::StrCat("cuBLAS unavailable: ", platform_->cublas_error()));
    }
    AOT_RETURN_IF_ERROR(platform_->MakeCurrent());
    if (slot_->cublas == nullptr) {
      CublasHandle handle = nullptr;
      if (int rc = cublas->create(&handle); rc != 0) {
        return absl::InternalError(absl::StrCat("cublasCreate failed with status ", rc));
      }
      if (int rc = cublas->set_stream(handle, slot_->stream); rc != 0) {
        cublas->destroy(handle);
        return absl::InternalError(absl::StrCat("cublasSetStream failed with status ", rc));
      }
      slot_->cublas = handle;
    }
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T.
    const int m = static_cast<int>(p.n), n = static_cast<int>(p.m), k = static_cast<int>(p.k);
    const int lda_b = static_cast<int>(p.transpose_rhs ? p.k : p.n);
    const int ldb_a = static_cast<int>(p.transpose_lhs ? p.m : p.k);
    const int opb = p.transpose_rhs ? kCublasOpT : kCublasOpN;
    const int opa = p.transpose_lhs ? kCublasOpT : kCublasOpN;
    int rc;
    if (p.element_type == F32) {
      float alpha = static_cast<float>(p.alpha), beta = static_cast<float>(p.beta);
      rc = cublas->sgemm_strided_batched(
          slot_->cublas, opb, opa, m, n, k, &alpha, static_cast<const float*>(rhs.ptr), lda_b,
          p.rhs_batch_stride, static_cast<const float*>(lhs.ptr), ldb_a, p.lhs_batch_stride, &beta,
          static_cast<float*>(output.ptr), m, p.output_batch_stride,
          static_cast<int>(p.batch_size));
    } else if (p.element_type == F64) {
      rc = cublas->dgemm_strided_batched(
          slot_->cublas, opb, opa, m, n, k, &p.alpha, static_cast<const double*>(rhs.ptr), lda_b,
          p.rhs_batch_stride, static_cast<const double*>(lhs.ptr), ldb_a, p.lhs_batch_stride,
          &p.beta, static_cast<double*>(output.ptr), m, p.output_batch_stride,
          static_cast<int>(p.batch_size));
    } else if (p.element_type == F16 || p.element_type == BF16) {
      // f16 / bf16 operands and result, f32 accumulation and scalars.
      const int type = p.element_type == F16 ? kCudaR16F : kCudaR16BF;
      float alpha = static_cast<float>(p.alpha), beta = static_cast<float>(p.beta);
      rc = cublas->gemm_strided_batched_ex(slot_->cublas, opb, opa, m, n, k, &alpha, rhs.ptr, type,
                                           lda_b, p.rhs_batch_stride, lhs.ptr, type, ldb_a,
                                           p.lhs_batch_stride, &beta, output.ptr, type, m,
                                           p.output_batch_stride, static_cast<int>(p.batch_size),
                                           kCublasCompute32F, kCublasGemmDefault);
    } else {
      return absl::InvalidArgumentError("cuBLAS GEMM supports f16, bf16, f32 and f64");
    }
    if (rc != 0) return absl::InternalError(absl::StrCat("cuBLAS GEMM failed with status ", rc));
    return absl::OkStatus();
  }

  absl::Status Convolution(const ConvolutionParams& p, DeviceMemory input, DeviceMemory filter,
                           DeviceMemory output) override {
    const CudnnApi* dnn = platform_->cudnn();
    if (dnn == nullptr) {
      return absl::UnavailableError(absl::StrCat("cuDNN unavailable: ", platform_->cudnn_error()));
    }
    AOT_RETURN_IF_ERROR(platform_->MakeCurrent());
    auto check = [](const char* what, int rc) {
      return rc == 0 ? absl::OkStatus()
                     : absl::InternalError(absl::StrCat(what, " failed with status ", rc));
    };
    if (slot_->cudnn == nullptr) {
      CudnnHandle handle = nullptr;
      AOT_RETURN_IF_ERROR(check("cudnnCreate", dnn->create(&handle)));
      if (int rc = dnn->set_stream(handle, slot_->stream); rc != 0) {
        dnn->destroy(handle);
        return check("cudnnSetStream", rc);
      }
      slot_->cudnn = handle;
    }
    int type = kCudnnDataFloat;
    switch (p.element_type) {
      case F16:
        type = kCudnnDataHalf;
        break;
      case BF16:
        type = kCudnnDataBfloat16;
        break;
      case F64:
        type = kCudnnDataDouble;
        break;
      default:
        break;
    }
    const int compute = p.element_type == F64 ? kCudnnDataDouble : kCudnnDataFloat;
    auto ints = [](const std::vector<int64_t>& v) { return std::vector<int>(v.begin(), v.end()); };
    // Descriptors are host objects, destroyed once the call is queued.
    struct Descriptors {
      const CudnnApi* dnn;
      CudnnDescriptor x = nullptr, w = nullptr, y = nullptr, conv = nullptr;
      ~Descriptors() {
        if (x != nullptr) dnn->destroy_tensor_descriptor(x);
        if (y != nullptr) dnn->destroy_tensor_descriptor(y);
        if (w != nullptr) dnn->destroy_filter_descriptor(w);
        if (conv != nullptr) dnn->destroy_convolution_descriptor(conv);
      }
    } d{dnn};
    const int rank = static_cast<int>(p.input_dims.size());
    AOT_RETURN_IF_ERROR(check("cudnnCreateTensorDescriptor", dnn->create_tensor_descriptor(&d.x)));
    AOT_RETURN_IF_ERROR(check("cudnnCreateTensorDescriptor", dnn->create_tensor_descriptor(&d.y)));
    AOT_RETURN_IF_ERROR(check("cudnnCreateFilterDescriptor", dnn->create_filter_descriptor(&d.w)));
    AOT_RETURN_IF_ERROR(
        check("cudnnCreateConvolutionDescriptor", dnn->create_convolution_descriptor(&d.conv)));
    std::vector<int> xd = ints(p.input_dims), xs = ints(p.input_strides);
    std::vector<int> yd = ints(p.output_dims), ys = ints(p.output_strides);
    std::vector<int> wd = ints(p.filter_dims);
    AOT_RETURN_IF_ERROR(
        check("cudnnSetTensorNdDescriptor",
              dnn->set_tensor_nd_descriptor(d.x, type, rank, xd.data(), xs.data())));
    AOT_RETURN_IF_ERROR(
        check("cudnnSetTensorNdDescriptor",
              dnn->set_tensor_nd_descriptor(d.y, type, rank, yd.data(), ys.data())));
    const int format = CudnnFilterFormat(p);
    if (format < 0) return platform_->CheckConvolution(p);
    AOT_RETURN_IF_ERROR(check("cudnnSetFilterNdDescriptor",
                              dnn->set_filter_nd_descriptor(d.w, type, format, rank, wd.data())));
    std::vector<int> pad = ints(p.padding), stride = ints(p.window_strides),
                     dilation = ints(p.dilations);
    AOT_RETURN_IF_ERROR(check(
        "cudnnSetConvolutionNdDescriptor",
        dnn->set_convolution_nd_descriptor(d.conv, rank - 2, pad.data(), stride.data(),
                                           dilation.data(), kCudnnCrossCorrelation, compute)));
    AOT_RETURN_IF_ERROR(
        check("cudnnSetConvolutionGroupCount",
              dnn->set_convolution_group_count(d.conv, static_cast<int>(p.feature_group_count))));
    // Tensor cores for f16/bf16; f32 and f64 stay FMA (no TF32 conversion,
    // which cuDNN's default math type allows on Ampere and newer).
    const bool half = p.element_type == F16 || p.element_type == BF16;
    AOT_RETURN_IF_ERROR(
        check("cudnnSetConvolutionMathType",
              dnn->set_convolution_math_type(d.conv, half ? kCudnnTensorOpMath : kCudnnFmaMath)));
    // cuDNN's heuristics, best first: the first that succeeds within the
    // stream's workspace.
    CudnnConvolutionFwdAlgoPerf perf[8];
    int returned = 0;
    AOT_RETURN_IF_ERROR(check("cudnnGetConvolutionForwardAlgorithm_v7",
                              dnn->get_convolution_forward_algorithm_v7(
                                  slot_->cudnn, d.x, d.w, d.conv, d.y, 8, &returned, perf)));
    const CudnnConvolutionFwdAlgoPerf* chosen = nullptr;
    for (int i = 0; i < returned && chosen == nullptr; ++i) {
      if (perf[i].status == 0 && perf[i].memory <= static_cast<size_t>(kCudnnWorkspaceBytes)) {
        chosen = &perf[i];
      }
    }
    if (chosen == nullptr) {
      return absl::InternalError(
          absl::StrCat("cuDNN has no forward algorithm for this convolution "
                       "within a workspace of ",
                       kCudnnWorkspaceBytes, " bytes"));
    }
    if (chosen->memory > 0 && slot_->cudnn_workspace == 0) {
      AOT_RETURN_IF_ERROR(platform_->Check(
          "cuMemAlloc", driver().cuMemAlloc(&slot_->cudnn_workspace, kCudnnWorkspaceBytes)));
    }
    const double one_d = 1, zero_d = 0;
    const float one_f = 1, zero_f = 0;
    const void* alpha = p.element_type == F64 ? static_cast<const void*>(&one_d) : &one_f;
    const void* beta = p.element_type == F64 ? static_cast<const void*>(&zero_d) : &zero_f;
    return check(
        "cudnnConvolutionForward",
        dnn->convolution_forward(slot_->cudnn, alpha, d.x, input.ptr, d.w, filter.ptr, d.conv,
                                 chosen->algo, reinterpret_cast<void*>(slot_->cudnn_workspace),
                                 chosen->memory > 0 ? static_cast<size_t>(kCudnnWorkspaceBytes) : 0,
                                 beta, d.y, output.ptr));
  }

  absl::Status Synchronize() override {
    AOT_RETURN_IF_ERROR(platform_->MakeCurrent());
    absl::Status s =
        platform_->Check("cuStreamSynchronize", driver().cuStreamSynchronize(slot_->stream));
    if (s.ok()) slot_->staging_used = 0;  // every staged transfer has completed
    return s;
  }

  CUstream stream() const { return slot_->stream; }
  void* native_handle() const override { return slot_->stream; }

 private:
  const CudaDriverApi& driver() const { return platform_->driver(); }
  static CUdeviceptr Ptr(DeviceMemory m) { return reinterpret_cast<CUdeviceptr>(m.ptr); }

  // `size` (<= kMaxStagingBytes) bytes of pinned staging not used by a
  // transfer still queued: when the staging is full the stream is drained
  // first; it grows (doubling, up to the cap) when too small.
  absl::StatusOr<char*> Stage(int64_t size) {
    constexpr int64_t kAlign = 256;
    if (slot_->staging_used + size > slot_->staging_capacity) {
      AOT_RETURN_IF_ERROR(Synchronize());
      if (size > slot_->staging_capacity) {
        int64_t capacity = std::max<int64_t>(
            size, std::min<int64_t>(2 * slot_->staging_capacity + (1 << 20), kMaxStagingBytes));
        if (slot_->staging != nullptr) driver().cuMemFreeHost(slot_->staging);
        slot_->staging = nullptr;
        slot_->staging_capacity = 0;
        void* staging = nullptr;
        AOT_RETURN_IF_ERROR(
            platform_->Check("cuMemAllocHost", driver().cuMemAllocHost(&staging, capacity)));
        slot_->staging = staging;
        slot_->staging_capacity = capacity;
      }
    }
    char* out = static_cast<char*>(slot_->staging) + slot_->staging_used;
    slot_->staging_used = std::min(slot_->staging_capacity,
                                   (slot_->staging_used + size + kAlign - 1) / kAlign * kAlign);
    return out;
  }

  CudaPlatform* platform_;
  StreamSlot* slot_;
};

absl::StatusOr<std::unique_ptr<Stream>> CudaPlatform::AcquireStream() {
  if (!has_device_) return Unavailable();
  StreamSlot* slot = nullptr;
  {
    std::lock_guard<std::mutex> lock(pool_mu_);
    if (!free_slots_.empty()) {
      slot = free_slots_.back();
      free_slots_.pop_back();
    }
  }
  if (slot == nullptr) {
    AOT_RETURN_IF_ERROR(MakeCurrent());
    auto fresh = std::make_unique<StreamSlot>();
    AOT_RETURN_IF_ERROR(
        Check("cuStreamCreate", driver_.cuStreamCreate(&fresh->stream, CU_STREAM_NON_BLOCKING)));
    slot = fresh.get();
    std::lock_guard<std::mutex> lock(pool_mu_);
    slots_.push_back(std::move(fresh));
  }
  return std::unique_ptr<Stream>(new CudaStream(this, slot));
}

// A CUDA graph of the launches, built with explicit kernel nodes (no stream
// capture, so no execution's stream is ever in capture mode), instantiated
// on first use and kept for the executable's lifetime. When an execution's
// buffer addresses differ from the ones the instantiated graph holds, the
// changed nodes are updated in place (cuGraphExecKernelNodeSetParams),
// which leaves launches already queued untouched. A launch of the graph
// is ordered after the previous launch of the same graph, whichever stream
// it was on; the mutex serializes the node updates and the launch.
class CudaCommandBuffer : public CommandBuffer {
 public:
  CudaCommandBuffer(CudaPlatform* platform, std::vector<KernelLaunch> launches)
      : platform_(platform), launches_(std::move(launches)) {}
  ~CudaCommandBuffer() override {
    if (exec_ != nullptr) platform_->driver().cuGraphExecDestroy(exec_);
    if (graph_ != nullptr) platform_->driver().cuGraphDestroy(graph_);
  }

  absl::Status Launch(Stream& stream, absl::Span<const std::vector<DeviceMemory>> args) override {
    if (!platform_->has_device()) return platform_->Unavailable();
    const CudaDriverApi& driver = platform_->driver();
    std::lock_guard<std::mutex> lock(mu_);
    AOT_RETURN_IF_ERROR(platform_->MakeCurrent());
    if (exec_ == nullptr) {
      AOT_RETURN_IF_ERROR(Instantiate(args));
    } else {
      for (size_t i = 0; i < launches_.size(); ++i) {
        if (!SetArguments(i, args[i])) continue;
        CUDA_KERNEL_NODE_PARAMS params = NodeParams(i);
        AOT_RETURN_IF_ERROR(
            platform_->Check("cuGraphExecKernelNodeSetParams",
                             driver.cuGraphExecKernelNodeSetParams(exec_, nodes_[i], &params)));
      }
    }
    return platform_->Check("cuGraphLaunch",
                            driver.cuGraphLaunch(exec_, static_cast<CudaStream&>(stream).stream()));
  }

 private:
  // Records `args` as launch i's arguments; false when they are unchanged.
  bool SetArguments(size_t i, const std::vector<DeviceMemory>& args) {
    std::vector<CUdeviceptr>& current = arguments_[i];
    bool changed = current.size() != args.size();
    current.resize(args.size());
    for (size_t a = 0; a < args.size(); ++a) {
      CUdeviceptr ptr = reinterpret_cast<CUdeviceptr>(args[a].ptr);
      changed |= current[a] != ptr;
      current[a] = ptr;
    }
    if (changed) {
      pointers_[i].resize(current.size());
      for (size_t a = 0; a < current.size(); ++a) pointers_[i][a] = &current[a];
    }
    return changed;
  }

  CUDA_KERNEL_NODE_PARAMS NodeParams(size_t i) {
    const LaunchDimensionsProto& d = launches_[i].dims;
    CUDA_KERNEL_NODE_PARAMS params = {};
    params.func = static_cast<const CudaKernelHandle&>(*launches_[i].kernel).fn();
    params.gridDimX = static_cast<unsigned>(d.block_count_x());
    params.gridDimY = static_cast<unsigned>(d.block_count_y());
    params.gridDimZ = static_cast<unsigned>(d.block_count_z());
    params.blockDimX = static_cast<unsigned>(d.threads_per_block_x());
    params.blockDimY = static_cast<unsigned>(d.threads_per_block_y());
    params.blockDimZ = static_cast<unsigned>(d.threads_per_block_z());
    params.kernelParams = pointers_[i].data();
    return params;
  }

  absl::Status Instantiate(absl::Span<const std::vector<DeviceMemory>> args) {
    const CudaDriverApi& driver = platform_->driver();
    arguments_.assign(launches_.size(), {});
    pointers_.assign(launches_.size(), {});
    nodes_.assign(launches_.size(), nullptr);
    AOT_RETURN_IF_ERROR(platform_->Check("cuGraphCreate", driver.cuGraphCreate(&graph_, 0)));
    for (size_t i = 0; i < launches_.size(); ++i) {
      SetArguments(i, args[i]);
      CUDA_KERNEL_NODE_PARAMS params = NodeParams(i);
      // Each kernel depends on the one before it (program order).
      CUgraphNode* dependency = i == 0 ? nullptr : &nodes_[i - 1];
      AOT_RETURN_IF_ERROR(platform_->Check(
          "cuGraphAddKernelNode",
          driver.cuGraphAddKernelNode(&nodes_[i], graph_, dependency, i == 0 ? 0 : 1, &params)));
    }
    CUgraphExec exec = nullptr;
    AOT_RETURN_IF_ERROR(
        platform_->Check("cuGraphInstantiate", driver.cuGraphInstantiate(&exec, graph_, 0)));
    exec_ = exec;
    return absl::OkStatus();
  }

  CudaPlatform* platform_;
  const std::vector<KernelLaunch> launches_;
  std::mutex mu_;
  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
  std::vector<CUgraphNode> nodes_;
  // The arguments the instantiated graph holds, and pointers to them in the
  // form kernelParams takes.
  std::vector<std::vector<CUdeviceptr>> arguments_;
  std::vector<std::vector<void*>> pointers_;
};

absl::StatusOr<std::unique_ptr<CollectiveBackend>> CudaPlatform::CreateCollectiveBackend(
    int64_t participant_count, absl::Duration timeout) {
  // Every participant runs on a platform of its own device (one executable
  // loaded per device); the backend only needs each participant's stream.
  if (!has_device_) return Unavailable();
  auto nccl = OpenNccl();
  if (!nccl.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("collectives on CUDA need NCCL: ", nccl.status().message()));
  }
  return CreateNcclCollectiveBackend(*nccl, timeout, [](Stream& stream) {
    return static_cast<const CudaStream&>(stream).MakeCurrent();
  });
}

std::unique_ptr<CommandBuffer> CudaPlatform::CreateCommandBuffer(
    std::vector<KernelLaunch> launches) {
  return std::make_unique<CudaCommandBuffer>(this, std::move(launches));
}

CudaKernelLoader::~CudaKernelLoader() {
  for (CUmodule m : modules_) platform_->UnloadModule(m);
  if (rng_state_.ptr != nullptr) platform_->Free(rng_state_);
}

// Added 2026-12-03 with rng-get-and-update-state (staged rollout phase 1;
// the compiler emits it behind the emission flag emit_rng_state).
absl::Status CudaKernelLoader::BindRngState(CUmodule module) {
  const CudaDriverApi& driver = platform_->driver();
  CUdeviceptr holder = 0;
  size_t bytes = 0;
  if (CUresult r = driver.cuModuleGetGlobal(&holder, &bytes, module, kCudaRngStatePointerSymbol);
      r != CUDA_SUCCESS) {
    return platform_->Error(absl::StrCat("cuModuleGetGlobal(", kCudaRngStatePointerSymbol, ")"), r);
  }
  if (bytes != sizeof(uint64_t)) {
    return absl::InvalidArgumentError(absl::StrCat("the global ", kCudaRngStatePointerSymbol,
                                                   " has ", bytes, " bytes; expected 8"));
  }
  AOT_ASSIGN_OR_RETURN(auto stream, platform_->AcquireStream());
  if (rng_state_.ptr == nullptr) {
    // The executable's state {low, high}, zero at load.
    AOT_ASSIGN_OR_RETURN(rng_state_, platform_->Allocate(2 * sizeof(uint64_t)));
    AOT_RETURN_IF_ERROR(stream->Memset32(rng_state_, 0, 2 * sizeof(uint64_t)));
  }
  const uint64_t address = reinterpret_cast<uint64_t>(rng_state_.ptr);
  AOT_RETURN_IF_ERROR(stream->CopyHostToDevice(
      &address, DeviceMemory{reinterpret_cast<void*>(holder), sizeof(uint64_t)}, sizeof(uint64_t)));
  return stream->Synchronize();
}

absl::StatusOr<const KernelHandle*> CudaKernelLoader::Load(const KernelBinaryProto& binary,
                                                           absl::string_view kernel_name) {
  if (binary.format() != KernelBinaryProto::CUDA_PTX) {
    return absl::InvalidArgumentError(absl::StrCat("kernel '", kernel_name, "' has binary format ",
                                                   KernelBinaryProto::Format_Name(binary.format()),
                                                   "; the CUDA platform runs CUDA_PTX"));
  }
  if (binary.ptx().empty()) {
    return absl::InvalidArgumentError(absl::StrCat("kernel '", kernel_name, "' has no PTX"));
  }
  auto arity = PtxEntryArity(binary.ptx(), kernel_name);
  if (!arity.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("kernel '", kernel_name, "': ", arity.status().message()));
  }
  std::string target = PtxTarget(binary.ptx());
  if (!absl::StartsWith(target, "sm_")) {
    return absl::InvalidArgumentError(
        absl::StrCat("kernel '", kernel_name, "': PTX has no .target sm_XX"));
  }
  if (!binary.cubin().empty() && !absl::StartsWith(binary.cubin(),
                                                   "\x7f"
                                                   "ELF")) {
    return absl::InvalidArgumentError(
        absl::StrCat("kernel '", kernel_name, "': cubin is not an ELF image"));
  }
  CUfunction fn = nullptr;
  if (platform_->has_device()) {
    auto loaded = platform_->LoadModule(binary, kernel_name, modules_);
    if (!loaded.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", kernel_name, "': ", loaded.status().message()));
    }
    fn = *loaded;
    if (absl::StrContains(binary.ptx(), kCudaRngStatePointerSymbol)) {
      if (absl::Status s = BindRngState(modules_.back()); !s.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("kernel '", kernel_name, "': ", s.message()));
      }
    }
  }
  handles_.push_back(std::make_unique<CudaKernelHandle>(std::string(kernel_name), fn, *arity));
  return handles_.back().get();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Platform>> CreateCudaPlatform(bool device_less, int device_ordinal) {
  auto platform = std::make_unique<CudaPlatform>();
  AOT_RETURN_IF_ERROR(platform->Init(device_less, device_ordinal));
  return std::unique_ptr<Platform>(std::move(platform));
}

absl::StatusOr<std::unique_ptr<Platform>> CreateCudaPlatformWithApis(
    const CudaDriverApi& driver, absl::StatusOr<CublasApi> cublas, absl::StatusOr<CudnnApi> cudnn,
    int device_ordinal) {
  auto platform = std::make_unique<CudaPlatform>();
  AOT_RETURN_IF_ERROR(
      platform->InitWithApis(driver, std::move(cublas), std::move(cudnn), device_ordinal));
  return std::unique_ptr<Platform>(std::move(platform));
}

}  // namespace aot
