#ifndef AOT_HARNESS_GOLDEN_SYNTHETIC_CORPUS_H_
#define AOT_HARNESS_GOLDEN_SYNTHETIC_CORPUS_H_

// A synthetic golden history at scale, for the corpus scale benchmark
// (harness/bench/corpus_scale_bench.cc, scripts/bench.sh --corpus): months of
// daily golden versions for every golden target, made from the real
// compiler's output, in the layout `aot-compat` reads (golden/README.md,
// golden_store.h):
//
//   modules/<suite>/<test>.hlo    the corpus: the source corpus's modules and,
//                                 to reach `modules_per_target`, renamed
//                                 copies of them ("<test>_s<k>", HloModule
//                                 "<name>_s<k>"): distinct programs, each
//                                 compiled for real
//   schema/*.binpb                the source corpus's schema snapshots (and
//                                 the built-in schema when none matches it)
//   executables/<target>/v<N>/    one version a day (days_per_version)
//   store/{artifacts,io}/         each distinct blob once
//   releases/<date>-<id>.json     this binary's runtime, cut every
//                                 release_every_days
//
// What it models: every version is written by a compiler of its own (a
// distinct compiler_version stamp, so unchanged artifacts differ from the
// previous version's only in the stamp and share its blobs, as in reality),
// and in each version about `change_fraction` of a target's modules change:
// their artifact is a new blob. A changed artifact is its module's real
// artifact with abi_version.llvm.built_with.patch raised by its revision
// number: a field both the runtime (it checks `minimum` only) and golden
// verification (VerificationIgnoreList) ignore, so every version still loads,
// replays on its recorded inputs and outputs (the I/O blob is the module's),
// and the newest version verifies against the current compiler, while each
// revision is a distinct blob of the real artifact's size that replay
// loads and runs like any other.
//
// Nothing here touches a corpus that exists: the golden directory must not
// hold executables yet.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/golden/golden_store.h"
#include "support/progress.h"

namespace aot {

struct SyntheticHistoryOptions {
  // Where the history is written (created when absent; must hold no
  // executables/ yet).
  std::string golden_dir;
  // The corpus whose modules/ and schema/ the history starts from.
  std::string source_golden_dir = "golden";
  // Golden target names; empty: every target of GoldenTargets(). Each is
  // compiled with its own emission flags, on the modules its suites select
  // (ModulesForTarget).
  std::vector<std::string> targets;
  int versions = 180;  // per target
  // Modules per target: the first ones of the target's suites when fewer
  // than the source corpus holds, renamed copies on top when more.
  int modules_per_target = 150;
  // The chance of each module to change in each version after the first.
  double change_fraction = 0.05;
  // The first version's date (YYYY-MM-DD); empty: the date that makes the
  // newest version today's (TodayDate()).
  std::string start_date;
  int days_per_version = 1;
  // A release every that many days from the start date (0: none).
  int release_every_days = 14;
  // Seeds which modules change when.
  uint64_t seed = 1;
  // Seed compiles at once; 0: one per hardware thread.
  int jobs = 0;
  // Shows the seed compiles and the versions written; null: nothing.
  Progress* progress = nullptr;
};

struct SyntheticHistoryStats {
  int targets = 0;
  int versions = 0;            // version directories, all targets together
  int entries = 0;             // (version, test) entries, all versions together
  int modules = 0;             // .hlo files written under modules/
  int seed_artifacts = 0;      // (target, module) pairs compiled
  int changed_artifacts = 0;   // revisions written after the first version
  int distinct_artifacts = 0;  // artifact blobs written
  int distinct_io = 0;         // I/O blobs written
  int releases = 0;
  uint64_t artifact_bytes = 0;  // the distinct artifact blobs' bytes
  uint64_t io_bytes = 0;        // the distinct I/O blobs' bytes
  // Each entry's artifact and I/O blob bytes summed over every version:
  // what storing every version's files separately would take.
  uint64_t logical_bytes = 0;
  std::string first_date, last_date;  // of the versions
  double compile_seconds = 0;         // the seed compiles (BuildArtifact)
  double write_seconds = 0;           // versions, blobs and releases
};

// Writes the history described above. Errors: bad options, a source corpus
// without modules, a module that does not compile for a target (naming
// both), an existing executables/ or store/ under golden_dir, I/O errors.
absl::StatusOr<SyntheticHistoryStats> WriteSyntheticHistory(const SyntheticHistoryOptions& options);

// The same in two steps, so that several histories (other version counts
// or change fractions) can share one compile of their seeds: the modules of
// options.targets compiled by the real compiler (each target's
// modules_per_target, BuildArtifact), from the modules/ written under
// options.golden_dir, ...
struct SyntheticSeeds {
  std::vector<std::string> targets;
  std::vector<std::vector<GoldenArtifact>> artifacts;  // per target, in module order
  int modules = 0;                                     // .hlo files written
  double compile_seconds = 0;
};
absl::StatusOr<SyntheticSeeds> CompileSyntheticSeeds(const SyntheticHistoryOptions& options);
// ... then the history of `options` from them (the same targets and
// modules_per_target; InvalidArgument otherwise).
absl::StatusOr<SyntheticHistoryStats> WriteSyntheticHistory(const SyntheticHistoryOptions& options,
                                                            const SyntheticSeeds& seeds);

// The test name of copy `copy` of corpus module `test` (copy 0 is the
// module itself).
std::string SyntheticModuleName(const std::string& test, int copy);

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_SYNTHETIC_CORPUS_H_
