// The CUDA platform's ordering, concurrency and graph-reuse rules, checked
// against the recording driver double (runtime/platform/cuda/testing), so
// they hold on machines without a GPU:
//  - every operation of an execution is queued on that execution's own
//    non-blocking stream with a stream-ordered call (no legacy-stream copy,
//    memset or launch), and the execution returns (its buffers free for
//    reuse) only once that stream drained;
//  - executions on different threads never share a stream;
//  - a command buffer's graph is instantiated once per executable and
//    updated in place (only the nodes whose arguments changed).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "runtime/executable/executable.h"
#include "runtime/ffi/ffi_registry.h"
#include "runtime/platform/collectives.h"
#include "runtime/platform/cuda/cuda_driver.h"
#include "runtime/platform/cuda/nccl_api.h"
#include "runtime/platform/cuda/testing/recording_cuda_driver.h"
#include "runtime/testing/executable_builder.h"
#include "runtime/testing/golden_files.h"
#include "runtime/thunks/convolution_thunk.h"
#include "support/file_io.h"

namespace aot {
namespace {

using ::aot::testing::Builder;
using ::aot::testing::RecordedCall;
using ::aot::testing::RecordingCudaDriver;
using ::aot::testing::Shape;

constexpr char kGoldens[] = "golden/executables/cuda-sm_90/v2";

std::shared_ptr<Platform> FakeDevicePlatform() {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto platform = CreateCudaPlatformWithApis(driver.DriverApi(), driver.Cublas(), driver.Cudnn());
  EXPECT_TRUE(platform.ok()) << platform.status();
  return std::shared_ptr<Platform>(std::move(*platform));
}

std::unique_ptr<Executable> LoadGolden(std::shared_ptr<Platform> platform,
                                       const std::string& name) {
  const std::string path = absl::StrCat(kGoldens, "/", name);
  auto proto = testing::ReadGoldenExecutable(kGoldens, name);
  EXPECT_TRUE(proto.ok()) << path << ": " << proto.status();
  if (!proto.ok()) return nullptr;
  auto executable =
      Executable::Load(*std::move(proto), std::move(platform), &FfiRegistry::Global(), {});
  EXPECT_TRUE(executable.ok()) << path << ": " << executable.status();
  return executable.ok() ? *std::move(executable) : nullptr;
}

// Arguments of the right sizes (the double runs no kernels, so their
// values do not matter).
std::vector<std::vector<uint8_t>> Arguments(const Executable& executable) {
  std::vector<std::vector<uint8_t>> args;
  for (const EntryParameterProto& p : executable.parameters()) {
    args.emplace_back(static_cast<size_t>(p.slice().size()), uint8_t{1});
  }
  return args;
}

absl::Status RunOnce(const Executable& executable) {
  std::vector<std::vector<uint8_t>> args = Arguments(executable);
  std::vector<absl::Span<const uint8_t>> spans(args.begin(), args.end());
  return executable.Execute(spans).status();
}

// The driver calls of one execution of golden `name` (loaded first).
std::vector<RecordedCall> CallsOfOneExecution(std::shared_ptr<Platform> platform,
                                              const std::string& name) {
  auto executable = LoadGolden(std::move(platform), name);
  if (executable == nullptr) {
    ADD_FAILURE() << name << " did not load";
    return {};
  }
  RecordingCudaDriver::Get().ClearCalls();
  EXPECT_TRUE(RunOnce(*executable).ok());
  return RecordingCudaDriver::Get().Calls();
}

bool IsLaunch(const RecordedCall& c) {
  return c.function == "cuLaunchKernel" || c.function == "cuGraphLaunch" ||
         c.function == "cublasSgemmStridedBatched" || c.function == "cublasDgemmStridedBatched";
}

// The goldens that together reach every thunk kind the CUDA platform runs:
// kernels grouped into command buffers, GEMMs between kernels, a while
// loop (predicate reads), a tuple copy, a conditional.
const char* const kModules[] = {"layer_norm", "mlp", "while_loop", "tuple_parameters",
                                "conditional_index"};

// Each participant of a multi-replica executable runs on a platform of
// its own device: the platform opens the device it is asked for, and one
// the machine lacks is named when it would execute.
TEST(CudaStreamRulesTest, PlatformOpensTheRequestedDeviceAndNamesAMissingOne) {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto missing = CreateCudaPlatformWithApis(driver.DriverApi(), driver.Cublas(), driver.Cudnn(), 1);
  ASSERT_TRUE(missing.ok()) << missing.status();
  EXPECT_FALSE((*missing)->CanExecute());
  auto stream = (*missing)->AcquireStream();
  EXPECT_EQ(stream.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(stream.status().message(),
              ::testing::HasSubstr("CUDA device 1 requested; this machine has 1 device"));
  auto backend = (*missing)->CreateCollectiveBackend(2, absl::Seconds(1));
  EXPECT_EQ(backend.status().code(), absl::StatusCode::kFailedPrecondition);

  auto present = CreateCudaPlatformWithApis(driver.DriverApi(), driver.Cublas(), driver.Cudnn(), 0);
  ASSERT_TRUE(present.ok()) << present.status();
  EXPECT_TRUE((*present)->CanExecute());
  // Collectives go through the toolkit's NCCL where it opens.
  auto nccl_backend = (*present)->CreateCollectiveBackend(2, absl::Seconds(1));
  if (OpenNccl().ok()) {
    EXPECT_TRUE(nccl_backend.ok()) << nccl_backend.status();
  } else {
    EXPECT_EQ(nccl_backend.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(nccl_backend.status().message(),
                ::testing::HasSubstr("collectives on CUDA need NCCL"));
  }
}

TEST(CudaStreamRulesTest, EveryOperationOfAnExecutionIsOrderedOnItsOwnNonBlockingStream) {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto platform = FakeDevicePlatform();
  for (const char* name : kModules) {
    SCOPED_TRACE(name);
    std::vector<RecordedCall> calls;
    ASSERT_NO_FATAL_FAILURE(calls = CallsOfOneExecution(platform, name));
    // The only calls an execution makes; the legacy synchronous copies and
    // memsets are not even in the driver table.
    const std::set<std::string> allowed = {"cuMemAlloc",
                                           "cuMemFree",
                                           "cuMemAllocHost",
                                           "cuMemFreeHost",
                                           "cuMemcpyHtoDAsync",
                                           "cuMemcpyDtoHAsync",
                                           "cuMemcpyDtoDAsync",
                                           "cuMemsetD8Async",
                                           "cuMemsetD32Async",
                                           "cuLaunchKernel",
                                           "cuStreamCreate",
                                           "cuStreamSynchronize",
                                           "cuGraphCreate",
                                           "cuGraphAddKernelNode",
                                           "cuGraphInstantiate",
                                           "cuGraphExecKernelNodeSetParams",
                                           "cuGraphLaunch",
                                           "cublasCreate",
                                           "cublasSetStream",
                                           "cublasSgemmStridedBatched",
                                           "cublasDgemmStridedBatched",
                                           "cublasGemmStridedBatchedEx",
                                           "cudnnCreate",
                                           "cudnnSetStream",
                                           "cudnnSetTensorNdDescriptor",
                                           "cudnnSetFilterNdDescriptor",
                                           "cudnnSetConvolutionNdDescriptor",
                                           "cudnnSetConvolutionGroupCount",
                                           "cudnnSetConvolutionMathType",
                                           "cudnnGetConvolutionForwardAlgorithm_v7",
                                           "cudnnConvolutionForward"};
    std::set<CUstream> streams;
    int64_t launches = 0;
    for (const RecordedCall& c : calls) {
      EXPECT_TRUE(allowed.count(c.function)) << c.function;
      if (!c.takes_stream) continue;
      EXPECT_NE(c.stream, nullptr) << c.function << " on the legacy default stream";
      EXPECT_EQ(driver.StreamFlags(c.stream), CU_STREAM_NON_BLOCKING) << c.function;
      streams.insert(c.stream);
      launches += IsLaunch(c);
    }
    EXPECT_GT(launches, 0);
    EXPECT_EQ(streams.size(), 1u) << "one execution, one stream";
    // Device memory is freed only once the stream has drained, and the
    // execution returns (giving its arena back for reuse) only then.
    bool drained = false;
    for (const RecordedCall& c : calls) {
      if (c.function == "cuStreamSynchronize") drained = true;
      if (IsLaunch(c) || (c.takes_stream && c.function != "cuStreamSynchronize")) drained = false;
      if (c.function == "cuMemFree") {
        EXPECT_TRUE(drained) << "cuMemFree while work may still be queued";
      }
    }
    EXPECT_TRUE(drained) << "the execution returned with work still queued on its stream";
  }
}

TEST(CudaStreamRulesTest, StraightLineProgramsNeverWaitBetweenLaunches) {
  // Without control flow nothing needs the host between the first launch
  // and the last: no stream synchronization, no device-to-host copy.
  auto platform = FakeDevicePlatform();
  for (const char* name : {"layer_norm", "mlp", "tuple_parameters"}) {
    SCOPED_TRACE(name);
    std::vector<RecordedCall> calls;
    ASSERT_NO_FATAL_FAILURE(calls = CallsOfOneExecution(platform, name));
    size_t first = calls.size(), last = 0;
    for (size_t i = 0; i < calls.size(); ++i) {
      if (!IsLaunch(calls[i])) continue;
      first = std::min(first, i);
      last = i;
    }
    ASSERT_LT(first, calls.size());
    for (size_t i = first; i < last; ++i) {
      EXPECT_NE(calls[i].function, "cuStreamSynchronize") << "call " << i;
      EXPECT_NE(calls[i].function, "cuMemcpyDtoHAsync") << "call " << i;
    }
  }
}

TEST(CudaStreamRulesTest, ConcurrentExecutionsNeverShareAStream) {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto platform = FakeDevicePlatform();
  auto layer_norm = LoadGolden(platform, "layer_norm");
  auto mlp = LoadGolden(platform, "mlp");
  ASSERT_NE(layer_norm, nullptr);
  ASSERT_NE(mlp, nullptr);
  driver.ClearCalls();
  driver.set_launch_delay(absl::Microseconds(200));
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 6; ++i) {
        if (!RunOnce(t % 2 == 0 ? *layer_norm : *mlp).ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  driver.set_launch_delay(absl::ZeroDuration());
  EXPECT_EQ(failures.load(), 0);

  // A stream changes hands only after its holder drained it (the pool gives
  // it back at the end of an execution): no call from one execution ever
  // lands between another's calls on the same stream.
  std::map<CUstream, std::thread::id> holder;
  std::map<CUstream, bool> released;
  std::set<CUstream> streams;
  for (const RecordedCall& c : driver.Calls()) {
    if (!c.takes_stream) continue;
    streams.insert(c.stream);
    auto it = holder.find(c.stream);
    if (it != holder.end() && it->second != c.thread) {
      EXPECT_TRUE(released[c.stream]) << c.function << " on a stream another thread still holds";
    }
    holder[c.stream] = c.thread;
    released[c.stream] = c.function == "cuStreamSynchronize";
  }
  EXPECT_GE(streams.size(), 2u) << "8 threads ran one stream: executions were serialized";
  // Each pooled stream binds its own cuBLAS handle once; no GEMM
  // re-targets a handle another execution is using.
  EXPECT_EQ(driver.Count("cublasSetStream"), driver.Count("cublasCreate"));
  EXPECT_LE(driver.Count("cublasCreate"), static_cast<int64_t>(streams.size()));
}

TEST(CudaStreamRulesTest, CommandBufferGraphsAreInstantiatedOncePerExecutable) {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto platform = FakeDevicePlatform();
  auto executable = LoadGolden(platform, "layer_norm");
  ASSERT_NE(executable, nullptr);
  const int64_t command_buffers = executable->load_stats().passes.command_buffers;
  ASSERT_GE(command_buffers, 1);
  driver.ClearCalls();
  constexpr int kRuns = 5;
  for (int i = 0; i < kRuns; ++i) ASSERT_TRUE(RunOnce(*executable).ok());
  EXPECT_EQ(driver.Count("cuGraphCreate"), command_buffers);
  EXPECT_EQ(driver.Count("cuGraphInstantiate"), command_buffers);
  EXPECT_EQ(driver.Count("cuGraphLaunch"), kRuns * command_buffers);
  EXPECT_EQ(driver.Count("cuGraphExecDestroy"), 0);
  executable.reset();
  EXPECT_EQ(driver.Count("cuGraphExecDestroy"), command_buffers);
  EXPECT_EQ(driver.Count("cuGraphDestroy"), command_buffers);
}

TEST(CudaStreamRulesTest, ChangedBufferAddressesUpdateOnlyTheAffectedGraphNodes) {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto platform = FakeDevicePlatform();
  // Two kernels from a golden, launched through a command buffer directly.
  auto proto = testing::ReadGoldenExecutable(kGoldens, "layer_norm");
  ASSERT_TRUE(proto.ok()) << proto.status();
  auto loader = platform->CreateKernelLoader();
  ASSERT_TRUE(loader.ok());
  std::vector<KernelLaunch> launches;
  for (const ThunkProto& t : proto->thunks()) {
    if (!t.has_kernel()) continue;
    const KernelThunkProto& k = t.kernel();
    auto handle = (*loader)->Load(k.binary(), k.kernel_name());
    ASSERT_TRUE(handle.ok()) << handle.status();
    launches.push_back(KernelLaunch{*handle, k.launch_dimensions()});
  }
  ASSERT_GE(launches.size(), 2u);
  std::unique_ptr<CommandBuffer> command_buffer = platform->CreateCommandBuffer(launches);
  auto stream = platform->AcquireStream();
  ASSERT_TRUE(stream.ok());
  auto memory = [&](int i) { return DeviceMemory{reinterpret_cast<void*>(0x10000 * i), 64}; };
  std::vector<std::vector<DeviceMemory>> args(launches.size());
  for (size_t i = 0; i < launches.size(); ++i) args[i] = {memory(1), memory(2 + i)};

  driver.ClearCalls();
  ASSERT_TRUE(command_buffer->Launch(**stream, args).ok());
  ASSERT_TRUE(command_buffer->Launch(**stream, args).ok());  // same addresses: no update
  EXPECT_EQ(driver.Count("cuGraphInstantiate"), 1);
  EXPECT_EQ(driver.Count("cuGraphExecKernelNodeSetParams"), 0);
  args[1][1] = memory(100);  // one argument of the second kernel moves
  ASSERT_TRUE(command_buffer->Launch(**stream, args).ok());
  EXPECT_EQ(driver.Count("cuGraphExecKernelNodeSetParams"), 1);
  for (auto& a : args) a[0] = memory(200);  // the shared input moves: every node
  ASSERT_TRUE(command_buffer->Launch(**stream, args).ok());
  EXPECT_EQ(driver.Count("cuGraphExecKernelNodeSetParams"), 1 + static_cast<int64_t>(args.size()));
  EXPECT_EQ(driver.Count("cuGraphInstantiate"), 1);
  EXPECT_EQ(driver.Count("cuGraphLaunch"), 4);
  EXPECT_EQ(driver.Count("cuLaunchKernel"), 0);
}

// rng-get-and-update-state's kernels (runtime/platform/rng_state_abi.h):
// each module that names aot_rng_state_ptr gets the device address of the
// executable's one state, allocated and zeroed at the first; a module that
// does not name it is left alone.
TEST(CudaStreamRulesTest, KernelsNamingTheRngStatePointerShareTheLoadersState) {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto platform = FakeDevicePlatform();
  auto kernel = [](const std::string& name, bool state) {
    KernelBinaryProto binary;
    binary.set_format(KernelBinaryProto::CUDA_PTX);
    binary.set_ptx(absl::StrCat(".version 7.8\n.target sm_90\n.address_size 64\n",
                                state ? ".visible .global .align 8 .u64 aot_rng_state_ptr;\n" : "",
                                ".visible .entry ", name, "(\n.param .u64 ", name,
                                "_param_0\n)\n{\nret;\n}\n"));
    return binary;
  };
  const size_t before = driver.BoundGlobals().size();
  driver.ClearCalls();
  auto loader = platform->CreateKernelLoader();
  ASSERT_TRUE(loader.ok());
  for (const auto& [name, state] : std::vector<std::pair<std::string, bool>>{
           {"draw_a", true}, {"plain", false}, {"draw_b", true}}) {
    auto handle = (*loader)->Load(kernel(name, state), name);
    ASSERT_TRUE(handle.ok()) << handle.status();
  }
  EXPECT_EQ(driver.Count("cuModuleGetGlobal"), 2);
  EXPECT_EQ(driver.Count("cuMemAlloc"), 1);  // one state for the executable
  const std::vector<uint64_t> bound = driver.BoundGlobals();
  ASSERT_EQ(bound.size(), before + 2);
  EXPECT_NE(bound[before], 0u);
  EXPECT_EQ(bound[before], bound[before + 1]);
  const auto* state = reinterpret_cast<const uint64_t*>(bound[before]);
  EXPECT_EQ(state[0], 0u);
  EXPECT_EQ(state[1], 0u);
  // Another executable's loader has a state of its own.
  auto other = platform->CreateKernelLoader();
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE((*other)->Load(kernel("draw_c", true), "draw_c").ok());
  ASSERT_EQ(driver.BoundGlobals().size(), before + 3);
  EXPECT_NE(driver.BoundGlobals()[before + 2], bound[before]);
}

TEST(CudaStreamRulesTest, HostTransfersArePinnedStagedAndStagingIsReused) {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto platform = FakeDevicePlatform();
  auto stream = platform->AcquireStream();
  ASSERT_TRUE(stream.ok());
  auto device = platform->Allocate(4096);
  ASSERT_TRUE(device.ok());
  std::vector<uint8_t> in(4096), out(4096, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 7);
  driver.ClearCalls();
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE((*stream)->CopyHostToDevice(in.data(), *device, 4096).ok());
    ASSERT_TRUE((*stream)->CopyDeviceToHost(*device, out.data(), 4096).ok());
  }
  EXPECT_EQ(out, in);
  EXPECT_EQ(driver.Count("cuMemAllocHost"), 1) << "staging allocated once per stream";
  EXPECT_EQ(driver.Count("cuMemcpyHtoDAsync"), 3);
  EXPECT_EQ(driver.Count("cuMemcpyDtoHAsync"), 3);
  platform->Free(*device);
}

// f16 / bf16 GEMM thunks (emit_low_precision_gemm) call
// cublasGemmStridedBatchedEx with the element type for A, B and C and f32
// compute, on the execution's own stream like every other operation.
TEST(CudaStreamRulesTest, HalfPrecisionGemmsUseGemmExWithF32ComputeOnTheExecutionStream) {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto platform = FakeDevicePlatform();
  for (auto [type, cuda_type] : {std::pair{F16, kCudaR16F}, std::pair{BF16, kCudaR16BF}}) {
    SCOPED_TRACE(PrimitiveType_Name(type));
    constexpr int64_t kBytes = 64 * 64 * 2;
    Builder b;
    int lhs = b.Parameter(Shape(type, {64, 64}));
    int rhs = b.Parameter(Shape(type, {64, 64}));
    BufferSliceProto out =
        Builder::Slice(b.Allocation(kBytes, BufferAllocationProto::OUTPUT), 0, kBytes);
    GemmThunkProto* g = b.Thunk("dot")->mutable_gemm();
    *g->mutable_lhs() = Builder::Slice(lhs, 0, kBytes);
    *g->mutable_rhs() = Builder::Slice(rhs, 0, kBytes);
    *g->mutable_output() = out;
    g->set_element_type(type);
    g->set_batch_size(1);
    g->set_m(64);
    g->set_n(64);
    g->set_k(64);
    g->set_alpha(1);
    b.Result({{Shape(type, {64, 64}), out}});
    auto executable = Executable::Load(b.BuildForCuda(), platform, &FfiRegistry::Global(), {});
    ASSERT_TRUE(executable.ok()) << executable.status();
    driver.ClearCalls();
    ASSERT_TRUE(RunOnce(**executable).ok());
    std::vector<RecordedCall> calls = driver.Calls();
    auto gemm = std::find_if(calls.begin(), calls.end(), [](const RecordedCall& c) {
      return c.function == "cublasGemmStridedBatchedEx";
    });
    ASSERT_NE(gemm, calls.end());
    EXPECT_EQ(gemm->detail, absl::StrCat("a=", cuda_type, " b=", cuda_type, " c=", cuda_type,
                                         " compute=", kCublasCompute32F));
    EXPECT_EQ(driver.Count("cublasSgemmStridedBatched"), 0);
    // The same stream as the execution's uploads and downloads.
    for (const RecordedCall& c : calls) {
      if (c.takes_stream) EXPECT_EQ(c.stream, gemm->stream) << c.function;
    }
  }
}

// A custom call with a CUDA handler (FfiRegistry::RegisterForPlatform)
// gets the execution's stream and device pointers: no copy through host
// memory around it. (The double's device memory is host memory, so the
// handler can compute on it directly and the result is checked.) The same
// target with only a host handler is staged: a device-to-host copy before
// the call, a host-to-device copy after it.
TEST(CudaStreamRulesTest, DeviceFfiHandlersRunOnTheExecutionStreamWithoutStaging) {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto platform = FakeDevicePlatform();
  constexpr int64_t kBytes = 256 * 4;
  Builder b;
  int x = b.Parameter(Shape(F32, {256}));
  BufferSliceProto out =
      Builder::Slice(b.Allocation(kBytes, BufferAllocationProto::OUTPUT), 0, kBytes);
  CustomCallThunkProto* c = b.Thunk("double")->mutable_custom_call();
  c->set_target_name("test.double");
  c->set_api_version(CustomCallThunkProto::API_VERSION_TYPED_FFI);
  *c->add_operands()->mutable_shape() = Shape(F32, {256});
  *c->mutable_operands(0)->mutable_slice() = Builder::Slice(x, 0, kBytes);
  *c->add_results()->mutable_shape() = Shape(F32, {256});
  *c->mutable_results(0)->mutable_slice() = out;
  b.Result({{Shape(F32, {256}), out}});
  const ExecutableProto proto = b.BuildForCuda();

  auto doubled = [](const FfiCallFrame& frame) {
    const float* x = static_cast<const float*>(frame.operands[0].data);
    float* y = static_cast<float*>(frame.results[0].data);
    for (int i = 0; i < 256; ++i) y[i] = 2 * x[i];
    return absl::OkStatus();
  };
  std::vector<float> input(256);
  for (int i = 0; i < 256; ++i) input[i] = static_cast<float>(i);
  std::vector<absl::Span<const uint8_t>> args = {
      {reinterpret_cast<const uint8_t*>(input.data()), kBytes}};
  for (bool device : {true, false}) {
    SCOPED_TRACE(device ? "CUDA handler" : "host handler");
    FfiRegistry registry;
    void* seen_stream = nullptr;
    size_t calls_before_handler = 0;
    if (device) {
      ASSERT_TRUE(registry
                      .RegisterForPlatform("test.double", PLATFORM_CUDA,
                                           [&](const FfiCallFrame& frame) {
                                             seen_stream = frame.stream;
                                             calls_before_handler = driver.Calls().size();
                                             return doubled(frame);
                                           })
                      .ok());
    } else {
      ASSERT_TRUE(registry
                      .Register("test.double",
                                [&](const FfiCallFrame& frame) {
                                  seen_stream = frame.stream;
                                  calls_before_handler = driver.Calls().size();
                                  return doubled(frame);
                                })
                      .ok());
    }
    auto executable = Executable::Load(proto, platform, &registry, {});
    ASSERT_TRUE(executable.ok()) << executable.status();
    driver.ClearCalls();
    auto results = (*executable)->Execute(args);
    ASSERT_TRUE(results.ok()) << results.status();
    std::vector<float> got(256);
    ASSERT_EQ((*results)[0].size(), static_cast<size_t>(kBytes));
    std::memcpy(got.data(), (*results)[0].data(), kBytes);
    for (int i = 0; i < 256; ++i) ASSERT_EQ(got[i], 2.0f * i) << i;
    std::vector<RecordedCall> calls = driver.Calls();
    ASSERT_GT(calls_before_handler, 0u);
    int64_t downloads = 0, uploads_after = 0;
    CUstream stream = nullptr;
    for (size_t i = 0; i < calls.size(); ++i) {
      if (calls[i].function == "cuMemcpyDtoHAsync") ++downloads;
      if (i >= calls_before_handler && calls[i].function == "cuMemcpyHtoDAsync") ++uploads_after;
      if (calls[i].takes_stream && stream == nullptr) stream = calls[i].stream;
    }
    if (device) {
      EXPECT_EQ(seen_stream, stream) << "the handler got another stream than the execution's";
      EXPECT_NE(seen_stream, nullptr);
      EXPECT_EQ(downloads, 1) << "only the result leaves the device";
      EXPECT_EQ(uploads_after, 0) << "nothing is uploaded after the handler";
    } else {
      EXPECT_EQ(seen_stream, nullptr);
      EXPECT_EQ(downloads, 2) << "the operand staged to the host, then the result";
      EXPECT_EQ(uploads_after, 1) << "the handler's result staged back to the device";
    }
  }
}

// A convolution thunk (emit_cudnn_convolution) on CUDA: one cuDNN handle
// per pooled stream, bound to it once; descriptors with the thunk's
// dimensions, strides and filter format; the forward call on the
// execution's stream with the stream's workspace. A filter cuDNN cannot
// read (not packed) is refused at load, also device-less.
TEST(CudaStreamRulesTest, ConvolutionsCallCudnnOnTheExecutionStream) {
  RecordingCudaDriver& driver = RecordingCudaDriver::Get();
  auto platform = FakeDevicePlatform();
  const ConvolutionParams p = ::aot::testing::StridedConvolution();
  auto make = [&](const ConvolutionParams& params) {
    Builder b;
    int x = b.Parameter(Shape(F32, {1, 4, 4, 2}));
    int w = b.Parameter(Shape(F32, {3, 3, 3, 2}));
    BufferSliceProto out =
        Builder::Slice(b.Allocation(12 * 4, BufferAllocationProto::OUTPUT), 0, 12 * 4);
    ConvolutionThunkProto* c = b.Thunk("conv")->mutable_convolution();
    *c->mutable_input() = Builder::Slice(x, 0, 32 * 4);
    *c->mutable_filter() = Builder::Slice(w, 0, 54 * 4);
    *c->mutable_output() = out;
    ConvolutionThunk::ParamsToProto(params, c);
    b.Result({{Shape(F32, {1, 3, 2, 2}), out}});
    return b.BuildForCuda();
  };
  auto executable = Executable::Load(make(p), platform, &FfiRegistry::Global(), {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  driver.ClearCalls();
  for (int run = 0; run < 3; ++run) ASSERT_TRUE(RunOnce(**executable).ok());
  std::vector<RecordedCall> calls = driver.Calls();
  auto find = [&](const char* name) {
    return std::find_if(calls.begin(), calls.end(),
                        [&](const RecordedCall& c) { return c.function == name; });
  };
  auto forward = find("cudnnConvolutionForward");
  ASSERT_NE(forward, calls.end());
  EXPECT_EQ(forward->detail, "algo=1 workspace=set bytes=67108864");
  EXPECT_EQ(driver.Count("cudnnConvolutionForward"), 3);
  EXPECT_LE(driver.Count("cudnnCreate"), 1) << "one handle per pooled stream, made once";
  for (const RecordedCall& c : calls) {
    if (c.takes_stream) EXPECT_EQ(c.stream, forward->stream) << c.function;
  }
  auto filter = find("cudnnSetFilterNdDescriptor");
  ASSERT_NE(filter, calls.end());
  EXPECT_EQ(filter->detail,
            absl::StrCat("type=", kCudnnDataFloat, " format=", kCudnnTensorNhwc, " dims=3,2,3,3"));
  auto tensor = find("cudnnSetTensorNdDescriptor");
  ASSERT_NE(tensor, calls.end());
  EXPECT_EQ(tensor->detail, "type=0 dims=1,2,4,4 strides=32,1,8,2");
  auto conv = find("cudnnSetConvolutionNdDescriptor");
  ASSERT_NE(conv, calls.end());
  EXPECT_EQ(conv->detail, absl::StrCat("pad=1,1 stride=2,2 dilation=1,1 mode=",
                                       kCudnnCrossCorrelation, " compute=", kCudnnDataFloat));
  // f32 stays f32: FMA math, not the default (which allows TF32).
  auto math = find("cudnnSetConvolutionMathType");
  ASSERT_NE(math, calls.end());
  EXPECT_EQ(math->detail, absl::StrCat("math=", kCudnnFmaMath));
  // Not packed: (O, C, S) with the spatial dimensions swapped.
  ConvolutionParams unpacked = p;
  unpacked.filter_strides = {18, 9, 1, 3};
  auto refused = Executable::Load(make(unpacked), platform, &FfiRegistry::Global(), {});
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()),
              ::testing::HasSubstr("cuDNN takes the filter packed"));
  LoadOptions device_less;
  device_less.device_less = true;
  auto no_device = CreatePlatform("cuda", device_less);
  if (no_device.ok()) {
    auto also_refused = Executable::Load(make(unpacked), std::move(*no_device),
                                         &FfiRegistry::Global(), device_less);
    EXPECT_FALSE(also_refused.ok());
  }
}

}  // namespace
}  // namespace aot
