#ifndef AOT_COMPILER_STABLEHLO_DENSE_LITERAL_H_
#define AOT_COMPILER_STABLEHLO_DENSE_LITERAL_H_

// MLIR's dense<...> element literals (nested lists, splats, hex blobs,
// complex pairs, hex bit patterns of floats) as the element texts of HLO's
// literal syntax.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot::stablehlo {

struct DenseElements {
  // Row-major element texts as HLO writes them ("1", "-2.5", "inf",
  // "true", "(1, 2)"); one element when `splat`.
  std::vector<std::string> elements;
  bool splat = false;
};

// `body` is the text between dense< and >; `hlo_element` the HLO element
// type ("f32", "s8", "pred", "c64", "bf16", "f8e4m3fn", ...), `dims` the
// tensor's dimensions. Errors say what is wrong (a count or nesting that
// does not match the type, a value out of range, a malformed number).
absl::StatusOr<DenseElements> ParseDenseElements(absl::string_view body,
                                                 absl::string_view hlo_element,
                                                 const std::vector<int64_t>& dims);

// Writes `elements` (row-major, a full tensor) as the body of an HLO
// constant: "5" for a scalar, "{1, 2}", "{ {1, 2}, {3, 4} }".
std::string HloLiteralBody(const std::vector<std::string>& elements,
                           const std::vector<int64_t>& dims);

}  // namespace aot::stablehlo

#endif  // AOT_COMPILER_STABLEHLO_DENSE_LITERAL_H_
