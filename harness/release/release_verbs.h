#ifndef AOT_HARNESS_RELEASE_RELEASE_VERBS_H_
#define AOT_HARNESS_RELEASE_RELEASE_VERBS_H_

// The release library's verbs of aot-compat: release, forward-check and
// rollout-audit (harness/cli/verb.h). forward-check compiles the corpus as
// the gate does (CompileCorpusArtifacts), so this library links aot_gate.

#include <vector>

#include "harness/cli/verb.h"

namespace aot {

// release, forward-check, in the order `aot-compat --help` lists them.
std::vector<Verb> ReleaseVerbs();
// rollout-audit, which `aot-compat --help` lists after gate.
Verb RolloutAuditVerb();

}  // namespace aot

#endif  // AOT_HARNESS_RELEASE_RELEASE_VERBS_H_
