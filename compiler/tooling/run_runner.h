#ifndef AOT_COMPILER_TOOLING_RUN_RUNNER_H_
#define AOT_COMPILER_TOOLING_RUN_RUNNER_H_

// aot-run's per-file runner, shared by the files that hold its families
// (internal to compiler/tooling, not an API): run_tool.cc (flags, inputs,
// loading and dispatch), run_single.cc (one participant: interpreted or
// executed, outputs, the StableHLO checks), run_replicas.cc (several
// participants on threads), run_partitions.cc (SPMD partitions).

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/hlo/literal.h"
#include "compiler/stablehlo/stablehlo_to_hlo.h"
#include "compiler/tooling/flags.h"
#include "compiler/tooling/jax_test_data.h"
#include "compiler/tooling/run_summary.h"
#include "proto/executable.pb.h"
#include "runtime/executable/client.h"

namespace aot {
namespace run_internal {

inline constexpr char kProgram[] = "aot-run";

inline void Note(absl::string_view message) { ReportToolNote(kProgram, message); }

inline double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

enum class RunPlatform { kInterpreter, kHost, kCuda };

struct Options {
  // Unset: host, or the platform a serialized executable was compiled for.
  std::optional<RunPlatform> platform;
  bool reference = true;
  std::string target_config;
  std::string outputs_path;
  int64_t iterations = 3;
  uint64_t seed = 42;
  bool print = false;
  bool require_execution = false;
  bool have_inputs = false;
  std::string inputs_path;
  // {"arguments": [...]}: one list, every participant's. {"replicas":
  // [{"arguments": [...]}, ...]}: one list per participant.
  std::vector<std::vector<Literal>> input_values;
  bool inputs_per_replica = false;
  int64_t num_replicas = 0;  // 0: the module's replica_count
  int64_t num_partitions = 0;
  absl::Duration collective_timeout = absl::Seconds(60);
  std::vector<std::string> emission_flags;
};

// Seeds of the random arguments: participant p's parameter i uses
// seed + kReplicaSeedStride * p + i (participant 0 as a one-replica run).
inline constexpr uint64_t kReplicaSeedStride = 1000;

struct RunInputs {
  bool per_replica = false;
  std::vector<std::vector<Literal>> values;  // one list, or one per replica
};

// aot-run's --inputs: {"arguments": [...]} or {"replicas": [{"arguments":
// [...]}, ...]}; each list in literal_json.h's format.
absl::StatusOr<RunInputs> ParseRunInputs(absl::string_view text);

// Per-file outcome: 0, or the exit code with the error already reported.
class Runner {
 public:
  explicit Runner(Options options) : options_(std::move(options)) {}

  int RunFile(const std::string& path, size_t index, size_t count);

 private:
  // HLO text or an HloModuleProto: compiled for the platform (or
  // interpreted), then run.
  int RunModule(const std::string& path, const LoadedHloModule& loaded, size_t index, size_t count);
  int Fail(const absl::Status& status, int code) { return ReportToolError(kProgram, status, code); }
  // The first execution failed with `status`: a machine that cannot
  // execute the platform reports the run as skipped (0, or 1 with
  // --require_execution); anything else is a failure.
  int NotExecuted(const std::string& path, const std::string& label, const Shape& result_shape,
                  double load_ms, const absl::Status& status);
  // The comparison's verdict: 0, or 1 with the mismatch reported.
  int MismatchExitCode(const std::string& path, const ReferenceOutcome& reference);
  // Each participant's arguments (`participants` lists).
  absl::StatusOr<std::vector<std::vector<Literal>>> Arguments(const std::string& path,
                                                              const std::vector<Shape>& shapes,
                                                              int64_t participants);
  int Interpret(const std::string& path, const HloModule& module, size_t index, size_t count);
  // A multi-participant executable: every participant on its own thread,
  // compared replica by replica with the multi-replica interpreter.
  int ExecuteReplicas(const std::string& path, const Executable& exe, const Shape& result_shape,
                      double load_ms, const std::vector<std::vector<Literal>>& arguments,
                      const HloModule* reference_module, size_t index, size_t count);
  int Execute(const std::string& path, RunPlatform platform, const std::string* serialized,
              const ExecutableProto* proto, const HloModule* reference_module, size_t index,
              size_t count);
  // The client of `platform` on device `device_ordinal` (CUDA), made once.
  absl::StatusOr<const Client*> ClientFor(RunPlatform platform, int device_ordinal = 0);
  int WriteOutputs(Literal result, size_t index, size_t count);
  // {"replicas": [{"results": [...]}, ...]}
  int WriteReplicaOutputs(const std::vector<Literal>& results, size_t index, size_t count);
  void PrintValues(const Literal& result);
  // A StableHLO program's checks on `result`: each reported; 1 when one
  // failed, else 0.
  int ReportChecks(const Literal& result);
  // --num_partitions: the sharded module partitioned (SPMD), every
  // partition (of every replica) run, each replica's result assembled and
  // compared with the module on one device.
  int RunPartitioned(const std::string& path, const HloModule& module, size_t index, size_t count);
  // Every participant's executable (`exe` itself on the host); 0, or the
  // exit code of a failure it reported.
  int PerParticipant(const std::string& path, const Executable& exe,
                     std::vector<std::unique_ptr<Executable>>* per_device,
                     std::vector<const Executable*>* executables);

  Options options_;
  // The StableHLO program being run, if any (its checks).
  const stablehlo::ConvertedProgram* program_ = nullptr;
  // A JAX back-compat data set being run, and the module it converted to.
  const JaxTestData* data_set_ = nullptr;
  const HloModule* data_set_module_ = nullptr;
  // A JAX back-compat data file (jax_test_data.h): each data set of the
  // run's platform run on its inputs and compared with its expected
  // outputs, one line each.
  int RunJaxTestData(const std::string& path, absl::string_view bytes, size_t index, size_t count);
  std::map<std::pair<RunPlatform, int>, std::unique_ptr<Client>> clients_;
};

// The entry computation's parameter shapes, in order.
std::vector<Shape> EntryParameterShapes(const HloModule& module);

}  // namespace run_internal
}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_RUN_RUNNER_H_
