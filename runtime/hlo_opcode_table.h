#ifndef AOT_RUNTIME_HLO_OPCODE_TABLE_H_
#define AOT_RUNTIME_HLO_OPCODE_TABLE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "proto/hlo.pb.h"

namespace aot {

// The HLO opcodes this runtime knows, as spelled in the embedded module
// (CONTRACT.md s. 3: an opcode the loading binary does not know fails the
// load). The runtime keeps its own table; it never consults the compiler's.
const std::vector<std::string>& RuntimeKnownHloOpcodes();
bool IsKnownHloOpcode(absl::string_view opcode);

// Checks every instruction of the embedded module; the error names the
// opcode, the instruction and its computation.
absl::Status CheckEmbeddedHloOpcodes(const HloModuleProto& module);

}  // namespace aot

#endif  // AOT_RUNTIME_HLO_OPCODE_TABLE_H_
