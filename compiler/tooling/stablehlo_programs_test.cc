// StableHLO programs with their own checks, run as aot-run runs them: the
// per-op tests in StableHLO's interpreter style
// (compiler/stablehlo/testdata/interpret: functions without arguments, one
// per "// -----" piece) and programs in the form of JAX's exported test
// programs (testdata/jax: @main calling @inputs and @expected, a check
// custom_call). Every program converts, verifies, and passes its checks on
// the interpreter and compiled for the host; a failed check fails the test
// naming the check's file:line:col.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/stablehlo_checks.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "support/file_io.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

std::vector<std::filesystem::path> Files(const std::string& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".mlir") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool UsesComplex(const HloModule& module) {
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* h : c->instructions()) {
      for (const Shape& leaf : h->shape().FlattenLeaves()) {
        if (IsComplex(leaf.element_type())) return true;
      }
    }
  }
  return false;
}

// Whether the module calls one of JAX's LAPACK targets (runtime/ffi/
// lapack_handlers.h), which the compiler emits only with
// emit_lapack_custom_calls on (staged rollout, CONTRACT.md s. 4).
bool UsesLapack(const HloModule& module) {
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* h : c->instructions()) {
      if (h->opcode() == HloOpcode::kCustomCall &&
          absl::StartsWith(h->attrs().custom_call_target, "lapack_")) {
        return true;
      }
    }
  }
  return false;
}

bool UsesCollectives(const HloModule& module) {
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* h : c->instructions()) {
      if (IsCollectiveOpcode(h->opcode()) || h->opcode() == HloOpcode::kReplicaId ||
          h->opcode() == HloOpcode::kPartitionId) {
        return true;
      }
    }
  }
  return false;
}

struct Tally {
  int programs = 0;
  int passed = 0;
  int checks = 0;
};

// Runs every program of every file under `dir`; returns per-file tallies.
std::map<std::string, Tally> RunAll(const std::string& dir) {
  std::map<std::string, Tally> tallies;
  auto target = ShippedTargetConfig("host-x86-64-v2");
  EXPECT_TRUE(target.ok());
  auto client = Client::Create("host");
  EXPECT_TRUE(client.ok());
  for (const auto& path : Files(dir)) {
    const std::string name = path.filename().string();
    Tally& tally = tallies[name];
    auto text = ReadFileToString(path.string());
    EXPECT_TRUE(text.ok()) << text.status();
    auto tests = stablehlo::ListStableHloTests(*text, path.string());
    EXPECT_TRUE(tests.ok()) << tests.status();
    if (!tests.ok()) continue;
    for (const stablehlo::StableHloTest& test : *tests) {
      SCOPED_TRACE(absl::StrCat(path.string(), " @", test.function));
      ++tally.programs;
      auto loaded = LoadStableHloProgram(test.text, path.string(), test.first_line, test.function);
      EXPECT_TRUE(loaded.ok()) << loaded.status();
      if (!loaded.ok()) continue;
      absl::Status verified = AtSource(*loaded, VerifyHloModule(*loaded->module));
      EXPECT_TRUE(verified.ok()) << verified;
      if (!verified.ok()) continue;
      const auto& checks = loaded->stablehlo->checks;
      EXPECT_FALSE(checks.empty()) << "a test program without a check proves nothing";
      tally.checks += static_cast<int>(checks.size());
      bool ok = true;
      // The interpreter.
      HloEvaluator evaluator;
      auto interpreted = evaluator.Evaluate(*loaded->module, {});
      EXPECT_TRUE(interpreted.ok()) << interpreted.status();
      if (!interpreted.ok()) continue;
      for (const CheckOutcome& o : EvaluateStableHloChecks(checks, *interpreted)) {
        EXPECT_TRUE(o.passed) << "interpreter: " << o.message;
        ok &= o.passed;
      }
      // Compiled for the host, loaded from its bytes.
      // The emission flags the program's constructs need (the staged
      // rollout keeps them off by default).
      CompileOptions options;
      if (UsesComplex(*loaded->module)) {
        options.emission_flags.push_back("emit_extended_element_types");
      }
      if (UsesCollectives(*loaded->module)) options.emission_flags.push_back("emit_collectives");
      if (UsesLapack(*loaded->module)) {
        // Off by default: refused, naming the flag.
        auto refused = Compile(*loaded->module, *target, options);
        EXPECT_FALSE(refused.ok());
        EXPECT_THAT(std::string(refused.status().message()),
                    HasSubstr("behind the emission flag 'emit_lapack_custom_calls'"));
        options.emission_flags.push_back("emit_lapack_custom_calls");
      }
      auto compiled = Compile(*loaded->module, *target, options);
      EXPECT_TRUE(compiled.ok()) << compiled.status();
      if (!compiled.ok()) continue;
      auto exe = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
      EXPECT_TRUE(exe.ok()) << exe.status();
      if (!exe.ok()) continue;
      auto result = ExecuteWithLiterals(**exe, {});
      EXPECT_TRUE(result.ok()) << result.status();
      if (!result.ok()) continue;
      for (const CheckOutcome& o : EvaluateStableHloChecks(checks, *result)) {
        EXPECT_TRUE(o.passed) << "host: " << o.message;
        ok &= o.passed;
      }
      if (ok) ++tally.passed;
    }
  }
  return tallies;
}

void Report(const std::map<std::string, Tally>& tallies, int min_files, int min_programs) {
  int programs = 0, passed = 0;
  for (const auto& [file, t] : tallies) {
    programs += t.programs;
    passed += t.passed;
    std::printf("  %-32s %3d programs, %3d passed, %3d checks\n", file.c_str(), t.programs,
                t.passed, t.checks);
  }
  std::printf("  total: %d of %d programs pass on the interpreter and the host\n", passed,
              programs);
  EXPECT_GE(static_cast<int>(tallies.size()), min_files);
  EXPECT_GE(programs, min_programs);
  EXPECT_EQ(passed, programs);
}

TEST(StableHloProgramsTest, PerOpTestsInTheCheckStylePassOnTheInterpreterAndTheHost) {
  Report(RunAll("compiler/stablehlo/testdata/interpret"), 15, 150);
}

TEST(StableHloProgramsTest, ProgramsInTheFormOfJaxExportsPassTheirChecks) {
  Report(RunAll("compiler/stablehlo/testdata/jax"), 20, 20);
}

// JAX's CPU LAPACK custom calls (compiler/stablehlo/testdata/lapack) as its
// exports write them: on the interpreter, and compiled for the host with
// emit_lapack_custom_calls on (refused with it off).
TEST(StableHloProgramsTest, JaxLapackCustomCallsPassOnTheInterpreterAndTheHost) {
  Report(RunAll("compiler/stablehlo/testdata/lapack"), 4, 29);
}

// The golden corpus's StableHLO suite: the same form, compiled for every
// main golden target.
TEST(StableHloProgramsTest, TheGoldenStableHloSuitePassesItsChecks) {
  Report(RunAll("golden/modules/stablehlo"), 10, 10);
}

// A check that does not hold fails, naming the check and the first element
// that differs (so a passing run above means something).
TEST(StableHloProgramsTest, AFailedCheckIsReportedWithTheElement) {
  auto loaded = LoadStableHloProgram(R"(
func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.multiply %a, %a : tensor<3xf32>
  check.expect_eq_const %b, dense<[1.0, 4.0, 9.5]> : tensor<3xf32>
  check.expect_almost_eq_const %b, dense<[1.0, 4.0, 9.0001]> : tensor<3xf32>
  check.expect_close %b, %b, max_ulp_difference = 0 : tensor<3xf32>, tensor<3xf32>
  func.return
})",
                                     "f.mlir", 1, "");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  HloEvaluator evaluator;
  auto result = evaluator.Evaluate(*loaded->module, {});
  ASSERT_TRUE(result.ok()) << result.status();
  std::vector<CheckOutcome> outcomes = EvaluateStableHloChecks(loaded->stablehlo->checks, *result);
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_FALSE(outcomes[0].passed);
  EXPECT_THAT(outcomes[0].message, HasSubstr("f.mlir:5:3 check.expect_eq_const: FAILED: 1 of 3"));
  EXPECT_THAT(outcomes[0].message, HasSubstr("first at [2]: 9 expected 9.5"));
  EXPECT_TRUE(outcomes[1].passed) << outcomes[1].message;
  EXPECT_TRUE(outcomes[2].passed) << outcomes[2].message;
}

}  // namespace
}  // namespace aot
