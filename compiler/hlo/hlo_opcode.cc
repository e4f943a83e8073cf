#include "compiler/hlo/hlo_opcode.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace aot {

namespace {

struct OpcodeInfo {
  HloOpcode opcode;
  absl::string_view text;
  int arity;
  char kind;
};

constexpr OpcodeInfo kOpcodes[] = {
#define AOT_OPCODE_INFO(enum_name, text, arity, kind) {HloOpcode::enum_name, text, arity, #kind[0]},
    AOT_HLO_OPCODE_LIST(AOT_OPCODE_INFO)
#undef AOT_OPCODE_INFO
};

const OpcodeInfo& Info(HloOpcode opcode) { return kOpcodes[static_cast<int>(opcode)]; }

}  // namespace

absl::string_view HloOpcodeString(HloOpcode opcode) { return Info(opcode).text; }

const std::vector<std::string>& XlaOpcodeNames() {
  static const auto* names = new std::vector<std::string>{
      "abs",
      "acos",
      "acosh",
      "add",
      "add-dependency",
      "after-all",
      "all-gather",
      "all-gather-done",
      "all-gather-start",
      "all-reduce",
      "all-reduce-done",
      "all-reduce-start",
      "all-to-all",
      "and",
      "asin",
      "asinh",
      "async-done",
      "async-start",
      "async-update",
      "atan",
      "atan2",
      "atanh",
      "batch-norm-grad",
      "batch-norm-inference",
      "batch-norm-training",
      "bitcast",
      "bitcast-convert",
      "broadcast",
      "call",
      "cbrt",
      "ceil",
      "cholesky",
      "clamp",
      "count-leading-zeros",
      "collective-broadcast",
      "collective-permute",
      "collective-permute-done",
      "collective-permute-start",
      "collective-reduce",
      "compare",
      "complex",
      "concatenate",
      "conditional",
      "constant",
      "convert",
      "convolution",
      "copy",
      "copy-done",
      "copy-start",
      "cosine",
      "cosh",
      "custom-call",
      "divide",
      "domain",
      "dot",
      "dynamic-reshape",
      "dynamic-slice",
      "dynamic-update-slice",
      "erf",
      "exponential",
      "exponential-minus-one",
      "fft",
      "floor",
      "fusion",
      "gather",
      "get-dimension-size",
      "get-tuple-element",
      "imag",
      "infeed",
      "iota",
      "is-finite",
      "log",
      "log-plus-one",
      "logistic",
      "map",
      "maximum",
      "minimum",
      "mulhi",
      "multiply",
      "negate",
      "not",
      "opt-barrier",
      "or",
      "outfeed",
      "pad",
      "parameter",
      "partition-id",
      "popcnt",
      "power",
      "ragged-all-to-all",
      "ragged-dot",
      "real",
      "recv",
      "recv-done",
      "reduce",
      "reduce-precision",
      "reduce-scatter",
      "reduce-window",
      "remainder",
      "replica-id",
      "reshape",
      "reverse",
      "rng",
      "rng-bit-generator",
      "rng-get-and-update-state",
      "round-nearest-afz",
      "round-nearest-even",
      "rsqrt",
      "scaled-dot",
      "scan",
      "scatter",
      "select",
      "select-and-scatter",
      "send",
      "send-done",
      "set-dimension-size",
      "shift-left",
      "shift-right-arithmetic",
      "shift-right-logical",
      "shuffle",
      "sign",
      "sine",
      "sinh",
      "slice",
      "sort",
      "sqrt",
      "stochastic-convert",
      "subtract",
      "tan",
      "tanh",
      "topk",
      "transpose",
      "triangular-solve",
      "tuple",
      "while",
      "xor",
  };
  return *names;
}

absl::StatusOr<HloOpcode> StringToHloOpcode(absl::string_view text) {
  for (const OpcodeInfo& info : kOpcodes) {
    if (info.text == text) return info.opcode;
  }
  if (text == "clz") return HloOpcode::kClz;
  // Host and cross-program transfers: an AOT executable has no channel to
  // the host or to another program while it runs.
  if (text == "infeed" || text == "outfeed") {
    return absl::UnimplementedError(absl::StrCat(
        "opcode '", text, "' is not supported by this runtime (no host transfer queue)"));
  }
  if (text == "send" || text == "send-done" || text == "recv" || text == "recv-done") {
    return absl::UnimplementedError(absl::StrCat(
        "opcode '", text, "' is not supported by this runtime (no channel to another program)"));
  }
  const std::vector<std::string>& xla = XlaOpcodeNames();
  if (std::find(xla.begin(), xla.end(), text) != xla.end()) {
    return absl::UnimplementedError(
        absl::StrCat("opcode '", text, "' is an XLA opcode this compiler does not support"));
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown opcode '", text, "'"));
}

int HloOpcodeArity(HloOpcode opcode) { return Info(opcode).arity; }

bool IsElementwiseUnary(HloOpcode opcode) { return Info(opcode).kind == 'U'; }
bool IsElementwiseBinary(HloOpcode opcode) { return Info(opcode).kind == 'B'; }

bool IsElementwise(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kCompare:
    case HloOpcode::kSelect:
    case HloOpcode::kClamp:
    case HloOpcode::kConvert:
    case HloOpcode::kIsFinite:
      return true;
    default:
      return IsElementwiseUnary(opcode) || IsElementwiseBinary(opcode);
  }
}

bool IsComplexUnaryOpcode(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kNegate:
    case HloOpcode::kCopy:
    case HloOpcode::kSign:
    case HloOpcode::kExp:
    case HloOpcode::kExpm1:
    case HloOpcode::kLog:
    case HloOpcode::kLog1p:
    case HloOpcode::kLogistic:
    case HloOpcode::kSqrt:
    case HloOpcode::kRsqrt:
    case HloOpcode::kCbrt:
    case HloOpcode::kSin:
    case HloOpcode::kCos:
    case HloOpcode::kTan:
    case HloOpcode::kTanh:
      return true;
    default:
      return false;
  }
}

bool RearrangesElementsOnly(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kBroadcast:
    case HloOpcode::kReshape:
    case HloOpcode::kBitcast:
    case HloOpcode::kTranspose:
    case HloOpcode::kSlice:
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kDynamicUpdateSlice:
    case HloOpcode::kConcatenate:
    case HloOpcode::kPad:
    case HloOpcode::kReverse:
    case HloOpcode::kGather:
    case HloOpcode::kSelect:
      return true;
    default:
      return false;
  }
}

bool PassesValuesOn(HloOpcode opcode) {
  if (RearrangesElementsOnly(opcode)) return true;
  switch (opcode) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kTuple:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kCopy:
    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
    case HloOpcode::kOptimizationBarrier:
    case HloOpcode::kAfterAll:
    case HloOpcode::kAddDependency:
      return true;
    default:
      return false;
  }
}

bool IsComplexBinaryOpcode(HloOpcode opcode) {
  return opcode == HloOpcode::kAdd || opcode == HloOpcode::kSubtract ||
         opcode == HloOpcode::kMultiply || opcode == HloOpcode::kDivide ||
         opcode == HloOpcode::kPower;
}

int HloOpcodeCount() { return static_cast<int>(std::size(kOpcodes)); }

}  // namespace aot
