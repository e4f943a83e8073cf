#include "runtime/hlo_opcode_table.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace aot {

const std::vector<std::string>& RuntimeKnownHloOpcodes() {
  // Sorted. Adding an opcode here is a runtime-support change (staged
  // rollout phase 1); removing one breaks the 6-month backward window.
  // rng-get-and-update-state: since 2026-12-03 (emission flag
  // emit_rng_state).
  static const std::vector<std::string>* opcodes =
      new std::vector<std::string>{"abs",
                                   "acos",
                                   "acosh",
                                   "add",
                                   "all-gather",
                                   "all-reduce",
                                   "all-to-all",
                                   "and",
                                   "asin",
                                   "asinh",
                                   "atan",
                                   "atan2",
                                   "atanh",
                                   "bitcast",
                                   "bitcast-convert",
                                   "broadcast",
                                   "call",
                                   "cbrt",
                                   "ceil",
                                   "clamp",
                                   "collective-broadcast",
                                   "collective-permute",
                                   "compare",
                                   "concatenate",
                                   "conditional",
                                   "constant",
                                   "convert",
                                   "convolution",
                                   "copy",
                                   "cosh",
                                   "cosine",
                                   "count-leading-zeros",
                                   "custom-call",
                                   "divide",
                                   "dot",
                                   "dynamic-slice",
                                   "dynamic-update-slice",
                                   "erf",
                                   "exponential",
                                   "exponential-minus-one",
                                   "floor",
                                   "fusion",
                                   "gather",
                                   "get-tuple-element",
                                   "iota",
                                   "is-finite",
                                   "log",
                                   "log-plus-one",
                                   "logistic",
                                   "maximum",
                                   "minimum",
                                   "multiply",
                                   "negate",
                                   "not",
                                   "or",
                                   "pad",
                                   "parameter",
                                   "partition-id",
                                   "popcnt",
                                   "power",
                                   "reduce",
                                   "reduce-precision",
                                   "reduce-scatter",
                                   "reduce-window",
                                   "remainder",
                                   "replica-id",
                                   "reshape",
                                   "reverse",
                                   "rng-get-and-update-state",
                                   "round-nearest-afz",
                                   "round-nearest-even",
                                   "rsqrt",
                                   "scatter",
                                   "select",
                                   "select-and-scatter",
                                   "shift-left",
                                   "shift-right-arithmetic",
                                   "shift-right-logical",
                                   "sign",
                                   "sine",
                                   "sinh",
                                   "slice",
                                   "sort",
                                   "sqrt",
                                   "subtract",
                                   "tan",
                                   "tanh",
                                   "transpose",
                                   "tuple",
                                   "while",
                                   "xor"};
  return *opcodes;
}

bool IsKnownHloOpcode(absl::string_view opcode) {
  const auto& known = RuntimeKnownHloOpcodes();
  return std::binary_search(known.begin(), known.end(), opcode, [](const auto& a, const auto& b) {
    return absl::string_view(a) < absl::string_view(b);
  });
}

absl::Status CheckEmbeddedHloOpcodes(const HloModuleProto& module) {
  for (const HloComputationProto& computation : module.computations()) {
    for (const HloInstructionProto& instruction : computation.instructions()) {
      if (!IsKnownHloOpcode(instruction.opcode())) {
        return absl::InvalidArgumentError(
            absl::StrCat("hlo_module: unknown HLO opcode '", instruction.opcode(),
                         "' in instruction '", instruction.name(), "' of computation '",
                         computation.name(), "' (this runtime does not support it)"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace aot
