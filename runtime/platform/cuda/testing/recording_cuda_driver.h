#ifndef AOT_RUNTIME_PLATFORM_CUDA_TESTING_RECORDING_CUDA_DRIVER_H_
#define AOT_RUNTIME_PLATFORM_CUDA_TESTING_RECORDING_CUDA_DRIVER_H_

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "runtime/platform/cuda/cuda_driver.h"

namespace aot::testing {

// One call the platform made into the driver (or cuBLAS).
struct RecordedCall {
  std::string function;  // the table member's name, e.g. "cuMemcpyHtoDAsync"
  // The stream the call was queued on; null both for the legacy default
  // stream and for calls that take none (see takes_stream).
  CUstream stream = nullptr;
  bool takes_stream = false;
  std::thread::id thread;
  // Arguments that tests check, where recorded ("a=14 b=14 c=14
  // compute=68" for cublasGemmStridedBatchedEx); empty otherwise.
  std::string detail;
};

// A test double of the CUDA driver API and cuBLAS: the function tables the
// platform otherwise opens with dlopen, filled with functions that record
// every call (function, stream, thread) and behave like one device of
// compute capability 9.0 whose memory is host memory (so copies and
// memsets really move bytes; allocations start zeroed). Kernels and GEMMs
// do not run; graphs are bookkeeping. The tables hold plain function
// pointers, so the double is one object per process (Get()).
class RecordingCudaDriver {
 public:
  static RecordingCudaDriver& Get();

  CudaDriverApi DriverApi() const;
  aot::CublasApi Cublas() const;
  // cuDNN's table: calls recorded with their arguments (descriptors,
  // algorithm, workspace); convolutions do not run. One algorithm is
  // offered, needing 1 KiB of workspace.
  aot::CudnnApi Cudnn() const;

  // Forgets the recorded calls (live handles and memory stay valid).
  void ClearCalls();
  std::vector<RecordedCall> Calls() const;
  int64_t Count(absl::string_view function) const;
  // The flags cuStreamCreate was given for `stream`; -1 if it never
  // created it (or it was destroyed).
  int StreamFlags(CUstream stream) const;
  // The values of the aot_rng_state_ptr globals cuModuleGetGlobal handed
  // out (every module defines one), in the order it did.
  std::vector<uint64_t> BoundGlobals() const;
  // Every kernel launch (cuLaunchKernel, cuGraphLaunch) sleeps this long,
  // widening the windows in which concurrent executions could interleave.
  void set_launch_delay(absl::Duration delay);
};

}  // namespace aot::testing

#endif  // AOT_RUNTIME_PLATFORM_CUDA_TESTING_RECORDING_CUDA_DRIVER_H_
