#include "compiler/tooling/compile_tool.h"

#include <string>
#include <vector>

#include "compiler/tooling/flags.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/executable.pb.h"
#include "support/file_io.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kModule[] = R"(HloModule add_one

ENTRY main {
  x = f32[4] parameter(0)
  one = f32[] constant(1)
  b = f32[4] broadcast(one), dimensions={}
  ROOT y = f32[4] add(x, b)
}
)";

class CompileToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    module_ = dir_.path() + "/add_one.hlo";
    ASSERT_TRUE(WriteFileAtomically(module_, kModule).ok());
  }
  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }

  testing::TempDir dir_{"compile_tool_test"};
  std::string module_;
};

TEST_F(CompileToolTest, CompilesToASerializedExecutable) {
  CompileToolFlags flags;
  flags.output_file = Path("out.pb");
  flags.target_config = "host-x86-64-v2";
  ASSERT_TRUE(RunCompileTool(flags, {module_}).ok());
  auto bytes = ReadFileToString(flags.output_file);
  ASSERT_TRUE(bytes.ok());
  ExecutableProto executable;
  ASSERT_TRUE(executable.ParseFromString(*bytes));
  EXPECT_EQ(executable.name(), "add_one");
  EXPECT_EQ(executable.metadata().target_name(), "host-x86-64-v2");
  EXPECT_GT(executable.thunks_size(), 0);
}

TEST_F(CompileToolTest, DumpsAStageToAFile) {
  CompileToolFlags flags;
  flags.stage = "hlo-optimized";
  flags.output_file = Path("optimized.hlo");
  ASSERT_TRUE(RunCompileTool(flags, {module_}).ok());
  auto text = ReadFileToString(flags.output_file);
  ASSERT_TRUE(text.ok());
  EXPECT_THAT(*text, StartsWith("HloModule add_one"));
}

TEST_F(CompileToolTest, BadUsageIsMarkedForExitTwo) {
  struct Case {
    const char* what;
    CompileToolFlags flags;
    std::vector<std::string> positional;
    const char* message;
  };
  CompileToolFlags no_output;
  CompileToolFlags bad_stage;
  bad_stage.stage = "asm";
  CompileToolFlags bad_format;
  bad_format.format = "xml";
  bad_format.output_file = Path("x.pb");
  CompileToolFlags ptx_on_host;
  ptx_on_host.stage = "ptx";
  CompileToolFlags two_modes;
  two_modes.stage = "hlo";
  two_modes.emit_proto = true;
  CompileToolFlags missing_file;
  missing_file.output_file = Path("y.pb");
  const Case cases[] = {
      {"no module", CompileToolFlags{}, {}, "no HLO module given"},
      {"no output", no_output, {module_}, "no --output_file"},
      {"unknown stage", bad_stage, {module_}, "unknown stage 'asm' (known: hlo, hlo-optimized"},
      {"bad format", bad_format, {module_}, "--format=xml"},
      {"ptx on host", ptx_on_host, {module_}, "--stage=ptx needs --platform=cuda"},
      {"two modes", two_modes, {module_}, "mutually exclusive"},
      {"two modules", no_output, {module_, module_}, "expected one HLO module, got 2"},
      {"missing file", missing_file, {Path("missing.hlo")}, "missing.hlo"},
  };
  for (const Case& c : cases) {
    absl::Status s = RunCompileTool(c.flags, c.positional);
    EXPECT_EQ(ToolExitCode(s), 2) << c.what << ": " << s;
    EXPECT_THAT(std::string(s.message()), HasSubstr(c.message)) << c.what;
  }
}

TEST_F(CompileToolTest, AFailedCompileExitsOne) {
  // Well-typed, verifiable HLO the host backend cannot compile: an unknown
  // custom-call target is refused at compile time, not as bad usage.
  ASSERT_TRUE(WriteFileAtomically(Path("cc.hlo"), R"(HloModule cc

ENTRY main {
  x = f32[4] parameter(0)
  ROOT y = f32[4] custom-call(x), custom_call_target="no_such_target"
}
)")
                  .ok());
  CompileToolFlags flags;
  flags.output_file = Path("cc.pb");
  absl::Status s = RunCompileTool(flags, {Path("cc.hlo")});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(ToolExitCode(s), 1) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("cc.hlo"));
}

}  // namespace
}  // namespace aot
