// SPMD on the host (issue 46): a transformer MLP block (256x1024 @
// 1024x4096, relu, @ 4096x1024) partitioned tensor-parallel over 2
// partitions, one thread each (AOT_HOST_THREADS=1, OpenBLAS on one
// thread), against the same block on 1 partition and one thread, in the
// same run. Each iteration runs from literals (arguments copied in,
// results out) on both sides.
#include <cblas.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "benchmark/benchmark.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/passes/spmd_partitioner.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "runtime/executable/client.h"
#include "support/status_macros.h"

namespace aot {
namespace {

constexpr char kMlpBlock[] = R"(
HloModule mlp_block, num_partitions=$N
ENTRY main {
  x = f32[256,1024] parameter(0), sharding={replicated}
  w1 = f32[1024,4096] parameter(1), sharding={devices=[1,$N]<=[$N]}
  w2 = f32[4096,1024] parameter(2), sharding={devices=[$N,1]<=[$N]}
  h = f32[256,4096] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  zero = f32[] constant(0)
  zeros = f32[256,4096] broadcast(zero), dimensions={}
  r = f32[256,4096] maximum(h, zeros)
  ROOT y = f32[256,1024] dot(r, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";

// One thread per partition for the whole benchmark: the runtime's pool and
// OpenBLAS.
class OneThreadEach {
 public:
  OneThreadEach() : blas_threads_(openblas_get_num_threads()) {
    setenv("AOT_HOST_THREADS", "1", 1);
    openblas_set_num_threads(1);
  }
  ~OneThreadEach() {
    unsetenv("AOT_HOST_THREADS");
    openblas_set_num_threads(blas_threads_);
  }

 private:
  int blas_threads_;
};

void RunMlp(benchmark::State& state, int64_t n) {
  OneThreadEach threads;
  auto module = ParseHloModule(absl::StrReplaceAll(kMlpBlock, {{"$N", absl::StrCat(n)}}));
  AOT_RETURN_IF_ERROR_AND(module, state.SkipWithError(std::string(_.message()).c_str()));
  std::unique_ptr<HloModule> single = (*module)->Clone();
  std::vector<Literal> args = RandomArguments(*single, 5);
  std::unique_ptr<HloModule> program;
  std::vector<std::vector<Literal>> per_partition(n);
  CompileOptions options;
  if (n == 1) {
    program = std::move(single);
    per_partition[0] = std::move(args);
  } else {
    auto partitioned = PartitionSpmd(**module, n);
    if (!partitioned.ok()) {
      return state.SkipWithError(std::string(partitioned.status().message()).c_str());
    }
    auto split = SplitArguments(args, *partitioned);
    AOT_RETURN_IF_ERROR_AND(split, state.SkipWithError(std::string(_.message()).c_str()));
    per_partition = *std::move(split);
    program = std::move(partitioned->module);
    options.emission_flags = {"emit_collectives"};
  }
  auto target = ShippedTargetConfig("host-x86-64-v2");
  auto compiled = Compile(*program, *target, options);
  AOT_RETURN_IF_ERROR_AND(compiled, state.SkipWithError(std::string(_.message()).c_str()));
  auto client = Client::Create("host");
  AOT_RETURN_IF_ERROR_AND(client, state.SkipWithError(std::string(_.message()).c_str()));
  auto exe = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
  AOT_RETURN_IF_ERROR_AND(exe, state.SkipWithError(std::string(_.message()).c_str()));
  for (auto _ : state) {
    if (n == 1) {
      auto result = ExecuteWithLiterals(**exe, per_partition[0]);
      AOT_RETURN_IF_ERROR_AND(result, state.SkipWithError(std::string(_.message()).c_str()));
      benchmark::DoNotOptimize(result);
    } else {
      auto results = ExecuteReplicatedWithLiterals(**exe, per_partition);
      if (!results.ok()) {
        return state.SkipWithError(std::string(results.status().message()).c_str());
      }
      benchmark::DoNotOptimize(results);
    }
  }
  const double flops = 2.0 * 2.0 * 256 * 1024 * 4096;
  state.counters["FLOPS"] =
      benchmark::Counter(flops * state.iterations(), benchmark::Counter::kIsRate);
}

void BM_SpmdMlp1Partition(benchmark::State& state) { RunMlp(state, 1); }
void BM_SpmdMlp2Partitions(benchmark::State& state) { RunMlp(state, 2); }
BENCHMARK(BM_SpmdMlp1Partition)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SpmdMlp2Partitions)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace aot
