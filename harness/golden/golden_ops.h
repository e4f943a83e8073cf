#ifndef AOT_HARNESS_GOLDEN_GOLDEN_OPS_H_
#define AOT_HARNESS_GOLDEN_GOLDEN_OPS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_store.h"
#include "harness/golden/replay_record.h"
#include "nlohmann/json.hpp"
#include "runtime/thunks/thunk.h"
#include "support/progress.h"

namespace aot {

// --- Structural comparison of artifacts (golden verification) ---------

// Fields verification ignores, as XLA's golden verification does:
// kernel binaries (object code, PTX, cubin and their payload digest: they
// follow from the same inputs and are checked by replay), toolchain
// versions (built_with),
// the compiler's git describe and debug paths.
const std::vector<std::string>& VerificationIgnoreList();

// A field-order-insensitive structural diff of two executables under the
// ignore list; empty when they are equivalent.
std::string DiffExecutables(const ExecutableProto& golden, const ExecutableProto& current);

// --- Building artifacts -----------------------------------------------

// Compiles one corpus module for a target with the current compiler.
absl::StatusOr<ExecutableProto> CompileCorpusModule(const CorpusModule& module,
                                                    const GoldenTarget& target);

// The corpus (golden_dir/modules) compiled by the current compiler for each
// of `targets`, in target then module order.
struct CompiledTest {
  std::string target;
  std::string test;
  ExecutableProto executable;
};
// `progress` (may be null) shows the module being compiled, n of N. With
// `cache_dir`, each module's artifact is kept under
// <cache_dir>/compile/<key>.pb and reused while its key holds: this
// compiler binary (its path, size and modification time) and everything
// the compile reads (the target, its flags and counts, the module's
// text), so a gate on an unchanged tree compiles nothing.
absl::StatusOr<std::vector<CompiledTest>> CompileCorpus(const std::string& golden_dir,
                                                        const std::vector<std::string>& targets,
                                                        Progress* progress = nullptr,
                                                        const std::string& cache_dir = "");

// Compiles one corpus module for a target with the current compiler and
// records its inputs (seeded) and outputs: on host targets by running the
// artifact; on CUDA targets (compiled device-less) from the reference
// interpreter, with a tolerance. Tests whose artifact uses a vendor BLAS
// GEMM get a tolerance too (BLAS results are not bit-reproducible across
// CPU models).
absl::StatusOr<GoldenArtifact> BuildArtifact(const CorpusModule& module,
                                             const GoldenTarget& target);

// The target as its newest golden version was generated: its own emission
// flags and those that version's manifest records (verify, the gate and
// GoldenFileVerification compile it so).
absl::StatusOr<GoldenTarget> TargetAsGenerated(const std::string& golden_dir,
                                               const std::string& name);

// --- generate -----------------------------------------------------------

struct GenerateResult {
  std::string target;
  bool wrote = false;
  int version = 0;  // written, or the newest when up to date
  std::string message;
};

// For each target: compiles every module; writes v<N+1> only when the
// output differs from v<N> under verification (or v1 when there is none).
// `date` (YYYY-MM-DD) is the manifest's created date; `progress` (may be
// null) shows the module being compiled and a line per target.
// `emission_flags` (aot-compat generate --xla_aot_<flag>=true) are switched
// on for every target on top of its own; the manifest records them.
absl::StatusOr<std::vector<GenerateResult>> GenerateGoldens(
    const std::string& golden_dir, const std::vector<std::string>& targets, const std::string& date,
    Progress* progress = nullptr, const std::vector<std::string>& emission_flags = {});

// Goldens are generated from a clean commit (CONTRACT.md): the binary
// (`git_describe`, `git_commit`: its build info) must be built from a
// commit, and when `golden_dir` is inside a git work tree, that commit must
// be its HEAD and golden_dir/modules must hold no uncommitted change (the
// modules the goldens are compiled from). FailedPrecondition naming what
// differs; `aot-compat generate` checks it unless --allow_dirty.
absl::Status CheckGeneratedFromCleanCommit(const std::string& golden_dir,
                                           const std::string& git_describe,
                                           const std::string& git_commit);

// --- replay -------------------------------------------------------------

inline constexpr int kMaxReplayJobs = 8;

struct ReplayOptions {
  std::string golden_dir = "golden";
  std::vector<std::string> targets;
  bool all_versions = false;
  // Restrict to these versions (empty: the selection rule).
  std::vector<int> versions;
  // Shows the artifact being replayed (n of N) and a line per version;
  // null: nothing.
  Progress* progress = nullptr;
  // How many artifacts of a version replay at once (each with its own
  // client); 0: one per hardware thread, at most kMaxReplayJobs. The
  // report is the same whatever the number.
  int jobs = 0;
  // Backward-window mode (YYYY-MM-DD): replay every version current in
  // the last 6 months before `now` (windows.h); older versions are
  // reported "expired", never failures. Empty: the boundary selection.
  std::string now;
  // The runtime's load-time flags (their defaults unless a gate checks a
  // changed default against the goldens).
  LoadOptions load_options;
  // A replay that was skipped because nothing could execute it (no device,
  // a capability mismatch) is a failure instead (scripts/gpu_check.sh).
  bool require_execution = false;
  // The replay cache's directory (harness/golden/replay_cache.h); empty: no
  // cache, every artifact is replayed. A test of a format 2 version whose
  // verdict this runtime already gave (same runtime fingerprint, blobs,
  // machine verdict and options) takes it from the cache without loading;
  // passes and skips of real replays are stored. Format 1 versions and
  // failures are never cached.
  std::string cache_dir;
};

struct ReplayReport {
  std::vector<ReplayRecord> records;
  int passed = 0, failed = 0, skipped = 0, expired = 0;
  // Of the passed and skipped: how many verdicts came from the replay cache.
  int cached = 0;
  // With a cache: its directory and the runtime fingerprint its entries are
  // keyed by (empty without one).
  std::string cache_dir;
  std::string runtime_fingerprint;
  // Verdicts that could not be stored (ReplayCacheRun::Warning); never a
  // failure.
  std::string cache_warning;
  bool ok() const { return failed == 0; }
  nlohmann::ordered_json ToJson() const;
  // One line per target and version, in replay order, under a header:
  // created date, passed/failed/skipped/expired counts, total load and run
  // milliseconds.
  std::string VersionTable() const;
};

// Loads every selected golden version's artifacts with the current runtime
// (oldest to newest), runs them on their recorded inputs and compares with
// the recorded outputs (bitwise unless the test declares a tolerance).
// The MANIFEST's sha256 are checked first. Errors (not failures): a target
// without versions, an unknown target.
absl::StatusOr<ReplayReport> ReplayGoldens(const ReplayOptions& options);

// What a replay runs once (ReplayGoldens, the test fixture): the same
// artifact and I/O blobs on the same platform, as
// "<platform>/<artifact blob>/<I/O blob>".
std::string ReplayKey(absl::string_view platform, absl::string_view artifact_digest,
                      absl::string_view io_digest);

// Replays one artifact (used by replay and the test fixture).
ReplayRecord ReplayArtifact(const GoldenTarget& target, int version, const GoldenArtifact& artifact,
                            const LoadOptions& load_options = {});

// --- verify -------------------------------------------------------------

struct VerifyResult {
  std::string target;
  int version = 0;  // the newest version
  bool ok = true;
  std::string diff;  // per test, when not ok
};

// Compiles with the current compiler and compares with the newest version:
// structurally under the ignore list, or byte for byte with `strict`.
absl::StatusOr<std::vector<VerifyResult>> VerifyGoldens(const std::string& golden_dir,
                                                        const std::vector<std::string>& targets,
                                                        bool strict);

// The same comparison for output already compiled (CompileCorpus of the same
// golden_dir and targets).
absl::StatusOr<std::vector<VerifyResult>> VerifyCompiled(const std::string& golden_dir,
                                                         const std::vector<std::string>& targets,
                                                         const std::vector<CompiledTest>& compiled,
                                                         bool strict);

// --- prune --------------------------------------------------------------

// Deletes the version directories of `target` that are expired at `now`
// (outside the backward window) and returns their numbers, then the blobs
// they named that no remaining version of any target names (their paths in
// `retired_blobs`, when not null); with `dry_run` only lists both. Nothing
// inside the window is ever deleted, nor a blob a version still names.
absl::StatusOr<std::vector<int>> PruneExpired(const std::string& golden_dir,
                                              const std::string& target, const std::string& now,
                                              bool dry_run,
                                              std::vector<std::string>* retired_blobs = nullptr);

// Today's date, YYYY-MM-DD (UTC).
std::string TodayDate();

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_GOLDEN_OPS_H_
