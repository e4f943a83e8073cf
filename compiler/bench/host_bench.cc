// Host benchmarks (scripts/bench.sh): compiled executables run through
// Executable::ExecuteInto with buffers made once, against baselines
// measured in the same run: memcpy (one thread, and split over the same
// number of threads the runtime's pool uses) for memory-bound programs,
// cblas_sgemm for the dot. Figures are bytes/s (or FLOP/s); scripts/bench.sh
// prints the ratios.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "benchmark/benchmark.h"
#include "compiler/backend/compiler.h"
#include "compiler/bench/bench_programs.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/target/target_config.h"
#include "compiler/target/target_selection.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "runtime/executable/client.h"
#include "runtime/platform/host/cpu_features.h"
#include "runtime/platform/host/thread_pool.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {
namespace {

const Client& HostClient() {
  static const Client* client = Client::Create("host").value().release();
  return *client;
}

// A compiled executable with its argument and result buffers (made once,
// from random arguments in [-1, 1)).
struct Prepared {
  std::unique_ptr<Executable> executable;
  PreparedExecution execution;
};

absl::StatusOr<Prepared> Prepare(const std::string& hlo, bool fusion = true) {
  auto module = ParseHloModule(hlo);
  AOT_RETURN_IF_ERROR(module);
  auto target = ShippedTargetConfig(DefaultTargetName(PLATFORM_HOST, DetectHostCpuFeatures()));
  AOT_RETURN_IF_ERROR(target);
  CompileOptions options;
  options.enable_fusion = fusion;
  auto compiled = Compile(**module, *target, options);
  AOT_RETURN_IF_ERROR(compiled);
  auto executable = (*compiled)->LoadExecutable(HostClient());
  AOT_RETURN_IF_ERROR(executable);
  auto execution = PreparedExecution::Create(**executable, RandomArguments(**module, 1));
  AOT_RETURN_IF_ERROR(execution);
  return Prepared{*std::move(executable), *std::move(execution)};
}

void RunProgram(benchmark::State& state, const std::string& hlo, int64_t bytes_per_run,
                int64_t flops_per_run = 0, bool fusion = true) {
  auto prepared = Prepare(hlo, fusion);
  if (!prepared.ok()) {
    state.SkipWithError(std::string(prepared.status().message()).c_str());
    return;
  }
  if (absl::Status s = prepared->execution.Run(); !s.ok()) {
    state.SkipWithError(std::string(s.message()).c_str());
    return;
  }
  for (auto _ : state) {
    absl::Status s = prepared->execution.Run();
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
  }
  if (bytes_per_run > 0) state.SetBytesProcessed(state.iterations() * bytes_per_run);
  if (flops_per_run > 0) {
    state.counters["FLOPS"] = benchmark::Counter(static_cast<double>(flops_per_run),
                                                 benchmark::Counter::kIsIterationInvariantRate);
  }
}

using bench::kBytes;
using bench::kRows;

// --- baselines --------------------------------------------------------------

// One thread copies kBytes (bytes processed: read + written).
void BM_Memcpy(benchmark::State& state) {
  std::vector<uint8_t> src(kBytes, 1), dst(kBytes, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), kBytes);
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetBytesProcessed(state.iterations() * 2 * kBytes);
}
BENCHMARK(BM_Memcpy)->UseRealTime()->Unit(benchmark::kMillisecond);

// The same copy split into one contiguous chunk per thread of a pool as
// large as the runtime's (hardware threads, the caller included).
void BM_MemcpyThreaded(benchmark::State& state) {
  std::vector<uint8_t> src(kBytes, 1), dst(kBytes, 0);
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  ThreadPool pool(threads - 1);
  const int64_t chunk = (kBytes / threads + 63) / 64 * 64;
  for (auto _ : state) {
    pool.ParallelFor(threads, [&](int64_t i) {
      int64_t begin = i * chunk, end = std::min<int64_t>(kBytes, begin + chunk);
      if (begin < end) std::memcpy(dst.data() + begin, src.data() + begin, end - begin);
    });
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetBytesProcessed(state.iterations() * 2 * kBytes);
  state.counters["threads"] = threads;
}
BENCHMARK(BM_MemcpyThreaded)->UseRealTime()->Unit(benchmark::kMillisecond);

constexpr int64_t kGemm = 1024;

// cblas_sgemm of row-major [m,k] x [k,n], FLOPS counted.
void RunSgemm(benchmark::State& state, int64_t m, int64_t n, int64_t k) {
  std::vector<float> a(m * k, 0.5f), b(k * n, 0.25f), c(m * n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a.data(), k, b.data(), n,
                0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["FLOPS"] =
      benchmark::Counter(2.0 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_CblasSgemm(benchmark::State& state) { RunSgemm(state, kGemm, kGemm, kGemm); }
BENCHMARK(BM_CblasSgemm)->UseRealTime()->Unit(benchmark::kMillisecond);

// The MLP block of bench::Mlp, by hand: two cblas_sgemm and a vectorizable
// epilogue after each (bias + relu, bias), the epilogues split over as many
// threads as the runtime's pool.
constexpr int64_t kMlpM = 256, kMlpK = 1024, kMlpH = 4096;
constexpr double kMlpFlops = 2.0 * 2.0 * kMlpM * kMlpK * kMlpH;

void BM_CblasMlp(benchmark::State& state) {
  std::vector<float> x(kMlpM * kMlpK, 0.5f), w1(kMlpK * kMlpH, 0.25f), b1(kMlpH, 0.125f);
  std::vector<float> w2(kMlpH * kMlpK, -0.25f), b2(kMlpK, 1.0f), h(kMlpM * kMlpH), o(kMlpM * kMlpK);
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  ThreadPool pool(threads - 1);
  auto epilogue = [&](float* out, const float* bias, int64_t cols, bool relu) {
    pool.ParallelFor(threads, [&](int64_t t) {
      for (int64_t row = t; row < kMlpM; row += threads) {
        float* r = out + row * cols;
        for (int64_t c = 0; c < cols; ++c) {
          float v = r[c] + bias[c];
          r[c] = relu ? std::max(v, 0.0f) : v;
        }
      }
    });
  };
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kMlpM, kMlpH, kMlpK, 1.0f, x.data(),
                kMlpK, w1.data(), kMlpH, 0.0f, h.data(), kMlpH);
    epilogue(h.data(), b1.data(), kMlpH, true);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kMlpM, kMlpK, kMlpH, 1.0f, h.data(),
                kMlpH, w2.data(), kMlpK, 0.0f, o.data(), kMlpK);
    epilogue(o.data(), b2.data(), kMlpK, false);
    benchmark::DoNotOptimize(o.data());
  }
  state.counters["FLOPS"] =
      benchmark::Counter(kMlpFlops, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CblasMlp)->UseRealTime()->Unit(benchmark::kMillisecond);

// The GEMM a 3x3 convolution of kConv* becomes: [N*H*W, 9*C] x [9*C, C].
constexpr int64_t kConvN = 8, kConvHw = 56, kConvC = 64;
constexpr int64_t kConvM = kConvN * kConvHw * kConvHw, kConvK = 9 * kConvC;
constexpr double kConvFlops = 2.0 * kConvM * kConvK * kConvC;

void BM_CblasSgemmConvShape(benchmark::State& state) { RunSgemm(state, kConvM, kConvC, kConvK); }
BENCHMARK(BM_CblasSgemmConvShape)->UseRealTime()->Unit(benchmark::kMillisecond);

constexpr int64_t kSortRows = 1024, kSortCols = 4096;

// std::sort of each row of a copy of f32[kSortRows, kSortCols], rows split
// over as many threads as the runtime's pool.
void BM_StdSort(benchmark::State& state) {
  std::vector<float> x(kSortRows * kSortCols), y(x.size());
  uint64_t r = 1;
  for (float& v : x) {
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    v = static_cast<float>(r >> 40) / static_cast<float>(1 << 24) - 0.5f;
  }
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  ThreadPool pool(threads - 1);
  for (auto _ : state) {
    pool.ParallelFor(kSortRows, [&](int64_t row) {
      float* begin = y.data() + row * kSortCols;
      std::memcpy(begin, x.data() + row * kSortCols, kSortCols * sizeof(float));
      std::sort(begin, begin + kSortCols);
    });
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * kSortRows * kSortCols);
}
BENCHMARK(BM_StdSort)->UseRealTime()->Unit(benchmark::kMillisecond);

// --- overhead ---------------------------------------------------------------

// The smallest program: the cost of one execution around one kernel.
void BM_EmptyKernelExecution(benchmark::State& state) {
  RunProgram(state, R"(HloModule tiny
ENTRY e {
  x = f32[16] parameter(0)
  ROOT r = f32[16] add(x, x)
})",
             0);
}
BENCHMARK(BM_EmptyKernelExecution)->Unit(benchmark::kMicrosecond);

// 100 small kernels (fusion off) in one command buffer.
void BM_CommandBuffer100Kernels(benchmark::State& state) {
  std::string hlo = "HloModule chain\nENTRY e {\n  v0 = f32[256] parameter(0)\n";
  for (int i = 1; i <= 100; ++i) {
    absl::StrAppend(&hlo, "  ", i == 100 ? "ROOT " : "", "v", i, " = f32[256] ",
                    i % 2 ? "add" : "multiply", "(v", i - 1, ", v0)\n");
  }
  hlo += "}\n";
  RunProgram(state, hlo, 0, 0, /*fusion=*/false);
  state.counters["kernels"] = 100;
}
BENCHMARK(BM_CommandBuffer100Kernels)->Unit(benchmark::kMicrosecond);

// The allocating Execute (vectors in, vectors out) on the elementwise
// program: what the zero-copy path saves.
void BM_ElementwiseExecuteAllocating(benchmark::State& state) {
  auto prepared = Prepare(bench::kElementwise);
  if (!prepared.ok()) {
    state.SkipWithError(std::string(prepared.status().message()).c_str());
    return;
  }
  for (auto _ : state) {
    auto results = prepared->executable->Execute(prepared->execution.arguments());
    if (!results.ok()) {
      state.SkipWithError(std::string(results.status().message()).c_str());
      return;
    }
  }
  state.SetBytesProcessed(state.iterations() * 3 * kBytes);
}
BENCHMARK(BM_ElementwiseExecuteAllocating)->UseRealTime()->Unit(benchmark::kMillisecond);

// --- programs ---------------------------------------------------------------

void BM_Elementwise(benchmark::State& state) { RunProgram(state, bench::kElementwise, 3 * kBytes); }
BENCHMARK(BM_Elementwise)->UseRealTime()->Unit(benchmark::kMillisecond);

// x*y+x through the buffer API (Executable::ExecuteBuffers): `donate`
// compiles the module with input_output_alias {}: (0, {}) (emission flag
// emit_input_output_alias) and feeds each result back as the next x, so
// every run computes in place in one buffer; otherwise each run returns a
// new result buffer. y is zero, so x stays finite (and normal).
void RunElementwiseBuffers(benchmark::State& state, bool donate) {
  std::string hlo = bench::kElementwise;
  if (donate) {
    hlo = absl::StrReplaceAll(hlo, {{"HloModule elementwise",
                                     "HloModule elementwise, input_output_alias={ {}: (0, {}) }"}});
  }
  auto module = ParseHloModule(hlo);
  auto target = ShippedTargetConfig(DefaultTargetName(PLATFORM_HOST, DetectHostCpuFeatures()));
  if (!module.ok() || !target.ok()) {
    state.SkipWithError("cannot parse the program or find the host target");
    return;
  }
  CompileOptions options;
  if (donate) options.emission_flags = {"emit_input_output_alias"};
  auto compiled = Compile(**module, *target, options);
  if (!compiled.ok()) {
    state.SkipWithError(std::string(compiled.status().message()).c_str());
    return;
  }
  auto executable = (*compiled)->LoadExecutable(HostClient());
  if (!executable.ok()) {
    state.SkipWithError(std::string(executable.status().message()).c_str());
    return;
  }
  const ShapeProto shape = (*executable)->parameters()[0].shape();
  std::vector<uint8_t> ones(kBytes), zeros(kBytes, 0);
  for (int64_t i = 0; i < kBytes / 4; ++i) reinterpret_cast<float*>(ones.data())[i] = 1.0f;
  auto x = DeviceBuffer::FromHostBuffer((*executable)->shared_platform(), shape, ones);
  auto y = DeviceBuffer::FromHostBuffer((*executable)->shared_platform(), shape, zeros);
  if (!x.ok() || !y.ok()) {
    state.SkipWithError("cannot create the argument buffers");
    return;
  }
  std::unique_ptr<DeviceBuffer> state_buffer = *std::move(x);
  for (auto _ : state) {
    auto results = (*executable)->ExecuteBuffers({state_buffer.get(), y->get()});
    if (!results.ok()) {
      state.SkipWithError(std::string(results.status().message()).c_str());
      return;
    }
    if (donate) state_buffer = std::move((*results)[0]);
    benchmark::DoNotOptimize(results->data());
  }
  state.SetBytesProcessed(state.iterations() * 3 * kBytes);
}

void BM_ElementwiseDonated(benchmark::State& state) { RunElementwiseBuffers(state, true); }
BENCHMARK(BM_ElementwiseDonated)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_ElementwiseBuffers(benchmark::State& state) { RunElementwiseBuffers(state, false); }
BENCHMARK(BM_ElementwiseBuffers)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Tanh(benchmark::State& state) {
  RunProgram(state, R"(HloModule t
ENTRY e {
  x = f32[2048,4096] parameter(0)
  ROOT r = f32[2048,4096] tanh(x)
})",
             2 * kBytes);
}
BENCHMARK(BM_Tanh)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_RowSum(benchmark::State& state) { RunProgram(state, bench::kRowSum, kBytes + kRows * 4); }
BENCHMARK(BM_RowSum)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_ColumnSum(benchmark::State& state) {
  RunProgram(state, bench::ColumnSum(kRows, bench::kCols), kBytes + bench::kCols * 4);
}
BENCHMARK(BM_ColumnSum)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_FullSum(benchmark::State& state) {
  RunProgram(state, bench::FullSum(kRows, bench::kCols), kBytes);
}
BENCHMARK(BM_FullSum)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Softmax(benchmark::State& state) {
  RunProgram(state, bench::kSoftmax, bench::kSoftmaxBytes);
}
BENCHMARK(BM_Softmax)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Transpose(benchmark::State& state) {
  RunProgram(state, R"(HloModule tr
ENTRY e {
  x = f32[4096,4096] parameter(0)
  ROOT r = f32[4096,4096] transpose(x), dimensions={1,0}
})",
             2 * 4096 * 4096 * 4);
}
BENCHMARK(BM_Transpose)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Dot(benchmark::State& state) {
  RunProgram(state, bench::Dot(kGemm), 0, 2 * kGemm * kGemm * kGemm);
}
BENCHMARK(BM_Dot)->UseRealTime()->Unit(benchmark::kMillisecond);

// The MLP block compiled (two GEMM thunks and their fused epilogues;
// target: at least the rate of BM_CblasMlp).
void BM_Mlp(benchmark::State& state) {
  RunProgram(state, bench::Mlp(kMlpM, kMlpK, kMlpH), 0, static_cast<int64_t>(kMlpFlops));
}
BENCHMARK(BM_Mlp)->UseRealTime()->Unit(benchmark::kMillisecond);

// bf16 operands and result, through an f32 GEMM (DotUpcast; target: >= 0.5
// of the f32 rate).
void BM_DotBf16(benchmark::State& state) {
  RunProgram(state, bench::Dot(kGemm, "bf16"), 0, 2 * kGemm * kGemm * kGemm);
}
BENCHMARK(BM_DotBf16)->UseRealTime()->Unit(benchmark::kMillisecond);

// Rows sorted by a merge sort in IR, one row per block.
void BM_Sort(benchmark::State& state) {
  RunProgram(state, bench::SortRows(kSortRows, kSortCols), 0);
  state.SetItemsProcessed(state.iterations() * kSortRows * kSortCols);
}
BENCHMARK(BM_Sort)->UseRealTime()->Unit(benchmark::kMillisecond);

// 16384 rows of 1024 added into f32[512,1024] (indices in [-8, 8): rows 0-7,
// the negative ones skipped), blocks splitting the columns. Bytes: the
// operand copied, the updates read.
void BM_ScatterAddRows(benchmark::State& state) {
  RunProgram(state, bench::ScatterAddRows(512, 1024, 16384), (2 * 512 * 1024 + 16384 * 1025) * 4);
}
BENCHMARK(BM_ScatterAddRows)->UseRealTime()->Unit(benchmark::kMillisecond);

// NHWC 3x3 convolution, 8x56x56x64 -> 64 (im2col + GEMM).
void BM_Conv3x3(benchmark::State& state) {
  RunProgram(state, bench::Conv3x3(kConvN, kConvHw, kConvC), 0, kConvFlops);
}
BENCHMARK(BM_Conv3x3)->UseRealTime()->Unit(benchmark::kMillisecond);

// A 100- and a 1000-step loop writing one row of f32[1000,256] per step:
// the update is in place, so the time per step does not grow with the
// steps (it would with a copy of the whole buffer per step).
void BM_DusLoop100(benchmark::State& state) {
  RunProgram(state, bench::DusLoop(100, 1000, 256), 0);
  state.SetItemsProcessed(state.iterations() * 100);
}
BENCHMARK(BM_DusLoop100)->UseRealTime()->Unit(benchmark::kMicrosecond);
void BM_DusLoop1000(benchmark::State& state) {
  RunProgram(state, bench::DusLoop(1000, 1000, 256), 0);
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_DusLoop1000)->UseRealTime()->Unit(benchmark::kMicrosecond);

// --- compile and load -------------------------------------------------------

// HLO text of x + w with w an f32[2048,4096] constant (8.4M elements, as in
// XLA's CPU benchmark models), made once.
const std::string& LargeConstantModule() {
  static const std::string* text = [] {
    auto* out = new std::string("HloModule large_constant\nENTRY e {\n");
    absl::StrAppend(out, "  x = f32[2048,4096] parameter(0)\n  w = f32[2048,4096] constant({");
    for (int64_t r = 0; r < kRows; ++r) {
      absl::StrAppend(out, r == 0 ? "{" : ",{");
      for (int64_t c = 0; c < bench::kCols; ++c) {
        absl::StrAppend(out, c == 0 ? "" : ",",
                        static_cast<double>((r * 31 + c) % 2001) / 1000 - 1);
      }
      absl::StrAppend(out, "}");
    }
    absl::StrAppend(out, "})\n  ROOT r = f32[2048,4096] add(x, w)\n}\n");
    return out;
  }();
  return *text;
}

// Parse + compile of that module (target: <= 5 s).
void BM_CompileLargeConstant(benchmark::State& state) {
  auto target = ShippedTargetConfig(DefaultTargetName(PLATFORM_HOST, DetectHostCpuFeatures()));
  const std::string& text = LargeConstantModule();
  for (auto _ : state) {
    auto module = ParseHloModule(text);
    AOT_RETURN_IF_ERROR_AND(module, state.SkipWithError(std::string(_.message()).c_str()));
    auto compiled = Compile(**module, *target);
    if (!compiled.ok())
      return state.SkipWithError(std::string(compiled.status().message()).c_str());
    benchmark::DoNotOptimize(compiled->get());
  }
  state.counters["constant_elements"] = static_cast<double>(kRows * bench::kCols);
}
BENCHMARK(BM_CompileLargeConstant)->Unit(benchmark::kMillisecond)->Iterations(1);

// The serialized executable of that module (64 MiB, mostly the constant).
const std::string& LargeConstantArtifact() {
  static const std::string* bytes = [] {
    auto module = ParseHloModule(LargeConstantModule());
    auto target = ShippedTargetConfig(DefaultTargetName(PLATFORM_HOST, DetectHostCpuFeatures()));
    return new std::string((*Compile(**module, *target))->SerializeAsString());
  }();
  return *bytes;
}

// Baseline of the load: a bare ParseFromString of the same bytes.
void BM_ParseExecutableProto(benchmark::State& state) {
  const std::string& bytes = LargeConstantArtifact();
  for (auto _ : state) {
    ExecutableProto proto;
    if (!proto.ParseFromString(bytes)) return state.SkipWithError("unparsable artifact");
    benchmark::DoNotOptimize(proto.binary().data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
}
BENCHMARK(BM_ParseExecutableProto)->UseRealTime()->Unit(benchmark::kMillisecond);

// Deserialize, validate, load the kernel, make the constants resident
// (target: <= 3x the bare parse).
void BM_LoadExecutable(benchmark::State& state) {
  const std::string& bytes = LargeConstantArtifact();
  for (auto _ : state) {
    auto executable = HostClient().DeserializeExecutable(bytes);
    if (!executable.ok()) {
      return state.SkipWithError(std::string(executable.status().message()).c_str());
    }
    benchmark::DoNotOptimize(executable->get());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
}
BENCHMARK(BM_LoadExecutable)->UseRealTime()->Unit(benchmark::kMillisecond);

// The corpus AOT advantage: for every host-compilable module of
// golden/modules (scripts/bench.sh runs from the repository root), a JIT
// start (parse + compile + load + first run) against an AOT start (load
// of the serialized artifact + first run), each the best of 3. Counters:
// the median and the minimum of the per-module ratio, and the module count.
void BM_CorpusAotAdvantage(benchmark::State& state) {
  auto target = ShippedTargetConfig(DefaultTargetName(PLATFORM_HOST, DetectHostCpuFeatures()));
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::recursive_directory_iterator("golden/modules", error)) {
    if (entry.path().extension() == ".hlo") files.push_back(entry.path().string());
  }
  if (files.empty()) return state.SkipWithError("no golden/modules (run from the repository root)");
  std::sort(files.begin(), files.end());
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
  };
  std::vector<double> ratios;
  for (auto _ : state) {
    ratios.clear();
    for (const std::string& file : files) {
      absl::StatusOr<std::string> text = ReadFileToString(file);
      AOT_RETURN_IF_ERROR_AND(text, state.SkipWithError(std::string(_.message()).c_str()));
      double jit = 1e30, aot = 1e30;
      bool ok = true;
      for (int rep = 0; rep < 3 && ok; ++rep) {
        auto start = Clock::now();
        auto module = ParseHloModule(*text);
        auto compiled = module.ok()
                            ? Compile(**module, *target)
                            : absl::StatusOr<std::unique_ptr<CompiledModule>>(module.status());
        if (!compiled.ok()) {
          ok = false;  // not host-compilable (a CUDA-only custom call, say)
          break;
        }
        auto executable = (*compiled)->LoadExecutable(HostClient());
        std::vector<Literal> args = RandomArguments(**module, 1);
        ok = executable.ok() && ExecuteWithLiterals(**executable, args).ok();
        jit = std::min(jit, seconds(start));
        const std::string bytes = (*compiled)->SerializeAsString();
        start = Clock::now();
        auto loaded = HostClient().DeserializeExecutable(bytes);
        ok = ok && loaded.ok() && ExecuteWithLiterals(**loaded, args).ok();
        aot = std::min(aot, seconds(start));
      }
      if (ok) ratios.push_back(jit / aot);
    }
  }
  if (ratios.empty()) return state.SkipWithError("no corpus module compiled and ran");
  std::sort(ratios.begin(), ratios.end());
  state.counters["median"] = ratios[ratios.size() / 2];
  state.counters["minimum"] = ratios.front();
  state.counters["modules"] = static_cast<double>(ratios.size());
}
BENCHMARK(BM_CorpusAotAdvantage)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace aot
