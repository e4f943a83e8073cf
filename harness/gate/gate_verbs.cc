#include "harness/gate/gate_verbs.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "compiler/tooling/flags.h"
#include "harness/cli/verb.h"
#include "harness/gate/gate.h"
#include "harness/gate/qualification.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/report/qualification_report.h"
#include "nlohmann/json.hpp"
#include "runtime/platform/host/cpu_features.h"
#include "support/file_io.h"
#include "support/progress.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// The flags `gate` and `report` share.
void AddGateFlags(FlagSet& flags, GateOptions* options, bool* no_verify, ReplayCacheFlags* cache) {
  flags.AddString("now", &options->now, "The clock.");
  flags.AddString("golden_dir", &options->golden_dir, "The corpus root.");
  flags.AddString("root", &options->source_root, "The repository root (for the lint).");
  flags.AddList("target", &options->targets, TargetHelp());
  flags.AddBool("no_verify", no_verify, "Skip golden verification.");
  flags.AddBool("build_old", &options->build_old,
                "Before the rollout check, make the released runtimes' runs it needs and "
                "golden/rollout/ lacks: each release built at its commit (cached in "
                "--old_cache_dir), its runs recorded.");
  flags.AddString("old_cache_dir", &options->old_build.cache_dir,
                  "Where old worktrees, builds and runs are cached.");
  cache->Add(flags);
}

int Gate(int argc, char** argv) {
  GateOptions options;
  options.now = TodayDate();
  std::string json_path;
  bool no_verify = false;
  FlagSet flags("aot-compat gate",
                "aot-compat gate [--now=YYYY-MM-DD] [--golden_dir=DIR] [--target=T]... "
                "[--json=OUT] [--cache_dir=DIR | --no_cache]",
                "One verdict for a change: schema-check against every snapshot, backward\n"
                "window (every golden of the last 6 months replays; runtime flag defaults\n"
                "and FFI names of the window's releases), forward window (this compiler's\n"
                "output against every release of the last 2 weeks), the staged-rollout\n"
                "ledger, the fallback expiry lint and golden verification. The backward\n"
                "replay takes the verdicts this runtime already gave from the replay cache\n"
                "(--cache_dir; --no_cache replays everything). Prints each blocker with\n"
                "its fix. Exit 0 pass, 1 blocked, 2 bad input.");
  ReplayCacheFlags cache;
  AddGateFlags(flags, &options, &no_verify, &cache);
  bool runnable_host_targets = false;
  bool replay_table = false;
  flags.AddString("json", &json_path, "Also write the full report as JSON.");
  flags.AddBool("runnable_host_targets", &runnable_host_targets,
                "Gate the host targets this machine's CPU can run (x86-64-v3 only with "
                "AVX2/FMA/BMI2...), in addition to any --target.");
  flags.AddBool("replay_table", &replay_table,
                "After the summary, print the backward replay per target and version, the "
                "forward window's releases and the verdict.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  options.verify = !no_verify;
  options.replay_cache_dir = cache.Dir();
  if (runnable_host_targets) {
    for (const std::string& t : RunnableHostGoldenTargets(DetectHostCpuFeatures())) {
      options.targets.push_back(t);
    }
  }
  Progress progress;  // on stderr when it is a terminal
  options.progress = &progress;
  auto report = RunGate(options);
  progress.Clear();
  AOT_RETURN_IF_ERROR_AND(report, ReportToolError(kProgram, _, 2));
  std::fputs(report->Summary().c_str(), stdout);
  if (replay_table) {
    std::printf("\n%s\nforward window from %s: releases %s\ngate: %s\n",
                report->backward.VersionTable().c_str(), report->forward_window_start.c_str(),
                report->forward_releases.empty()
                    ? "none"
                    : absl::StrJoin(report->forward_releases, ", ").c_str(),
                report->ok() ? "PASS" : "BLOCKED");
  }
  if (std::optional<int> failed = WriteJsonOutput(json_path, report->ToJson())) return *failed;
  return report->ok() ? 0 : 1;
}

int Report(int argc, char** argv) {
  GateOptions options;
  options.now = TodayDate();
  std::string out;
  bool no_verify = false;
  FlagSet flags(
      "aot-compat report",
      "aot-compat report --out=DIR [--now=YYYY-MM-DD] [--target=T]... [--old_runs=FILE]... "
      "[--cache_dir=DIR | --no_cache]",
      "Runs the gate and writes a release qualification report to DIR:\n"
      "report.json, junit.xml (one testcase per target/version/test and per gate\n"
      "check) and a self-contained index.html (the target x version x test grid,\n"
      "the window boundaries on a timeline of versions and releases, load/run\n"
      "time per version, every blocker with its fix). The gate's backward\n"
      "replay uses the replay cache as `gate` does. Exit 0 pass, 1 blocked\n"
      "(the report is written either way), 2 bad input.");
  flags.AddString("out", &out, "The report directory (created).");
  std::vector<std::string> old_runs;
  flags.AddList("old_runs", &old_runs,
                "`forward-check --build_runtime=... --json` output: older runtimes' verdicts "
                "on this compiler's artifacts, shown beside the releases' recorded runs.");
  ReplayCacheFlags cache;
  AddGateFlags(flags, &options, &no_verify, &cache);
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  return ExitCodeOrBadInput([&]() -> absl::StatusOr<int> {
    if (out.empty()) return absl::InvalidArgumentError("--out=DIR is required");
    options.verify = !no_verify;
    options.replay_cache_dir = cache.Dir();
    options.targets = SelectGoldenTargets(options.targets);
    Progress progress;  // on stderr when it is a terminal
    options.progress = &progress;
    auto gate = RunGate(options);
    progress.Clear();
    AOT_RETURN_IF_ERROR(gate);
    AOT_ASSIGN_OR_RETURN(auto data,
                         QualificationFromGate(*gate, options.golden_dir, options.targets));
    for (const std::string& path : old_runs) {
      AOT_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
      nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (json.is_discarded()) return absl::InvalidArgumentError(path + ": not valid JSON");
      AOT_RETURN_IF_ERROR(AddOldRuntimeRuns(json, path, &data));
    }
    AOT_RETURN_IF_ERROR(WriteQualificationReport(data, out));
    std::fputs(gate->Summary().c_str(), stdout);
    std::printf("report: %s/report.json %s/junit.xml %s/index.html\n", out.c_str(), out.c_str(),
                out.c_str());
    return gate->ok() ? 0 : 1;
  }());
}

}  // namespace

Verb GateVerb() {
  return {"gate",
          "schema-check + backward + forward + ledger + rollout +\n"
          "lint + verify at --now: one verdict with each blocker's fix.",
          Gate};
}

Verb ReportVerb() {
  return {"report",
          "Run the gate and write a release qualification report\n"
          "(report.json, junit.xml, index.html).",
          Report};
}

}  // namespace aot
