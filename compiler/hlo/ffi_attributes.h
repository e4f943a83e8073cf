#ifndef AOT_COMPILER_HLO_FFI_ATTRIBUTES_H_
#define AOT_COMPILER_HLO_FFI_ATTRIBUTES_H_

// The attributes of a typed-FFI custom call (api_version =
// API_VERSION_TYPED_FFI), as XLA's HLO text carries them in backend_config:
// an MLIR dictionary, `{uplo = 76 : ui8, mode = 1 : i32, full = true,
// eps = 1.0e-6 : f32, name = "x"}`. The thunk emitter stores them in
// CustomCallThunkProto.attributes; the interpreter's references read them
// from the instruction.

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/executable.pb.h"

namespace aot {

// Integers (any width, signed or not) become i64, floats f64, true/false
// b, quoted strings str; order is kept. An empty text or "{}" is no
// attributes. InvalidArgument naming the attribute and what is wrong.
absl::StatusOr<std::vector<CustomCallAttributeProto>> ParseFfiAttributes(absl::string_view text);

// The attribute `name` of `attributes`, or nullptr.
const CustomCallAttributeProto* FindFfiAttribute(
    const std::vector<CustomCallAttributeProto>& attributes, absl::string_view name);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_FFI_ATTRIBUTES_H_
