#include "runtime/platform/cuda/cuda_platform.h"

#include <cuda.h>
#include <dlfcn.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
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

namespace {

// The driver API, resolved with dlopen/dlsym (never linked).
struct Driver {
#define AOT_CUDA_FN(name) decltype(&::name) name = nullptr;
  AOT_CUDA_FN(cuInit)
  AOT_CUDA_FN(cuDriverGetVersion)
  AOT_CUDA_FN(cuDeviceGetCount)
  AOT_CUDA_FN(cuDeviceGet)
  AOT_CUDA_FN(cuDeviceGetAttribute)
  AOT_CUDA_FN(cuDevicePrimaryCtxRetain)
  AOT_CUDA_FN(cuCtxSetCurrent)
  AOT_CUDA_FN(cuModuleLoadData)
  AOT_CUDA_FN(cuModuleGetFunction)
  AOT_CUDA_FN(cuModuleUnload)
  AOT_CUDA_FN(cuMemAlloc)
  AOT_CUDA_FN(cuMemFree)
  AOT_CUDA_FN(cuMemcpyHtoD)
  AOT_CUDA_FN(cuMemcpyDtoH)
  AOT_CUDA_FN(cuMemcpyDtoD)
  AOT_CUDA_FN(cuMemsetD32)
  AOT_CUDA_FN(cuMemsetD8)
  AOT_CUDA_FN(cuLaunchKernel)
  AOT_CUDA_FN(cuStreamCreate)
  AOT_CUDA_FN(cuStreamSynchronize)
  AOT_CUDA_FN(cuStreamBeginCapture)
  AOT_CUDA_FN(cuStreamEndCapture)
  AOT_CUDA_FN(cuGraphInstantiate)
  AOT_CUDA_FN(cuGraphLaunch)
  AOT_CUDA_FN(cuGraphExecDestroy)
  AOT_CUDA_FN(cuGraphDestroy)
  AOT_CUDA_FN(cuGetErrorString)
#undef AOT_CUDA_FN
  void* handle = nullptr;
};

absl::StatusOr<Driver> OpenDriver() {
  Driver d;
  d.handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (d.handle == nullptr) {
    return absl::UnavailableError(absl::StrCat("cannot open libcuda.so.1: ", ::dlerror()));
  }
  auto sym = [&](auto& fn, const char* name) -> bool {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(d.handle, name));
    return fn != nullptr;
  };
  bool ok =
      sym(d.cuInit, "cuInit") && sym(d.cuDriverGetVersion, "cuDriverGetVersion") &&
      sym(d.cuDeviceGetCount, "cuDeviceGetCount") && sym(d.cuDeviceGet, "cuDeviceGet") &&
      sym(d.cuDeviceGetAttribute, "cuDeviceGetAttribute") &&
      sym(d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") &&
      sym(d.cuCtxSetCurrent, "cuCtxSetCurrent") && sym(d.cuModuleLoadData, "cuModuleLoadData") &&
      sym(d.cuModuleGetFunction, "cuModuleGetFunction") &&
      sym(d.cuModuleUnload, "cuModuleUnload") && sym(d.cuMemAlloc, "cuMemAlloc_v2") &&
      sym(d.cuMemFree, "cuMemFree_v2") && sym(d.cuMemcpyHtoD, "cuMemcpyHtoD_v2") &&
      sym(d.cuMemcpyDtoH, "cuMemcpyDtoH_v2") && sym(d.cuMemcpyDtoD, "cuMemcpyDtoD_v2") &&
      sym(d.cuMemsetD32, "cuMemsetD32_v2") && sym(d.cuMemsetD8, "cuMemsetD8_v2") &&
      sym(d.cuLaunchKernel, "cuLaunchKernel") && sym(d.cuStreamCreate, "cuStreamCreate") &&
      sym(d.cuStreamSynchronize, "cuStreamSynchronize") &&
      sym(d.cuStreamBeginCapture, "cuStreamBeginCapture_v2") &&
      sym(d.cuStreamEndCapture, "cuStreamEndCapture") &&
      sym(d.cuGraphInstantiate, "cuGraphInstantiateWithFlags") &&
      sym(d.cuGraphLaunch, "cuGraphLaunch") && sym(d.cuGraphExecDestroy, "cuGraphExecDestroy") &&
      sym(d.cuGraphDestroy, "cuGraphDestroy") && sym(d.cuGetErrorString, "cuGetErrorString");
  if (!ok) return absl::UnavailableError("libcuda.so.1 lacks a required driver entry point");
  return d;
}

// cuBLAS, also opened at run time.
using cublasHandle = void*;
struct Cublas {
  int (*create)(cublasHandle*) = nullptr;
  int (*set_stream)(cublasHandle, CUstream) = nullptr;
  int (*sgemm_strided)(cublasHandle, int, int, int, int, int, const float*, const float*, int,
                       long long, const float*, int, long long, const float*, float*, int,
                       long long, int) = nullptr;
  int (*dgemm_strided)(cublasHandle, int, int, int, int, int, const double*, const double*, int,
                       long long, const double*, int, long long, const double*, double*, int,
                       long long, int) = nullptr;
  cublasHandle handle = nullptr;
};

absl::StatusOr<Cublas> OpenCublas(CUstream stream) {
  void* lib = nullptr;
  for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
    lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (lib != nullptr) break;
  }
  if (lib == nullptr) return absl::UnavailableError("cannot open libcublas");
  Cublas c;
  c.create = reinterpret_cast<decltype(c.create)>(::dlsym(lib, "cublasCreate_v2"));
  c.set_stream = reinterpret_cast<decltype(c.set_stream)>(::dlsym(lib, "cublasSetStream_v2"));
  c.sgemm_strided =
      reinterpret_cast<decltype(c.sgemm_strided)>(::dlsym(lib, "cublasSgemmStridedBatched"));
  c.dgemm_strided =
      reinterpret_cast<decltype(c.dgemm_strided)>(::dlsym(lib, "cublasDgemmStridedBatched"));
  if (!c.create || !c.set_stream || !c.sgemm_strided || !c.dgemm_strided) {
    return absl::UnavailableError("libcublas lacks a required entry point");
  }
  if (c.create(&c.handle) != 0 || c.set_stream(c.handle, stream) != 0) {
    return absl::UnavailableError("cublasCreate failed");
  }
  return c;
}

constexpr int kCublasOpN = 0;
constexpr int kCublasOpT = 1;

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
  CudaPlatform* platform_;
  std::vector<CUmodule> modules_;
  std::vector<std::unique_ptr<CudaKernelHandle>> handles_;
};

class CudaPlatform : public Platform {
 public:
  absl::Status Init(bool device_less) {
    if (device_less) {
      unavailable_reason_ = "device-less load requested (LoadOptions::device_less)";
      return absl::OkStatus();
    }
    auto driver = OpenDriver();
    if (!driver.ok()) {
      unavailable_reason_ = std::string(driver.status().message());
      return absl::OkStatus();
    }
    driver_ = *driver;
    if (CUresult r = driver_.cuInit(0); r != CUDA_SUCCESS) {
      unavailable_reason_ = absl::StrCat("cuInit failed: ", ErrorString(r));
      return absl::OkStatus();
    }
    int count = 0;
    if (driver_.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
      unavailable_reason_ = "no CUDA device";
      return absl::OkStatus();
    }
    if (CUresult r = driver_.cuDeviceGet(&device_, 0); r != CUDA_SUCCESS) {
      return Error("cuDeviceGet", r);
    }
    driver_.cuDeviceGetAttribute(&major_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_);
    driver_.cuDeviceGetAttribute(&minor_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_);
    driver_.cuDeviceGetAttribute(&max_threads_, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, device_);
    if (CUresult r = driver_.cuDevicePrimaryCtxRetain(&context_, device_); r != CUDA_SUCCESS) {
      return Error("cuDevicePrimaryCtxRetain", r);
    }
    AOT_RETURN_IF_ERROR(MakeCurrent());
    if (CUresult r = driver_.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING); r != CUDA_SUCCESS) {
      return Error("cuStreamCreate", r);
    }
    auto cublas = OpenCublas(stream_);
    if (cublas.ok())
      cublas_ = *cublas;
    else
      cublas_error_ = std::string(cublas.status().message());
    has_device_ = true;
    return absl::OkStatus();
  }

  absl::string_view name() const override { return "cuda"; }
  PlatformKind kind() const override { return PLATFORM_CUDA; }
  bool CanExecute() const override { return has_device_; }
  const std::string& unavailable_reason() const { return unavailable_reason_; }

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
  absl::Status CopyHostToDevice(const void* src, DeviceMemory dst, int64_t size) override {
    if (!has_device_) return Unavailable();
    AOT_RETURN_IF_ERROR(MakeCurrent());
    return Check("cuMemcpyHtoD", driver_.cuMemcpyHtoD(Ptr(dst), src, size));
  }
  absl::Status CopyDeviceToHost(DeviceMemory src, void* dst, int64_t size) override {
    if (!has_device_) return Unavailable();
    AOT_RETURN_IF_ERROR(MakeCurrent());
    AOT_RETURN_IF_ERROR(Check("cuStreamSynchronize", driver_.cuStreamSynchronize(stream_)));
    return Check("cuMemcpyDtoH", driver_.cuMemcpyDtoH(dst, Ptr(src), size));
  }
  absl::Status CopyDeviceToDevice(DeviceMemory src, DeviceMemory dst, int64_t size) override {
    if (!has_device_) return Unavailable();
    AOT_RETURN_IF_ERROR(MakeCurrent());
    AOT_RETURN_IF_ERROR(Check("cuStreamSynchronize", driver_.cuStreamSynchronize(stream_)));
    return Check("cuMemcpyDtoD", driver_.cuMemcpyDtoD(Ptr(dst), Ptr(src), size));
  }
  absl::Status Memset32(DeviceMemory dst, uint32_t pattern, int64_t size) override {
    if (!has_device_) return Unavailable();
    AOT_RETURN_IF_ERROR(MakeCurrent());
    if (pattern == 0) return Check("cuMemsetD8", driver_.cuMemsetD8(Ptr(dst), 0, size));
    return Check("cuMemsetD32", driver_.cuMemsetD32(Ptr(dst), pattern, size / 4));
  }

  absl::Status Launch(const KernelHandle& kernel, const LaunchDimensionsProto& d,
                      absl::Span<const DeviceMemory> args) override {
    if (!has_device_) return Unavailable();
    AOT_RETURN_IF_ERROR(MakeCurrent());
    return LaunchOnStream(kernel, d, args);
  }

  absl::Status LaunchCommandBuffer(absl::Span<const KernelLaunch> launches,
                                   absl::Span<const std::vector<DeviceMemory>> args) override {
    if (!has_device_) return Unavailable();
    absl::MutexLock lock(&graph_mu_);
    AOT_RETURN_IF_ERROR(MakeCurrent());
    // Record the launches into a CUDA graph and submit it as one unit.
    AOT_RETURN_IF_ERROR(
        Check("cuStreamBeginCapture",
              driver_.cuStreamBeginCapture(stream_, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)));
    absl::Status launch_status;
    for (size_t i = 0; i < launches.size() && launch_status.ok(); ++i) {
      launch_status = LaunchOnStream(*launches[i].kernel, launches[i].dims, args[i]);
    }
    CUgraph graph = nullptr;
    absl::Status end = Check("cuStreamEndCapture", driver_.cuStreamEndCapture(stream_, &graph));
    if (!launch_status.ok()) return launch_status;
    if (!end.ok()) return end;
    CUgraphExec exec = nullptr;
    absl::Status s = Check("cuGraphInstantiate", driver_.cuGraphInstantiate(&exec, graph, 0));
    if (s.ok()) s = Check("cuGraphLaunch", driver_.cuGraphLaunch(exec, stream_));
    if (exec != nullptr) driver_.cuGraphExecDestroy(exec);
    driver_.cuGraphDestroy(graph);
    return s;
  }

  absl::Status Gemm(const GemmParams& p, DeviceMemory lhs, DeviceMemory rhs,
                    DeviceMemory output) override {
    if (!has_device_) return Unavailable();
    if (cublas_.handle == nullptr) {
      return absl::UnavailableError(absl::StrCat("cuBLAS unavailable: ", cublas_error_));
    }
    AOT_RETURN_IF_ERROR(MakeCurrent());
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T.
    const int m = static_cast<int>(p.n), n = static_cast<int>(p.m), k = static_cast<int>(p.k);
    const int lda_b = static_cast<int>(p.transpose_rhs ? p.k : p.n);
    const int ldb_a = static_cast<int>(p.transpose_lhs ? p.m : p.k);
    const int opb = p.transpose_rhs ? kCublasOpT : kCublasOpN;
    const int opa = p.transpose_lhs ? kCublasOpT : kCublasOpN;
    int rc;
    if (p.element_type == F32) {
      float alpha = static_cast<float>(p.alpha), beta = static_cast<float>(p.beta);
      rc = cublas_.sgemm_strided(cublas_.handle, opb, opa, m, n, k, &alpha,
                                 static_cast<const float*>(rhs.ptr), lda_b, p.rhs_batch_stride,
                                 static_cast<const float*>(lhs.ptr), ldb_a, p.lhs_batch_stride,
                                 &beta, static_cast<float*>(output.ptr), m, p.output_batch_stride,
                                 static_cast<int>(p.batch_size));
    } else if (p.element_type == F64) {
      rc = cublas_.dgemm_strided(cublas_.handle, opb, opa, m, n, k, &p.alpha,
                                 static_cast<const double*>(rhs.ptr), lda_b, p.rhs_batch_stride,
                                 static_cast<const double*>(lhs.ptr), ldb_a, p.lhs_batch_stride,
                                 &p.beta, static_cast<double*>(output.ptr), m,
                                 p.output_batch_stride, static_cast<int>(p.batch_size));
    } else {
      return absl::InvalidArgumentError("cuBLAS GEMM supports f32 and f64");
    }
    if (rc != 0) return absl::InternalError(absl::StrCat("cuBLAS GEMM failed with status ", rc));
    return absl::OkStatus();
  }

  absl::Status Synchronize() override {
    if (!has_device_) return Unavailable();
    return Check("cuStreamSynchronize", driver_.cuStreamSynchronize(stream_));
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
  int major() const { return major_; }
  int minor() const { return minor_; }

 private:
  absl::Status LaunchOnStream(const KernelHandle& kernel, const LaunchDimensionsProto& d,
                              absl::Span<const DeviceMemory> args) {
    const auto& k = static_cast<const CudaKernelHandle&>(kernel);
    std::vector<CUdeviceptr> pointers(args.size());
    std::vector<void*> params(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      pointers[i] = Ptr(args[i]);
      params[i] = &pointers[i];
    }
    return Check(
        "cuLaunchKernel",
        driver_.cuLaunchKernel(k.fn(), d.block_count_x(), d.block_count_y(), d.block_count_z(),
                               d.threads_per_block_x(), d.threads_per_block_y(),
                               d.threads_per_block_z(), 0, stream_, params.data(), nullptr));
  }
  absl::Status MakeCurrent() { return Check("cuCtxSetCurrent", driver_.cuCtxSetCurrent(context_)); }
  static CUdeviceptr Ptr(DeviceMemory m) { return reinterpret_cast<CUdeviceptr>(m.ptr); }
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

  Driver driver_;
  bool has_device_ = false;
  std::string unavailable_reason_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  int major_ = 0, minor_ = 0, max_threads_ = 1024;
  Cublas cublas_;
  std::string cublas_error_;
  absl::Mutex graph_mu_;
};

CudaKernelLoader::~CudaKernelLoader() {
  for (CUmodule m : modules_) platform_->UnloadModule(m);
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
  }
  handles_.push_back(std::make_unique<CudaKernelHandle>(std::string(kernel_name), fn, *arity));
  return handles_.back().get();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Platform>> CreateCudaPlatform(bool device_less) {
  auto platform = std::make_unique<CudaPlatform>();
  AOT_RETURN_IF_ERROR(platform->Init(device_less));
  return std::unique_ptr<Platform>(std::move(platform));
}

}  // namespace aot
