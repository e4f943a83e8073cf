#ifndef AOT_COMPILER_VERIFIER_TEST_UTIL_H_
#define AOT_COMPILER_VERIFIER_TEST_UTIL_H_

// Helpers shared by the verifier tests: build HLO text around an entry body,
// parse it, verify it, and check inferred shapes and error messages.

#include <initializer_list>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/hlo/hlo_test_text.h"
#include "compiler/verifier/hlo_verifier.h"
#include "compiler/verifier/shape_inference.h"
#include "gtest/gtest.h"

namespace aot {
namespace verifier_test {

using ::aot::hlo_test_text::kAddF32;
using ::aot::hlo_test_text::kAddS32;
using ::aot::hlo_test_text::kGeF32;
using ::aot::hlo_test_text::kLtF32;
using ::aot::hlo_test_text::Module;

// (value, index) argmax over (f32, s32): parameters (acc_v, acc_i, v, i).
inline constexpr char kArgmax[] = R"(
argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v0, v1), direction=GT
  v = f32[] select(gt, v0, v1)
  i = s32[] select(gt, i0, i1)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
)";

// The instruction named `name`, looked up in the entry computation first
// (helper computations reuse short names).
inline const HloInstruction* FindInstruction(const HloModule& module, absl::string_view name) {
  if (module.entry_computation() != nullptr) {
    if (const HloInstruction* i = module.entry_computation()->FindInstruction(name)) {
      return i;
    }
  }
  for (const HloComputation* c : module.computations()) {
    if (const HloInstruction* i = c->FindInstruction(name)) return i;
  }
  return nullptr;
}

// The module parses and verifies.
inline testing::AssertionResult Verifies(const std::string& text) {
  auto module = ParseHloModule(text);
  if (!module.ok()) {
    return testing::AssertionFailure() << "parse failed: " << module.status() << "\n" << text;
  }
  absl::Status status = VerifyHloModule(**module);
  if (!status.ok()) {
    return testing::AssertionFailure() << status << "\n" << text;
  }
  return testing::AssertionSuccess();
}

// The module verifies and InferShape gives instruction `name` the shape
// `expected` (printed without layout).
inline testing::AssertionResult Infers(const std::string& text, absl::string_view name,
                                       absl::string_view expected) {
  auto module = ParseHloModule(text);
  if (!module.ok()) {
    return testing::AssertionFailure() << "parse failed: " << module.status() << "\n" << text;
  }
  const HloInstruction* instruction = FindInstruction(**module, name);
  if (instruction == nullptr) {
    return testing::AssertionFailure() << "no instruction '" << name << "'";
  }
  absl::StatusOr<Shape> shape = InferShape(*instruction);
  if (!shape.ok()) {
    return testing::AssertionFailure() << shape.status() << "\n" << text;
  }
  if (shape->ToString(false) != expected) {
    return testing::AssertionFailure()
           << "inferred " << shape->ToString(false) << ", expected " << expected << "\n"
           << text;
  }
  if (shape->has_layout()) {
    return testing::AssertionFailure() << "inferred shape has a layout";
  }
  absl::Status status = VerifyHloModule(**module);
  if (!status.ok()) {
    return testing::AssertionFailure() << status << "\n" << text;
  }
  return testing::AssertionSuccess();
}

// Verifying `module` fails with InvalidArgument and a message containing
// every one of `substrings`.
inline testing::AssertionResult FailsWith(const HloModule& module,
                                          std::initializer_list<absl::string_view> substrings) {
  absl::Status status = VerifyHloModule(module);
  if (status.ok()) {
    return testing::AssertionFailure() << "verified but should not have:\n" << module.ToString();
  }
  if (status.code() != absl::StatusCode::kInvalidArgument) {
    return testing::AssertionFailure() << "wrong code: " << status;
  }
  const std::string message(status.message());
  for (absl::string_view s : substrings) {
    if (message.find(std::string(s)) == std::string::npos) {
      return testing::AssertionFailure() << "message lacks \"" << s << "\": " << message;
    }
  }
  return testing::AssertionSuccess();
}

inline testing::AssertionResult FailsWith(const std::string& text,
                                          std::initializer_list<absl::string_view> substrings) {
  auto module = ParseHloModule(text);
  if (!module.ok()) {
    return testing::AssertionFailure() << "parse failed: " << module.status() << "\n" << text;
  }
  return FailsWith(**module, substrings);
}

}  // namespace verifier_test
}  // namespace aot

#endif  // AOT_COMPILER_VERIFIER_TEST_UTIL_H_
