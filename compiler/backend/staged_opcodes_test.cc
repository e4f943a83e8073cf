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

// `text` does not compile by default: Unimplemented, the message holding
// `what` and naming the flag.
void ExpectRefusedNamingTheFlag(const std::string& text, const std::string& what,
                                const std::string& flag) {
  auto module = ParseHloModule(text);
  ASSERT_TRUE(module.ok()) << module.status();
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"));
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), absl::StatusCode::kUnimplemented);
  const std::string message(compiled.status().message());
  EXPECT_THAT(message, HasSubstr(absl::StrCat(what, ": the opcode is behind the emission flag '",
                                              flag, "'")));
  EXPECT_THAT(message, HasSubstr(absl::StrCat("--emission_flags=", flag)));
}

TEST(StagedOpcodesTest, AGatedOpcodeIsRefusedByDefaultNamingTheFlag) {
  ExpectRefusedNamingTheFlag(UnaryModule("asinh", "f32"), "instruction 'r' (asinh)", kFlag);
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

// rng: the state it draws from lives in the runtime (one per loaded
// executable), so the compiler emits rng-get-and-update-state only with the
// emission flag emit_rng_state on.
constexpr char kRngFlag[] = "emit_rng_state";

// Draws of every kind: uniform f32 with parameter bounds, normal f64,
// uniform s32, one per iteration of a loop, and the state itself.
constexpr char kRngModule[] = R"(
HloModule draws
cond {
  t = (s32[], f32[3,5]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  t = (s32[], f32[3,5]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  acc = f32[3,5] get-tuple-element(t), index=1
  a = f32[] constant(0)
  b = f32[] constant(1)
  u = f32[1,5] rng(a, b), distribution=rng_uniform
  z = s32[] constant(0)
  next = f32[3,5] dynamic-update-slice(acc, u, i, z)
  ROOT o = (s32[], f32[3,5]) tuple(j, next)
}
ENTRY e {
  lo = f32[] parameter(0)
  hi = f32[] parameter(1)
  uniform = f32[257] rng(lo, hi), distribution=rng_uniform
  mean = f64[] constant(2)
  deviation = f64[] constant(0.5)
  normal = f64[33,3] rng(mean, deviation), distribution=rng_normal
  least = s32[] constant(-50)
  most = s32[] constant(50)
  integers = s32[100] rng(least, most), distribution=rng_uniform
  z = s32[] constant(0)
  f = f32[] constant(0)
  acc = f32[3,5] broadcast(f), dimensions={}
  init = (s32[], f32[3,5]) tuple(z, acc)
  loop = (s32[], f32[3,5]) while(init), condition=cond, body=body
  rows = f32[3,5] get-tuple-element(loop), index=1
  state = u64[2] rng-get-and-update-state(), delta=7
  ROOT r = (f32[257], f64[33,3], s32[100], f32[3,5], u64[2]) tuple(uniform, normal, integers, rows, state)
}
)";

TEST(StagedOpcodesTest, TheRngStateFlagGatesTheStateOpcode) {
  const EmissionFlag* flag = FindEmissionFlag(kRngFlag);
  ASSERT_NE(flag, nullptr);
  EXPECT_FALSE(flag->enabled_by_default);
  EXPECT_EQ(flag->runtime_support_since, "2026-12-03");
  EXPECT_EQ(EmissionFlagForOpcode("rng-get-and-update-state"), flag);
  EXPECT_EQ(EmissionFlagForOpcode("rng"), nullptr);  // expanded before emission
}

TEST(StagedOpcodesTest, RngIsRefusedByDefaultNamingTheFlag) {
  ExpectRefusedNamingTheFlag(
      kRngModule, "the random state taken for rng 'u', 'uniform', 'normal', 'integers')", kRngFlag);
}

TEST(StagedOpcodesTest, TheRefusalNamesTheUsersRngNotTheExpansion) {
  // The state take is made by the compiler (ExpandRngs): the refusal names
  // the draw it serves; a state take the module writes is named itself.
  ExpectRefusedNamingTheFlag(R"(
HloModule one_draw
ENTRY e {
  a = f32[] constant(0)
  b = f32[] constant(1)
  ROOT dropout = f32[4] rng(a, b), distribution=rng_uniform
})",
                             "(rng-get-and-update-state, the random state taken for rng 'dropout')",
                             kRngFlag);
  ExpectRefusedNamingTheFlag(R"(
HloModule explicit_state
ENTRY e {
  ROOT state = u64[2] rng-get-and-update-state(), delta=4
})",
                             "instruction 'state' (rng-get-and-update-state)", kRngFlag);
}

TEST(StagedOpcodesTest, WithTheFlagOnRngRunsDrawFromTheExecutablesState) {
  auto module = ParseHloModule(kRngModule);
  ASSERT_TRUE(module.ok()) << module.status();
  CompileOptions options;
  options.emission_flags = {kRngFlag};
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"), options);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  std::vector<Literal> args;
  args.push_back(Literal::Scalar(F32, -4));
  args.push_back(Literal::Scalar(F32, 4));
  // Each run of one loaded executable continues from the state the last
  // left, as the interpreter's evaluations do.
  HloEvaluator evaluator;
  auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<Literal> runs;
  for (int run = 0; run < 3; ++run) {
    SCOPED_TRACE(run);
    auto expected = evaluator.Evaluate(**module, args);
    ASSERT_TRUE(expected.ok()) << expected.status();
    auto actual = ExecuteWithLiterals(**executable, args);
    ASSERT_TRUE(actual.ok()) << actual.status();
    absl::Status same = CompareLiteralsWithDefaultTolerance(*expected, *actual);
    EXPECT_TRUE(same.ok()) << same;
    runs.push_back(*std::move(actual));
  }
  // A run advances the state by 202: the entry's draws take 65 + 99 + 25
  // blocks first, each iteration of the loop 2, the explicit state 7. The
  // second run's state op sees the first run's 202 and its own 189 + 6.
  EXPECT_EQ(runs[0].tuple_element(4).GetAsUint64(0), 65 + 99 + 25 + 6);
  EXPECT_EQ(runs[1].tuple_element(4).GetAsUint64(0), 202 + 65 + 99 + 25 + 6);
  EXPECT_NE(runs[0].tuple_element(0).GetAsDouble(0), runs[1].tuple_element(0).GetAsDouble(0));
  // Another loaded executable has a state of its own, from 0.
  auto other = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
  ASSERT_TRUE(other.ok()) << other.status();
  auto first = ExecuteWithLiterals(**other, args);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(CompareLiterals(runs[0], *first, Tolerance{0, 0}).ok());
  if (std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")) {
    options.compile_cubin = false;
    options.keep_dumps = true;
    auto ptx = Compile(**module, *ShippedTargetConfig("h100"), options);
    ASSERT_TRUE(ptx.ok()) << ptx.status();
    // The state kernel reads the pointer the runtime binds at load and
    // advances the state atomically.
    EXPECT_THAT((*ptx)->ptx(), HasSubstr(".visible .global .align 8 .u64 aot_rng_state_ptr"));
    EXPECT_THAT((*ptx)->ptx(), HasSubstr("ld.global.u64"));
    EXPECT_THAT((*ptx)->ptx(), HasSubstr("atom.add.u64"));
  }
}

TEST(StagedOpcodesTest, ALapackTargetIsBehindItsFlag) {
  // A LAPACK handler the runtimes before 2026-12-07-0ab912f5 lack: refused
  // while emit_lapack_custom_calls is off, naming the target and the flag;
  // with the flag on it compiles to a custom-call thunk naming the handler.
  auto module = ParseHloModule(R"(
HloModule lapack
ENTRY e {
  a = f32[4,4] parameter(0)
  ROOT r = (f32[4,4], s32[]) custom-call(a), custom_call_target="lapack_spotrf_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={uplo = 76 : ui8}
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto refused = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kUnimplemented);
  const std::string message(refused.status().message());
  EXPECT_THAT(message, HasSubstr("custom-call target 'lapack_spotrf_ffi'"));
  EXPECT_THAT(message, HasSubstr("behind the emission flag 'emit_lapack_custom_calls'"));
  EXPECT_THAT(message, HasSubstr("older runtimes have no handler of that name"));
  CompileOptions options;
  options.emission_flags = {"emit_lapack_custom_calls"};
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"), options);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  EXPECT_THAT((*compiled)->SerializeAsString(), HasSubstr("lapack_spotrf_ffi"));
}

}  // namespace
}  // namespace aot
