#ifndef AOT_HARNESS_LINT_LINT_VERBS_H_
#define AOT_HARNESS_LINT_LINT_VERBS_H_

// `aot-compat lint`: the fallback expiry lint of runtime/ and the
// staged-rollout ledger check (harness/cli/verb.h).

#include "harness/cli/verb.h"

namespace aot {

Verb LintVerb();

}  // namespace aot

#endif  // AOT_HARNESS_LINT_LINT_VERBS_H_
