#ifndef AOT_COMPILER_HLO_HLO_TEST_TEXT_H_
#define AOT_COMPILER_HLO_HLO_TEST_TEXT_H_

// HLO text fragments shared by the tests of the HLO libraries (verifier,
// interpreter, passes): common scalar computations and a module wrapper.

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace aot {
namespace hlo_test_text {

inline constexpr char kAddF32[] = R"(
add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}
)";
inline constexpr char kAddS32[] = R"(
add_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT r = s32[] add(a, b)
}
)";
inline constexpr char kMaxF32[] = R"(
max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] maximum(a, b)
}
)";
inline constexpr char kGeF32[] = R"(
ge_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=GE
}
)";
inline constexpr char kLtF32[] = R"(
lt_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=LT
}
)";

// "HloModule test", the helper computations, then "ENTRY main { body }".
inline std::string Module(absl::string_view entry_body, absl::string_view computations = "") {
  return absl::StrCat("HloModule test\n", computations, "\nENTRY main {\n", entry_body, "\n}\n");
}

}  // namespace hlo_test_text
}  // namespace aot

#endif  // AOT_COMPILER_HLO_HLO_TEST_TEXT_H_
