// aotc: the ahead-of-time compiler (XLA's xla_compile), with hlo-opt's
// stage dumps, pass runs and HLO text <-> proto conversion.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/backend/compiler.h"
#include "compiler/passes/hlo_pass.h"
#include "compiler/target/target_config.h"
#include "compiler/tools/tool_util.h"
#include "compiler/verifier/hlo_verifier.h"
#include "google/protobuf/text_format.h"
#include "runtime/support/cli.h"
#include "runtime/support/file_io.h"

namespace aot {
namespace {

constexpr char kProgram[] = "aotc";

constexpr char kSynopsis[] =
    "aotc --module_file=M.hlo --output_file=OUT.pb [--platform=host|cuda] "
    "[--target_config=NAME|PATH.txtpb] [--format=binary|text] [--verbose] "
    "[--nofusion]\n"
    "       aotc M.hlo -o OUT.pb\n"
    "       aotc M.hlo --stage=STAGE [-o FILE]       (see --list-stages)\n"
    "       aotc M.hlo --passes=a,b [-o FILE]         (see --list-passes)\n"
    "       aotc M.hlo --emit-proto -o M.pb [--format=text]\n"
    "       aotc --list-stages | --list-passes";

constexpr char kDescription[] =
    "Compiles an HLO module ahead of time for a target and writes the\n"
    "serialized executable (an ExecutableProto: binary by default, or text\n"
    "format), which aot-run and the runtime load.\n"
    "\n"
    "The module is HLO text, or an HloModuleProto (binary .pb / text .pbtxt).\n"
    "The target is a shipped spec (a100, h100, host-x86-64-v2/v3/v4) or a\n"
    "target-description .txtpb file; it must be for --platform (without\n"
    "--platform, the target decides). Without --target_config: host compiles\n"
    "for the best x86-64 level of this machine, cuda for h100 (device-less\n"
    "compilation: no GPU needed).\n"
    "\n"
    "--stage=S prints one stage of the compilation instead (hlo-opt style);\n"
    "--passes=a,b runs exactly those HLO passes and prints the result;\n"
    "--emit-proto converts the module to an HloModuleProto.\n"
    "\n"
    "Exit status: 0 success, 1 compilation failed, 2 bad usage or input.";

void Note(absl::string_view message) {
  std::fprintf(stderr, "%s: note: %.*s\n", kProgram,
               static_cast<int>(message.size()), message.data());
}

// Writes `contents` to `path` atomically, or to stdout when `path` is empty.
absl::Status Emit(const std::string& path, absl::string_view contents) {
  if (path.empty()) {
    if (std::fwrite(contents.data(), 1, contents.size(), stdout) !=
            contents.size() ||
        std::fflush(stdout) != 0) {
      return absl::UnavailableError("cannot write to standard output");
    }
    return absl::OkStatus();
  }
  return WriteFileAtomically(path, contents);
}

std::string ListPasses() {
  std::string out = "Passes (--passes=a,b runs exactly these, in order):\n";
  for (const std::string& name : PassNames()) {
    absl::StrAppend(&out, "  ", name, "\n");
  }
  absl::StrAppend(&out, "\nDefault pipeline (stages run in order):\n");
  for (absl::string_view line :
       absl::StrSplit(DefaultPipeline().Describe(), '\n')) {
    if (!line.empty()) absl::StrAppend(&out, "  ", line, "\n");
  }
  return out;
}

int Main(int argc, char** argv) {
  std::string module_file;
  std::string output_file;
  std::string platform_name = "host";
  std::string target_config;
  std::string format = "binary";
  std::string stage;
  std::vector<std::string> passes;
  bool verbose = false;
  bool fusion = true;
  bool constant_folding = true;
  bool list_stages = false;
  bool list_passes = false;
  bool emit_proto = false;

  SilenceProtobufLogging();
  FlagSet flags(kProgram, kSynopsis, kDescription);
  flags.AddString("module_file", &module_file,
                  "The HLO module: HLO text, or an HloModuleProto (.pb binary, "
                  ".pbtxt text). "
                  "May also be given as the only positional argument.");
  flags.AddString(
      "output_file,o", &output_file,
      "Where to write the executable (required to compile), the --emit-proto "
      "proto, or a --stage / --passes dump (default: standard output).");
  flags.AddString("platform", &platform_name, "Target platform: host or cuda.");
  flags.AddString("target_config", &target_config,
                  "Target: a shipped spec name or a .txtpb target description "
                  "(default: the best host-x86-64-vN here, h100 for cuda).");
  flags.AddString(
      "format", &format,
      "Output format of the executable or --emit-proto: binary or text.");
  flags.AddBool("verbose", &verbose,
                "Print compile time, kernel and GEMM counts and artifact size "
                "on stderr.");
  flags.AddBool("fusion", &fusion,
                "Run the fusion pass (--nofusion: one kernel per op).");
  flags.AddBool("constant_folding", &constant_folding, "Run constant folding.");
  flags.AddString(
      "stage", &stage,
      "Print this stage instead of compiling to a file: hlo, hlo-optimized, "
      "hlo-fused, buffer-assignment, thunks, llvm, ptx.");
  flags.AddBool("list_stages", &list_stages,
                "List the --stage values and exit.");
  flags.AddList(
      "passes", &passes,
      "Run exactly these HLO passes (comma-separated, in order) and print the "
      "module.");
  flags.AddBool("list_passes", &list_passes,
                "List the passes and the default pipeline's stages and exit.");
  flags.AddBool("emit_proto", &emit_proto,
                "Convert the module to an HloModuleProto (binary, or text with "
                "--format=text) instead of compiling.");

  auto positional = flags.Parse(argc, argv);
  if (!positional.ok()) {
    return ReportToolError(kProgram, positional.status(), 2);
  }
  if (flags.help_requested()) {
    std::fputs(flags.Help().c_str(), stdout);
    return 0;
  }
  auto usage = [](absl::string_view message) {
    return ReportToolError(kProgram, absl::InvalidArgumentError(message), 2);
  };
  if (list_stages) {
    std::fputs(
        absl::StrCat("Stages (--stage=NAME):\n", ListCompilerStages()).c_str(),
        stdout);
    return 0;
  }
  if (list_passes) {
    std::fputs(ListPasses().c_str(), stdout);
    return 0;
  }

  // The module.
  if (!positional->empty()) {
    if (!module_file.empty() || positional->size() > 1) {
      return usage(
          absl::StrCat("expected one HLO module, got ",
                       positional->size() + (module_file.empty() ? 0 : 1), " (",
                       absl::StrJoin(*positional, " "), ")"));
    }
    module_file = (*positional)[0];
  }
  if (module_file.empty()) {
    return usage(absl::StrCat("no HLO module given (--module_file=M.hlo; see ",
                              kProgram, " --help)"));
  }
  // One mode at a time.
  const int modes = (!stage.empty()) + (!passes.empty()) + emit_proto;
  if (modes > 1) {
    return usage("--stage, --passes and --emit-proto are mutually exclusive");
  }
  if (format != "binary" && format != "text") {
    return usage(absl::StrCat("--format=", format, ": use binary or text"));
  }
  if (!stage.empty() && FindCompilerStage(stage) == nullptr) {
    std::vector<std::string> names;
    for (const StageInfo& s : CompilerStages()) names.emplace_back(s.name);
    return usage(absl::StrCat("unknown stage '", stage,
                              "' (known: ", absl::StrJoin(names, ", "), ")"));
  }
  for (const std::string& p : passes) {
    if (CreatePassByName(p) == nullptr) {
      return usage(absl::StrCat("unknown pass '", p, "' (known: ",
                                absl::StrJoin(PassNames(), ", "), ")"));
    }
  }
  auto platform = ParsePlatformName(platform_name);
  if (!platform.ok()) return ReportToolError(kProgram, platform.status(), 2);
  if (!flags.IsSet("platform") && !target_config.empty()) {
    // No --platform: the target description says which.
    if (auto t = ResolveTargetConfig(target_config); t.ok()) {
      *platform = t->platform();
    }
  }
  if (stage == "ptx" && *platform != PLATFORM_CUDA) {
    return usage(
        "--stage=ptx needs --platform=cuda (host kernels are object code, not "
        "PTX)");
  }
  const bool compile_to_file = stage.empty() && passes.empty() && !emit_proto;
  if (compile_to_file && output_file.empty()) {
    return usage("no --output_file (-o) for the executable");
  }
  if (emit_proto && output_file.empty() && format == "binary") {
    return usage(
        "--emit-proto writes a binary proto: give --output_file (-o) or "
        "--format=text");
  }

  auto loaded = LoadHloModuleFile(module_file);
  if (!loaded.ok()) return ReportToolError(kProgram, loaded.status(), 2);
  const HloModule& module = *loaded->module;
  if (!loaded->elided_constants.empty()) {
    Note(absl::StrCat(module_file, ": constant(s) ",
                      absl::StrJoin(loaded->elided_constants, ", "),
                      " had elided values; filled with seeded random values"));
  }

  if (stage == "hlo") {
    if (absl::Status s = Emit(output_file, module.ToString()); !s.ok()) {
      return ReportToolError(kProgram, s, 1);
    }
    return 0;
  }
  if (emit_proto) {
    std::string bytes =
        SerializeHloModuleProto(module.ToProto(), format == "text");
    if (absl::Status s = Emit(output_file, bytes); !s.ok()) {
      return ReportToolError(kProgram, s, 1);
    }
    return 0;
  }
  if (absl::Status s = VerifyHloModule(module); !s.ok()) {
    return ReportToolError(kProgram, WithPath(module_file, s), 2);
  }
  if (!passes.empty()) {
    PipelineOptions pipeline_options;
    pipeline_options.enable_fusion = fusion;
    pipeline_options.enable_constant_folding = constant_folding;
    HloPassPipeline pipeline = DefaultPipeline(pipeline_options);
    pipeline.set_verifier(
        [](const HloModule& m) { return VerifyHloModule(m); });
    std::unique_ptr<HloModule> copy = module.Clone();
    if (copy == nullptr) {
      return ReportToolError(kProgram,
                             absl::InternalError("cannot copy the module"), 1);
    }
    auto ran = pipeline.RunPasses(copy.get(), passes);
    if (!ran.ok()) {
      return ReportToolError(kProgram, WithPath(module_file, ran.status()), 1);
    }
    if (absl::Status s = Emit(output_file, copy->ToString()); !s.ok()) {
      return ReportToolError(kProgram, s, 1);
    }
    return 0;
  }

  CompileOptions options;
  options.enable_fusion = fusion;
  options.enable_constant_folding = constant_folding;
  options.source_path = module_file;
  if (stage == "hlo-optimized") {
    auto optimized = OptimizeHlo(module, options, "hlo-optimized");
    if (!optimized.ok()) {
      return ReportToolError(kProgram,
                             WithPath(module_file, optimized.status()), 1);
    }
    if (absl::Status s = Emit(output_file, (*optimized)->ToString()); !s.ok()) {
      return ReportToolError(kProgram, s, 1);
    }
    return 0;
  }

  auto target = SelectTarget(*platform, target_config);
  if (!target.ok()) return ReportToolError(kProgram, target.status(), 2);
  if (!stage.empty()) {
    options.keep_dumps = stage != "hlo-fused";
    options.compile_cubin = false;  // no dump shows the cubin
  }
  auto compiled = Compile(module, *target, options);
  if (!compiled.ok()) {
    return ReportToolError(kProgram, WithPath(module_file, compiled.status()),
                           1);
  }
  const CompiledModule& result = **compiled;
  if (!stage.empty()) {
    std::string dump;
    if (stage == "hlo-fused") {
      dump = result.optimized_hlo();
    } else if (stage == "buffer-assignment") {
      dump = result.buffer_assignment();
    } else if (stage == "thunks") {
      dump = result.ThunksToString();
    } else if (stage == "llvm") {
      dump = result.llvm_ir();
      if (dump.empty()) {
        dump = "; no kernels (every op is a library call or a copy)\n";
      }
    } else if (stage == "ptx") {
      dump = result.ptx();
      if (dump.empty()) {
        dump = "// no kernels (every op is a library call or a copy)\n";
      }
    }
    if (absl::Status s = Emit(output_file, dump); !s.ok()) {
      return ReportToolError(kProgram, s, 1);
    }
    return 0;
  }

  std::string bytes;
  if (format == "text") {
    if (!google::protobuf::TextFormat::PrintToString(result.proto(), &bytes)) {
      return ReportToolError(
          kProgram, absl::InternalError("cannot print the executable as text"),
          1);
    }
  } else {
    bytes = result.SerializeAsString();
  }
  if (absl::Status s = WriteFileAtomically(output_file, bytes); !s.ok()) {
    return ReportToolError(kProgram, s, 1);
  }
  if (verbose) {
    std::fprintf(
        stderr,
        "%s: compiled %s for %s in %.3f ms: %lld kernel(s), %lld GEMM(s), "
        "artifact %zu bytes (%s) -> %s\n",
        kProgram, module.name().c_str(), target->name().c_str(),
        result.compile_ms(), static_cast<long long>(result.kernel_count()),
        static_cast<long long>(result.gemm_count()), bytes.size(),
        format.c_str(), output_file.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace aot

int main(int argc, char** argv) { return aot::Main(argc, argv); }
