#ifndef AOT_HARNESS_GATE_GATE_VERBS_H_
#define AOT_HARNESS_GATE_GATE_VERBS_H_

// The gate's verbs of aot-compat: gate and report (the gate's verdict as a
// release qualification report), which share their flags
// (harness/cli/verb.h).

#include "harness/cli/verb.h"

namespace aot {

// `aot-compat --help` lists gate, rollout-audit (harness/release), report.
Verb GateVerb();
Verb ReportVerb();

}  // namespace aot

#endif  // AOT_HARNESS_GATE_GATE_VERBS_H_
