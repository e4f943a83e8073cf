// aot-run: runs HLO modules (XLA's run_hlo_module). For now only on the
// reference interpreter; the host and cuda platforms come with the runtime.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/interpreter/literal_json.h"
#include "compiler/interpreter/random_literal.h"
#include "compiler/verifier/hlo_verifier.h"
#include "runtime/support/cli.h"
#include "runtime/support/file_io.h"

namespace aot {
namespace {

constexpr char kProgram[] = "aot-run";

constexpr char kDescription[] =
    "Parses and verifies each HLO module, runs it on the chosen platform and\n"
    "prints one line per module: its name, result shape and run time.\n"
    "\n"
    "Arguments come from --inputs (JSON: {\"arguments\": [{\"shape\": \"f32[2]\",\n"
    "\"data\": [1, 2]}, ...]}, tuple parameters flattened depth-first) or, without\n"
    "it, are random values from --seed (argument i uses seed + i). --outputs\n"
    "writes {\"results\": [...]} in the same form; with several modules, module i\n"
    "goes to OUT.i.json (OUT is the path without its .json suffix).\n"
    "\n"
    "Platforms: interpreter (the reference interpreter). host and cuda are not\n"
    "available yet.\n"
    "\n"
    "Exit status: 0 success, 1 a module failed to run, 2 bad usage or input.";

void Note(absl::string_view message) {
  std::fprintf(stderr, "%s: note: %.*s\n", kProgram, static_cast<int>(message.size()),
               message.data());
}

absl::Status WithPath(absl::string_view path, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(path, ": ", status.message()));
}

std::string OutputPathFor(const std::string& outputs, size_t index, size_t count) {
  if (count == 1) return outputs;
  std::string stem = outputs;
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) {
    stem.resize(stem.size() - 5);
  }
  return absl::StrCat(stem, ".", index, ".json");
}

int Main(int argc, char** argv) {
  std::string platform;
  std::string inputs_path;
  std::string outputs_path;
  int64_t seed = 42;
  bool print = false;
  FlagSet flags(kProgram,
                "aot-run --platform=interpreter MODULE.hlo [MODULE.hlo ...] "
                "[--inputs=IN.json] [--outputs=OUT.json] [--seed=N] [--print]",
                kDescription);
  flags.AddString("platform", &platform,
                  "Where to run: interpreter (host and cuda: not available yet).");
  flags.AddString("inputs", &inputs_path,
                  "JSON file with the arguments ({\"arguments\": [...]}).");
  flags.AddString("outputs", &outputs_path,
                  "Write the results as JSON ({\"results\": [...]}) to this file.");
  flags.AddInt("seed", &seed,
               "Seed of the random arguments and of elided constants' values.");
  flags.AddBool("print", &print, "Print the result values.");
  auto positional = flags.Parse(argc, argv);
  if (!positional.ok()) return ReportToolError(kProgram, positional.status(), 2);
  if (flags.help_requested()) {
    std::fputs(flags.Help().c_str(), stdout);
    return 0;
  }
  if (platform.empty()) {
    return ReportToolError(
        kProgram,
        absl::InvalidArgumentError("--platform is required (available: interpreter)"), 2);
  }
  if (platform == "host" || platform == "cuda" || platform == "gpu") {
    return ReportToolError(
        kProgram,
        absl::UnimplementedError(absl::StrCat("platform '", platform,
                                              "' is not available yet")),
        2);
  }
  if (platform != "interpreter") {
    return ReportToolError(
        kProgram,
        absl::InvalidArgumentError(absl::StrCat(
            "unknown platform '", platform, "' (available: interpreter)")),
        2);
  }
  if (positional->empty()) {
    return ReportToolError(
        kProgram,
        absl::InvalidArgumentError(
            absl::StrCat("no HLO module given (see ", kProgram, " --help)")),
        2);
  }

  std::vector<Literal> input_values;
  const bool have_inputs = !inputs_path.empty();
  if (have_inputs) {
    auto text = ReadFileToString(inputs_path);
    if (!text.ok()) return ReportToolError(kProgram, text.status(), 2);
    auto parsed = ParseLiteralsJson(*text, "arguments");
    if (!parsed.ok()) {
      return ReportToolError(kProgram, WithPath(inputs_path, parsed.status()), 2);
    }
    input_values = *std::move(parsed);
  } else {
    Note(absl::StrCat("no --inputs: using random arguments (seed ", seed, ")"));
  }

  const uint64_t useed = static_cast<uint64_t>(seed);
  const size_t count = positional->size();
  for (size_t m = 0; m < count; ++m) {
    const std::string& path = (*positional)[m];
    auto text = ReadFileToString(path);
    if (!text.ok()) return ReportToolError(kProgram, text.status(), 2);
    HloParserOptions options;
    options.elided_constant_seed = useed;
    auto parsed = ParseHloModuleWithDetails(*text, options);
    if (!parsed.ok()) return ReportToolError(kProgram, WithPath(path, parsed.status()), 2);
    const HloModule& module = *parsed->module;
    if (!parsed->elided_constants.empty()) {
      Note(absl::StrCat(path, ": constant(s) ", absl::StrJoin(parsed->elided_constants, ", "),
                        " had elided values; filled with seeded random values (seed ",
                        seed, ")"));
    }
    if (absl::Status s = VerifyHloModule(module); !s.ok()) {
      return ReportToolError(kProgram, WithPath(path, s), 2);
    }
    const HloComputation* entry = module.entry_computation();
    std::vector<Shape> parameter_shapes;
    for (const HloInstruction* p : entry->parameter_instructions()) {
      parameter_shapes.push_back(p->shape());
    }
    std::vector<Literal> arguments;
    if (have_inputs) {
      auto grouped = UnflattenLiterals(parameter_shapes, input_values);
      if (!grouped.ok()) {
        return ReportToolError(
            kProgram,
            absl::InvalidArgumentError(absl::StrCat(
                inputs_path, " does not fit module ", path, ": ", grouped.status().message())),
            2);
      }
      arguments = *std::move(grouped);
    } else {
      for (size_t i = 0; i < parameter_shapes.size(); ++i) {
        arguments.push_back(RandomLiteral(parameter_shapes[i], useed + i));
      }
    }

    HloEvaluator evaluator;
    const auto start = std::chrono::steady_clock::now();
    auto result = evaluator.Evaluate(module, arguments);
    const auto end = std::chrono::steady_clock::now();
    if (!result.ok()) return ReportToolError(kProgram, WithPath(path, result.status()), 1);
    const double ms = std::chrono::duration<double, std::milli>(end - start).count();
    std::printf("%s: %s in %.3f ms (interpreter)\n", module.name().c_str(),
                result->shape().ToString(false).c_str(), ms);
    if (print) {
      std::vector<Literal> leaves = result->FlattenLeaves();
      for (size_t i = 0; i < leaves.size(); ++i) {
        std::printf("  result[%zu] = %s %s\n", i, leaves[i].shape().ToString(false).c_str(),
                    leaves[i].ValuesToString().c_str());
      }
    }
    if (!outputs_path.empty()) {
      const std::string out_path = OutputPathFor(outputs_path, m, count);
      std::vector<Literal> results;
      results.push_back(*std::move(result));
      if (absl::Status s = WriteFileAtomically(out_path, LiteralsToJson(results, "results"));
          !s.ok()) {
        return ReportToolError(kProgram, s, 1);
      }
    }
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace
}  // namespace aot

int main(int argc, char** argv) { return aot::Main(argc, argv); }
