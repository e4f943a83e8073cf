#ifndef AOT_COMPILER_VERIFIER_DIAGNOSTICS_H_
#define AOT_COMPILER_VERIFIER_DIAGNOSTICS_H_

// How the verifier and shape inference word their errors: InvalidArgument
// from message pieces, shapes printed without layouts.

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/shape.h"

namespace aot::verifier_internal {

template <typename... Args>
absl::Status Invalid(const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat(args...));
}

inline std::string Str(const Shape& shape) { return shape.ToString(/*print_layout=*/false); }

}  // namespace aot::verifier_internal

#endif  // AOT_COMPILER_VERIFIER_DIAGNOSTICS_H_
