#include "compiler/tooling/run_tool.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "compiler/backend/compiler.h"
#include "compiler/backend/embedded_constants.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/target/target_config.h"
#include "compiler/target/target_selection.h"
#include "compiler/tooling/compile_tool.h"
#include "compiler/tooling/input_files.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/literal_json.h"
#include "compiler/tooling/random_literal.h"
#include "compiler/tooling/run_summary.h"
#include "compiler/verifier/hlo_verifier.h"
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
  std::vector<Literal> input_values;
  std::vector<std::string> emission_flags;
};

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
  absl::StatusOr<std::vector<Literal>> Arguments(const std::string& path,
                                                 const std::vector<Shape>& shapes);
  int Interpret(const std::string& path, const HloModule& module, size_t index, size_t count);
  int Execute(const std::string& path, RunPlatform platform, const std::string* serialized,
              const ExecutableProto* proto, const HloModule* reference_module, size_t index,
              size_t count);
  absl::StatusOr<const Client*> ClientFor(RunPlatform platform);
  int WriteOutputs(Literal result, size_t index, size_t count);
  void PrintValues(const Literal& result);

  Options options_;
  std::map<RunPlatform, std::unique_ptr<Client>> clients_;
};

absl::StatusOr<const Client*> Runner::ClientFor(RunPlatform platform) {
  auto it = clients_.find(platform);
  if (it != clients_.end()) return it->second.get();
  AOT_ASSIGN_OR_RETURN(auto client,
                       Client::Create(platform == RunPlatform::kCuda ? "cuda" : "host"));
  const Client* raw = client.get();
  clients_.emplace(platform, std::move(client));
  return raw;
}

absl::StatusOr<std::vector<Literal>> Runner::Arguments(const std::string& path,
                                                       const std::vector<Shape>& shapes) {
  if (options_.have_inputs) {
    auto grouped = UnflattenLiterals(shapes, options_.input_values);
    if (!grouped.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(options_.inputs_path, " does not fit module ",
                                                     path, ": ", grouped.status().message()));
    }
    return grouped;
  }
  std::vector<Literal> arguments;
  for (size_t i = 0; i < shapes.size(); ++i) {
    arguments.push_back(RandomLiteral(shapes[i], options_.seed + i));
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
  auto arguments = Arguments(path, EntryParameterShapes(module));
  if (!arguments.ok()) return Fail(arguments.status(), 2);
  HloEvaluator evaluator;
  const auto start = std::chrono::steady_clock::now();
  auto result = evaluator.Evaluate(module, *arguments);
  const double ms = MillisSince(start);
  if (!result.ok()) return Fail(WithPath(path, result.status()), 1);
  std::printf("%s: %s in %.3f ms (interpreter)\n", module.name().c_str(),
              result->shape().ToString(false).c_str(), ms);
  if (options_.print) PrintValues(*result);
  return WriteOutputs(*std::move(result), index, count);
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
  if (reference_module != nullptr) shapes = EntryParameterShapes(*reference_module);
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
  auto arguments = Arguments(path, shapes);
  if (!arguments.ok()) return Fail(arguments.status(), 2);

  RunTiming timing;
  timing.load_ms = load_ms;
  auto start = std::chrono::steady_clock::now();
  auto result = ExecuteWithLiterals(exe, *arguments);
  timing.first_ms = MillisSince(start);
  if (!result.ok()) {
    if (IsCannotExecute(result.status())) {
      std::printf(
          "%s\n",
          FormatSkippedRunSummary(path, *result_shape, load_ms, result.status().message()).c_str());
      std::fflush(stdout);
      if (options_.require_execution) {
        return Fail(WithPath(path, absl::FailedPreconditionError(absl::StrCat(
                                       "--require_execution: ", result.status().message()))),
                    1);
      }
      Note(absl::StrCat(path, ": loaded and validated, not executed (no device here)",
                        options_.outputs_path.empty() ? "" : "; no results to write"));
      return 0;
    }
    return Fail(WithPath(path, result.status()), 1);
  }
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
    auto expected = evaluator.Evaluate(*reference_module, *arguments);
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
  std::fflush(stdout);
  if (int rc = WriteOutputs(*std::move(result), index, count); rc != 0) {
    return rc;
  }
  if (reference.result == ReferenceResult::kMismatch) {
    return Fail(
        WithPath(path, absl::InternalError(absl::StrCat(
                           "result differs from the reference interpreter: ", reference.detail))),
        1);
  }
  return 0;
}

int Runner::RunModule(const std::string& path, const LoadedHloModule& loaded, size_t index,
                      size_t count) {
  const HloModule& module = *loaded.module;
  if (!loaded.elided_constants.empty()) {
    Note(absl::StrCat(path, ": constant(s) ", absl::StrJoin(loaded.elided_constants, ", "),
                      " had elided values; filled with seeded random values (seed ", options_.seed,
                      ")"));
  }
  if (absl::Status s = VerifyHloModule(module); !s.ok()) {
    return Fail(WithPath(path, s), 2);
  }
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
                  "JSON file with the arguments ({\"arguments\": [...]}).");
  flags.AddString("outputs", &out->outputs_path,
                  "Write the results as JSON ({\"results\": [...]}) to this file.");
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
  options.have_inputs = !flags.inputs_path.empty();
  if (options.have_inputs) {
    auto text = ReadFileToString(flags.inputs_path);
    if (!text.ok()) return ReportToolError(kProgram, text.status(), 2);
    auto parsed = ParseLiteralsJson(*text, "arguments");
    if (!parsed.ok()) {
      return ReportToolError(kProgram, WithPath(flags.inputs_path, parsed.status()), 2);
    }
    options.input_values = *std::move(parsed);
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
