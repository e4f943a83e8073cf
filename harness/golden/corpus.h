#ifndef AOT_HARNESS_GOLDEN_CORPUS_H_
#define AOT_HARNESS_GOLDEN_CORPUS_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot {

// A program of the corpus: golden/modules/<suite>/<test>.hlo, with an
// optional sidecar <test>.options.json ({"atol": x, "rtol": y, "seed": n}).
struct CorpusModule {
  std::string suite;
  std::string test;  // file stem; unique across suites
  std::string path;  // the .hlo file
  double atol = 0;   // declared tolerance (0/0: bitwise)
  double rtol = 0;
  uint64_t seed = 42;
};

// Every module under <golden_dir>/modules, sorted by suite then test.
// Errors name the file (bad sidecar, duplicate test name).
absl::StatusOr<std::vector<CorpusModule>> DiscoverModules(const std::string& golden_dir);

// The golden targets: name, shipped target config, platform.
struct GoldenTarget {
  std::string name;           // "host-x86-64-v3", "cuda-sm_90"
  std::string target_config;  // shipped spec name ("host-x86-64-v3", "h100")
  std::string platform;       // "host" | "cuda"
  // The corpus suites compiled for the target; empty: every suite but the
  // targeted ones (kTargetedSuites).
  std::vector<std::string> suites;
  // Emission flags on for every compile of the target: its goldens hold
  // what they gate.
  std::vector<std::string> emission_flags;
  // The modules' replica count for this target (0: the module's own).
  int64_t replica_count = 0;
  // > 0: the modules are SPMD programs, partitioned (PartitionSpmd) for
  // this many partitions before they are compiled.
  int64_t partitions = 0;
};

// Suites compiled only for the targets that name them: multi-replica
// modules (collectives), like XLA's collective_ops_* golden targets, and
// modules whose compile needs an emission flag still off by default
// (complex_types, narrow_types: emit_extended_element_types; packed_types:
// that and emit_packed_sub_byte_layouts; inverse_math, aliasing, rng_state:
// the flags of their names).
inline constexpr const char* kTargetedSuites[] = {"aliasing",     "collectives", "complex_types",
                                                  "inverse_math", "lapack",      "narrow_types",
                                                  "packed_types", "rng_state",   "spmd"};

// The modules of `modules` that `target` compiles (GoldenTarget::suites).
std::vector<CorpusModule> ModulesForTarget(const std::vector<CorpusModule>& modules,
                                           const GoldenTarget& target);
const std::vector<GoldenTarget>& GoldenTargets();
absl::StatusOr<GoldenTarget> FindGoldenTarget(absl::string_view name);
// The host golden targets a CPU with `cpu_features` (DetectHostCpuFeatures()
// for this machine) can run: those whose shipped spec's ISA level the
// features satisfy, in GoldenTargets() order (best level first).
std::vector<std::string> RunnableHostGoldenTargets(const std::set<std::string>& cpu_features);

// `requested` when it names any target; otherwise every golden target (of
// `platform`, when given: "host" or "cuda").
std::vector<std::string> SelectGoldenTargets(const std::vector<std::string>& requested,
                                             absl::string_view platform = "");

// Versions of a target, discovered positionally: directories
// <golden_dir>/executables/<target>/v<int> holding a MANIFEST.json or (a
// format 1 version) at least one artifact (*.pbtxt), sorted numerically;
// stray files and empty version directories are ignored. NotFound when the target has none.
absl::StatusOr<std::vector<int>> DiscoverVersions(const std::string& golden_dir,
                                                  absl::string_view target);
std::string VersionDir(const std::string& golden_dir, absl::string_view target, int version);

// Which versions a replay checks, oldest to newest: the boundary versions
// (the oldest and the second newest; all when there are two or fewer), or
// every version with `all_versions`.
std::vector<int> SelectVersions(const std::vector<int>& versions, bool all_versions);

// XLA_AOT_TEST_ALL_VERSIONS parsed as a boolean (unset: false); an
// unparsable value is an error naming it.
absl::StatusOr<bool> AllVersionsFromEnvironment();
// XLA_AOT_UPDATE_GOLDENS likewise.
absl::StatusOr<bool> UpdateGoldensFromEnvironment();

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_CORPUS_H_
