#include "compiler/tooling/run_tool.h"

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
#include "compiler/tooling/run_summary.h"
#include "compiler/tooling/stablehlo_checks.h"
#include "compiler/verifier/hlo_verifier.h"
#include "nlohmann/json.hpp"
#include "runtime/executable/client.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {
namespace {

constexpr char kProgram[] = "aot-run";

void Note(absl::string_view message) { ReportToolNote(kProgram, message); }

double MillisSince(std::chrono::steady_clock::time_point start) {
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
constexpr uint64_t kReplicaSeedStride = 1000;

struct RunInputs {
  bool per_replica = false;
  std::vector<std::vector<Literal>> values;  // one list, or one per replica
};

// aot-run's --inputs: {"arguments": [...]} or {"replicas": [{"arguments":
// [...]}, ...]}; each list in literal_json.h's format.
absl::StatusOr<RunInputs> ParseRunInputs(absl::string_view text) {
  RunInputs inputs;
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("replicas")) {
    AOT_ASSIGN_OR_RETURN(std::vector<Literal> values, ParseLiteralsJson(text, "arguments"));
    inputs.values.push_back(std::move(values));
    return inputs;
  }
  if (json.contains("arguments")) {
    return absl::InvalidArgumentError("give \"arguments\" or \"replicas\", not both");
  }
  const nlohmann::json& replicas = json["replicas"];
  if (!replicas.is_array() || replicas.empty()) {
    return absl::InvalidArgumentError(
        "\"replicas\" must be a non-empty list of {\"arguments\": [...]} objects");
  }
  inputs.per_replica = true;
  for (size_t r = 0; r < replicas.size(); ++r) {
    auto values = ParseLiteralsJson(replicas[r].dump(), "arguments");
    if (!values.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("replicas[", r, "].", values.status().message()));
    }
    inputs.values.push_back(*std::move(values));
  }
  return inputs;
}

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
  std::map<std::pair<RunPlatform, int>, std::unique_ptr<Client>> clients_;
};

absl::StatusOr<const Client*> Runner::ClientFor(RunPlatform platform, int device_ordinal) {
  auto it = clients_.find({platform, device_ordinal});
  if (it != clients_.end()) return it->second.get();
  AOT_ASSIGN_OR_RETURN(auto client, Client::Create(platform == RunPlatform::kCuda ? "cuda" : "host",
                                                   LoadOptions(), device_ordinal));
  const Client* raw = client.get();
  clients_.emplace(std::make_pair(platform, device_ordinal), std::move(client));
  return raw;
}

absl::StatusOr<std::vector<std::vector<Literal>>> Runner::Arguments(
    const std::string& path, const std::vector<Shape>& shapes, int64_t participants) {
  std::vector<std::vector<Literal>> arguments;
  if (options_.have_inputs && options_.inputs_per_replica &&
      static_cast<int64_t>(options_.input_values.size()) != participants) {
    return absl::InvalidArgumentError(
        absl::StrCat(options_.inputs_path, " gives arguments for ", options_.input_values.size(),
                     " replica(s); ", path, " runs on ", participants, " participant(s)"));
  }
  for (int64_t p = 0; p < participants; ++p) {
    if (options_.have_inputs) {
      const std::vector<Literal>& leaves =
          options_.input_values[options_.inputs_per_replica ? p : 0];
      auto grouped = UnflattenLiterals(shapes, leaves);
      if (!grouped.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(options_.inputs_path,
                         options_.inputs_per_replica ? absl::StrCat(" replicas[", p, "]") : "",
                         " does not fit module ", path, ": ", grouped.status().message()));
      }
      arguments.push_back(*std::move(grouped));
      continue;
    }
    std::vector<Literal> own;
    for (size_t i = 0; i < shapes.size(); ++i) {
      own.push_back(RandomLiteral(shapes[i], options_.seed + kReplicaSeedStride * p + i));
    }
    arguments.push_back(std::move(own));
  }
  return arguments;
}

void Runner::PrintValues(const Literal& result) {
  std::vector<Literal> leaves = result.FlattenLeaves();
  for (size_t i = 0; i < leaves.size(); ++i) {
    std::printf("  result[%zu] = %s %s\n", i, leaves[i].shape().ToString(false).c_str(),
                leaves[i].ValuesToString().c_str());
  }
}

int Runner::WriteOutputs(Literal result, size_t index, size_t count) {
  if (options_.outputs_path.empty()) return 0;
  const std::string out_path = OutputPathFor(options_.outputs_path, index, count);
  std::vector<Literal> results;
  results.push_back(std::move(result));
  if (absl::Status s = WriteFileAtomically(out_path, LiteralsToJson(results, "results")); !s.ok()) {
    return Fail(s, 1);
  }
  return 0;
}

int Runner::NotExecuted(const std::string& path, const std::string& label,
                        const Shape& result_shape, double load_ms, const absl::Status& status) {
  if (!IsCannotExecute(status)) return Fail(WithPath(path, status), 1);
  std::printf("%s\n",
              FormatSkippedRunSummary(label, result_shape, load_ms, status.message()).c_str());
  std::fflush(stdout);
  if (options_.require_execution) {
    return Fail(WithPath(path, absl::FailedPreconditionError(
                                   absl::StrCat("--require_execution: ", status.message()))),
                1);
  }
  Note(absl::StrCat(path, ": loaded and validated, not executed (no device here)",
                    options_.outputs_path.empty() ? "" : "; no results to write"));
  return 0;
}

int Runner::MismatchExitCode(const std::string& path, const ReferenceOutcome& reference) {
  if (reference.result != ReferenceResult::kMismatch) return 0;
  return Fail(
      WithPath(path, absl::InternalError(absl::StrCat(
                         "result differs from the reference interpreter: ", reference.detail))),
      1);
}

int Runner::WriteReplicaOutputs(const std::vector<Literal>& results, size_t index, size_t count) {
  if (options_.outputs_path.empty()) return 0;
  const std::string out_path = OutputPathFor(options_.outputs_path, index, count);
  // Each replica's entry is LiteralsToJson's own object, so the format of a
  // result list is written once.
  std::vector<std::string> entries;
  for (const Literal& result : results) {
    entries.push_back(std::string(absl::StripTrailingAsciiWhitespace(
        LiteralsToJson(absl::MakeConstSpan(&result, 1), "results"))));
  }
  const std::string json =
      absl::StrCat("{\"replicas\": [\n", absl::StrJoin(entries, ",\n"), "\n]}\n");
  if (absl::Status s = WriteFileAtomically(out_path, json); !s.ok()) return Fail(s, 1);
  return 0;
}

std::vector<Shape> EntryParameterShapes(const HloModule& module) {
  std::vector<Shape> shapes;
  for (const HloInstruction* p : module.entry_computation()->parameter_instructions()) {
    shapes.push_back(p->shape());
  }
  return shapes;
}

// The reference interpreter alone (the tool's original behaviour and line).
int Runner::Interpret(const std::string& path, const HloModule& module, size_t index,
                      size_t count) {
  const int64_t participants = module.config().replica_count * module.config().num_partitions;
  auto arguments = Arguments(path, EntryParameterShapes(module), participants);
  if (!arguments.ok()) return Fail(arguments.status(), 2);
  if (participants > 1) {
    ReplicatedEvaluationOptions evaluation;
    evaluation.timeout = options_.collective_timeout;
    const auto start = std::chrono::steady_clock::now();
    auto results = EvaluateReplicated(module, *arguments, evaluation);
    const double ms = MillisSince(start);
    if (!results.ok()) return Fail(WithPath(path, results.status()), 1);
    std::printf("%s: %s in %.3f ms (interpreter, %lld participants)\n", module.name().c_str(),
                (*results)[0].shape().ToString(false).c_str(), ms,
                static_cast<long long>(participants));
    if (options_.print) {
      for (size_t r = 0; r < results->size(); ++r) {
        std::printf(" replica %zu:\n", r);
        PrintValues((*results)[r]);
      }
    }
    return WriteReplicaOutputs(*results, index, count);
  }
  HloEvaluator evaluator;
  const auto start = std::chrono::steady_clock::now();
  auto result = evaluator.Evaluate(module, (*arguments)[0]);
  const double ms = MillisSince(start);
  if (!result.ok()) return Fail(WithPath(path, result.status()), 1);
  std::printf("%s: %s in %.3f ms (interpreter)\n", module.name().c_str(),
              result->shape().ToString(false).c_str(), ms);
  if (options_.print) PrintValues(*result);
  const int checks = ReportChecks(*result);
  if (int rc = WriteOutputs(*std::move(result), index, count); rc != 0) return rc;
  return checks;
}

// Loads (from `serialized` bytes or `proto`), runs and compares.
int Runner::Execute(const std::string& path, RunPlatform platform, const std::string* serialized,
                    const ExecutableProto* proto, const HloModule* reference_module, size_t index,
                    size_t count) {
  auto client = ClientFor(platform);
  if (!client.ok()) return Fail(client.status(), 2);
  const auto load_start = std::chrono::steady_clock::now();
  auto executable = serialized != nullptr ? (*client)->DeserializeExecutable(*serialized)
                                          : (*client)->Load(*proto);
  const double load_ms = MillisSince(load_start);
  if (!executable.ok()) {
    return Fail(
        WithPath(path, absl::Status(executable.status().code(),
                                    absl::StrCat("cannot load: ", executable.status().message()))),
        1);
  }
  const Executable& exe = **executable;
  auto result_shape = Shape::FromProto(exe.result().shape());
  if (!result_shape.ok()) return Fail(WithPath(path, result_shape.status()), 1);

  // Arguments in the HLO entry's form (a tuple-typed parameter as one
  // tuple, which the interpreter takes and ExecuteWithLiterals flattens)
  // when the embedded module's parameters flatten to the executable's;
  // otherwise the executable's own parameters.
  std::vector<Shape> shapes;
  if (reference_module != nullptr) {
    shapes = LogicalParameterShapes(exe, EntryParameterShapes(*reference_module));
  }
  size_t leaves = 0;
  for (const Shape& s : shapes) leaves += s.FlattenLeaves().size();
  if (reference_module == nullptr || leaves != static_cast<size_t>(exe.parameters().size())) {
    shapes.clear();
    for (const EntryParameterProto& p : exe.parameters()) {
      auto shape = Shape::FromProto(p.shape());
      if (!shape.ok()) return Fail(WithPath(path, shape.status()), 1);
      shapes.push_back(*std::move(shape));
    }
  }
  auto all_arguments = Arguments(path, shapes, exe.participant_count());
  if (!all_arguments.ok()) return Fail(all_arguments.status(), 2);
  if (exe.participant_count() > 1) {
    return ExecuteReplicas(path, exe, *result_shape, load_ms, *all_arguments, reference_module,
                           index, count);
  }
  const std::vector<Literal>* arguments = &(*all_arguments)[0];

  RunTiming timing;
  timing.load_ms = load_ms;
  auto start = std::chrono::steady_clock::now();
  auto result = ExecuteWithLiterals(exe, *arguments);
  timing.first_ms = MillisSince(start);
  if (!result.ok()) return NotExecuted(path, path, *result_shape, load_ms, result.status());
  // Steady state: the buffers made once, each iteration the execution
  // alone (as a server that keeps its buffers runs it).
  auto prepared = PreparedExecution::Create(exe, *arguments);
  if (!prepared.ok()) return Fail(WithPath(path, prepared.status()), 1);
  std::vector<double> steady;
  for (int64_t i = 0; i < options_.iterations; ++i) {
    start = std::chrono::steady_clock::now();
    absl::Status again = prepared->Run();
    steady.push_back(MillisSince(start));
    if (!again.ok()) return Fail(WithPath(path, again), 1);
  }
  timing.steady_ms = MedianMs(std::move(steady));

  ReferenceOutcome reference;
  if (!options_.reference) {
    reference = SkippedReference("");
  } else if (reference_module == nullptr) {
    reference = SkippedReference("the executable embeds no HLO module");
  } else {
    HloEvaluator evaluator;
    absl::StatusOr<Literal> expected = absl::UnknownError("");
    auto embedded_arguments = ToEmbeddedModuleArguments(exe, *reference_module, *arguments);
    if (!embedded_arguments.ok()) {
      expected = embedded_arguments.status();
    } else {
      expected = evaluator.Evaluate(*reference_module, *embedded_arguments);
      if (expected.ok()) expected = FromEmbeddedModuleResult(exe, *std::move(expected));
    }
    if (!expected.ok()) {
      return Fail(WithPath(path, absl::Status(expected.status().code(),
                                              absl::StrCat("reference interpreter: ",
                                                           expected.status().message()))),
                  1);
    }
    reference = CompareWithReference(*expected, *result);
  }
  std::printf("%s\n", FormatRunSummary(path, *result_shape, timing, reference).c_str());
  if (options_.print) PrintValues(*result);
  const int checks = ReportChecks(*result);
  std::fflush(stdout);
  if (int rc = WriteOutputs(*std::move(result), index, count); rc != 0) {
    return rc;
  }
  if (int rc = MismatchExitCode(path, reference); rc != 0) return rc;
  return checks;
}

// CUDA: one device per participant (its device assignment's), the
// executable loaded on each; the host runs the one loaded executable on
// every participant's thread.
int Runner::PerParticipant(const std::string& path, const Executable& exe,
                           std::vector<std::unique_ptr<Executable>>* per_device,
                           std::vector<const Executable*>* executables) {
  executables->assign(1, &exe);
  if (exe.platform()->kind() != PLATFORM_CUDA) return 0;
  executables->clear();
  const auto& device_ids = exe.proto().device_assignment().device_ids();
  for (int64_t p = 0; p < exe.participant_count(); ++p) {
    const int ordinal = static_cast<int>(p < device_ids.size() ? device_ids[p] : p);
    auto client = ClientFor(RunPlatform::kCuda, ordinal);
    if (!client.ok()) return Fail(client.status(), 2);
    auto loaded = (*client)->Load(exe.proto());
    if (!loaded.ok()) {
      return Fail(WithPath(path, absl::Status(loaded.status().code(),
                                              absl::StrCat("cannot load on CUDA device ", ordinal,
                                                           ": ", loaded.status().message()))),
                  1);
    }
    executables->push_back(loaded->get());
    per_device->push_back(*std::move(loaded));
  }
  return 0;
}

int Runner::ExecuteReplicas(const std::string& path, const Executable& exe,
                            const Shape& result_shape, double load_ms,
                            const std::vector<std::vector<Literal>>& arguments,
                            const HloModule* reference_module, size_t index, size_t count) {
  const int64_t participants = exe.participant_count();
  const std::string label = absl::StrCat(path, " (", participants, " participants)");
  std::vector<std::unique_ptr<Executable>> per_device;
  std::vector<const Executable*> executables;
  if (int rc = PerParticipant(path, exe, &per_device, &executables); rc != 0) return rc;
  RunTiming timing;
  timing.load_ms = load_ms;
  auto start = std::chrono::steady_clock::now();
  auto results = ExecuteReplicatedWithLiterals(executables, arguments, options_.collective_timeout);
  timing.first_ms = MillisSince(start);
  if (!results.ok()) {
    return NotExecuted(path, label, result_shape, load_ms, results.status());
  }
  // Steady state: all participants again, each iteration timed whole (the
  // threads' start and the rendezvous included).
  std::vector<double> steady;
  for (int64_t i = 0; i < options_.iterations; ++i) {
    start = std::chrono::steady_clock::now();
    auto again = ExecuteReplicatedWithLiterals(executables, arguments, options_.collective_timeout);
    steady.push_back(MillisSince(start));
    if (!again.ok()) return Fail(WithPath(path, again.status()), 1);
  }
  timing.steady_ms = MedianMs(std::move(steady));

  ReferenceOutcome reference;
  if (!options_.reference) {
    reference = SkippedReference("");
  } else if (reference_module == nullptr) {
    reference = SkippedReference("the executable embeds no HLO module");
  } else {
    ReplicatedEvaluationOptions evaluation;
    evaluation.timeout = options_.collective_timeout;
    auto expected = EvaluateReplicated(*reference_module, arguments, evaluation);
    if (!expected.ok()) {
      return Fail(WithPath(path, absl::Status(expected.status().code(),
                                              absl::StrCat("reference interpreter: ",
                                                           expected.status().message()))),
                  1);
    }
    // Replica by replica; the first mismatch is the outcome.
    for (int64_t r = 0; r < participants; ++r) {
      reference = CompareWithReference((*expected)[r], (*results)[r]);
      if (reference.result == ReferenceResult::kMismatch) {
        reference.detail = absl::StrCat("replica ", r, ": ", reference.detail);
        break;
      }
    }
  }
  std::printf("%s\n", FormatRunSummary(label, result_shape, timing, reference).c_str());
  if (options_.print) {
    for (int64_t r = 0; r < participants; ++r) {
      std::printf(" replica %lld:\n", static_cast<long long>(r));
      PrintValues((*results)[r]);
    }
  }
  std::fflush(stdout);
  if (int rc = WriteReplicaOutputs(*results, index, count); rc != 0) return rc;
  return MismatchExitCode(path, reference);
}

int Runner::ReportChecks(const Literal& result) {
  if (program_ == nullptr || program_->checks.empty()) return 0;
  int failed = 0;
  for (const CheckOutcome& outcome : EvaluateStableHloChecks(program_->checks, result)) {
    std::printf("  %s\n", outcome.message.c_str());
    if (!outcome.passed) ++failed;
  }
  std::printf("  checks: %zu passed, %d failed\n", program_->checks.size() - failed, failed);
  if (failed == 0) return 0;
  std::fflush(stdout);
  return Fail(
      absl::FailedPreconditionError(absl::StrCat(program_->entry_function, ": ", failed, " of ",
                                                 program_->checks.size(), " check(s) failed")),
      1);
}

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
  if (!full_arguments.ok()) return Fail(full_arguments.status(), 2);
  auto partitioned = PartitionSpmd(module, n);
  if (!partitioned.ok()) return Fail(WithPath(path, partitioned.status()), 1);
  Note(absl::StrCat(path,
                    ": each partition communicates: ", DescribeCollectives(*partitioned->module)));
  std::vector<std::vector<Literal>> per_participant;
  for (const std::vector<Literal>& args : *full_arguments) {
    auto split = SplitArguments(args, *partitioned);
    if (!split.ok()) return Fail(WithPath(path, split.status()), 2);
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
    if (!target.ok()) return Fail(target.status(), 2);
    CompileOptions compile_options;
    compile_options.source_path = path;
    compile_options.emission_flags = options_.emission_flags;
    auto compiled = Compile(*partitioned->module, *target, compile_options);
    if (!compiled.ok()) return Fail(WithPath(path, compiled.status()), 1);
    auto client = ClientFor(platform);
    if (!client.ok()) return Fail(client.status(), 2);
    const auto load_start = std::chrono::steady_clock::now();
    auto exe = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
    if (!exe.ok()) return Fail(WithPath(path, exe.status()), 1);
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
  if (!results.ok()) return Fail(WithPath(path, results.status()), 1);
  // Each replica's partitions' result tiles assembled (per leaf of a tuple).
  std::vector<Literal> assembled;
  for (int64_t r = 0; r < replicas; ++r) {
    std::vector<Literal> tiles(std::make_move_iterator(results->begin() + r * n),
                               std::make_move_iterator(results->begin() + (r + 1) * n));
    absl::StatusOr<Literal> whole = AssembleTiles(tiles, full_shape, partitioned->result_sharding);
    if (!whole.ok()) return Fail(WithPath(path, whole.status()), 1);
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

int Runner::RunModule(const std::string& path, const LoadedHloModule& loaded, size_t index,
                      size_t count) {
  HloModule& module = *loaded.module;
  if (options_.num_replicas > 0) module.mutable_config()->replica_count = options_.num_replicas;
  if (!loaded.elided_constants.empty()) {
    Note(absl::StrCat(path, ": constant(s) ", absl::StrJoin(loaded.elided_constants, ", "),
                      " had elided values; filled with seeded random values (seed ", options_.seed,
                      ")"));
  }
  if (absl::Status s = VerifyHloModule(module); !s.ok()) {
    return Fail(loaded.stablehlo != nullptr ? AtSource(loaded, s) : WithPath(path, s), 2);
  }
  if (options_.num_partitions > 0) return RunPartitioned(path, module, index, count);
  const RunPlatform platform = options_.platform.value_or(RunPlatform::kHost);
  if (platform == RunPlatform::kInterpreter) {
    return Interpret(path, module, index, count);
  }
  auto target = SelectTarget(platform == RunPlatform::kCuda ? PLATFORM_CUDA : PLATFORM_HOST,
                             options_.target_config);
  if (!target.ok()) return Fail(target.status(), 2);
  CompileOptions compile_options;
  compile_options.source_path = path;
  compile_options.emission_flags = options_.emission_flags;
  auto compiled = Compile(module, *target, compile_options);
  if (!compiled.ok()) return Fail(WithPath(path, compiled.status()), 1);
  Note(absl::StrCat(path, ": compiled for ", target->name(), " in ",
                    absl::StrFormat("%.3f", (*compiled)->compile_ms()), " ms"));
  // Loaded from its bytes, as a deployment would.
  const std::string serialized = (*compiled)->SerializeAsString();
  return Execute(path, platform, &serialized, nullptr, &module, index, count);
}

int Runner::RunFile(const std::string& path, size_t index, size_t count) {
  auto bytes = ReadFileToString(path);
  if (!bytes.ok()) return Fail(bytes.status(), 2);
  const InputKind kind = DetectRunInputKind(path, *bytes);

  if (kind == InputKind::kStableHloText) {
    // Each "// -----" piece, and in it main or every public function
    // without arguments (StableHLO's own test files), in turn.
    auto tests = stablehlo::ListStableHloTests(*bytes, path);
    if (!tests.ok()) return Fail(tests.status(), 2);
    if (tests->empty())
      return Fail(WithPath(path, absl::InvalidArgumentError("no function to run")), 2);
    int exit_code = 0;
    for (const stablehlo::StableHloTest& test : *tests) {
      const std::string label = tests->size() > 1 ? absl::StrCat(path, ":@", test.function) : path;
      auto loaded = LoadStableHloProgram(test.text, path, test.first_line, test.function);
      int rc = 0;
      if (!loaded.ok()) {
        rc = Fail(loaded.status(), 2);
      } else {
        program_ = loaded->stablehlo.get();
        rc = RunModule(label, *loaded, index, count);
        program_ = nullptr;
      }
      if (exit_code == 0) exit_code = rc;
    }
    return exit_code;
  }

  if (kind == InputKind::kHloText) {
    auto loaded = ParseHloModuleBytes(*bytes, path, kind, options_.seed);
    if (!loaded.ok()) return Fail(loaded.status(), 2);
    return RunModule(path, *loaded, index, count);
  }

  // A serialized executable, or else an HloModuleProto (as aotc
  // --emit-proto writes them).
  const bool text = kind == InputKind::kExecutableText;
  auto proto = ParseExecutableProto(*bytes, text ? ArtifactFormat::kText : ArtifactFormat::kBinary);
  if (!proto.ok() || (proto->thunks_size() == 0 && !proto->has_result())) {
    auto as_module = ParseHloModuleBytes(
        *bytes, path, text ? InputKind::kHloProtoText : InputKind::kHloProtoBinary, options_.seed);
    if (as_module.ok()) return RunModule(path, *as_module, index, count);
    if (!proto.ok()) return Fail(WithPath(path, proto.status()), 2);
  }
  const int64_t compiled_replicas =
      std::max<int64_t>(proto->device_assignment().replica_count(), 1);
  if (options_.num_replicas > 0 && options_.num_replicas != compiled_replicas) {
    // A serialized executable's device assignment is fixed at compile time.
    return Fail(WithPath(path, absl::InvalidArgumentError(absl::StrCat(
                                   "--num_replicas=", options_.num_replicas,
                                   ": the executable was compiled for ", compiled_replicas,
                                   " replica(s); compile its HLO for another count"))),
                2);
  }
  std::unique_ptr<HloModule> embedded;
  if (proto->hlo_module().hlo_module().computations_size() > 0) {
    // Large constants are stored once, in `binary`: the embedded module
    // gets their elements back from there.
    HloModuleProto with_constants = proto->hlo_module().hlo_module();
    absl::Status restored = RestoreEmbeddedConstantPayloads(*proto, &with_constants);
    if (!restored.ok()) return Fail(WithPath(path, restored), 2);
    auto module = HloModuleFromProto(with_constants, &proto->hlo_module().config());
    if (!module.ok()) {
      return Fail(WithPath(path, absl::Status(module.status().code(),
                                              absl::StrCat("embedded HLO module: ",
                                                           module.status().message()))),
                  2);
    }
    embedded = *std::move(module);
  }
  // An artifact runs where it was compiled for unless --platform says.
  RunPlatform platform = options_.platform.value_or(
      proto->capability().has_cuda() ? RunPlatform::kCuda : RunPlatform::kHost);
  if (platform == RunPlatform::kInterpreter) {
    if (embedded == nullptr) {
      return Fail(WithPath(path, absl::InvalidArgumentError(
                                     "the executable embeds no HLO module to interpret")),
                  2);
    }
    return Interpret(path, *embedded, index, count);
  }
  return Execute(path, platform, nullptr, &*proto, embedded.get(), index, count);
}

}  // namespace

void AddRunToolFlags(FlagSet& flags, RunToolFlags* out) {
  flags.AddString("platform", &out->platform,
                  "Where to run: host, cuda or interpreter (default: host, or the platform "
                  "a serialized executable was compiled for).");
  flags.AddString("reference_platform", &out->reference_platform,
                  "Compare with: interpreter or none (default: interpreter, none when "
                  "--platform=interpreter).");
  flags.AddString("target_config", &out->target_config,
                  "Target to compile HLO for: a shipped spec name or a .txtpb "
                  "(default: the best host-x86-64-vN here; h100 for cuda).");
  flags.AddString("inputs", &out->inputs_path,
                  "JSON file with the arguments: {\"arguments\": [...]} (every replica gets "
                  "them) or {\"replicas\": [{\"arguments\": [...]}, ...]} (one entry per "
                  "replica). Without it, random arguments (replica r: seed + 1000 r).");
  flags.AddString("outputs", &out->outputs_path,
                  "Write the results as JSON ({\"results\": [...]}; several replicas: "
                  "{\"replicas\": [{\"results\": [...]}, ...]}) to this file.");
  flags.AddInt("num_replicas", &out->num_replicas,
               "Replicas to compile the HLO for and run, each on its own thread meeting at "
               "the collectives (default: the module's replica_count; a serialized "
               "executable runs on the replicas it was compiled for).");
  flags.AddInt("num_partitions", &out->num_partitions,
               "Partition the module by its shardings (SPMD) for this many partitions and run "
               "them, each on its own thread (host) or device (cuda) meeting at the "
               "collectives: full arguments are split by the parameters' shardings, the "
               "result tiles assembled and compared with the single-device interpreter "
               "(compiling needs --xla_aot_emit_collectives=true). With --num_replicas=R: "
               "R x N participants, each replica partitioned alike on its own arguments. "
               "HLO input only.");
  flags.AddInt("collective_timeout_ms", &out->collective_timeout_ms,
               "How long a replica waits at a collective for the others before every "
               "participant fails with DeadlineExceeded.");
  flags.AddInt("iterations", &out->iterations,
               "Steady-state runs after the first; their median is reported.");
  flags.AddInt("seed", &out->seed, "Seed of the random arguments and of elided constants' values.");
  flags.AddBool("print", &out->print, "Print the result values.");
  flags.AddBool("require_execution", &out->require_execution,
                "Fail (exit 1) when the platform cannot execute here instead of "
                "reporting execution as skipped.");
  AddEmissionFlagsFlag(flags, &out->emission_flags);
}

int RunTool(const RunToolFlags& flags, const std::vector<std::string>& positional) {
  auto usage = [](absl::string_view message) {
    return ReportToolError(kProgram, absl::InvalidArgumentError(message), 2);
  };

  Options options;
  if (!flags.platform.empty()) {
    if (flags.platform == "interpreter") {
      options.platform = RunPlatform::kInterpreter;
    } else if (auto kind = ParsePlatformName(flags.platform); kind.ok()) {
      options.platform = *kind == PLATFORM_CUDA ? RunPlatform::kCuda : RunPlatform::kHost;
    } else {
      return usage(absl::StrCat("unknown platform '", flags.platform,
                                "' (available: host, cuda, interpreter)"));
    }
  }
  if (!flags.target_config.empty()) {
    auto target = ResolveTargetConfig(flags.target_config);
    if (!target.ok()) return ReportToolError(kProgram, target.status(), 2);
    if (!options.platform.has_value()) {
      options.platform =
          target->platform() == PLATFORM_CUDA ? RunPlatform::kCuda : RunPlatform::kHost;
    } else if (*options.platform == RunPlatform::kInterpreter) {
      return usage("--target_config does not apply to --platform=interpreter");
    } else {
      PlatformKind want = *options.platform == RunPlatform::kCuda ? PLATFORM_CUDA : PLATFORM_HOST;
      if (auto checked = SelectTarget(want, flags.target_config); !checked.ok()) {
        return ReportToolError(kProgram, checked.status(), 2);
      }
    }
  }
  if (flags.reference_platform.empty()) {
    options.reference = options.platform != RunPlatform::kInterpreter;
  } else if (flags.reference_platform == "interpreter") {
    options.reference = true;
  } else if (flags.reference_platform == "none") {
    options.reference = false;
  } else {
    return usage(absl::StrCat("unknown reference platform '", flags.reference_platform,
                              "' (available: interpreter, none)"));
  }
  if (flags.iterations < 1 || flags.iterations > 1000000) {
    return usage(absl::StrCat("--iterations=", flags.iterations, ": need 1 to 1000000"));
  }
  if (flags.num_replicas < 0 || flags.num_replicas > 1024) {
    return usage(absl::StrCat("--num_replicas=", flags.num_replicas,
                              ": need 1 to 1024 (0: the module's replica_count)"));
  }
  if (flags.num_partitions < 0 || flags.num_partitions > 1024) {
    return usage(absl::StrCat("--num_partitions=", flags.num_partitions,
                              ": need 1 to 1024 (0: no partitioning)"));
  }
  if (flags.collective_timeout_ms < 1) {
    return usage(
        absl::StrCat("--collective_timeout_ms=", flags.collective_timeout_ms, ": need at least 1"));
  }
  if (positional.empty()) {
    return usage(absl::StrCat("no HLO module or executable given (see ", kProgram, " --help)"));
  }
  auto files = ExpandFileArguments(positional);
  if (!files.ok()) return ReportToolError(kProgram, files.status(), 2);

  options.target_config = flags.target_config;
  options.outputs_path = flags.outputs_path;
  options.iterations = flags.iterations;
  options.seed = static_cast<uint64_t>(flags.seed);
  options.print = flags.print;
  options.require_execution = flags.require_execution;
  options.inputs_path = flags.inputs_path;
  options.emission_flags = flags.emission_flags;
  options.num_replicas = flags.num_replicas;
  options.num_partitions = flags.num_partitions;
  options.collective_timeout = absl::Milliseconds(flags.collective_timeout_ms);
  options.have_inputs = !flags.inputs_path.empty();
  if (options.have_inputs) {
    auto text = ReadFileToString(flags.inputs_path);
    if (!text.ok()) return ReportToolError(kProgram, text.status(), 2);
    auto parsed = ParseRunInputs(*text);
    if (!parsed.ok()) {
      return ReportToolError(kProgram, WithPath(flags.inputs_path, parsed.status()), 2);
    }
    options.inputs_per_replica = parsed->per_replica;
    options.input_values = std::move(parsed->values);
  } else {
    Note(absl::StrCat("no --inputs: using random arguments (seed ", flags.seed, ")"));
  }

  Runner runner(std::move(options));
  int exit_code = 0;
  for (size_t i = 0; i < files->size(); ++i) {
    int rc = runner.RunFile((*files)[i], i, files->size());
    if (exit_code == 0) exit_code = rc;
  }
  std::fflush(stdout);
  return exit_code;
}

}  // namespace aot
