#include "harness/release/release_verbs.h"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "compiler/rollout/emission_ledger.h"
#include "compiler/tooling/flags.h"
#include "harness/cli/verb.h"
#include "harness/gate/gate.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/release/forward_check.h"
#include "harness/release/old_build.h"
#include "harness/release/old_runs.h"
#include "harness/release/release.h"
#include "harness/release/release_snapshot.h"
#include "harness/release/rollout_audit.h"
#include "nlohmann/json.hpp"
#include "support/date.h"
#include "support/progress.h"
#include "support/status_macros.h"

namespace aot {
namespace {

int Release(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::string date = TodayDate();
  bool print = false;
  FlagSet flags("aot-compat release", "aot-compat release [--golden_dir=DIR] [--date=YYYY-MM-DD]",
                "Cuts a release of this binary's runtime: writes\n"
                "DIR/releases/<date>-<id>.json with what it can read (schema snapshot\n"
                "reference, thunk kinds, HLO opcodes, FFI handlers and aliases with expiry,\n"
                "host kernel imports, runtime flag defaults, load passes, ABI and toolchain,\n"
                "git commit). The schema snapshot is reused when one matches, written\n"
                "otherwise. Nothing is overwritten; an unchanged runtime writes nothing.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddString("date", &date, "The release date.");
  flags.AddBool("print", &print, "Print this runtime's capability snapshot; write nothing.");
  bool allow_dirty = false;
  flags.AddBool("allow_dirty", &allow_dirty,
                "Allow a release from a build of uncommitted changes.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  if (print) {
    ReleaseSnapshot r = CaptureRuntimeCapabilities();
    r.date = date;
    std::printf("%s\n", ReleaseToJson(r).dump(2).c_str());
    return 0;
  }
  auto result = CutRelease(golden_dir, date, allow_dirty);
  AOT_RETURN_IF_ERROR_AND(result, ReportToolError(kProgram, _, 2));
  if (result->wrote_snapshot)
    std::printf("wrote schema snapshot %s\n", result->snapshot_path.c_str());
  std::printf("%s %s\n", result->wrote_release ? "wrote" : "up to date:", result->path.c_str());
  return 0;
}

// forward-check --build_runtime: every named older runtime (a git ref, or
// `window`: each release of the forward window at `now`) on this
// compiler's artifacts, a verdict per artifact.
int ForwardCheckWithOldRuntimes(const std::string& golden_dir, const std::string& now,
                                const std::vector<std::string>& targets,
                                const std::vector<std::string>& refs, const std::string& cache_dir,
                                const std::string& json_path) {
  std::vector<std::pair<std::string, std::string>> runtimes;  // label, ref
  for (const std::string& ref : refs) {
    if (ref != "window") {
      runtimes.emplace_back(ref, ref);
      continue;
    }
    auto date = Date::Parse(now);
    AOT_RETURN_IF_ERROR_AND(date, ReportToolError(kProgram, _, 2));
    auto releases = LoadReleases(golden_dir);
    AOT_RETURN_IF_ERROR_AND(releases, ReportToolError(kProgram, _, 2));
    for (const ReleaseSnapshot& r : ComputeForwardWindow(*releases, *date).releases) {
      runtimes.emplace_back(r.id, r.git_commit);
    }
  }
  if (runtimes.empty()) {
    return ReportToolError(kProgram,
                           absl::NotFoundError(absl::StrCat("no release in the forward window at ",
                                                            now, " under ", golden_dir)),
                           2);
  }
  Progress progress;  // on stderr when it is a terminal
  OldBuildOptions options;
  options.golden_dir = golden_dir;
  options.cache_dir = cache_dir;
  options.progress = &progress;
  for (const auto& [label, ref] : runtimes) {
    if (auto commit = ResolveCommit(options.repo, ref); !commit.ok()) {
      return ReportToolError(kProgram, commit.status(), 2);
    }
  }
  auto compiled = CompileCorpus(golden_dir, SelectGoldenTargets(targets), &progress);
  AOT_RETURN_IF_ERROR_AND(compiled, ReportToolError(kProgram, _, 2));
  auto artifacts = ShippedArtifacts(*compiled);
  AOT_RETURN_IF_ERROR_AND(artifacts, ReportToolError(kProgram, _, 2));
  std::vector<LabeledOldRuntimeRuns> results;
  int failures = 0;
  for (const auto& [label, ref] : runtimes) {
    auto runs = RunWithOldRuntime(ref, *artifacts, options);
    if (!runs.ok()) {
      progress.Clear();
      return ReportToolError(kProgram, runs.status(), 2);
    }
    failures += runs->Failures();
    results.push_back({label, *std::move(runs)});
  }
  progress.Clear();
  std::printf("forward-check (old runtimes): %zu artifact(s) of this compiler x %zu runtime(s)\n%s",
              artifacts->size(), results.size(), OldRunsTable(results).c_str());
  if (std::optional<int> failed = WriteJsonOutput(json_path, OldRunsJson(results))) return *failed;
  std::printf("forward-check: %s\n", failures == 0 ? "every artifact ran in every old runtime"
                                                   : "some old runtime did not run some artifact");
  return failures == 0 ? 0 : 1;
}

// forward-check without --build_*: this compiler's artifacts against the
// releases of the forward window at `now` (or `release_ids`).
absl::StatusOr<int> ForwardCheckReleases(const std::string& golden_dir, const std::string& now,
                                         const std::vector<std::string>& targets,
                                         const std::vector<std::string>& release_ids,
                                         const std::string& json_path) {
  AOT_ASSIGN_OR_RETURN(Date date, Date::Parse(now));
  AOT_ASSIGN_OR_RETURN(std::vector<ReleaseSnapshot> releases, LoadReleases(golden_dir));
  std::vector<ReleaseSnapshot> selected;
  if (release_ids.empty()) {
    selected = ComputeForwardWindow(releases, date).releases;
  } else {
    for (const std::string& id : release_ids) {
      auto it = absl::c_find_if(releases, [&](const ReleaseSnapshot& r) { return r.id == id; });
      if (it == releases.end()) {
        return absl::NotFoundError(
            absl::StrCat("no release '", id, "' under ", golden_dir, "/releases"));
      }
      selected.push_back(*it);
    }
  }
  if (selected.empty()) {
    return absl::NotFoundError(
        absl::StrCat("no release on or before ", now, " under ", golden_dir, "/releases"));
  }
  AOT_ASSIGN_OR_RETURN(auto artifacts, CompileCorpusArtifacts(golden_dir, targets));
  int errors = 0;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ReleaseSnapshot& release : selected) {
    AOT_ASSIGN_OR_RETURN(auto checker, LoadForwardChecker(golden_dir, release, nullptr));
    int release_errors = 0;
    for (const ForwardArtifact& artifact : artifacts) {
      for (const ForwardFinding& f : checker->Check(artifact)) {
        if (f.severity == "error") ++release_errors;
        std::printf("%s\n", f.ToString().c_str());
        list.push_back(f.ToJson());
      }
    }
    std::printf("release %s (%s): %zu artifacts, %d error(s)\n", release.id.c_str(),
                release.date.c_str(), artifacts.size(), release_errors);
    errors += release_errors;
  }
  AOT_RETURN_IF_ERROR(WriteJsonFile(json_path, list));
  std::printf("forward-check: %s\n", errors == 0 ? "ok" : "errors");
  return errors == 0 ? 0 : 1;
}

int ForwardCheck(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::string now = TodayDate();
  std::vector<std::string> targets;
  std::vector<std::string> release_ids;
  std::string json_path;
  std::vector<std::string> build_runtimes;
  std::string build_compiler, cache_dir = ".aot-cache/worktrees";
  FlagSet flags("aot-compat forward-check",
                "aot-compat forward-check [--now=D] [--release=ID]... [--target=T]... "
                "[--json=OUT]\n       aot-compat forward-check --build_runtime=REF|window... "
                "[--target=T]... [--json=OUT]\n       aot-compat forward-check "
                "--build_compiler=REF",
                "Compiles the corpus with this compiler and checks every artifact against\n"
                "the releases of the forward window (the releases of the last 14 days plus\n"
                "the newest before): parsed with each release's descriptor set, unknown\n"
                "fields judged by their annotations, unknown oneof cases, enum values,\n"
                "opcodes, names and ABI minimums are errors. Exit 1 on an error.\n"
                "--build_runtime=REF (repeatable; `window`: every release of the forward\n"
                "window at --now) builds the runtime of an older commit in a cached\n"
                "worktree, and its aot-run loads and runs each of this compiler's\n"
                "artifacts (CUDA ones loaded and validated without a device): one verdict\n"
                "per artifact and runtime (passed, validated, mismatched, refused by the\n"
                "old runtime, not runnable by the old tool), cached per commit and\n"
                "artifact; exit 1 when any artifact did not run.\n"
                "--build_compiler=REF regenerates goldens with an older compiler and\n"
                "replays them with this runtime.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddString("now", &now, "The date the window ends at.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddList("release", &release_ids, "Check these release ids instead of the window.");
  flags.AddString("json", &json_path, "Also write the findings as JSON.");
  flags.AddList("build_runtime", &build_runtimes,
                "Git refs (or `window`) whose runtimes run our artifacts.");
  flags.AddString("build_compiler", &build_compiler,
                  "A git ref whose compiler's artifacts our runtime replays.");
  flags.AddString("cache_dir", &cache_dir, "Where old worktrees, builds and runs are cached.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  if (!build_runtimes.empty()) {
    return ForwardCheckWithOldRuntimes(golden_dir, now, targets, build_runtimes, cache_dir,
                                       json_path);
  }
  if (!build_compiler.empty()) {
    Progress progress;  // on stderr when it is a terminal
    OldBuildOptions options;
    options.golden_dir = golden_dir;
    options.cache_dir = cache_dir;
    options.targets = targets;
    options.progress = &progress;
    auto result = RunWithOldCompiler(build_compiler, options);
    progress.Clear();
    AOT_RETURN_IF_ERROR_AND(result, ReportToolError(kProgram, _, 2));
    std::fputs(result->log.c_str(), stdout);
    LabeledOldRuntimeRuns replayed{absl::StrCat("this runtime on ", build_compiler, "'s goldens"),
                                   {result->commit, {}}};
    for (const ReplayRecord& r : result->records) {
      replayed.runs.runs.push_back(OldRunFromReplay(r));
    }
    std::printf("forward-check (old compiler %s): %zu artifact(s) replayed by this runtime\n%s",
                result->commit.c_str(), replayed.runs.runs.size(),
                OldRunsTable({replayed}).c_str());
    if (std::optional<int> failed = WriteJsonOutput(json_path, OldRunsJson({replayed}))) {
      return *failed;
    }
    std::printf("forward-check (old compiler %s): %d passed, %d failed\n", result->commit.c_str(),
                result->passed, result->failed);
    return result->failed == 0 ? 0 : 1;
  }
  return ExitCodeOrBadInput(ForwardCheckReleases(golden_dir, now, targets, release_ids, json_path));
}

int RolloutAudit(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::string json_path;
  std::vector<std::string> release_ids;
  bool build = false;
  OldBuildOptions options;
  FlagSet flags("aot-compat rollout-audit",
                "aot-compat rollout-audit [--build [--release=ID]...] [--json=OUT]",
                "The staged-rollout ledger against the real released runtimes: for every\n"
                "emission flag, its flag-on targets (the golden targets compiled with it\n"
                "on) and, per release, whether that release's built runtime runs the\n"
                "targets' newest goldens (every artifact passed, or loaded and validated\n"
                "where no device is), from the runs recorded in golden/rollout/; then the\n"
                "first release that runs them, the ledger's date and the first day the\n"
                "flag may switch on (every release of that day's forward window runs\n"
                "them). --build first makes the runs the records lack: each release (or\n"
                "those of --release) built at its commit in a cached worktree, its aot-run\n"
                "on the flag-on goldens, the verdicts recorded. Exit 0; 1 when the ledger\n"
                "names a release that cannot run its flag's artifacts; 2 bad input.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddString("json", &json_path, "Also write the audit as JSON.");
  flags.AddBool("build", &build, "Build the releases and record the runs the records lack.");
  flags.AddList("release", &release_ids, "With --build: only these release ids.");
  flags.AddString("cache_dir", &options.cache_dir,
                  "Where old worktrees, builds and runs are cached.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  return ExitCodeOrBadInput([&]() -> absl::StatusOr<int> {
    AOT_ASSIGN_OR_RETURN(std::vector<ReleaseSnapshot> releases, LoadReleases(golden_dir));
    if (build) {
      std::vector<ReleaseSnapshot> selected;
      for (const ReleaseSnapshot& r : releases) {
        if (release_ids.empty() || absl::c_linear_search(release_ids, r.id)) selected.push_back(r);
      }
      for (const std::string& id : release_ids) {
        if (!absl::c_any_of(releases, [&](const ReleaseSnapshot& r) { return r.id == id; })) {
          return absl::NotFoundError(
              absl::StrCat("no release '", id, "' under ", golden_dir, "/releases"));
        }
      }
      Progress progress;  // on stderr when it is a terminal
      options.golden_dir = golden_dir;
      options.progress = &progress;
      auto recorded = RecordMissingRuns(golden_dir, EmissionLedger(), selected, options);
      progress.Clear();
      AOT_RETURN_IF_ERROR(recorded);
      std::printf("rollout-audit: recorded %d run(s)\n", *recorded);
    }
    AOT_ASSIGN_OR_RETURN(auto records, LoadReleaseRunRecords(golden_dir));
    AOT_ASSIGN_OR_RETURN(std::vector<FlagAudit> audits,
                         AuditEmissionFlags(golden_dir, EmissionLedger(), releases, records));
    std::fputs(FlagAuditTable(audits).c_str(), stdout);
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    int wrong = 0;
    for (const FlagAudit& a : audits) {
      list.push_back(a.ToJson());
      for (const FlagReleaseCell& c : a.releases) {
        if (c.release == a.ledger_release && c.state == ReleaseRunsFlag::kFails) ++wrong;
      }
    }
    AOT_RETURN_IF_ERROR(WriteJsonFile(json_path, list));
    std::printf("rollout-audit: %zu flag(s), %zu release(s); %s\n", audits.size(), releases.size(),
                wrong == 0 ? "the ledger's releases run their flags' artifacts"
                           : "the ledger names a release that cannot run its flag's artifacts");
    return wrong == 0 ? 0 : 1;
  }());
}

}  // namespace

std::vector<Verb> ReleaseVerbs() {
  return {
      {"release",
       "Cut a release: this runtime's capability snapshot to\n"
       "golden/releases/<date>-<id>.json.",
       Release},
      {"forward-check",
       "Check this compiler's output against the releases of\n"
       "the 2-week forward window (or build an old runtime /\n"
       "compiler from git and run across versions).",
       ForwardCheck},
  };
}

Verb RolloutAuditVerb() {
  return {"rollout-audit",
          "Every emission flag against every release's built\n"
          "runtime (recorded runs of its flag-on goldens; --build\n"
          "makes the missing ones): first release, switch date.",
          RolloutAudit};
}

}  // namespace aot
