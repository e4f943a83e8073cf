#include "compiler/backend/compile_env_flags.h"

#include <cstdlib>
#include <filesystem>

#include "absl/strings/match.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/target/target_config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CompileEnvFlagsTest, ReadsDumpsAndEmissionFlags) {
  auto flags = ParseCompileFlags(
      "  --xla_aot_dump_to=/tmp/d\t--xla_aot_emit_collectives --xla_aot_emit_rng_state=false ");
  ASSERT_TRUE(flags.ok()) << flags.status();
  EXPECT_EQ(flags->dump_to, "/tmp/d");
  EXPECT_THAT(flags->emission_flags_on, ElementsAre("emit_collectives"));
  EXPECT_THAT(flags->emission_flags_off, ElementsAre("emit_rng_state"));
  EXPECT_TRUE(ParseCompileFlags("")->dump_to.empty());
}

TEST(CompileEnvFlagsTest, AnUnknownFlagIsAnErrorNamingIt) {
  auto flags = ParseCompileFlags("--xla_aot_dump_to=d --xla_dump_to=d");
  ASSERT_FALSE(flags.ok());
  EXPECT_EQ(flags.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(flags.status().message(),
              HasSubstr("XLA_AOT_FLAGS: unknown flag '--xla_dump_to' (known: --xla_aot_dump_to, "));
  EXPECT_THAT(
      ParseCompileFlags("--xla_aot_emit_collectives=maybe").status().message(),
      HasSubstr("XLA_AOT_FLAGS: --xla_aot_emit_collectives=maybe: 'maybe' is not a boolean"));
  EXPECT_THAT(ParseCompileFlags("--xla_aot_dump_to=").status().message(),
              HasSubstr("needs a directory"));
}

// A program compiling through the library dumps every stage when the
// variable says so, without being changed.
TEST(CompileEnvFlagsTest, TheCompilerLibraryDumpsEveryStage) {
  testing::TempDir dir;
  const std::string dumps = (std::filesystem::path(dir.path()) / "dumps").string();
  auto module = ParseHloModule(R"(
HloModule env_dumped

ENTRY e {
  x = f32[16] parameter(0)
  ROOT y = f32[16] exponential(x)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto target = ShippedTargetConfig("host-x86-64-v2");
  ASSERT_TRUE(target.ok());
  ASSERT_EQ(setenv(kCompileFlagsVariable, ("--xla_aot_dump_to=" + dumps).c_str(), 1), 0);
  auto compiled = Compile(**module, *target);
  ASSERT_EQ(setenv(kCompileFlagsVariable, "--xla_aot_no_such_flag", 1), 0);
  auto refused = Compile(**module, *target);
  unsetenv(kCompileFlagsVariable);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dumps)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  ASSERT_EQ(names.size(), 6u) << ::testing::PrintToString(names);
  for (const char* suffix : {".buffer-assignment.txt", ".hlo", ".hlo-fused.hlo", ".ll",
                             ".thunks.txt", ".unoptimized.ll"}) {
    bool found = false;
    for (const std::string& n : names) {
      found |= n.find(".env_dumped") != std::string::npos && absl::EndsWith(n, suffix);
    }
    EXPECT_TRUE(found) << suffix;
  }
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("unknown flag '--xla_aot_no_such_flag'"));
}

}  // namespace
}  // namespace aot
