// Old builds: git refs that name commits, shell quoting.
#include "harness/release/old_build.h"

#include "gtest/gtest.h"

namespace aot {
namespace {

TEST(OldBuildTest, RefsMustNameCommits) {
  EXPECT_FALSE(ResolveCommit(".", "no-such-ref-anywhere").ok());
  EXPECT_FALSE(ResolveCommit(".", "--output=/tmp/x").ok());
  EXPECT_EQ(ShellQuote("a'b"), "'a'\\''b'");
}

}  // namespace
}  // namespace aot
