// CUDA benchmarks for scripts/gpu_check.sh: compiled executables run with
// device-resident buffers (allocated and filled once; each iteration runs
// the thunk sequence on one stream and waits for it), against baselines
// measured in the same run:
//   - elementwise x*y+x and a row reduction against device-to-device copy
//     bandwidth (bytes moved per second);
//   - softmax over rows (bytes read + written);
//   - an f32 GEMM against cuBLAS called directly on the same shapes.
// Without a CUDA device every benchmark is skipped with the reason.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "compiler/backend/compiler.h"
#include "compiler/bench/bench_programs.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/target/target_config.h"
#include "runtime/executable/client.h"
#include "runtime/executable/executable.h"
#include "runtime/thunks/thunk.h"
#include "support/status_macros.h"

namespace aot {
namespace {

std::shared_ptr<Platform>& CudaPlatform() {
  static auto* platform = new std::shared_ptr<Platform>([]() -> std::shared_ptr<Platform> {
    auto p = CreatePlatform("cuda", LoadOptions());
    if (!p.ok()) return nullptr;
    return std::shared_ptr<Platform>(std::move(*p));
  }());
  return *platform;
}

// Why nothing can run here, or empty.
std::string Unavailable() {
  if (CudaPlatform() == nullptr) return "this runtime has no CUDA platform";
  if (!CudaPlatform()->CanExecute()) return "no CUDA device";
  return "";
}

// An executable with every buffer allocated on the device once.
class ResidentExecutable {
 public:
  static absl::StatusOr<std::unique_ptr<ResidentExecutable>> Compile(const std::string& hlo) {
    auto module = ParseHloModule(hlo);
    AOT_RETURN_IF_ERROR(module);
    auto resident = std::unique_ptr<ResidentExecutable>(new ResidentExecutable());
    Platform& platform = *CudaPlatform();
    absl::Status last;
    // The device's target: the load's capability check picks it.
    for (const char* target_name : {"h100", "a100"}) {
      auto target = ShippedTargetConfig(target_name);
      AOT_RETURN_IF_ERROR(target);
      auto compiled = aot::Compile(**module, *target);
      AOT_RETURN_IF_ERROR(compiled);
      auto executable = Executable::Load(compiled->get()->proto(), CudaPlatform(),
                                         &FfiRegistry::Global(), LoadOptions());
      if (executable.ok()) {
        resident->executable_ = *std::move(executable);
        break;
      }
      last = executable.status();
    }
    if (resident->executable_ == nullptr) return last;
    auto stream = platform.AcquireStream();
    AOT_RETURN_IF_ERROR(stream);
    resident->stream_ = *std::move(stream);
    const ExecutableProto& proto = resident->executable_->proto();
    std::vector<DeviceMemory> memory(proto.buffer_allocations_size());
    for (const BufferAllocationProto& a : proto.buffer_allocations()) {
      auto m = platform.Allocate(a.size());
      AOT_RETURN_IF_ERROR(m);
      memory[a.index()] = *m;
      resident->owned_.push_back(*m);
      // Arguments: a repeating ramp of small values (no NaN, no overflow).
      std::vector<float> fill(static_cast<size_t>(a.size() / 4));
      for (size_t i = 0; i < fill.size(); ++i)
        fill[i] = 0.25f + 0.001f * static_cast<float>(i % 97);
      AOT_RETURN_IF_ERROR(resident->stream_->CopyHostToDevice(fill.data(), *m, fill.size() * 4));
    }
    for (const ConstantProto& c : proto.constants()) {
      absl::Status s = resident->stream_->CopyHostToDevice(
          proto.binary().data() + c.binary_offset(), memory[c.allocation_index()], c.size());
      AOT_RETURN_IF_ERROR(s);
    }
    AOT_RETURN_IF_ERROR(resident->stream_->Synchronize());
    resident->table_ = std::move(memory);
    resident->allocations_ = std::make_unique<BufferAllocations>(resident->table_);
    return resident;
  }

  ~ResidentExecutable() {
    if (stream_ != nullptr) stream_->Synchronize().IgnoreError();
    for (const DeviceMemory& m : owned_) CudaPlatform()->Free(m);
  }

  absl::Status Run() {
    ExecuteParams params{CudaPlatform().get(), stream_.get(), allocations_.get(), nullptr};
    AOT_RETURN_IF_ERROR(ExecuteSequence(executable_->thunks(), params));
    return stream_->Synchronize();
  }

  Stream& stream() { return *stream_; }

 private:
  ResidentExecutable() = default;
  std::unique_ptr<Executable> executable_;
  std::unique_ptr<Stream> stream_;
  std::vector<DeviceMemory> owned_;
  std::vector<DeviceMemory> table_;
  std::unique_ptr<BufferAllocations> allocations_;
};

void RunResident(benchmark::State& state, const std::string& hlo, int64_t bytes_per_run,
                 int64_t flops_per_run) {
  if (std::string why = Unavailable(); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  auto resident = ResidentExecutable::Compile(hlo);
  if (!resident.ok()) {
    state.SkipWithError(std::string(resident.status().message()).c_str());
    return;
  }
  if (absl::Status s = (*resident)->Run(); !s.ok()) {  // warm-up: graphs, modules
    state.SkipWithError(std::string(s.message()).c_str());
    return;
  }
  for (auto _ : state) {
    if (absl::Status s = (*resident)->Run(); !s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
  }
  state.SetBytesProcessed(state.iterations() * bytes_per_run);
  if (flops_per_run > 0) {
    state.counters["FLOPS"] = benchmark::Counter(static_cast<double>(flops_per_run),
                                                 benchmark::Counter::kIsIterationInvariantRate);
  }
}

using bench::kRows;
constexpr int64_t kElements = bench::kRows * bench::kCols;

// Baseline: one device-to-device copy of the elementwise operand (bytes
// read + written).
void BM_DeviceToDeviceCopy(benchmark::State& state) {
  if (std::string why = Unavailable(); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  Platform& platform = *CudaPlatform();
  auto stream = platform.AcquireStream();
  auto src = platform.Allocate(kElements * 4);
  auto dst = platform.Allocate(kElements * 4);
  if (!stream.ok() || !src.ok() || !dst.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  for (auto _ : state) {
    absl::Status s = (*stream)->CopyDeviceToDevice(*src, *dst, kElements * 4);
    if (s.ok()) s = (*stream)->Synchronize();
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      break;
    }
  }
  state.SetBytesProcessed(state.iterations() * 2 * kElements * 4);
  platform.Free(*src);
  platform.Free(*dst);
}
BENCHMARK(BM_DeviceToDeviceCopy)->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_Elementwise(benchmark::State& state) {
  RunResident(state, bench::kElementwise, 3 * kElements * 4, 0);
}
BENCHMARK(BM_Elementwise)->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_RowReduction(benchmark::State& state) {
  RunResident(state, bench::kRowSum, kElements * 4 + kRows * 4, 0);
}
BENCHMARK(BM_RowReduction)->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_Softmax(benchmark::State& state) {
  RunResident(state, bench::kSoftmax, bench::kSoftmaxBytes, 0);
}
BENCHMARK(BM_Softmax)->UseRealTime()->Unit(benchmark::kMicrosecond);

constexpr int64_t kGemm = 2048;

void BM_Gemm(benchmark::State& state) {
  RunResident(state, bench::Dot(kGemm), 3 * kGemm * kGemm * 4, 2 * kGemm * kGemm * kGemm);
}
BENCHMARK(BM_Gemm)->UseRealTime()->Unit(benchmark::kMicrosecond);

// Baseline: the same GEMM through the platform's cuBLAS call, no
// executable around it.
void BM_GemmCublasDirect(benchmark::State& state) {
  if (std::string why = Unavailable(); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  Platform& platform = *CudaPlatform();
  auto stream = platform.AcquireStream();
  auto a = platform.Allocate(kGemm * kGemm * 4);
  auto b = platform.Allocate(kGemm * kGemm * 4);
  auto c = platform.Allocate(kGemm * kGemm * 4);
  if (!stream.ok() || !a.ok() || !b.ok() || !c.ok()) {
    state.SkipWithError("allocation failed");
    return;
  }
  GemmParams p;
  p.m = p.n = p.k = kGemm;
  for (auto _ : state) {
    absl::Status s = (*stream)->Gemm(p, *a, *b, *c);
    if (s.ok()) s = (*stream)->Synchronize();
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      break;
    }
  }
  state.counters["FLOPS"] = benchmark::Counter(static_cast<double>(2 * kGemm * kGemm * kGemm),
                                               benchmark::Counter::kIsIterationInvariantRate);
  platform.Free(*a);
  platform.Free(*b);
  platform.Free(*c);
}
BENCHMARK(BM_GemmCublasDirect)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace aot
