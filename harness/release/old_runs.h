#ifndef AOT_HARNESS_RELEASE_OLD_RUNS_H_
#define AOT_HARNESS_RELEASE_OLD_RUNS_H_

// What a released runtime does with artifacts, told by its own built
// binaries: an old build's aot-run loads and runs each artifact (CUDA ones
// are loaded and validated where no device is), and every artifact gets a
// verdict of its own, never a count.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/golden/golden_ops.h"
#include "harness/release/old_build.h"
#include "harness/release/old_run_verdict.h"
#include "nlohmann/json.hpp"
#include "support/progress.h"

namespace aot {

// One artifact as a deployment ships it.
struct OldRunArtifact {
  std::string target;    // golden target
  std::string test;      // corpus module
  std::string platform;  // "host" | "cuda": what the old aot-run runs it on
  std::string bytes;     // the serialized ExecutableProto
  // The stamp-free artifact's sha256 (ArtifactBlobBytes: the golden store's
  // blob name): the same program from another build has the same digest.
  std::string digest;
};

struct OldRun {
  std::string target;
  std::string test;
  std::string digest;
  OldRunVerdict verdict = OldRunVerdict::kNotRunnable;
  std::string detail;  // the old tool's summary line or error, one line
  nlohmann::ordered_json ToJson() const;
};

// Reads what one old aot-run printed for `paths` (its standard output and
// standard error, kept apart so lines never interleave): per path with a
// line of its own, the verdict. A path the tool printed nothing for is
// absent. Every release's aot-run prints "<path>: <shape> load ..., reference:
// match|mismatch|skipped" or "..., execution skipped (<why>), reference:
// skipped" on stdout and "aot-run: error: <path>: <message>" on stderr, the
// load failures as "cannot load: <why>".
struct ParsedOldRun {
  OldRunVerdict verdict;
  std::string detail;
};
std::map<std::string, ParsedOldRun> ParseOldAotRunOutput(absl::string_view out,
                                                         absl::string_view err,
                                                         const std::vector<std::string>& paths);

// Runs every artifact with `build`'s aot-run: written under a scratch
// directory of `cache_dir`, one aot-run per target and platform over its
// files, and each file the tool printed nothing for (a crash takes the rest
// with it) once more alone, so every artifact has a verdict. Verdicts are
// cached under <cache_dir>/runs/<commit>/<platform>-<digest>.json (the old
// binary and the program do not change), so a run whose inputs did not
// change starts no old binary. Errors (not verdicts): the scratch directory
// or a cache entry cannot be written.
absl::StatusOr<std::vector<OldRun>> RunWithOldBuild(const OldBuild& build,
                                                    const std::vector<OldRunArtifact>& artifacts,
                                                    const std::string& cache_dir,
                                                    Progress* progress = nullptr);

// This compiler's corpus output (CompileCorpus) as a deployment ships it:
// serialized, on the platform of its target.
absl::StatusOr<std::vector<OldRunArtifact>> ShippedArtifacts(
    const std::vector<CompiledTest>& compiled);
// The newest golden version of each of `targets`, each artifact as its
// compiler wrote it (the stamp applied). NotFound for a target without
// versions.
absl::StatusOr<std::vector<OldRunArtifact>> NewestGoldenArtifacts(
    const std::string& golden_dir, const std::vector<std::string>& targets);

// One older runtime on `artifacts`: the commit `ref` names is built (once,
// cached: PrepareOldBuild) and its aot-run gives every artifact a verdict
// (RunWithOldBuild, cached under options.cache_dir).
struct OldRuntimeRuns {
  std::string commit;
  std::vector<OldRun> runs;  // in the artifacts' order
  // How many runs have each verdict.
  std::map<OldRunVerdict, int> Counts() const;
  int Failures() const;  // neither passed nor validated
};
absl::StatusOr<OldRuntimeRuns> RunWithOldRuntime(const std::string& ref,
                                                 const std::vector<OldRunArtifact>& artifacts,
                                                 const OldBuildOptions& options);

// Several older runtimes on the same artifacts, each under a label (a
// release id, or the git ref asked for).
struct LabeledOldRuntimeRuns {
  std::string label;
  OldRuntimeRuns runs;
};
// The other direction (RunWithOldCompiler): this runtime's replay of an old
// compiler's artifact as a verdict: pass -> passed, skipped (CUDA without a
// device) -> validated, a refusal at load -> refused, different outputs ->
// mismatched, any other failure -> not_runnable. The digest stays empty.
OldRun OldRunFromReplay(const ReplayRecord& record);

// One table: a row per artifact (target/test), a column per runtime with
// the verdict's letter; then per runtime its counts and every artifact it
// did not run, with the verdict and why.
std::string OldRunsTable(const std::vector<LabeledOldRuntimeRuns>& runtimes);
// {"runtimes": [{"label", "commit", "counts": {...}, "runs": [OldRun...]}]}
nlohmann::ordered_json OldRunsJson(const std::vector<LabeledOldRuntimeRuns>& runtimes);

}  // namespace aot

#endif  // AOT_HARNESS_RELEASE_OLD_RUNS_H_
