// The schema and the runtime capabilities of a commit, read from git.
#include "harness/triage/git_sources.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/release/old_build.h"
#include "harness/schema/reachability.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

TEST(TriageGitTest, SchemaAndRuntimeAtHead) {
  auto commit = ResolveCommit(".", "HEAD");
  if (!commit.ok()) GTEST_SKIP() << "not a git checkout: " << commit.status();
  auto schema = SchemaAtCommit(".", *commit);
  ASSERT_TRUE(schema.ok()) << schema.status();
  auto pool = BuildDescriptorPool(*schema, "HEAD");
  ASSERT_TRUE(pool.ok()) << pool.status();
  EXPECT_NE((*pool)->FindMessageTypeByName("aot.ExecutableProto"), nullptr);
  std::string source;
  auto runtime = RuntimeAtCommit(".", *commit, &source);
  ASSERT_TRUE(runtime.ok()) << runtime.status();
  EXPECT_THAT(source, HasSubstr("golden/releases/"));
  EXPECT_FALSE(runtime->thunk_kinds.empty());
}

}  // namespace
}  // namespace aot
