#ifndef AOT_HARNESS_RELEASE_OLD_BUILD_H_
#define AOT_HARNESS_RELEASE_OLD_BUILD_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/golden/replay_record.h"
#include "support/progress.h"
#include "support/subprocess.h"

namespace aot {

// Real old binaries for release qualification: a commit is checked out in
// a scratch git worktree under the cache directory and its tools are built
// there (scripts/build.sh of that commit), once per commit.
struct OldBuildOptions {
  std::string golden_dir = "golden";
  std::string cache_dir = ".aot-cache/worktrees";
  std::string repo = ".";            // the git repository
  std::vector<std::string> targets;  // empty: the host targets
  int jobs = 2;
  // Shows the build step and the artifacts run; null: nothing.
  Progress* progress = nullptr;
};

struct OldBuild {
  std::string commit;
  std::string source_dir;  // the worktree
  std::string build_dir;
  std::string aot_compat;  // path of that commit's aot-compat
  std::string aot_run;     // and of its aot-run (loads serialized executables)
};

// What an old compiler's goldens did in this runtime (RunWithOldCompiler).
// The other direction, an old runtime on this compiler's artifacts, gives a
// verdict per artifact (old_runs.h).
struct CrossVersionResult {
  std::string commit;
  int passed = 0;
  int failed = 0;
  std::string log;  // what the old and new tools printed
  // This runtime's replay of each of the old compiler's artifacts
  // (OldRunFromReplay gives each its verdict).
  std::vector<ReplayRecord> records;
};

// `git rev-parse --verify REF^{commit}`; InvalidArgument naming the ref.
absl::StatusOr<std::string> ResolveCommit(const std::string& repo, const std::string& ref);

// Which of an old commit's tools a use needs: running artifacts needs its
// aot-run alone (a third less to build than both).
enum class OldTools { kRunOnly, kAll };

// Checks out (git worktree add --detach) and builds `tools` at `ref`,
// reusing <cache_dir>/<commit> when its build stamp and those tools exist.
absl::StatusOr<OldBuild> PrepareOldBuild(const std::string& ref, const OldBuildOptions& options,
                                         OldTools tools = OldTools::kAll);

// The old commit's `aot-compat generate` writes its corpus as goldens into a
// scratch directory; this runtime replays them.
absl::StatusOr<CrossVersionResult> RunWithOldCompiler(const std::string& ref,
                                                      const OldBuildOptions& options);

}  // namespace aot

#endif  // AOT_HARNESS_RELEASE_OLD_BUILD_H_
