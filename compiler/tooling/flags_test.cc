#include "compiler/tooling/flags.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct Flags {
  std::string module_file;
  std::string output = "out.pb";
  int64_t seed = 1;
  double tol = 0.0;
  bool verbose = false;
  bool strict = true;
  std::vector<std::string> targets = {"host"};
};

FlagSet MakeFlags(Flags& f) {
  FlagSet set("tool", "tool [flags] FILE...", "Does things.");
  set.AddString("module_file", &f.module_file, "HLO module.");
  set.AddString("output_file,o", &f.output, "Where to write.");
  set.AddInt("seed", &f.seed, "Seed.");
  set.AddDouble("tol", &f.tol, "Tolerance.");
  set.AddBool("verbose", &f.verbose, "Talk.");
  set.AddBool("strict", &f.strict, "Be strict.");
  set.AddList("target", &f.targets, "Targets.");
  return set;
}

TEST(FlagSetTest, ParsesAllForms) {
  Flags f;
  FlagSet set = MakeFlags(f);
  auto pos = set.Parse({"--module_file=m.hlo", "-o", "x.pb", "--seed", "7", "--tol=0.5",
                        "--verbose", "--nostrict", "a.hlo", "--target=cuda-sm_90,host-x86-64-v3",
                        "--target", "h", "--", "--literal"});
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_THAT(*pos, ElementsAre("a.hlo", "--literal"));
  EXPECT_EQ(f.module_file, "m.hlo");
  EXPECT_EQ(f.output, "x.pb");
  EXPECT_EQ(f.seed, 7);
  EXPECT_EQ(f.tol, 0.5);
  EXPECT_TRUE(f.verbose);
  EXPECT_FALSE(f.strict);
  EXPECT_THAT(f.targets, ElementsAre("cuda-sm_90", "host-x86-64-v3", "h"));
  EXPECT_TRUE(set.IsSet("seed"));
  EXPECT_FALSE(set.help_requested());
}

TEST(FlagSetTest, DashesInNamesAreUnderscores) {
  Flags f;
  FlagSet set = MakeFlags(f);
  ASSERT_TRUE(set.Parse({"--module-file=m"}).ok());
  EXPECT_EQ(f.module_file, "m");
}

TEST(FlagSetTest, ErrorsNameTheFlag) {
  Flags f;
  FlagSet set = MakeFlags(f);
  auto unknown = set.Parse({"--bogus=1"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("--bogus"));
  auto bad_int = set.Parse({"--seed=abc"});
  ASSERT_FALSE(bad_int.ok());
  EXPECT_THAT(bad_int.status().message(), HasSubstr("--seed=abc"));
  auto missing = set.Parse({"--seed"});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("needs a value"));
  EXPECT_FALSE(set.Parse({"--verbose=maybe"}).ok());
}

TEST(FlagSetTest, HelpListsFlagsWithDefaults) {
  Flags f;
  FlagSet set = MakeFlags(f);
  ASSERT_TRUE(set.Parse({"--help"}).ok());
  EXPECT_TRUE(set.help_requested());
  std::string help = set.Help();
  EXPECT_THAT(help, HasSubstr("Usage: tool [flags] FILE..."));
  EXPECT_THAT(help, HasSubstr("--output_file=VALUE, -o"));
  EXPECT_THAT(help, HasSubstr("(default: \"out.pb\")"));
  EXPECT_THAT(help, HasSubstr("--verbose"));
}

TEST(ParseBoolTest, AcceptsCommonSpellingsOnly) {
  EXPECT_TRUE(*ParseBool("1"));
  EXPECT_TRUE(*ParseBool("TRUE"));
  EXPECT_TRUE(*ParseBool(" yes "));
  EXPECT_FALSE(*ParseBool("0"));
  EXPECT_FALSE(*ParseBool("off"));
  EXPECT_FALSE(ParseBool("garbage").ok());
  EXPECT_FALSE(ParseBool("").ok());
}

TEST(FlagSetTest, ParseOrExitReturnsPositionalsOrExits) {
  Flags f;
  FlagSet set = MakeFlags(f);
  char arg0[] = "tool", arg1[] = "--seed=3", arg2[] = "a.hlo";
  char* argv[] = {arg0, arg1, arg2};
  EXPECT_THAT(set.ParseOrExit(3, argv), ElementsAre("a.hlo"));
  EXPECT_EQ(f.seed, 3);

  char bad[] = "--bogus";
  char* bad_argv[] = {arg0, bad};
  EXPECT_EXIT(MakeFlags(f).ParseOrExit(2, bad_argv), ::testing::ExitedWithCode(2),
              "tool: error: .*bogus");
  char help[] = "--help";
  char* help_argv[] = {arg0, help};
  EXPECT_EXIT(MakeFlags(f).ParseOrExit(2, help_argv), ::testing::ExitedWithCode(0), "");
  // A subcommand that takes no arguments: errors name the tool, not the
  // subcommand.
  char sub[] = "gate";
  char* stray_argv[] = {arg0, sub, arg2};
  EXPECT_EXIT(
      {
        FlagSet gate("tool gate", "tool gate", "Gates.");
        gate.ParseOrExit(3, stray_argv, /*first=*/2, /*allow_positional=*/false);
      },
      ::testing::ExitedWithCode(2), "tool: error: tool gate takes no arguments, got 'a.hlo'");
}

TEST(ToolExitCodeTest, UsageErrorsExitTwoOtherFailuresOne) {
  EXPECT_EQ(ToolExitCode(absl::OkStatus()), 0);
  EXPECT_EQ(ToolExitCode(absl::InvalidArgumentError("bad module")), 1);
  absl::Status usage = UsageError(absl::InvalidArgumentError("no --output_file"));
  EXPECT_EQ(usage.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(usage.message(), "no --output_file");
  EXPECT_EQ(ToolExitCode(usage), 2);
  EXPECT_TRUE(UsageError(absl::OkStatus()).ok());
}

}  // namespace
}  // namespace aot
