#include "harness/release/old_build.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

// A fresh scratch directory under the cache ("<cache>/scratch/<tag>-<n>").
absl::StatusOr<std::string> ScratchDir(const std::string& cache_dir, const std::string& tag) {
  std::error_code ec;
  for (int n = 0; n < 10000; ++n) {
    fs::path dir = fs::path(cache_dir) / "scratch" / absl::StrCat(tag, "-", n);
    if (fs::exists(dir, ec)) continue;
    fs::create_directories(dir, ec);
    if (ec) return absl::InternalError(absl::StrCat(dir.string(), ": ", ec.message()));
    return fs::absolute(dir).string();
  }
  return absl::ResourceExhaustedError(absl::StrCat("no free scratch directory in ", cache_dir));
}

}  // namespace

absl::StatusOr<std::string> ResolveCommit(const std::string& repo, const std::string& ref) {
  if (ref.empty() || ref[0] == '-') {
    return absl::InvalidArgumentError(absl::StrCat("bad git ref '", ref, "'"));
  }
  CommandResult r = RunShellCommand(absl::StrCat(
      "git -C ", ShellQuote(repo), " rev-parse --verify --quiet ", ShellQuote(ref + "^{commit}")));
  std::string commit(absl::StripAsciiWhitespace(r.output));
  if (r.exit_code != 0 || commit.size() != 40) {
    return absl::InvalidArgumentError(
        absl::StrCat("git ref '", ref, "' does not name a commit in ", repo));
  }
  return commit;
}

absl::StatusOr<OldBuild> PrepareOldBuild(const std::string& ref, const OldBuildOptions& options,
                                         OldTools tools) {
  auto commit = ResolveCommit(options.repo, ref);
  AOT_RETURN_IF_ERROR(commit);
  OldBuild build;
  build.commit = *commit;
  std::error_code ec;
  fs::path root = fs::absolute(fs::path(options.cache_dir) / *commit, ec);
  build.source_dir = (root / "src").string();
  // The build tree lives inside the worktree: ccache's base directory is
  // the source tree (cmake/AotCompilerCache.cmake), so every path of the
  // compile lines is then relative and one release's objects serve the
  // next release's unchanged sources, and this checkout's.
  build.build_dir = (root / "src" / "build").string();
  build.aot_compat = (root / "src" / "build" / "harness" / "aot-compat").string();
  build.aot_run = (root / "src" / "build" / "compiler" / "tools" / "aot-run").string();
  fs::path stamp = root / "built.stamp";
  const bool all = tools == OldTools::kAll;
  auto built = [&] {
    return fs::exists(build.aot_run, ec) && (!all || fs::exists(build.aot_compat, ec));
  };
  if (fs::exists(stamp, ec) && built()) return build;
  fs::create_directories(root, ec);
  if (ec) return absl::InternalError(absl::StrCat(root.string(), ": ", ec.message()));
  const std::string short_commit = commit->substr(0, 12);
  auto step = [&](const std::string& what) {
    if (options.progress != nullptr) options.progress->Update(what);
  };
  step(absl::StrCat("old build ", short_commit, ": git worktree"));
  if (!fs::exists(fs::path(build.source_dir) / ".git", ec)) {
    CommandResult add = RunShellCommand(absl::StrCat("git -C ", ShellQuote(options.repo),
                                                     " worktree add --detach --force ",
                                                     ShellQuote(build.source_dir), " ", *commit));
    if (add.exit_code != 0) {
      return absl::InternalError(
          absl::StrCat("git worktree add for ", *commit, " failed: ", add.output));
    }
  }
  if (!fs::exists(fs::path(build.source_dir) / "scripts" / "build.sh", ec)) {
    return absl::FailedPreconditionError(
        absl::StrCat("commit ", *commit, " has no scripts/build.sh; it predates the harness"));
  }
  const std::string what = all ? "aot-compat aot-run" : "aot-run";
  step(
      absl::StrCat("old build ", short_commit, ": building ", what, " (minutes on a fresh cache)"));
  CommandResult make = RunShellCommand(absl::StrCat(
      "cd ", ShellQuote(build.source_dir), " && AOT_BUILD_DIR=", ShellQuote(build.build_dir),
      " AOT_JOBS=", options.jobs, " bash scripts/build.sh ", what));
  if (make.exit_code != 0 || !built()) {
    std::string tail =
        make.output.size() > 4000 ? make.output.substr(make.output.size() - 4000) : make.output;
    return absl::InternalError(
        absl::StrCat("building ", what, " at ", *commit, " failed:\n", tail));
  }
  if (options.progress != nullptr) {
    options.progress->Line(absl::StrCat("old build ", short_commit, ": built"));
  }
  FILE* f = fopen(stamp.c_str(), "w");
  if (f != nullptr) {
    fputs(commit->c_str(), f);
    fclose(f);
  }
  return build;
}

absl::StatusOr<CrossVersionResult> RunWithOldCompiler(const std::string& ref,
                                                      const OldBuildOptions& options) {
  auto old = PrepareOldBuild(ref, options);
  AOT_RETURN_IF_ERROR(old);
  AOT_ASSIGN_OR_RETURN(auto scratch, ScratchDir(options.cache_dir, "old-compiler"));
  std::error_code ec;
  // The old compiler compiles its own corpus (it may predate new modules).
  fs::create_directory_symlink(fs::path(old->source_dir) / "golden" / "modules",
                               fs::path(scratch) / "modules", ec);
  if (ec) return absl::InternalError(absl::StrCat(scratch, "/modules: ", ec.message()));
  std::vector<std::string> wanted = SelectGoldenTargets(options.targets, "host");
  CrossVersionResult result;
  result.commit = old->commit;
  // One target at a time: a target newer than the old commit is unknown to
  // its aot-compat, which refuses the whole command; it is noted and left
  // out.
  std::vector<std::string> targets;
  for (const std::string& t : wanted) {
    if (options.progress != nullptr) {
      options.progress->Update(
          absl::StrCat("old compiler ", old->commit.substr(0, 12), " generates ", t));
    }
    CommandResult generate = RunShellCommand(
        absl::StrCat(ShellQuote(old->aot_compat), " generate --golden_dir=", ShellQuote(scratch),
                     " --target=", ShellQuote(t)));
    if (generate.exit_code != 0 && absl::StrContains(generate.output, "unknown golden target")) {
      absl::StrAppend(&result.log, "== ", t, ": unknown to the old compiler ",
                      old->commit.substr(0, 12), "; left out\n");
      continue;
    }
    absl::StrAppend(&result.log, "== old compiler ", old->commit.substr(0, 12), " generates ", t,
                    "\n", generate.output);
    if (generate.exit_code != 0) {
      return absl::InternalError(
          absl::StrCat("the old aot-compat generate --target=", t, " failed:\n", generate.output));
    }
    targets.push_back(t);
  }
  if (targets.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the old compiler ", old->commit.substr(0, 12), " knows none of the targets asked for"));
  }
  ReplayOptions replay;
  replay.golden_dir = scratch;
  replay.targets = targets;
  replay.all_versions = true;
  replay.progress = options.progress;
  AOT_ASSIGN_OR_RETURN(auto report, ReplayGoldens(replay));
  for (const ReplayRecord& r : report.records) {
    if (r.status == ReplayStatus::kFail) {
      absl::StrAppend(&result.log, "FAIL ", r.target, " ", r.test, ": ", r.reason, "\n");
    }
  }
  result.passed = report.passed;
  result.failed = report.failed;
  result.records = report.records;
  return result;
}

}  // namespace aot
