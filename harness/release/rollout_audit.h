#ifndef AOT_HARNESS_RELEASE_ROLLOUT_AUDIT_H_
#define AOT_HARNESS_RELEASE_ROLLOUT_AUDIT_H_

// The staged-rollout ledger checked against real released binaries: which
// releases' built runtimes run each emission flag's flag-on artifacts (the
// newest goldens of the targets compiled with the flag on), recorded per
// release in golden/rollout/<release id>.json, and from that the first
// release that runs them and the first day the flag may switch on.

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/rollout/emission_ledger.h"
#include "harness/release/old_runs.h"
#include "harness/release/release_snapshot.h"
#include "nlohmann/json.hpp"
#include "support/date.h"

namespace aot {

// The golden targets that hold `flag`'s flag-on path: those compiled with
// it on whose other emission flags all had runtime support no later (a
// target that also needs a later flag holds that flag's path, and would
// tell nothing about this one's). In GoldenTargets() order.
std::vector<std::string> FlagOnTargets(const EmissionFlag& flag,
                                       const std::vector<EmissionFlag>& ledger);

// What one release's built runtime did with golden artifacts, by artifact
// digest (the store's blob name: the same program compiled by another
// commit has the same digest, so one record serves every golden version
// that holds it). Verdicts never change once recorded: the release's
// binary and the program are both fixed.
struct ReleaseRunRecord {
  std::string release;                 // release id
  std::string git_commit;              // the commit its runtime was built from
  std::map<std::string, OldRun> runs;  // digest -> the run
  nlohmann::ordered_json ToJson() const;
  static absl::StatusOr<ReleaseRunRecord> FromJson(const nlohmann::json& json,
                                                   const std::string& origin);
};

// golden_dir/rollout/<release id>.json for every release that has one, by
// release id; an absent directory is none. Errors name the bad file.
absl::StatusOr<std::map<std::string, ReleaseRunRecord>> LoadReleaseRunRecords(
    const std::string& golden_dir);
// Adds `runs` to the release's record (created when absent), written
// atomically; a digest already recorded keeps its verdict.
absl::Status RecordReleaseRuns(const std::string& golden_dir, const ReleaseSnapshot& release,
                               const std::vector<OldRun>& runs);

// One release and one flag.
enum class ReleaseRunsFlag {
  kRuns,        // every flag-on artifact passed or was validated
  kFails,       // at least one did not (`failure` says which and why)
  kUnrecorded,  // some artifact has no recorded run by this release
};
struct FlagReleaseCell {
  std::string release;
  std::string release_date;
  ReleaseRunsFlag state = ReleaseRunsFlag::kUnrecorded;
  OldRunVerdict verdict = OldRunVerdict::kPassed;  // kFails: the first failing one's
  // kFails: the first failing artifact, "<target>/<test>: <verdict>: <detail>";
  // kUnrecorded: the first unrecorded one, "<target>/<test>".
  std::string example;
};

struct FlagAudit {
  std::string flag;
  std::vector<std::string> targets;       // FlagOnTargets
  int artifacts = 0;                      // of the targets' newest goldens
  std::vector<FlagReleaseCell> releases;  // oldest first
  // The first release whose runtime runs every flag-on artifact, from
  // which on every later release does too; empty when none is.
  std::string first_release;
  std::string first_release_date;
  // The first day every release of the forward window runs them (the day
  // after first_release_date + 14: the window of day D holds the releases
  // of [D - 14, D] and the newest one before); empty with no first release.
  std::string earliest_switch;
  // The ledger's claim.
  std::string ledger_release;
  std::string ledger_support_since;
  bool enabled_by_default = false;
  nlohmann::ordered_json ToJson() const;
};

// The audit of every flag of `ledger` from the records (nothing is built
// or run): each flag's targets' newest goldens against every release.
absl::StatusOr<std::vector<FlagAudit>> AuditEmissionFlags(
    const std::string& golden_dir, const std::vector<EmissionFlag>& ledger,
    const std::vector<ReleaseSnapshot>& releases,
    const std::map<std::string, ReleaseRunRecord>& records);

// The first day D >= `from` on which every release of the forward window
// at D satisfies `runs` (releases oldest first, as LoadReleases gives
// them); nullopt when none does by the newest release's date + 15 days.
std::optional<Date> EarliestDayEveryWindowReleaseRuns(
    const std::vector<ReleaseSnapshot>& releases, const Date& from,
    const std::function<bool(const ReleaseSnapshot&)>& runs);

// The audit as a table: one row per flag, one column per release (Y runs,
// a verdict letter where it fails, - unrecorded), then the first release,
// the ledger's date and the earliest switch day; a legend and each
// failure below it.
std::string FlagAuditTable(const std::vector<FlagAudit>& audits);

// Runs what the records lack: for each of `releases`, the flag-on targets'
// newest goldens that its record does not hold are run by that release's
// built runtime (PrepareOldBuild of its git_commit, cached) and recorded.
// Returns how many runs were recorded.
absl::StatusOr<int> RecordMissingRuns(const std::string& golden_dir,
                                      const std::vector<EmissionFlag>& ledger,
                                      const std::vector<ReleaseSnapshot>& releases,
                                      const OldBuildOptions& options);

}  // namespace aot

#endif  // AOT_HARNESS_RELEASE_ROLLOUT_AUDIT_H_
