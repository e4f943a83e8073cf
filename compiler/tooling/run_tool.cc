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
#include "absl/strings/match.h"
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
#include "compiler/tooling/jax_test_data.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/literal_json.h"
#include "compiler/tooling/random_literal.h"
#include "compiler/tooling/run_counts.h"
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

int Runner::RunModule(const std::string& path, const LoadedHloModule& loaded, size_t index,
                      size_t count) {
  HloModule& module = *loaded.module;
  auto counts = ApplyRunCounts(module, {options_.num_replicas, options_.num_partitions});
  AOT_RETURN_IF_ERROR_AND(counts, Fail(WithPath(path, _), 2));
  if (!counts->empty()) Note(absl::StrCat(path, ": ", *counts));
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
  AOT_RETURN_IF_ERROR_AND(target, Fail(_, 2));
  CompileOptions compile_options;
  compile_options.source_path = path;
  compile_options.emission_flags = options_.emission_flags;
  auto compiled = Compile(module, *target, compile_options);
  AOT_RETURN_IF_ERROR_AND(compiled, Fail(WithPath(path, _), 1));
  Note(absl::StrCat(path, ": compiled for ", target->name(), " in ",
                    absl::StrFormat("%.3f", (*compiled)->compile_ms()), " ms"));
  // Loaded from its bytes, as a deployment would.
  const std::string serialized = (*compiled)->SerializeAsString();
  return Execute(path, platform, &serialized, nullptr, &module, index, count);
}

int Runner::RunJaxTestData(const std::string& path, absl::string_view bytes, size_t index,
                           size_t count) {
  auto sets = ParseJaxTestData(bytes, path);
  AOT_RETURN_IF_ERROR_AND(sets, Fail(_, 2));
  const RunPlatform platform = options_.platform.value_or(RunPlatform::kHost);
  const std::string wanted = platform == RunPlatform::kCuda ? "cuda" : "cpu";
  int exit_code = 0, ran = 0;
  const Options saved = options_;
  for (const JaxTestData& set : *sets) {
    const std::string label = absl::StrCat(path, ":", set.name);
    if (set.platform != wanted) {
      Note(absl::StrCat(label, ": for platform '", set.platform, "', not run on ", wanted));
      continue;
    }
    ++ran;
    std::vector<std::vector<int64_t>> dims;
    for (const Literal& l : set.inputs) dims.push_back(l.shape().dimensions());
    auto loaded = LoadStableHloProgram(set.mlir_module_text, label, 1, "main", dims);
    int rc = 0;
    if (!loaded.ok()) {
      rc = Fail(loaded.status(), 2);
    } else {
      options_.have_inputs = true;
      options_.inputs_path = label;
      options_.inputs_per_replica = false;
      options_.input_values = {};
      options_.input_values.push_back(FlatInputs(set));
      program_ = loaded->stablehlo.get();
      data_set_ = &set;
      data_set_module_ = loaded->module.get();
      rc = RunModule(label, *loaded, index, count);
      program_ = nullptr;
      data_set_ = nullptr;
      data_set_module_ = nullptr;
      options_ = saved;
    }
    if (exit_code == 0) exit_code = rc;
  }
  if (ran == 0) {
    return Fail(
        WithPath(path, absl::InvalidArgumentError(absl::StrCat("no data set for platform '", wanted,
                                                               "' (of ", sets->size(), ")"))),
        2);
  }
  return exit_code;
}

int Runner::RunFile(const std::string& path, size_t index, size_t count) {
  auto bytes = ReadFileToString(path);
  AOT_RETURN_IF_ERROR_AND(bytes, Fail(_, 2));
  if (LooksLikeJaxTestData(path, *bytes)) return RunJaxTestData(path, *bytes, index, count);
  const InputKind kind = DetectRunInputKind(path, *bytes);

  if (kind == InputKind::kStableHloText) {
    // Each "// -----" piece, and in it main or every public function
    // without arguments (StableHLO's own test files), in turn.
    auto tests = stablehlo::ListStableHloTests(*bytes, path);
    AOT_RETURN_IF_ERROR_AND(tests, Fail(_, 2));
    if (tests->empty())
      return Fail(WithPath(path, absl::InvalidArgumentError("no function to run")), 2);
    int exit_code = 0;
    for (const stablehlo::StableHloTest& test : *tests) {
      const std::string label = tests->size() > 1 ? absl::StrCat(path, ":@", test.function) : path;
      // With --inputs, the arguments' sizes (shape polymorphism).
      std::vector<std::vector<int64_t>> dims;
      if (options_.have_inputs && options_.input_values.size() == 1) {
        for (const Literal& l : options_.input_values[0]) dims.push_back(l.shape().dimensions());
      }
      auto loaded = LoadStableHloProgram(test.text, path, test.first_line, test.function, dims);
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
    AOT_RETURN_IF_ERROR_AND(loaded, Fail(_, 2));
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
    AOT_RETURN_IF_ERROR_AND(proto, Fail(WithPath(path, _), 2));
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
    AOT_RETURN_IF_ERROR_AND(restored, Fail(WithPath(path, _), 2));
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

}  // namespace run_internal

using run_internal::kProgram;
using run_internal::Note;
using run_internal::Options;
using run_internal::ParseRunInputs;
using run_internal::Runner;
using run_internal::RunPlatform;

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
               "the collectives (default: the module's replica_count; it sets the count of "
               "a module whose header has none and must agree with the header's otherwise; "
               "a serialized executable runs on the replicas it was compiled for).");
  flags.AddInt("num_partitions", &out->num_partitions,
               "Partition the module by its shardings (SPMD) for this many partitions and run "
               "them, each on its own thread (host) or device (cuda) meeting at the "
               "collectives: full arguments are split by the parameters' shardings, the "
               "result tiles assembled and compared with the single-device interpreter "
               "(compiling needs --xla_aot_emit_collectives=true). With --num_replicas=R: "
               "R x N participants, each replica partitioned alike on its own arguments. "
               "It sets the module's num_partitions where the header has none (XLA's tests "
               "and JAX's dumps keep it in the config) and must agree with the header's "
               "otherwise. Without it, a module whose shardings name more devices runs "
               "unpartitioned on one device, with a note, as XLA runs it without SPMD. "
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
    AOT_RETURN_IF_ERROR_AND(target, ReportToolError(kProgram, _, 2));
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
  AOT_RETURN_IF_ERROR_AND(files, ReportToolError(kProgram, _, 2));

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
    AOT_RETURN_IF_ERROR_AND(text, ReportToolError(kProgram, _, 2));
    auto parsed = ParseRunInputs(*text);
    if (!parsed.ok()) {
      return ReportToolError(kProgram, WithPath(flags.inputs_path, parsed.status()), 2);
    }
    options.inputs_per_replica = parsed->per_replica;
    options.input_values = std::move(parsed->values);
  } else if (!std::all_of(files->begin(), files->end(), [](const std::string& f) {
               return absl::EndsWith(f, ".py");  // JAX data files bring their inputs
             })) {
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
