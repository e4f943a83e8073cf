#include "harness/triage/triage_verbs.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/tooling/flags.h"
#include "harness/cli/verb.h"
#include "harness/gate/gate.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/release/old_build.h"
#include "harness/release/release.h"
#include "harness/release/release_snapshot.h"
#include "harness/triage/git_sources.h"
#include "harness/triage/triage.h"
#include "nlohmann/json.hpp"
#include "proto/schema.h"
#include "support/progress.h"
#include "support/status_macros.h"
#include "support/subprocess.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

int TriageCommand(int argc, char** argv) {
  std::string base, head = "worktree", json_path, cache_dir = ".aot-cache/worktrees";
  std::string golden_dir = "golden";
  std::string now = TodayDate();
  std::vector<std::string> targets;
  bool build_base = false;
  FlagSet flags("aot-compat triage",
                "aot-compat triage --base=REF [--head=worktree|REF] [--now=D] [--json=OUT]",
                "Is my change safe? Walks the decision tree of CONTRACT.md s. 5 from the\n"
                "actual differences between REF and the head: the schema (protoc on REF's\n"
                "proto/), runtime registries, opcode table, flag defaults and load passes\n"
                "(REF's newest committed release, or a build of REF with --build_base), and\n"
                "what the head compiler emits for the corpus (checked against REF's runtime).\n"
                "Prints each change with its verdict (safe / breaking-forward /\n"
                "breaking-backward / depends) and the safe procedure. Exit 1 when a change\n"
                "breaks a window at --now, 2 on bad input.");
  flags.AddString("base", &base, "The git ref the change is measured against (required).");
  flags.AddString("head", &head, "'worktree' (this build) or a git ref (built in a worktree).");
  flags.AddString("now", &now, "The date the windows are judged at.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddBool("build_base", &build_base,
                "Build REF's runtime to read its capabilities instead of its newest release.");
  flags.AddString("json", &json_path, "Also write the verdicts as JSON.");
  flags.AddString("cache_dir", &cache_dir, "Where built commits are cached.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  if (base.empty()) {
    return ReportToolError(kProgram, absl::InvalidArgumentError("--base=REF is required"), 2);
  }
  auto base_commit = ResolveCommit(".", base);
  AOT_RETURN_IF_ERROR_AND(base_commit, ReportToolError(kProgram, _, 2));
  Progress progress;  // on stderr when it is a terminal
  OldBuildOptions build_options;
  build_options.cache_dir = cache_dir;
  build_options.progress = &progress;
  if (head != "worktree") {
    // The head's own triage, from a build of the head commit.
    auto built = PrepareOldBuild(head, build_options);
    progress.Clear();
    AOT_RETURN_IF_ERROR_AND(built, ReportToolError(kProgram, _, 2));
    std::string command =
        absl::StrCat("cd ", ShellQuote(built->source_dir), " && ", ShellQuote(built->aot_compat),
                     " triage --base=", *base_commit, " --now=", ShellQuote(now));
    if (!json_path.empty()) {
      absl::StrAppend(&command, " --json=", ShellQuote(fs::absolute(json_path).string()));
    }
    CommandResult result = RunShellCommand(command);
    std::fputs(result.output.c_str(), stdout);
    return result.exit_code;
  }
  TriageInput input;
  input.golden_dir = golden_dir;
  input.now = now;
  input.targets = SelectGoldenTargets(targets);
  auto base_schema = SchemaAtCommit(".", *base_commit);
  AOT_RETURN_IF_ERROR_AND(base_schema, ReportToolError(kProgram, _, 2));
  input.base_schema = *std::move(base_schema);
  if (build_base) {
    auto built = PrepareOldBuild(*base_commit, build_options);
    AOT_RETURN_IF_ERROR_AND(built, ReportToolError(kProgram, _, 2));
    CommandResult printed = RunShellCommand(
        absl::StrCat(ShellQuote(built->aot_compat), " release --print 2>/dev/null"));
    nlohmann::json j = nlohmann::json::parse(printed.output, nullptr, false);
    if (printed.exit_code != 0 || j.is_discarded()) {
      return ReportToolError(kProgram,
                             absl::FailedPreconditionError(absl::StrCat(
                                 "the build of ", base_commit->substr(0, 12),
                                 " cannot print its capabilities (it predates `release "
                                 "--print`); drop --build_base to use its newest release")),
                             2);
    }
    auto runtime = ReleaseFromJson(j, "base build");
    AOT_RETURN_IF_ERROR_AND(runtime, ReportToolError(kProgram, _, 2));
    input.base_runtime = *std::move(runtime);
    input.base_source = absl::StrCat(base, " (", base_commit->substr(0, 12), ", built)");
  } else {
    std::string source;
    auto runtime = RuntimeAtCommit(".", *base_commit, &source);
    AOT_RETURN_IF_ERROR_AND(runtime, ReportToolError(kProgram, _, 2));
    input.base_runtime = *std::move(runtime);
    input.base_source = absl::StrCat(base, " (schema of ", base_commit->substr(0, 12),
                                     ", runtime of release ", source, ")");
  }
  input.head_runtime = CaptureRuntimeCapabilities();
  input.head_schema = SchemaDescriptorSet();
  auto artifacts = CompileCorpusArtifacts(golden_dir, input.targets);
  AOT_RETURN_IF_ERROR_AND(artifacts, ReportToolError(kProgram, _, 2));
  input.head_artifacts = *std::move(artifacts);
  auto report = Triage(input);
  AOT_RETURN_IF_ERROR_AND(report, ReportToolError(kProgram, _, 2));
  std::fputs(report->ToText().c_str(), stdout);
  if (std::optional<int> failed = WriteJsonOutput(json_path, report->ToJson())) return *failed;
  return report->ok() ? 0 : 1;
}

}  // namespace

Verb TriageVerb() {
  return {"triage",
          "Is my change safe? The decision tree of CONTRACT.md s. 5\n"
          "from the differences between --base=REF and the head.",
          TriageCommand};
}

}  // namespace aot
