#ifndef AOT_HARNESS_GOLDEN_GOLDEN_VERBS_H_
#define AOT_HARNESS_GOLDEN_GOLDEN_VERBS_H_

// The golden store's verbs of aot-compat: generate, replay, verify, prune,
// show, diff, fsck, repack (harness/cli/verb.h).

#include <vector>

#include "harness/cli/verb.h"

namespace aot {

// In the order `aot-compat --help` lists them.
std::vector<Verb> GoldenVerbs();

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_GOLDEN_VERBS_H_
