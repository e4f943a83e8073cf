#ifndef AOT_COMPILER_PASSES_TEST_UTIL_H_
#define AOT_COMPILER_PASSES_TEST_UTIL_H_

// Helpers for the pass tests: parse, run a pass, compare printed modules,
// evaluate before/after with the interpreter.

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/interpreter/replicated_evaluator.h"
#include "compiler/passes/dynamic_padder.h"
#include "compiler/passes/hlo_pass.h"
#include "compiler/passes/pass_utils.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gtest/gtest.h"
#include "support/file_io.h"
#include "support/status_macros.h"
#include "support/testing/status_testing.h"

namespace aot {
namespace testing_util {

inline std::unique_ptr<HloModule> Parse(absl::string_view text) {
  return testing::ValueOrFailure(ParseHloModule(text), text);
}

// The text as the printer prints it (parse + print), for comparisons.
inline std::string Canonical(absl::string_view text) {
  std::unique_ptr<HloModule> m = Parse(text);
  return m == nullptr ? "<parse error>" : m->ToString();
}

// Checks the module verifies and prints/parses back to the same text (the
// printer needs operands defined before use).
inline void ExpectWellFormed(const HloModule& module) {
  absl::Status v = VerifyHloModule(module);
  EXPECT_TRUE(v.ok()) << v << "\n" << module.ToString();
  for (const HloComputation* c : module.computations()) {
    EXPECT_TRUE(IsInDefinitionOrder(*c)) << c->name();
  }
  std::string printed = module.ToString();
  absl::StatusOr<std::unique_ptr<HloModule>> again = ParseHloModule(printed);
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << printed;
  EXPECT_EQ((*again)->ToString(), printed);
}

// Runs `pass` on the module parsed from `before`; returns the module (null
// on a parse error). `changed` receives Run()'s result.
inline std::unique_ptr<HloModule> RunPass(HloPass& pass, absl::string_view before,
                                          bool* changed = nullptr) {
  std::unique_ptr<HloModule> m = Parse(before);
  if (m == nullptr) return nullptr;
  absl::StatusOr<bool> c = pass.Run(m.get());
  EXPECT_TRUE(c.ok()) << c.status();
  if (changed != nullptr) *changed = c.ok() && *c;
  return m;
}

// replica_count * num_partitions.
inline int64_t ParticipantCount(const HloModule& module) {
  return module.config().replica_count * module.config().num_partitions;
}

// The module's value on `args`; a module of several participants runs on
// each (every one given `args`) and its value is the tuple of their
// results in participant order.
inline absl::StatusOr<Literal> EvaluateModule(const HloModule& module,
                                              absl::Span<const Literal> args) {
  if (ParticipantCount(module) > 1) {
    std::vector<std::vector<Literal>> per_participant(
        ParticipantCount(module), std::vector<Literal>(args.begin(), args.end()));
    absl::StatusOr<std::vector<Literal>> results = EvaluateReplicated(module, per_participant);
    AOT_RETURN_IF_ERROR(results);
    return Literal::Tuple(*std::move(results));
  }
  HloEvaluator evaluator;
  return evaluator.Evaluate(module, args);
}

// Bitwise equality of two literals, layouts ignored (values are logical).
inline bool BitwiseEqual(const Literal& a, const Literal& b) { return a == b; }

// Evaluates `before` and `after` on the same seeded inputs and expects
// bitwise-identical results.
inline void ExpectSameResults(const HloModule& before, const HloModule& after, uint64_t seed = 1) {
  if (ParticipantCount(before) > 1) {
    // Each participant its own seeded arguments; results compared per
    // participant.
    std::vector<std::vector<Literal>> args;
    for (int64_t i = 0; i < ParticipantCount(before); ++i) {
      args.push_back(RandomArguments(before, seed + 7919 * static_cast<uint64_t>(i)));
    }
    absl::StatusOr<std::vector<Literal>> want = EvaluateReplicated(before, args);
    ASSERT_TRUE(want.ok()) << want.status();
    absl::StatusOr<std::vector<Literal>> got = EvaluateReplicated(after, args);
    ASSERT_TRUE(got.ok()) << got.status() << "\n" << after.ToString();
    ASSERT_EQ(want->size(), got->size());
    for (size_t i = 0; i < want->size(); ++i) {
      EXPECT_TRUE(BitwiseEqual((*want)[i], (*got)[i]))
          << "participant " << i << ": want " << (*want)[i].ToString() << "\ngot  "
          << (*got)[i].ToString() << "\n"
          << after.ToString();
    }
    return;
  }
  std::vector<Literal> args = RandomArguments(before, seed);
  absl::StatusOr<Literal> want = EvaluateModule(before, args);
  ASSERT_TRUE(want.ok()) << want.status();
  absl::StatusOr<Literal> got = EvaluateModule(after, args);
  ASSERT_TRUE(got.ok()) << got.status() << "\n" << after.ToString();
  EXPECT_TRUE(BitwiseEqual(*want, *got))
      << "want " << want->ToString() << "\ngot  " << got->ToString() << "\n"
      << after.ToString();
}

// What every expansion test checks: `expand` on the module of `text`
// (which verifies) reports a change, leaves a well-formed module that keeps
// the interpreter's value on `args` (seeded random arguments when empty)
// within `tolerance`, and changes nothing when run again. Returns the
// expanded module for the caller's own checks; null after a failed step.
inline std::unique_ptr<HloModule> ExpectExpansionKeepsValues(
    absl::string_view text, const std::function<absl::StatusOr<bool>(HloModule*)>& expand,
    Tolerance tolerance, std::vector<Literal> args = {}, uint64_t seed = 3) {
  std::unique_ptr<HloModule> original = Parse(text);
  if (original == nullptr) return nullptr;
  absl::Status verified = VerifyHloModule(*original);
  if (!verified.ok()) {
    ADD_FAILURE() << verified;
    return nullptr;
  }
  std::unique_ptr<HloModule> m = Parse(text);
  absl::StatusOr<bool> changed = expand(m.get());
  if (!changed.ok()) {
    ADD_FAILURE() << changed.status();
    return nullptr;
  }
  EXPECT_TRUE(*changed);
  ExpectWellFormed(*m);
  if (args.empty()) args = RandomArguments(*original, seed);
  absl::StatusOr<Literal> want = EvaluateModule(*original, args);
  absl::StatusOr<Literal> got = EvaluateModule(*m, args);
  if (!want.ok() || !got.ok()) {
    ADD_FAILURE() << "before: " << want.status() << "; after: " << got.status();
    return nullptr;
  }
  absl::Status match = CompareLiterals(*want, *got, tolerance);
  EXPECT_TRUE(match.ok()) << match << "\n" << m->ToString();
  absl::StatusOr<bool> again = expand(m.get());
  EXPECT_TRUE(again.ok() && !*again) << "a second run changed the module or failed";
  return m;
}

// Runs `pass` on `before` and expects it to change the module into
// exactly `after` (as printed), still well formed and computing the same
// values bit for bit on seeded inputs.
inline void ExpectRewrite(HloPass& pass, absl::string_view before, absl::string_view after) {
  std::unique_ptr<HloModule> original = Parse(before);
  ASSERT_NE(original, nullptr);
  bool changed = false;
  std::unique_ptr<HloModule> m = RunPass(pass, before, &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);
  ExpectWellFormed(*m);
  EXPECT_EQ(m->ToString(), Canonical(after));
  ExpectSameResults(*original, *m);
}

// Runs `pass` on `before` and expects it to report no change and leave
// the printed module as it was.
inline void ExpectNoChange(HloPass& pass, absl::string_view before) {
  bool changed = true;
  std::unique_ptr<HloModule> m = RunPass(pass, before, &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(changed);
  EXPECT_EQ(m->ToString(), Canonical(before));
}

inline std::vector<std::string> CorpusFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator("golden/modules")) {
    if (entry.path().extension() == ".hlo") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline std::unique_ptr<HloModule> ParseFile(const std::string& path) {
  const std::string text = testing::ValueOrFailure(ReadFileToString(path), path);
  return text.empty() ? nullptr : Parse(text);
}

// The module of `path` as the pipeline's passes meet it in the compiler:
// bounded dynamic dimensions already made static (LowerDynamicDimensions;
// a no-op for a module without them).
inline std::unique_ptr<HloModule> ParseStaticFile(const std::string& path) {
  std::unique_ptr<HloModule> m = ParseFile(path);
  if (m == nullptr) return nullptr;
  absl::StatusOr<bool> lowered = LowerDynamicDimensions(m.get());
  EXPECT_TRUE(lowered.ok()) << lowered.status();
  return lowered.ok() ? std::move(m) : nullptr;
}

// Instructions of `computation` with `opcode`.
inline int64_t CountOpcode(const HloComputation& computation, HloOpcode opcode) {
  int64_t n = 0;
  for (const HloInstruction* h : computation.instructions()) n += h->opcode() == opcode;
  return n;
}

// Fusion instructions in every non-fusion computation of the module.
inline int64_t CountFusions(const HloModule& module) {
  int64_t n = 0;
  for (const HloComputation* c : module.computations()) {
    if (!c->is_fusion_computation()) n += CountOpcode(*c, HloOpcode::kFusion);
  }
  return n;
}

}  // namespace testing_util
}  // namespace aot

#endif  // AOT_COMPILER_PASSES_TEST_UTIL_H_
