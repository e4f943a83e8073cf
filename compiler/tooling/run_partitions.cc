// aot-run --num_partitions: a sharded module partitioned (SPMD), every
// partition run, the result tiles assembled and compared.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "compiler/backend/compiler.h"
#include "compiler/backend/embedded_constants.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/interpreter/replicated_evaluator.h"
#include "compiler/passes/spmd_partitioner.h"
#include "compiler/target/target_config.h"
#include "compiler/target/target_selection.h"
#include "compiler/tooling/compile_tool.h"
#include "compiler/tooling/input_files.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/literal_json.h"
#include "compiler/tooling/random_literal.h"
#include "compiler/tooling/run_runner.h"
#include "compiler/tooling/run_summary.h"
#include "compiler/tooling/stablehlo_checks.h"
#include "compiler/verifier/hlo_verifier.h"
#include "nlohmann/json.hpp"
#include "runtime/executable/client.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {
namespace run_internal {

int Runner::RunPartitioned(const std::string& path, const HloModule& module, size_t index,
                           size_t count) {
  const int64_t n = options_.num_partitions;
  // R replicas x N partitions: each replica's full arguments split into its
  // partitions' tiles (participant r * N + p), each replica's result
  // assembled and compared with the single-device interpretation of its
  // arguments.
  const int64_t replicas = std::max<int64_t>(module.config().replica_count, 1);
  std::unique_ptr<HloModule> single = module.Clone();
  single->mutable_config()->num_partitions = 1;
  single->mutable_config()->replica_count = 1;
  auto full_arguments = Arguments(path, EntryParameterShapes(*single), replicas);
  AOT_RETURN_IF_ERROR_AND(full_arguments, Fail(_, 2));
  auto partitioned = PartitionSpmd(module, n);
  AOT_RETURN_IF_ERROR_AND(partitioned, Fail(WithPath(path, _), 1));
  Note(absl::StrCat(path,
                    ": each partition communicates: ", DescribeCollectives(*partitioned->module)));
  std::vector<std::vector<Literal>> per_participant;
  for (const std::vector<Literal>& args : *full_arguments) {
    auto split = SplitArguments(args, *partitioned);
    AOT_RETURN_IF_ERROR_AND(split, Fail(WithPath(path, _), 2));
    for (std::vector<Literal>& tiles : *split) per_participant.push_back(std::move(tiles));
  }
  const RunPlatform platform = options_.platform.value_or(RunPlatform::kHost);
  const std::string label =
      replicas > 1 ? absl::StrCat(path, " (", replicas, " replicas x ", n, " partitions)")
                   : absl::StrCat(path, " (", n, " partitions)");
  const Shape& full_shape = single->entry_computation()->root_instruction()->shape();
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<Literal>> results = absl::UnknownError("");
  std::unique_ptr<Executable> loaded_exe;
  std::vector<std::unique_ptr<Executable>> per_device;
  if (platform == RunPlatform::kInterpreter) {
    ReplicatedEvaluationOptions evaluation;
    evaluation.timeout = options_.collective_timeout;
    results = EvaluateReplicated(*partitioned->module, per_participant, evaluation);
  } else {
    auto target = SelectTarget(platform == RunPlatform::kCuda ? PLATFORM_CUDA : PLATFORM_HOST,
                               options_.target_config);
    AOT_RETURN_IF_ERROR_AND(target, Fail(_, 2));
    CompileOptions compile_options;
    compile_options.source_path = path;
    compile_options.emission_flags = options_.emission_flags;
    auto compiled = Compile(*partitioned->module, *target, compile_options);
    AOT_RETURN_IF_ERROR_AND(compiled, Fail(WithPath(path, _), 1));
    auto client = ClientFor(platform);
    AOT_RETURN_IF_ERROR_AND(client, Fail(_, 2));
    const auto load_start = std::chrono::steady_clock::now();
    auto exe = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
    AOT_RETURN_IF_ERROR_AND(exe, Fail(WithPath(path, _), 1));
    loaded_exe = *std::move(exe);
    std::vector<const Executable*> executables;
    if (int rc = PerParticipant(path, *loaded_exe, &per_device, &executables); rc != 0) return rc;
    const double load_ms = MillisSince(load_start);
    results =
        ExecuteReplicatedWithLiterals(executables, per_participant, options_.collective_timeout);
    // CUDA without a device here: loaded and validated on every
    // participant, not run.
    if (!results.ok() && platform == RunPlatform::kCuda) {
      return NotExecuted(path, label, full_shape, load_ms, results.status());
    }
  }
  const double ms = MillisSince(start);
  AOT_RETURN_IF_ERROR_AND(results, Fail(WithPath(path, _), 1));
  // Each replica's partitions' result tiles assembled (per leaf of a tuple).
  std::vector<Literal> assembled;
  for (int64_t r = 0; r < replicas; ++r) {
    std::vector<Literal> tiles(std::make_move_iterator(results->begin() + r * n),
                               std::make_move_iterator(results->begin() + (r + 1) * n));
    absl::StatusOr<Literal> whole = AssembleTiles(tiles, full_shape, partitioned->result_sharding);
    AOT_RETURN_IF_ERROR_AND(whole, Fail(WithPath(path, _), 1));
    assembled.push_back(*std::move(whole));
  }
  ReferenceOutcome reference = SkippedReference("");
  if (options_.reference || platform == RunPlatform::kInterpreter) {
    // The module on one device per replica (its collectives across
    // replicas meeting there).
    single->mutable_config()->replica_count = replicas;
    absl::StatusOr<std::vector<Literal>> expected_all = absl::UnknownError("");
    if (replicas > 1) {
      ReplicatedEvaluationOptions evaluation;
      evaluation.timeout = options_.collective_timeout;
      expected_all = EvaluateReplicated(*single, *full_arguments, evaluation);
    } else {
      HloEvaluator evaluator;
      absl::StatusOr<Literal> one = evaluator.Evaluate(*single, (*full_arguments)[0]);
      if (one.ok()) {
        expected_all = std::vector<Literal>();
        expected_all->push_back(*std::move(one));
      } else {
        expected_all = one.status();
      }
    }
    if (!expected_all.ok()) {
      return Fail(WithPath(path, absl::Status(expected_all.status().code(),
                                              absl::StrCat("reference interpreter: ",
                                                           expected_all.status().message()))),
                  1);
    }
    for (int64_t r = 0; r < replicas; ++r) {
      const Literal* expected = &(*expected_all)[r];
      reference = CompareWithReference(*expected, assembled[r]);
      if (reference.result == ReferenceResult::kMismatch) {
        if (replicas > 1) reference.detail = absl::StrCat("replica ", r, ": ", reference.detail);
        break;
      }
    }
  }
  std::printf("%s: %s in %.3f ms (%s, %s; reference: %s)\n", label.c_str(),
              full_shape.ToString(false).c_str(), ms,
              platform == RunPlatform::kInterpreter ? "interpreter"
              : platform == RunPlatform::kCuda      ? "cuda"
                                                    : "host",
              replicas > 1 ? absl::StrCat(replicas * n, " participants").c_str()
                           : absl::StrCat(n, " partitions").c_str(),
              reference.result == ReferenceResult::kMatch      ? "match"
              : reference.result == ReferenceResult::kMismatch ? "mismatch"
                                                               : "skipped");
  if (options_.print) {
    for (int64_t r = 0; r < replicas; ++r) {
      if (replicas > 1) std::printf(" replica %lld:\n", static_cast<long long>(r));
      PrintValues(assembled[r]);
    }
  }
  std::fflush(stdout);
  if (replicas > 1) {
    if (int rc = WriteReplicaOutputs(assembled, index, count); rc != 0) return rc;
  } else if (int rc = WriteOutputs(std::move(assembled[0]), index, count); rc != 0) {
    return rc;
  }
  return MismatchExitCode(label, reference);
}

}  // namespace run_internal
}  // namespace aot
