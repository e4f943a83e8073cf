#include "runtime/platform/cuda/testing/recording_cuda_driver.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "absl/strings/str_cat.h"

namespace aot::testing {
namespace {

// Process-wide state behind the plain function pointers.
struct State {
  std::mutex mu;
  std::vector<RecordedCall> calls;
  std::map<CUstream, int> stream_flags;
  std::map<CublasHandle, CUstream> cublas_streams;
  uintptr_t next_handle = 0x1000;
  absl::Duration launch_delay;
};

State& S() {
  static State* state = new State();
  return *state;
}

void Record(const char* function, CUstream stream = nullptr, bool takes_stream = false,
            std::string detail = "") {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.calls.push_back(
      RecordedCall{function, stream, takes_stream, std::this_thread::get_id(), std::move(detail)});
}

// A fresh opaque handle (never dereferenced by the platform).
template <typename T>
T NewHandle() {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.next_handle += 0x10;
  return reinterpret_cast<T>(s.next_handle);
}

void LaunchDelay() {
  absl::Duration delay;
  {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    delay = s.launch_delay;
  }
  if (delay > absl::ZeroDuration()) absl::SleepFor(delay);
}

void* ZeroedAllocation(size_t size) {
  size_t rounded = (std::max<size_t>(size, 1) + 255) / 256 * 256;
  void* p = std::aligned_alloc(256, rounded);
  if (p != nullptr) std::memset(p, 0, rounded);
  return p;
}

CUresult FakeInit(unsigned int) {
  Record("cuInit");
  return CUDA_SUCCESS;
}
CUresult FakeDriverGetVersion(int* version) {
  Record("cuDriverGetVersion");
  *version = CUDA_VERSION;
  return CUDA_SUCCESS;
}
CUresult FakeDeviceGetCount(int* count) {
  Record("cuDeviceGetCount");
  *count = 1;
  return CUDA_SUCCESS;
}
CUresult FakeDeviceGet(CUdevice* device, int ordinal) {
  Record("cuDeviceGet");
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult FakeDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice) {
  Record("cuDeviceGetAttribute");
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
      *value = 9;
      break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
      *value = 0;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *value = 1024;
      break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
      *value = 132;
      break;
    default:
      *value = 0;
      break;
  }
  return CUDA_SUCCESS;
}
CUresult FakeDevicePrimaryCtxRetain(CUcontext* context, CUdevice) {
  Record("cuDevicePrimaryCtxRetain");
  *context = NewHandle<CUcontext>();
  return CUDA_SUCCESS;
}
CUresult FakeCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }  // too frequent to record
CUresult FakeModuleLoadData(CUmodule* module, const void*) {
  Record("cuModuleLoadData");
  *module = NewHandle<CUmodule>();
  return CUDA_SUCCESS;
}
CUresult FakeModuleGetFunction(CUfunction* function, CUmodule, const char*) {
  Record("cuModuleGetFunction");
  *function = NewHandle<CUfunction>();
  return CUDA_SUCCESS;
}
// Every module defines the u64 global the runtime binds the random state
// to (fresh and zeroed for each lookup, kept for BoundGlobals); no other.
std::mutex globals_mu;
std::vector<uint64_t*>* bound_globals = new std::vector<uint64_t*>();
CUresult FakeModuleGetGlobal(CUdeviceptr* ptr, size_t* bytes, CUmodule, const char* name) {
  Record("cuModuleGetGlobal");
  if (std::string(name) != "aot_rng_state_ptr") return CUDA_ERROR_NOT_FOUND;
  auto* global = static_cast<uint64_t*>(ZeroedAllocation(sizeof(uint64_t)));
  if (global == nullptr) return CUDA_ERROR_OUT_OF_MEMORY;
  {
    std::lock_guard<std::mutex> lock(globals_mu);
    bound_globals->push_back(global);
  }
  *ptr = reinterpret_cast<CUdeviceptr>(global);
  *bytes = sizeof(uint64_t);
  return CUDA_SUCCESS;
}
CUresult FakeModuleUnload(CUmodule) {
  Record("cuModuleUnload");
  return CUDA_SUCCESS;
}
CUresult FakeMemAlloc(CUdeviceptr* ptr, size_t size) {
  Record("cuMemAlloc");
  void* p = ZeroedAllocation(size);
  if (p == nullptr) return CUDA_ERROR_OUT_OF_MEMORY;
  *ptr = reinterpret_cast<CUdeviceptr>(p);
  return CUDA_SUCCESS;
}
CUresult FakeMemFree(CUdeviceptr ptr) {
  Record("cuMemFree");
  std::free(reinterpret_cast<void*>(ptr));
  return CUDA_SUCCESS;
}
CUresult FakeMemAllocHost(void** ptr, size_t size) {
  Record("cuMemAllocHost");
  *ptr = ZeroedAllocation(size);
  return *ptr == nullptr ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}
CUresult FakeMemFreeHost(void* ptr) {
  Record("cuMemFreeHost");
  std::free(ptr);
  return CUDA_SUCCESS;
}
CUresult FakeMemcpyHtoDAsync(CUdeviceptr dst, const void* src, size_t size, CUstream stream) {
  Record("cuMemcpyHtoDAsync", stream, true);
  std::memcpy(reinterpret_cast<void*>(dst), src, size);
  return CUDA_SUCCESS;
}
CUresult FakeMemcpyDtoHAsync(void* dst, CUdeviceptr src, size_t size, CUstream stream) {
  Record("cuMemcpyDtoHAsync", stream, true);
  std::memcpy(dst, reinterpret_cast<const void*>(src), size);
  return CUDA_SUCCESS;
}
CUresult FakeMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t size, CUstream stream) {
  Record("cuMemcpyDtoDAsync", stream, true);
  std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), size);
  return CUDA_SUCCESS;
}
CUresult FakeMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream) {
  Record("cuMemsetD8Async", stream, true);
  std::memset(reinterpret_cast<void*>(dst), value, count);
  return CUDA_SUCCESS;
}
CUresult FakeMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t count, CUstream stream) {
  Record("cuMemsetD32Async", stream, true);
  auto* p = reinterpret_cast<uint32_t*>(dst);
  for (size_t i = 0; i < count; ++i) p[i] = value;
  return CUDA_SUCCESS;
}
CUresult FakeLaunchKernel(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,
                          unsigned int, unsigned int, unsigned int, CUstream stream, void**,
                          void**) {
  Record("cuLaunchKernel", stream, true);
  LaunchDelay();
  return CUDA_SUCCESS;
}
CUresult FakeStreamCreate(CUstream* stream, unsigned int flags) {
  Record("cuStreamCreate");
  *stream = NewHandle<CUstream>();
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.stream_flags[*stream] = static_cast<int>(flags);
  return CUDA_SUCCESS;
}
CUresult FakeStreamDestroy(CUstream stream) {
  Record("cuStreamDestroy", stream, true);
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.stream_flags.erase(stream);
  return CUDA_SUCCESS;
}
CUresult FakeStreamSynchronize(CUstream stream) {
  Record("cuStreamSynchronize", stream, true);
  return CUDA_SUCCESS;
}
CUresult FakeGraphCreate(CUgraph* graph, unsigned int) {
  Record("cuGraphCreate");
  *graph = NewHandle<CUgraph>();
  return CUDA_SUCCESS;
}
CUresult FakeGraphAddKernelNode(CUgraphNode* node, CUgraph, const CUgraphNode*, size_t,
                                const CUDA_KERNEL_NODE_PARAMS* params) {
  Record("cuGraphAddKernelNode");
  if (params == nullptr || params->func == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *node = NewHandle<CUgraphNode>();
  return CUDA_SUCCESS;
}
CUresult FakeGraphInstantiate(CUgraphExec* exec, CUgraph, unsigned long long) {
  Record("cuGraphInstantiate");
  *exec = NewHandle<CUgraphExec>();
  return CUDA_SUCCESS;
}
CUresult FakeGraphExecKernelNodeSetParams(CUgraphExec, CUgraphNode,
                                          const CUDA_KERNEL_NODE_PARAMS* params) {
  Record("cuGraphExecKernelNodeSetParams");
  return params == nullptr ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
CUresult FakeGraphLaunch(CUgraphExec, CUstream stream) {
  Record("cuGraphLaunch", stream, true);
  LaunchDelay();
  return CUDA_SUCCESS;
}
CUresult FakeGraphExecDestroy(CUgraphExec) {
  Record("cuGraphExecDestroy");
  return CUDA_SUCCESS;
}
CUresult FakeGraphDestroy(CUgraph) {
  Record("cuGraphDestroy");
  return CUDA_SUCCESS;
}
CUresult FakeGetErrorString(CUresult, const char** text) {
  *text = "fake driver error";
  return CUDA_SUCCESS;
}

// Library handles (cuBLAS, cuDNN: both opaque void*) bound to a stream;
// kName is the function recorded.
constexpr char kCublasCreate[] = "cublasCreate";
constexpr char kCublasDestroy[] = "cublasDestroy";
constexpr char kCublasSetStream[] = "cublasSetStream";
constexpr char kCudnnCreate[] = "cudnnCreate";
constexpr char kCudnnDestroy[] = "cudnnDestroy";
constexpr char kCudnnSetStream[] = "cudnnSetStream";
template <const char* kName>
int FakeCreateHandle(void** handle) {
  Record(kName);
  *handle = NewHandle<void*>();
  return 0;
}
template <const char* kName>
int FakeDestroyHandle(void* handle) {
  Record(kName);
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.cublas_streams.erase(handle);
  return 0;
}
template <const char* kName>
int FakeSetHandleStream(void* handle, CUstream stream) {
  Record(kName, stream, true);
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.cublas_streams[handle] = stream;
  return 0;
}
CUstream CublasStream(CublasHandle handle) {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.cublas_streams.find(handle);
  return it == s.cublas_streams.end() ? nullptr : it->second;
}
int FakeSgemm(CublasHandle handle, int, int, int, int, int, const float*, const float*, int,
              long long, const float*, int, long long, const float*, float*, int, long long, int) {
  Record("cublasSgemmStridedBatched", CublasStream(handle), true);
  return 0;
}
int FakeDgemm(CublasHandle handle, int, int, int, int, int, const double*, const double*, int,
              long long, const double*, int, long long, const double*, double*, int, long long,
              int) {
  Record("cublasDgemmStridedBatched", CublasStream(handle), true);
  return 0;
}
int FakeGemmEx(CublasHandle handle, int, int, int, int, int, const void*, const void*, int a_type,
               int, long long, const void*, int b_type, int, long long, const void*, void*,
               int c_type, int, long long, int, int compute, int) {
  Record("cublasGemmStridedBatchedEx", CublasStream(handle), true,
         absl::StrCat("a=", a_type, " b=", b_type, " c=", c_type, " compute=", compute));
  return 0;
}

// cuDNN descriptors are bookkeeping only.
int FakeCudnnCreateDescriptor(CudnnDescriptor* d) {
  *d = NewHandle<CudnnDescriptor>();
  return 0;
}
int FakeCudnnDestroyDescriptor(CudnnDescriptor) { return 0; }
std::string Join(const int* v, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) absl::StrAppend(&out, i > 0 ? "," : "", v[i]);
  return out;
}
int FakeCudnnSetTensor(CudnnDescriptor, int type, int rank, const int* dims, const int* strides) {
  Record("cudnnSetTensorNdDescriptor", nullptr, false,
         absl::StrCat("type=", type, " dims=", Join(dims, rank), " strides=", Join(strides, rank)));
  return 0;
}
int FakeCudnnSetFilter(CudnnDescriptor, int type, int format, int rank, const int* dims) {
  Record("cudnnSetFilterNdDescriptor", nullptr, false,
         absl::StrCat("type=", type, " format=", format, " dims=", Join(dims, rank)));
  return 0;
}
int FakeCudnnSetConvolution(CudnnDescriptor, int n, const int* pad, const int* stride,
                            const int* dilation, int mode, int compute) {
  Record("cudnnSetConvolutionNdDescriptor", nullptr, false,
         absl::StrCat("pad=", Join(pad, n), " stride=", Join(stride, n),
                      " dilation=", Join(dilation, n), " mode=", mode, " compute=", compute));
  return 0;
}
int FakeCudnnSetGroupCount(CudnnDescriptor, int groups) {
  Record("cudnnSetConvolutionGroupCount", nullptr, false, absl::StrCat("groups=", groups));
  return 0;
}
int FakeCudnnSetMathType(CudnnDescriptor, int math) {
  Record("cudnnSetConvolutionMathType", nullptr, false, absl::StrCat("math=", math));
  return 0;
}
// One algorithm (number 1) needing 1 KiB of workspace.
int FakeCudnnGetAlgorithm(CudnnHandle, CudnnDescriptor, CudnnDescriptor, CudnnDescriptor,
                          CudnnDescriptor, int requested, int* returned,
                          CudnnConvolutionFwdAlgoPerf* perf) {
  Record("cudnnGetConvolutionForwardAlgorithm_v7");
  *returned = requested > 0 ? 1 : 0;
  if (requested > 0) {
    perf[0] = CudnnConvolutionFwdAlgoPerf{};
    perf[0].algo = 1;
    perf[0].memory = 1024;
  }
  return 0;
}
int FakeCudnnForward(CudnnHandle handle, const void*, CudnnDescriptor, const void*, CudnnDescriptor,
                     const void*, CudnnDescriptor, int algo, void* workspace,
                     size_t workspace_bytes, const void*, CudnnDescriptor, void*) {
  Record("cudnnConvolutionForward", CublasStream(handle), true,
         absl::StrCat("algo=", algo, " workspace=", workspace != nullptr ? "set" : "null",
                      " bytes=", workspace_bytes));
  return 0;
}

}  // namespace

RecordingCudaDriver& RecordingCudaDriver::Get() {
  static RecordingCudaDriver* driver = new RecordingCudaDriver();
  return *driver;
}

std::vector<uint64_t> RecordingCudaDriver::BoundGlobals() const {
  std::lock_guard<std::mutex> lock(globals_mu);
  std::vector<uint64_t> values;
  for (const uint64_t* g : *bound_globals) values.push_back(*g);
  return values;
}

CudaDriverApi RecordingCudaDriver::DriverApi() const {
  CudaDriverApi api;
  api.cuInit = &FakeInit;
  api.cuDriverGetVersion = &FakeDriverGetVersion;
  api.cuDeviceGetCount = &FakeDeviceGetCount;
  api.cuDeviceGet = &FakeDeviceGet;
  api.cuDeviceGetAttribute = &FakeDeviceGetAttribute;
  api.cuDevicePrimaryCtxRetain = &FakeDevicePrimaryCtxRetain;
  api.cuCtxSetCurrent = &FakeCtxSetCurrent;
  api.cuModuleLoadData = &FakeModuleLoadData;
  api.cuModuleGetFunction = &FakeModuleGetFunction;
  api.cuModuleGetGlobal = &FakeModuleGetGlobal;
  api.cuModuleUnload = &FakeModuleUnload;
  api.cuMemAlloc = &FakeMemAlloc;
  api.cuMemFree = &FakeMemFree;
  api.cuMemAllocHost = &FakeMemAllocHost;
  api.cuMemFreeHost = &FakeMemFreeHost;
  api.cuMemcpyHtoDAsync = &FakeMemcpyHtoDAsync;
  api.cuMemcpyDtoHAsync = &FakeMemcpyDtoHAsync;
  api.cuMemcpyDtoDAsync = &FakeMemcpyDtoDAsync;
  api.cuMemsetD8Async = &FakeMemsetD8Async;
  api.cuMemsetD32Async = &FakeMemsetD32Async;
  api.cuLaunchKernel = &FakeLaunchKernel;
  api.cuStreamCreate = &FakeStreamCreate;
  api.cuStreamDestroy = &FakeStreamDestroy;
  api.cuStreamSynchronize = &FakeStreamSynchronize;
  api.cuGraphCreate = &FakeGraphCreate;
  api.cuGraphAddKernelNode = &FakeGraphAddKernelNode;
  api.cuGraphInstantiate = &FakeGraphInstantiate;
  api.cuGraphExecKernelNodeSetParams = &FakeGraphExecKernelNodeSetParams;
  api.cuGraphLaunch = &FakeGraphLaunch;
  api.cuGraphExecDestroy = &FakeGraphExecDestroy;
  api.cuGraphDestroy = &FakeGraphDestroy;
  api.cuGetErrorString = &FakeGetErrorString;
  return api;
}

aot::CublasApi RecordingCudaDriver::Cublas() const {
  aot::CublasApi api;
  api.create = &FakeCreateHandle<kCublasCreate>;
  api.destroy = &FakeDestroyHandle<kCublasDestroy>;
  api.set_stream = &FakeSetHandleStream<kCublasSetStream>;
  api.sgemm_strided_batched = &FakeSgemm;
  api.dgemm_strided_batched = &FakeDgemm;
  api.gemm_strided_batched_ex = &FakeGemmEx;
  return api;
}

aot::CudnnApi RecordingCudaDriver::Cudnn() const {
  aot::CudnnApi api;
  api.create = &FakeCreateHandle<kCudnnCreate>;
  api.destroy = &FakeDestroyHandle<kCudnnDestroy>;
  api.set_stream = &FakeSetHandleStream<kCudnnSetStream>;
  api.create_tensor_descriptor = &FakeCudnnCreateDescriptor;
  api.set_tensor_nd_descriptor = &FakeCudnnSetTensor;
  api.destroy_tensor_descriptor = &FakeCudnnDestroyDescriptor;
  api.create_filter_descriptor = &FakeCudnnCreateDescriptor;
  api.set_filter_nd_descriptor = &FakeCudnnSetFilter;
  api.destroy_filter_descriptor = &FakeCudnnDestroyDescriptor;
  api.create_convolution_descriptor = &FakeCudnnCreateDescriptor;
  api.set_convolution_nd_descriptor = &FakeCudnnSetConvolution;
  api.set_convolution_group_count = &FakeCudnnSetGroupCount;
  api.set_convolution_math_type = &FakeCudnnSetMathType;
  api.destroy_convolution_descriptor = &FakeCudnnDestroyDescriptor;
  api.get_convolution_forward_algorithm_v7 = &FakeCudnnGetAlgorithm;
  api.convolution_forward = &FakeCudnnForward;
  return api;
}

void RecordingCudaDriver::ClearCalls() {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.calls.clear();
}

std::vector<RecordedCall> RecordingCudaDriver::Calls() const {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.calls;
}

int64_t RecordingCudaDriver::Count(absl::string_view function) const {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  int64_t n = 0;
  for (const RecordedCall& c : s.calls) n += c.function == function;
  return n;
}

int RecordingCudaDriver::StreamFlags(CUstream stream) const {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.stream_flags.find(stream);
  return it == s.stream_flags.end() ? -1 : it->second;
}

void RecordingCudaDriver::set_launch_delay(absl::Duration delay) {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.launch_delay = delay;
}

}  // namespace aot::testing
