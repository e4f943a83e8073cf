#ifndef AOT_COMPILER_HLO_HLO_GRAPH_DOT_H_
#define AOT_COMPILER_HLO_HLO_GRAPH_DOT_H_

// An HLO module as a Graphviz graph in DOT text (aotc --stage=dot), as XLA's
// graph dumps draw it: one node per instruction with its name, opcode and
// shape, operands as edges into their users, each computation a cluster, a
// call, fusion, while, conditional, reduce, ... pointing (dashed) at the
// clusters of the computations it calls; sharding and layout in each node's
// tooltip. Optionally one computation only, or the neighbourhood of one
// instruction (every instruction within `radius` operand/user edges of it).

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

struct DotGraphOptions {
  // Only this computation (and none it calls); empty: every computation.
  std::string computation;
  // Only the instructions within `radius` edges of the instruction named
  // `node` (in whatever computation holds it); empty: all.
  std::string node;
  int64_t radius = 2;
};

// NotFound naming the computation or instruction when an option names one
// the module does not have; InvalidArgument for a negative radius.
absl::StatusOr<std::string> HloModuleToDot(const HloModule& module,
                                           const DotGraphOptions& options = {});

}  // namespace aot

#endif  // AOT_COMPILER_HLO_HLO_GRAPH_DOT_H_
