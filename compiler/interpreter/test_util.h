#ifndef AOT_COMPILER_INTERPRETER_TEST_UTIL_H_
#define AOT_COMPILER_INTERPRETER_TEST_UTIL_H_

// Helpers shared by the interpreter tests: parse HLO text, evaluate it and
// read results back as plain numbers.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/hlo/hlo_test_text.h"
#include "compiler/hlo/literal.h"
#include "compiler/interpreter/evaluator.h"
#include "gtest/gtest.h"

namespace aot {
namespace interpreter_test {

using ::aot::hlo_test_text::kAddF32;
using ::aot::hlo_test_text::kAddS32;
using ::aot::hlo_test_text::kGeF32;
using ::aot::hlo_test_text::kMaxF32;
using ::aot::hlo_test_text::Module;

// A module's text after its header ("HloModule test").
inline std::string Hlo(absl::string_view module_text) {
  return absl::StrCat("HloModule test\n", module_text);
}

// Parses and evaluates; the status of whichever step failed.
inline absl::StatusOr<Literal> TryRun(absl::string_view hlo,
                                      const std::vector<Literal>& args = {}) {
  auto module = ParseHloModule(hlo);
  if (!module.ok()) {
    return absl::Status(module.status().code(), absl::StrCat("parse: ", module.status().message()));
  }
  HloEvaluator evaluator;
  return evaluator.Evaluate(**module, args);
}

// Parses and evaluates; records a test failure (and returns an empty
// literal) when either step fails.
inline Literal RunHlo(absl::string_view hlo, const std::vector<Literal>& args = {}) {
  auto result = TryRun(hlo, args);
  if (!result.ok()) {
    ADD_FAILURE() << result.status() << "\n" << hlo;
    return Literal();
  }
  return *std::move(result);
}

// Literal of `shape` text ("f32[2,3]") from values in row-major order.
inline Literal L(absl::string_view shape, std::vector<double> values) {
  auto s = ParseShape(shape);
  EXPECT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->ElementCount(), static_cast<int64_t>(values.size())) << shape;
  return Literal::FromDoubles(*s, values);
}
inline Literal LI(absl::string_view shape, std::vector<int64_t> values) {
  auto s = ParseShape(shape);
  EXPECT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->ElementCount(), static_cast<int64_t>(values.size())) << shape;
  return Literal::FromInt64s(*s, values);
}

inline std::vector<double> Doubles(const Literal& l) {
  std::vector<double> out;
  if (!l.shape().IsArray()) {
    ADD_FAILURE() << "not an array: " << l.shape().ToString();
    return out;
  }
  for (int64_t i = 0; i < l.element_count(); ++i) out.push_back(l.GetAsDouble(i));
  return out;
}
inline std::vector<int64_t> Ints(const Literal& l) {
  std::vector<int64_t> out;
  if (!l.shape().IsArray()) {
    ADD_FAILURE() << "not an array: " << l.shape().ToString();
    return out;
  }
  for (int64_t i = 0; i < l.element_count(); ++i) out.push_back(l.GetAsInt64(i));
  return out;
}
inline std::vector<bool> Bools(const Literal& l) {
  std::vector<bool> out;
  for (int64_t i = 0; i < l.element_count(); ++i) out.push_back(l.Get<bool>(i));
  return out;
}

// Shape without layout ("f32[2,3]").
inline std::string ShapeOf(const Literal& l) { return l.shape().ToString(false); }

}  // namespace interpreter_test
}  // namespace aot

#endif  // AOT_COMPILER_INTERPRETER_TEST_UTIL_H_
