#ifndef AOT_HARNESS_TRIAGE_TRIAGE_VERBS_H_
#define AOT_HARNESS_TRIAGE_TRIAGE_VERBS_H_

// `aot-compat triage`: is my change safe? (harness/cli/verb.h). It compiles
// the head's corpus as the gate does, so this library links aot_gate.

#include "harness/cli/verb.h"

namespace aot {

Verb TriageVerb();

}  // namespace aot

#endif  // AOT_HARNESS_TRIAGE_TRIAGE_VERBS_H_
