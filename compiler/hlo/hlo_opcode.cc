#include "compiler/hlo/hlo_opcode.h"

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

absl::StatusOr<HloOpcode> StringToHloOpcode(absl::string_view text) {
  for (const OpcodeInfo& info : kOpcodes) {
    if (info.text == text) return info.opcode;
  }
  if (text == "clz") return HloOpcode::kClz;
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

int HloOpcodeCount() { return static_cast<int>(std::size(kOpcodes)); }

}  // namespace aot
