#ifndef AOT_HARNESS_SCHEMA_SCHEMA_VERBS_H_
#define AOT_HARNESS_SCHEMA_SCHEMA_VERBS_H_

// The schema guard's verbs of aot-compat: schema-snapshot, schema-check
// (harness/cli/verb.h).

#include <vector>

#include "harness/cli/verb.h"

namespace aot {

// In the order `aot-compat --help` lists them.
std::vector<Verb> SchemaVerbs();

}  // namespace aot

#endif  // AOT_HARNESS_SCHEMA_SCHEMA_VERBS_H_
