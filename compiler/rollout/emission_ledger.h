#ifndef AOT_COMPILER_ROLLOUT_EMISSION_LEDGER_H_
#define AOT_COMPILER_ROLLOUT_EMISSION_LEDGER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "support/date.h"

namespace aot {

// The staged-rollout ledger (CONTRACT.md s. 6): every compiler emission
// flag for a new construct in the artifact (a thunk kind, a field required
// for correctness, an enum value, an HLO opcode), with the dates that
// decide whether turning it on, or removing the old form's fallback, is
// safe. One registry: the compiler reads flag defaults from here, the gate
// checks it, the schema's `emission_flag` annotations name these flags.
struct EmissionFlag {
  std::string name;  // e.g. "emit_gemm_bias_epilogue"
  std::string description;
  // Phase 1: the first release whose built runtime runs the flag-on
  // artifacts (golden/releases/<id>.json; the gate checks it against that
  // release's recorded runs, harness/release/rollout_audit.h), and its date.
  // Not the date of the commit that added the support: a runtime nobody
  // has released runs nothing in the field.
  std::string runtime_release;
  std::string runtime_support_since;  // YYYY-MM-DD, runtime_release's date
  bool enabled_by_default = false;    // phase 2: the compiler emits it
  std::string enabled_since;          // YYYY-MM-DD the default turned on
  // Phase 3: the date the runtime's deserialization fallback for the OLD
  // form was removed (empty: still there).
  std::string fallback_removed_on;
  // HLO opcodes the flag gates: while it is off (by default, and not turned
  // on for a compile), a module whose optimized form still holds one of
  // them does not compile, since runtimes of the forward window reject it.
  std::vector<std::string> hlo_opcodes;
  // Custom-call targets the flag gates (a trailing '*' matches a prefix):
  // while it is off, a module calling one does not compile, since released
  // runtimes have no handler of that name.
  std::vector<std::string> custom_call_targets;
};

// The ledger of this compiler; entries are added with the runtime support
// (phase 1).
const std::vector<EmissionFlag>& EmissionLedger();

// The ledger's flag of that name, or nullptr.
const EmissionFlag* FindEmissionFlag(absl::string_view name);

// The flag as tools take it on the command line: "--xla_aot_<name>" (XLA's
// debug-option style; --xla_aot_emit_collectives=true turns it on).
std::string EmissionFlagCommandLine(absl::string_view name);

// The ledger's flag gating the HLO opcode (text spelling), or nullptr.
const EmissionFlag* EmissionFlagForOpcode(absl::string_view opcode);

// The ledger's flag gating the custom-call target, or nullptr.
const EmissionFlag* EmissionFlagForCustomCall(absl::string_view target);

// Whether `target` matches one of `patterns` (exact, or a prefix ending '*').
bool MatchesTargetPattern(absl::string_view target, const std::vector<std::string>& patterns);

struct LedgerViolation {
  std::string flag;
  std::string rule;     // EMITTED_TOO_EARLY | FALLBACK_REMOVED_TOO_EARLY | BAD_DATE | ...
  std::string message;  // what is wrong and how to fix it
};

// The first day a flag whose runtime support was released on `support`
// may be on by default: the day every runtime of the forward window has
// it. The window of day D holds the releases dated in [D - 14, D] and the
// newest one dated before, so on support + 14 the release before the
// supporting one is still in it: support + 15.
Date EarliestSwitchDay(const Date& support);

// Checks a ledger at `now` (YYYY-MM-DD):
//  - a flag on by default needs runtime support released 14 full days
//    before (EarliestSwitchDay) at `now` and at the date it was enabled;
//  - a fallback may be removed only 6 months after emission of the new
//    form became the default (backward window, counted from phase 2);
//  - dates must parse and be ordered (support <= enabled <= removal).
absl::StatusOr<std::vector<LedgerViolation>> CheckEmissionLedger(
    const std::vector<EmissionFlag>& ledger, absl::string_view now);

}  // namespace aot

#endif  // AOT_COMPILER_ROLLOUT_EMISSION_LEDGER_H_
