// aot-run, one participant: the interpreter alone, or an executable loaded
// and run and compared with it; outputs; a StableHLO program's checks.

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
#include "compiler/tooling/jax_decomposition_check.h"
#include "compiler/tooling/jax_test_data.h"
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
  AOT_RETURN_IF_ERROR_AND(arguments, Fail(_, 2));
  if (participants > 1) {
    ReplicatedEvaluationOptions evaluation;
    evaluation.timeout = options_.collective_timeout;
    const auto start = std::chrono::steady_clock::now();
    auto results = EvaluateReplicated(module, *arguments, evaluation);
    const double ms = MillisSince(start);
    AOT_RETURN_IF_ERROR_AND(results, Fail(WithPath(path, _), 1));
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
  AOT_RETURN_IF_ERROR_AND(result, Fail(WithPath(path, _), 1));
  // A JAX data set is named by its file and key; a module by its name.
  std::printf("%s: %s in %.3f ms (interpreter)\n",
              data_set_ != nullptr ? path.c_str() : module.name().c_str(),
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
  AOT_RETURN_IF_ERROR_AND(client, Fail(_, 2));
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
  AOT_RETURN_IF_ERROR_AND(result_shape, Fail(WithPath(path, _), 1));

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
      AOT_RETURN_IF_ERROR_AND(shape, Fail(WithPath(path, _), 1));
      shapes.push_back(*std::move(shape));
    }
  }
  auto all_arguments = Arguments(path, shapes, exe.participant_count());
  AOT_RETURN_IF_ERROR_AND(all_arguments, Fail(_, 2));
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
  AOT_RETURN_IF_ERROR_AND(result, NotExecuted(path, path, *result_shape, load_ms, _));
  // Steady state: the buffers made once, each iteration the execution
  // alone (as a server that keeps its buffers runs it).
  auto prepared = PreparedExecution::Create(exe, *arguments);
  AOT_RETURN_IF_ERROR_AND(prepared, Fail(WithPath(path, _), 1));
  std::vector<double> steady;
  for (int64_t i = 0; i < options_.iterations; ++i) {
    start = std::chrono::steady_clock::now();
    absl::Status again = prepared->Run();
    steady.push_back(MillisSince(start));
    AOT_RETURN_IF_ERROR_AND(again, Fail(WithPath(path, _), 1));
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

int Runner::ReportChecks(const Literal& result) {
  if (data_set_ != nullptr) {
    // A JAX back-compat data set: its expected outputs, or for the
    // decompositions JAX's tests check by their properties, those.
    const std::vector<Literal>& expected = data_set_->expected_outputs;
    std::optional<absl::Status> decomposition =
        CheckJaxDecomposition(*data_set_, *data_set_module_, result);
    absl::Status match = decomposition ? *decomposition : CompareWithJaxExpected(result, expected);
    const char* what = decomposition ? "as JAX's test checks the decomposition" : "";
    std::printf("  expected_outputs: %s\n",
                match.ok() ? absl::StrCat("match (", expected.size(), " value(s)",
                                          decomposition ? ", " : "", what, ")")
                                 .c_str()
                           : absl::StrCat("FAILED: ", match.message()).c_str());
    if (!match.ok()) {
      std::fflush(stdout);
      return Fail(WithPath(options_.inputs_path, match), 1);
    }
  }
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

}  // namespace run_internal
}  // namespace aot
