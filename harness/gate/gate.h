#ifndef AOT_HARNESS_GATE_GATE_H_
#define AOT_HARNESS_GATE_GATE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/rollout/emission_ledger.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "harness/gate/gate_types.h"
#include "harness/golden/golden_ops.h"
#include "harness/release/forward_check.h"
#include "harness/release/release.h"
#include "harness/release/rollout_audit.h"
#include "nlohmann/json.hpp"
#include "runtime/thunks/thunk.h"

namespace aot {

// The one verdict users run before landing a change (CONTRACT.md s. 4-6):
// schema-check + backward window + forward window + staged-rollout ledger
// (its dates, and its flags against the real released runtimes' recorded
// runs) + fallback lint + golden verification.
struct GateOptions {
  std::string golden_dir = "golden";
  std::string source_root = ".";     // the lint scans <source_root>/runtime
  std::string now;                   // YYYY-MM-DD
  std::vector<std::string> targets;  // empty: every golden target
  bool verify = true;                // compile the corpus and compare with the newest goldens

  // What is under test; defaults are this binary's. Tests and triage swap
  // them to model a change.
  std::optional<google::protobuf::FileDescriptorSet> head_schema;
  const google::protobuf::DescriptorPool* head_pool = nullptr;  // annotations of the head schema
  std::optional<std::vector<EmissionFlag>> ledger;
  std::optional<ReleaseSnapshot> runtime;  // the current runtime's capabilities
  LoadOptions load_options;                // the runtime's flag defaults
  // The current compiler's output for the forward check (default: the
  // corpus compiled for every target).
  std::function<absl::StatusOr<std::vector<ForwardArtifact>>()> artifacts;
  // Shows which check runs and the artifact being replayed or compiled;
  // null: nothing.
  Progress* progress = nullptr;
  // The backward replay's cache (ReplayOptions::cache_dir) and the corpus
  // compile cache (CompileCorpus); empty: none.
  std::string replay_cache_dir;
  // The rollout check reads the releases' recorded runs of the flag-on
  // artifacts (golden/rollout/). With `build_old`, the runs it needs and
  // lacks are made first: each release's runtime built at its commit in a
  // cached worktree (old_build), its runs recorded.
  bool build_old = false;
  OldBuildOptions old_build;
  // The rollout step at all; scenarios of the other steps, whose synthetic
  // ledgers have no flag-on targets, turn it off.
  bool rollout = true;
};

struct GateReport {
  std::string now;
  std::string backward_window_start;
  std::string forward_window_start;
  std::vector<std::string> forward_releases;  // ids checked
  std::vector<GateCheck> checks;
  std::vector<GateBlocker> blockers;
  std::vector<GateNotice> notices;
  ReplayReport backward;
  std::vector<ForwardFinding> forward;
  std::vector<FlagAudit> rollout;  // every emission flag against every release

  bool ok() const { return blockers.empty(); }
  bool HasBlocker(absl::string_view check, absl::string_view rule) const;
  nlohmann::ordered_json ToJson() const;
  // A few lines: the verdict, each check, each blocker with its fix.
  std::string Summary() const;
};

// Errors (not blockers) are bad input: an unparsable date, an unreadable
// golden directory or release.
absl::StatusOr<GateReport> RunGate(const GateOptions& options);

// The corpus (golden_dir/modules) compiled for `targets` by this binary.
absl::StatusOr<std::vector<ForwardArtifact>> CompileCorpusArtifacts(
    const std::string& golden_dir, const std::vector<std::string>& targets);

}  // namespace aot

#endif  // AOT_HARNESS_GATE_GATE_H_
