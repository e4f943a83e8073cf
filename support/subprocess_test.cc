#include "support/subprocess.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

TEST(SubprocessTest, CapturesOutputOfBothStreamsAndTheExitCode) {
  CommandResult r = RunShellCommand("echo out; echo err 1>&2; exit 3");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.output, ::testing::HasSubstr("out\n"));
  EXPECT_THAT(r.output, ::testing::HasSubstr("err\n"));
  EXPECT_EQ(RunShellCommand("true").exit_code, 0);
}

TEST(SubprocessTest, ShellQuoteSurvivesQuotesAndMetacharacters) {
  const std::string nasty = "it's $HOME; `rm -rf /` \"x\"";
  CommandResult r = RunShellCommand("printf %s " + ShellQuote(nasty));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, nasty);
}

}  // namespace
}  // namespace aot
