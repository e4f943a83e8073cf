// Opcodes behind an emission flag of the staged rollout: refused by
// default with a message naming the flag, and, with the flag on (the path
// the flag's default will take), compiled, loaded by this runtime and
// matching the interpreter in every float type.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/rollout/emission_ledger.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

constexpr char kFlag[] = "emit_inverse_and_hyperbolic_math";

std::string UnaryModule(const std::string& op, const std::string& type) {
  return absl::StrCat("HloModule m\nENTRY e {\n  x = ", type,
                      "[257] parameter(0)\n  ROOT r = ", type, "[257] ", op, "(x)\n}\n");
}

TEST(StagedOpcodesTest, TheLedgerGatesTheNewOpcodes) {
  const EmissionFlag* flag = FindEmissionFlag(kFlag);
  ASSERT_NE(flag, nullptr);
  EXPECT_FALSE(flag->enabled_by_default);
  EXPECT_EQ(flag->runtime_support_since, "2026-12-02");
  for (const char* op : {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh", "sinh"}) {
    EXPECT_EQ(EmissionFlagForOpcode(op), flag) << op;
  }
  EXPECT_EQ(EmissionFlagForOpcode("tanh"), nullptr);
}

TEST(StagedOpcodesTest, AGatedOpcodeIsRefusedByDefaultNamingTheFlag) {
  auto module = ParseHloModule(UnaryModule("asinh", "f32"));
  ASSERT_TRUE(module.ok()) << module.status();
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"));
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(compiled.status().message()),
              HasSubstr("instruction 'r' (asinh): the opcode is behind the emission flag "
                        "'emit_inverse_and_hyperbolic_math'"));
  EXPECT_THAT(std::string(compiled.status().message()),
              HasSubstr("--emission_flags=emit_inverse_and_hyperbolic_math"));
}

TEST(StagedOpcodesTest, AnOpcodeFoldedAwayNeedsNoFlag) {
  // What is gated is what reaches the artifact: a constant folded by the
  // compiler leaves no acos behind.
  auto module = ParseHloModule(R"(
HloModule folded
ENTRY e {
  c = f32[] constant(0.5)
  a = f32[] acos(c)
  p = f32[] parameter(0)
  ROOT r = f32[] add(p, a)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"));
  EXPECT_TRUE(compiled.ok()) << compiled.status();
}

TEST(StagedOpcodesTest, AnUnknownEmissionFlagIsAnError) {
  auto module = ParseHloModule(UnaryModule("tanh", "f32"));
  ASSERT_TRUE(module.ok());
  CompileOptions options;
  options.emission_flags = {"emit_everything"};
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"), options);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(compiled.status().message()),
              HasSubstr("unknown emission flag 'emit_everything' (known: "
                        "emit_inverse_and_hyperbolic_math"));
}

TEST(StagedOpcodesTest, WithTheFlagOnEveryGatedOpcodeMatchesTheInterpreter) {
  const EmissionFlag* flag = FindEmissionFlag(kFlag);
  ASSERT_NE(flag, nullptr);
  CompileOptions options;
  options.emission_flags = {kFlag};
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  const bool cuda = std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  int checked = 0;
  for (const std::string& op : flag->hlo_opcodes) {
    for (const char* type : {"f16", "bf16", "f32", "f64"}) {
      SCOPED_TRACE(absl::StrCat(op, " ", type));
      auto module = ParseHloModule(UnaryModule(op, type));
      ASSERT_TRUE(module.ok()) << module.status();
      auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"), options);
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
      ASSERT_TRUE(executable.ok()) << executable.status();
      std::vector<Literal> args = RandomArguments(**module, static_cast<uint64_t>(checked));
      HloEvaluator evaluator;
      auto expected = evaluator.Evaluate(**module, args);
      ASSERT_TRUE(expected.ok()) << expected.status();
      auto actual = ExecuteWithLiterals(**executable, args);
      ASSERT_TRUE(actual.ok()) << actual.status();
      absl::Status same = CompareLiteralsWithDefaultTolerance(*expected, *actual);
      EXPECT_TRUE(same.ok()) << same;
      if (cuda) {
        auto ptx = Compile(**module, *ShippedTargetConfig("h100"), options);
        EXPECT_TRUE(ptx.ok()) << ptx.status();
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 8 * 4);
}

}  // namespace
}  // namespace aot
