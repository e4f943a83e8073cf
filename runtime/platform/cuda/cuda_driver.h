#ifndef AOT_RUNTIME_PLATFORM_CUDA_CUDA_DRIVER_H_
#define AOT_RUNTIME_PLATFORM_CUDA_CUDA_DRIVER_H_

#include <cuda.h>

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/platform/platform.h"

namespace aot {

// Every driver API entry point the CUDA platform calls, as a table of
// function pointers. Production fills it from libcuda.so.1 with dlopen
// (OpenCudaDriver), so binaries start on machines without a GPU; tests fill
// it with the recording double in runtime/platform/cuda/testing, which is
// how the platform's ordering and concurrency rules are checked without a
// device. The table holds only stream-ordered memory operations: the
// legacy synchronous copies and memsets are not in it, so the platform
// cannot call them.
//
// X(member, exported symbol). cuda.h maps several names to versioned
// symbols (cuMemAlloc -> cuMemAlloc_v2), and the member name follows the
// same mapping, so `&::member` has the symbol's type.
#define AOT_CUDA_DRIVER_FUNCTIONS(X)                                     \
  X(cuInit, "cuInit")                                                    \
  X(cuDriverGetVersion, "cuDriverGetVersion")                            \
  X(cuDeviceGetCount, "cuDeviceGetCount")                                \
  X(cuDeviceGet, "cuDeviceGet")                                          \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute")                        \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")                \
  X(cuCtxSetCurrent, "cuCtxSetCurrent")                                  \
  X(cuModuleLoadData, "cuModuleLoadData")                                \
  X(cuModuleGetFunction, "cuModuleGetFunction")                          \
  X(cuModuleGetGlobal, "cuModuleGetGlobal_v2")                           \
  X(cuModuleUnload, "cuModuleUnload")                                    \
  X(cuMemAlloc, "cuMemAlloc_v2")                                         \
  X(cuMemFree, "cuMemFree_v2")                                           \
  X(cuMemAllocHost, "cuMemAllocHost_v2")                                 \
  X(cuMemFreeHost, "cuMemFreeHost")                                      \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2")                           \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2")                           \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2")                           \
  X(cuMemsetD8Async, "cuMemsetD8Async")                                  \
  X(cuMemsetD32Async, "cuMemsetD32Async")                                \
  X(cuLaunchKernel, "cuLaunchKernel")                                    \
  X(cuStreamCreate, "cuStreamCreate")                                    \
  X(cuStreamDestroy, "cuStreamDestroy_v2")                               \
  X(cuStreamSynchronize, "cuStreamSynchronize")                          \
  X(cuGraphCreate, "cuGraphCreate")                                      \
  X(cuGraphAddKernelNode, "cuGraphAddKernelNode_v2")                     \
  X(cuGraphInstantiate, "cuGraphInstantiateWithFlags")                   \
  X(cuGraphExecKernelNodeSetParams, "cuGraphExecKernelNodeSetParams_v2") \
  X(cuGraphLaunch, "cuGraphLaunch")                                      \
  X(cuGraphExecDestroy, "cuGraphExecDestroy")                            \
  X(cuGraphDestroy, "cuGraphDestroy")                                    \
  X(cuGetErrorString, "cuGetErrorString")

struct CudaDriverApi {
#define AOT_CUDA_DRIVER_MEMBER(member, symbol) decltype(&::member) member = nullptr;
  AOT_CUDA_DRIVER_FUNCTIONS(AOT_CUDA_DRIVER_MEMBER)
#undef AOT_CUDA_DRIVER_MEMBER
};

// libcuda.so.1's table; Unavailable (naming the library or the missing
// entry point) on a machine without the driver.
absl::StatusOr<CudaDriverApi> OpenCudaDriver();

// The cuBLAS entry points the platform calls (cuBLAS's header is not
// needed: the few types it uses are spelled here). Opened with dlopen like
// the driver; the recording double provides one too.
using CublasHandle = void*;
struct CublasApi {
  int (*create)(CublasHandle*) = nullptr;
  int (*destroy)(CublasHandle) = nullptr;
  int (*set_stream)(CublasHandle, CUstream) = nullptr;
  int (*sgemm_strided_batched)(CublasHandle, int, int, int, int, int, const float*, const float*,
                               int, long long, const float*, int, long long, const float*, float*,
                               int, long long, int) = nullptr;
  int (*dgemm_strided_batched)(CublasHandle, int, int, int, int, int, const double*, const double*,
                               int, long long, const double*, int, long long, const double*,
                               double*, int, long long, int) = nullptr;
  // cublasGemmStridedBatchedEx: f16 / bf16 operands with f32 compute
  // (tensor cores where the algorithm chooses them).
  int (*gemm_strided_batched_ex)(CublasHandle, int, int, int, int, int, const void*, const void*,
                                 int, int, long long, const void*, int, int, long long, const void*,
                                 void*, int, int, long long, int, int, int) = nullptr;
};
// cuBLAS's enumerators the platform passes (library_types.h, cublas_api.h).
inline constexpr int kCudaR16F = 2;
inline constexpr int kCudaR16BF = 14;
inline constexpr int kCublasCompute32F = 68;
inline constexpr int kCublasGemmDefault = -1;

// libcublas's table; Unavailable when no libcublas can be opened.
absl::StatusOr<CublasApi> OpenCublas();

// The cuDNN entry points of convolution thunks (the legacy convolution API
// of cuDNN 8 and 9; its header is not needed: the enumerators it uses are
// spelled below). Opened with dlopen like the driver.
using CudnnHandle = void*;
using CudnnDescriptor = void*;
// cudnnConvolutionFwdAlgoPerf_t.
struct CudnnConvolutionFwdAlgoPerf {
  int algo = 0;
  int status = 0;
  float time = 0;
  size_t memory = 0;
  int determinism = 0;
  int math_type = 0;
  int reserved[3] = {0, 0, 0};
};
struct CudnnApi {
  int (*create)(CudnnHandle*) = nullptr;
  int (*destroy)(CudnnHandle) = nullptr;
  int (*set_stream)(CudnnHandle, CUstream) = nullptr;
  int (*create_tensor_descriptor)(CudnnDescriptor*) = nullptr;
  int (*set_tensor_nd_descriptor)(CudnnDescriptor, int, int, const int*, const int*) = nullptr;
  int (*destroy_tensor_descriptor)(CudnnDescriptor) = nullptr;
  int (*create_filter_descriptor)(CudnnDescriptor*) = nullptr;
  int (*set_filter_nd_descriptor)(CudnnDescriptor, int, int, int, const int*) = nullptr;
  int (*destroy_filter_descriptor)(CudnnDescriptor) = nullptr;
  int (*create_convolution_descriptor)(CudnnDescriptor*) = nullptr;
  int (*set_convolution_nd_descriptor)(CudnnDescriptor, int, const int*, const int*, const int*,
                                       int, int) = nullptr;
  int (*set_convolution_group_count)(CudnnDescriptor, int) = nullptr;
  int (*set_convolution_math_type)(CudnnDescriptor, int) = nullptr;
  int (*destroy_convolution_descriptor)(CudnnDescriptor) = nullptr;
  int (*get_convolution_forward_algorithm_v7)(CudnnHandle, CudnnDescriptor, CudnnDescriptor,
                                              CudnnDescriptor, CudnnDescriptor, int, int*,
                                              CudnnConvolutionFwdAlgoPerf*) = nullptr;
  int (*convolution_forward)(CudnnHandle, const void*, CudnnDescriptor, const void*,
                             CudnnDescriptor, const void*, CudnnDescriptor, int, void*, size_t,
                             const void*, CudnnDescriptor, void*) = nullptr;
};
// cuDNN's enumerators the platform passes (cudnn_graph.h).
inline constexpr int kCudnnDataFloat = 0;
inline constexpr int kCudnnDataDouble = 1;
inline constexpr int kCudnnDataHalf = 2;
inline constexpr int kCudnnDataBfloat16 = 9;
inline constexpr int kCudnnTensorNchw = 0;
inline constexpr int kCudnnTensorNhwc = 1;
inline constexpr int kCudnnCrossCorrelation = 1;
inline constexpr int kCudnnTensorOpMath = 1;
// FMA only: CUDNN_DEFAULT_MATH lets cuDNN use TF32 tensor cores for f32 on
// Ampere and newer (seen on an H200: 3e-4 relative error in a 144-term
// sum, against an f32 reference).
inline constexpr int kCudnnFmaMath = 3;

// libcudnn's table; Unavailable when no libcudnn can be opened.
absl::StatusOr<CudnnApi> OpenCudnn();

// The platform over the given driver, cuBLAS and cuDNN tables
// (CreateCudaPlatform opens the real ones; tests pass the recording
// double's). A cuBLAS or cuDNN error makes GEMMs or convolutions fail with
// it, nothing else. `device_ordinal` as CreateCudaPlatform's.
absl::StatusOr<std::unique_ptr<Platform>> CreateCudaPlatformWithApis(
    const CudaDriverApi& driver, absl::StatusOr<CublasApi> cublas,
    absl::StatusOr<CudnnApi> cudnn = absl::UnavailableError("no cuDNN table given"),
    int device_ordinal = 0);

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_CUDA_CUDA_DRIVER_H_
