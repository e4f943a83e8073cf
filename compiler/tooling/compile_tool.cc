#include "compiler/tooling/compile_tool.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/backend/compile_dumps.h"
#include "compiler/backend/compiler.h"
#include "compiler/backend/compiler_stages.h"
#include "compiler/hlo/hlo_graph_dot.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/passes/hlo_pass.h"
#include "compiler/passes/spmd_partitioner.h"
#include "compiler/rollout/emission_ledger.h"
#include "compiler/target/target_config.h"
#include "compiler/target/target_selection.h"
#include "compiler/tooling/stablehlo_support_table.h"
#include "compiler/tooling/support_table.h"
#include "compiler/verifier/hlo_verifier.h"
#include "google/protobuf/text_format.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {
namespace {

constexpr char kProgram[] = "aotc";

void Note(absl::string_view message) { ReportToolNote(kProgram, message); }

absl::Status Usage(absl::string_view message) {
  return UsageError(absl::InvalidArgumentError(message));
}

// Writes `contents` to `path` atomically, or to stdout when `path` is empty.
absl::Status Emit(const std::string& path, absl::string_view contents) {
  if (path.empty()) {
    if (std::fwrite(contents.data(), 1, contents.size(), stdout) != contents.size() ||
        std::fflush(stdout) != 0) {
      return absl::UnavailableError("cannot write to standard output");
    }
    return absl::OkStatus();
  }
  return WriteFileAtomically(path, contents);
}

// What RunCompileTool decided from the flags before touching the module.
struct Plan {
  std::optional<CompilerStage> stage;
  // --stage=hlo-partitioned: the module after the SPMD partitioner.
  bool partitioned_stage = false;
  PlatformKind platform = PLATFORM_HOST;
};

absl::StatusOr<Plan> CheckFlags(CompileToolFlags& flags,
                                const std::vector<std::string>& positional) {
  Plan plan;
  if (!positional.empty()) {
    if (!flags.module_file.empty() || positional.size() > 1) {
      return Usage(absl::StrCat("expected one HLO module, got ",
                                positional.size() + (flags.module_file.empty() ? 0 : 1), " (",
                                absl::StrJoin(positional, " "), ")"));
    }
    flags.module_file = positional[0];
  }
  if (flags.module_file.empty()) {
    return Usage(
        absl::StrCat("no HLO module given (--module_file=M.hlo; see ", kProgram, " --help)"));
  }
  // One mode at a time.
  const int modes = (!flags.stage.empty()) + (!flags.passes.empty()) + flags.emit_proto;
  if (modes > 1) return Usage("--stage, --passes and --emit-proto are mutually exclusive");
  if (flags.format != "binary" && flags.format != "text") {
    return Usage(absl::StrCat("--format=", flags.format, ": use binary or text"));
  }
  if (flags.num_partitions < 0 || flags.num_partitions > 1024) {
    return Usage(absl::StrCat("--num_partitions=", flags.num_partitions,
                              ": need 1 to 1024 (0: no partitioning)"));
  }
  if (flags.stage == "hlo-partitioned") {
    plan.partitioned_stage = true;
  } else if (!flags.stage.empty()) {
    plan.stage = FindCompilerStage(flags.stage);
    if (!plan.stage) {
      std::vector<std::string> names;
      for (const StageInfo& s : CompilerStages()) names.emplace_back(s.name);
      names.emplace_back("hlo-partitioned");
      return Usage(absl::StrCat("unknown stage '", flags.stage,
                                "' (known: ", absl::StrJoin(names, ", "), ")"));
    }
  }
  for (const std::string& p : flags.passes) {
    if (CreatePassByName(p) == nullptr) {
      return Usage(
          absl::StrCat("unknown pass '", p, "' (known: ", absl::StrJoin(PassNames(), ", "), ")"));
    }
  }
  auto platform = ParsePlatformName(flags.platform);
  AOT_RETURN_IF_ERROR_AND(platform, UsageError(_));
  plan.platform = *platform;
  if (!flags.platform_set && !flags.target_config.empty()) {
    // No --platform: the target description says which.
    if (auto t = ResolveTargetConfig(flags.target_config); t.ok()) plan.platform = t->platform();
  }
  if (plan.stage != CompilerStage::kDot && (!flags.node.empty() || !flags.computation.empty() ||
                                            flags.radius != DotGraphOptions{}.radius)) {
    return Usage("--node, --radius and --computation choose what --stage=dot draws");
  }
  if (plan.stage == CompilerStage::kPtx && plan.platform != PLATFORM_CUDA) {
    return Usage("--stage=ptx needs --platform=cuda (host kernels are object code, not PTX)");
  }
  const bool compile_to_file =
      !plan.stage && !plan.partitioned_stage && flags.passes.empty() && !flags.emit_proto;
  if (compile_to_file && flags.output_file.empty()) {
    return Usage("no --output_file (-o) for the executable");
  }
  if (flags.emit_proto && flags.output_file.empty() && flags.format == "binary") {
    return Usage("--emit-proto writes a binary proto: give --output_file (-o) or --format=text");
  }
  return plan;
}

// --passes=a,b: exactly those passes, printed as HLO.
absl::Status RunNamedPasses(const CompileToolFlags& flags, const HloModule& module) {
  PipelineOptions pipeline_options;
  pipeline_options.enable_fusion = flags.fusion;
  pipeline_options.enable_constant_folding = flags.constant_folding;
  HloPassPipeline pipeline = DefaultPipeline(pipeline_options);
  pipeline.set_verifier([](const HloModule& m) { return VerifyHloModule(m); });
  std::unique_ptr<HloModule> copy = module.Clone();
  if (copy == nullptr) return absl::InternalError("cannot copy the module");
  auto ran = pipeline.RunPasses(copy.get(), flags.passes);
  AOT_RETURN_IF_ERROR_AND(ran, WithPath(flags.module_file, _));
  return Emit(flags.output_file, copy->ToString());
}

// The executable, written to --output_file.
absl::Status WriteExecutable(const CompileToolFlags& flags, const HloModule& module,
                             const TargetConfigProto& target, const CompiledModule& result) {
  std::string bytes;
  if (flags.format == "text") {
    if (!google::protobuf::TextFormat::PrintToString(result.proto(), &bytes)) {
      return absl::InternalError("cannot print the executable as text");
    }
  } else {
    bytes = result.SerializeAsString();
  }
  AOT_RETURN_IF_ERROR(WriteFileAtomically(flags.output_file, bytes));
  if (flags.verbose) {
    std::fprintf(stderr,
                 "%s: compiled %s for %s in %.3f ms: %lld kernel(s), %lld GEMM(s), "
                 "artifact %zu bytes (%s) -> %s\n",
                 kProgram, module.name().c_str(), target.name().c_str(), result.compile_ms(),
                 static_cast<long long>(result.kernel_count()),
                 static_cast<long long>(result.gemm_count()), bytes.size(), flags.format.c_str(),
                 flags.output_file.c_str());
    for (const auto& [phase, ms] : result.phase_ms()) {
      std::fprintf(stderr, "%s:   %-20s %10.3f ms\n", kProgram, phase.c_str(), ms);
    }
  }
  return absl::OkStatus();
}

}  // namespace

void AddCompileToolFlags(FlagSet& flags, CompileToolFlags* out) {
  flags.AddString("module_file", &out->module_file,
                  "The module: HLO text, StableHLO in MLIR text form (.mlir, as JAX exports it; "
                  "converted to HLO first, see --stage=hlo), or an HloModuleProto (.pb binary, "
                  ".pbtxt text). "
                  "May also be given as the only positional argument.");
  flags.AddString("output_file,o", &out->output_file,
                  "Where to write the executable (required to compile), the --emit-proto "
                  "proto, or a --stage / --passes dump (default: standard output).");
  flags.AddString("platform", &out->platform, "Target platform: host or cuda.");
  flags.AddString("target_config", &out->target_config,
                  "Target: a shipped spec name or a .txtpb target description "
                  "(default: the best host-x86-64-vN here, h100 for cuda).");
  flags.AddString("format", &out->format,
                  "Output format of the executable or --emit-proto: binary or text.");
  flags.AddBool("verbose", &out->verbose,
                "Print compile time, kernel and GEMM counts and artifact size on stderr.");
  flags.AddBool("fusion", &out->fusion, "Run the fusion pass (--nofusion: one kernel per op).");
  flags.AddBool("constant_folding", &out->constant_folding, "Run constant folding.");
  flags.AddString("stage", &out->stage,
                  "Print this stage instead of compiling to a file: hlo, hlo-optimized, "
                  "hlo-fused, dot, buffer-assignment, thunks, llvm-unoptimized, llvm, ptx (XLA's "
                  "names hlo-backend, llvm-before-optimizations and llvm-after-optimizations "
                  "too).");
  flags.AddString(
      "node", &out->node,
      "With --stage=dot: draw only the instructions within --radius edges of this one.");
  flags.AddInt("radius", &out->radius,
               "With --stage=dot --node: how many operand/user edges from the node (default 2).");
  flags.AddString("computation", &out->computation,
                  "With --stage=dot: draw only this computation.");
  flags.AddBool("list_stages", &out->list_stages,
                "List the --stage values the platform (--platform) can produce and exit.");
  flags.AddList("passes", &out->passes,
                "Run exactly these HLO passes (comma-separated, in order) and print the module.");
  flags.AddBool("list_passes", &out->list_passes,
                "List the passes and the default pipeline's stages and exit.");
  AddEmissionFlagsFlag(flags, &out->emission_flags);
  flags.AddBool("stablehlo_support_table", &out->stablehlo_support_table,
                "Print the table of StableHLO, CHLO and check operations the StableHLO front end "
                "converts or refuses, with how many test programs use each (run from the source "
                "root), as the README carries it, and exit.");
  flags.AddInt("num_partitions", &out->num_partitions,
               "Partition the module by its shardings (SPMD) for this many partitions before "
               "compiling: one executable that N participants run (needs "
               "--xla_aot_emit_collectives=true). --stage=hlo-partitioned prints the "
               "partitioned module (default count: the module's num_partitions).");
  flags.AddString(
      "xla_aot_dump_to", &out->dump_to,
      "Also write every stage of the compile to this directory (made if missing; "
      "XLA's --xla_dump_to): <module>.hlo as loaded, <module>.hlo-partitioned.hlo (when "
      "partitioned), .hlo-optimized.hlo, .hlo-fused.hlo, .buffer-assignment.txt, "
      ".thunks.txt, .ll (the kernels' LLVM IR) and .ptx (cuda). Each file is written "
      "atomically.");
  flags.AddBool("support_table", &out->support_table,
                "Print the table of XLA's opcodes and element types with what this project does "
                "with each (parse, interpret, compile for host and CUDA), found by trying each, "
                "as the README carries it, and exit.");
  flags.AddBool("emit_proto", &out->emit_proto,
                "Convert the module to an HloModuleProto (binary, or text with --format=text) "
                "instead of compiling.");
}

void AddEmissionFlagsFlag(FlagSet& flags, std::vector<std::string>* out) {
  flags.AddList("emission_flags", out,
                "Emission flags of the staged rollout to turn on for this compile "
                "(comma-separated; see the README's staged rollout): the artifact may then hold "
                "constructs that runtimes released before the flag's runtime support reject.");
  for (const EmissionFlag& f : EmissionLedger()) {
    flags.AddListToggle(
        EmissionFlagCommandLine(f.name).substr(2), out, f.name,
        absl::StrCat("The emission flag ", f.name, " (runtime support ", f.runtime_support_since,
                     f.enabled_by_default ? ", on by default" : ", off by default",
                     "): ", f.description, "."));
  }
}

std::string ListPassesText() {
  std::string out = "Passes (--passes=a,b runs exactly these, in order):\n";
  for (const std::string& name : PassNames()) absl::StrAppend(&out, "  ", name, "\n");
  absl::StrAppend(&out, "\nDefault pipeline (stages run in order):\n");
  for (absl::string_view line : absl::StrSplit(DefaultPipeline().Describe(), '\n')) {
    if (!line.empty()) absl::StrAppend(&out, "  ", line, "\n");
  }
  return out;
}

absl::Status RunCompileTool(CompileToolFlags flags, const std::vector<std::string>& positional) {
  if (flags.list_stages) {
    // What the platform's compile produces (--platform; both when not given).
    const bool cuda = !flags.platform_set || flags.platform == "cuda";
    return Emit(
        "", absl::StrCat("Stages (--stage=NAME",
                         flags.platform_set ? absl::StrCat(", --platform=", flags.platform) : "",
                         "):\n", ListCompilerStages(cuda)));
  }
  if (flags.list_passes) return Emit("", ListPassesText());
  if (flags.stablehlo_support_table) {
    AOT_ASSIGN_OR_RETURN(auto uses, CountStableHloOpUses(StableHloTestDirectories()));
    return Emit("", absl::StrCat(kStableHloTableBegin, "\n\n", StableHloSupportTableMarkdown(uses),
                                 "\n", kStableHloTableEnd, "\n"));
  }
  if (flags.support_table) {
    const bool cuda = CanCompileForCuda();
    return Emit("", absl::StrCat(kSupportTableBegin, "\n\n",
                                 SupportTableMarkdown(ProbeOpcodes(cuda), ProbeElementTypes(cuda)),
                                 "\n", kSupportTableEnd, "\n"));
  }
  AOT_ASSIGN_OR_RETURN(Plan plan, CheckFlags(flags, positional));

  const auto load_start = std::chrono::steady_clock::now();
  auto loaded = LoadHloModuleFile(flags.module_file);
  AOT_RETURN_IF_ERROR_AND(loaded, UsageError(_));
  StageDumper dumper(flags.dump_to, loaded->module->name());
  AOT_RETURN_IF_ERROR(dumper.Write(".hlo", loaded->module->ToString()));
  // SPMD: partitioned by its shardings first (--num_partitions, or the
  // module's own count for --stage=hlo-partitioned).
  std::unique_ptr<HloModule> partitioned;
  int64_t partitions = flags.num_partitions;
  if (plan.partitioned_stage && partitions == 0) {
    partitions = loaded->module->config().num_partitions;
  }
  if (partitions > 1 || (plan.partitioned_stage && partitions >= 1)) {
    if (absl::Status s = VerifyHloModule(*loaded->module); !s.ok()) {
      return UsageError(WithPath(flags.module_file, s));
    }
    auto spmd = PartitionSpmd(*loaded->module, partitions);
    AOT_RETURN_IF_ERROR_AND(spmd, WithPath(flags.module_file, _));
    partitioned = std::move(spmd->module);
    if (flags.verbose) {
      std::fprintf(stderr, "%s: %s: %lld partitions; each communicates: %s\n", kProgram,
                   flags.module_file.c_str(), static_cast<long long>(partitions),
                   DescribeCollectives(*partitioned).c_str());
    }
    AOT_RETURN_IF_ERROR(dumper.Write(".hlo-partitioned.hlo", partitioned->ToString()));
    if (plan.partitioned_stage) return Emit(flags.output_file, partitioned->ToString());
  }
  const HloModule& module = partitioned != nullptr ? *partitioned : *loaded->module;
  if (flags.verbose) {
    std::fprintf(
        stderr, "%s: read and parsed %s in %.3f ms\n", kProgram, flags.module_file.c_str(),
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - load_start)
            .count());
  }
  if (!loaded->elided_constants.empty()) {
    Note(absl::StrCat(flags.module_file, ": constant(s) ",
                      absl::StrJoin(loaded->elided_constants, ", "),
                      " had elided values; filled with seeded random values"));
  }
  if (plan.stage == CompilerStage::kHlo) return Emit(flags.output_file, module.ToString());
  if (flags.emit_proto) {
    return Emit(flags.output_file,
                SerializeHloModuleProto(module.ToProto(), flags.format == "text"));
  }
  if (absl::Status s = VerifyHloModule(module); !s.ok()) {
    if (loaded->stablehlo != nullptr) return UsageError(AtSource(*loaded, s));
    return UsageError(WithPath(flags.module_file, s));
  }
  if (!flags.passes.empty()) return RunNamedPasses(flags, module);

  CompileOptions options;
  options.enable_fusion = flags.fusion;
  options.enable_constant_folding = flags.constant_folding;
  options.source_path = flags.module_file;
  options.emission_flags = flags.emission_flags;
  if (plan.stage == CompilerStage::kHloOptimized) {
    auto optimized = OptimizeHlo(module, options, CompilerStage::kHloOptimized);
    AOT_RETURN_IF_ERROR_AND(optimized, WithPath(flags.module_file, _));
    return Emit(flags.output_file, (*optimized)->ToString());
  }

  auto target = SelectTarget(plan.platform, flags.target_config);
  AOT_RETURN_IF_ERROR_AND(target, UsageError(_));
  if (plan.stage) {
    options.keep_dumps = true;
    options.compile_cubin = false;  // no dump shows the cubin
  }
  if (dumper.enabled()) {
    options.keep_dumps = true;
    auto optimized = OptimizeHlo(module, options, CompilerStage::kHloOptimized);
    AOT_RETURN_IF_ERROR_AND(optimized, WithPath(flags.module_file, _));
    AOT_RETURN_IF_ERROR(dumper.Write(".hlo-optimized.hlo", (*optimized)->ToString()));
  }
  auto compiled = Compile(module, *target, options);
  AOT_RETURN_IF_ERROR_AND(compiled, WithPath(flags.module_file, _));
  AOT_RETURN_IF_ERROR(dumper.WriteCompiled(**compiled, target->platform()));
  if (flags.verbose && dumper.enabled()) {
    std::fprintf(stderr, "%s: dumped %zu stage(s) to %s\n", kProgram, dumper.written().size(),
                 flags.dump_to.c_str());
  }
  if (plan.stage == CompilerStage::kDot) {
    auto dot = FusedHloDot(
        **compiled, {.computation = flags.computation, .node = flags.node, .radius = flags.radius});
    AOT_RETURN_IF_ERROR_AND(dot, UsageError(WithPath(flags.module_file, _)));
    return Emit(flags.output_file, *dot);
  }
  if (plan.stage) return Emit(flags.output_file, StageDump(*plan.stage, **compiled));
  return WriteExecutable(flags, module, *target, **compiled);
}

}  // namespace aot
