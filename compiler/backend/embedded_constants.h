#ifndef AOT_COMPILER_BACKEND_EMBEDDED_CONSTANTS_H_
#define AOT_COMPILER_BACKEND_EMBEDDED_CONSTANTS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "proto/executable.pb.h"

namespace aot {

// Constants of at least this many bytes are stored once in an artifact
// (CONTRACT.md s. 7): their bytes in `binary`, their literal in the
// embedded HLO module reduced to its shape.
inline constexpr int64_t kElidedConstantBytes = 1024;

// Reduces the embedded module's literal of every array constant stored in
// `binary` with at least kElidedConstantBytes to its shape (the compiler's
// last step).
void ElideEmbeddedConstantPayloads(ExecutableProto* executable);

// The inverse, for tools that interpret the embedded module: in `module` (a
// copy of executable's embedded one), each constant whose literal holds
// only its shape gets its elements back from executable's `binary`
// (ConstantProto of the same name, physical layout of the literal's
// shape). A literal left without elements (no such constant, sizes that
// disagree) is InvalidArgument naming the instruction.
absl::Status RestoreEmbeddedConstantPayloads(const ExecutableProto& executable,
                                             HloModuleProto* module);

}  // namespace aot

#endif  // AOT_COMPILER_BACKEND_EMBEDDED_CONSTANTS_H_
