// Corpus discovery: golden versions on disk, boundary-version selection and
// the environment flags, on synthetic corpora in temp directories.
#include "harness/golden/corpus.h"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/file_io.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

using testing::TempDir;

void Touch(const fs::path& p, const std::string& text = "x") {
  fs::create_directories(p.parent_path());
  ASSERT_TRUE(WriteFileAtomically(p.string(), text).ok());
}

TEST(VersionSelectionTest, BoundaryVersions) {
  EXPECT_THAT(SelectVersions({1, 2, 5}, false), ElementsAre(1, 2));
  EXPECT_THAT(SelectVersions({1, 2, 3, 4}, false), ElementsAre(1, 3));
  EXPECT_THAT(SelectVersions({3}, false), ElementsAre(3));
  EXPECT_THAT(SelectVersions({1, 2}, false), ElementsAre(1, 2));
  EXPECT_THAT(SelectVersions({1, 2, 5}, true), ElementsAre(1, 2, 5));
}

TEST(VersionSelectionTest, DiscoveryIsPositionalAndIgnoresStrays) {
  TempDir dir;
  fs::path t = fs::path(dir.path()) / "executables" / "host-x86-64-v3";
  for (int v : {1, 2, 5, 10}) Touch(t / ("v" + std::to_string(v)) / "a.pbtxt");
  fs::create_directories(t / "v7");  // empty: ignored
  Touch(t / "v8" / "notes.txt");     // no artifact: ignored
  Touch(t / "vx" / "a.pbtxt");       // not v<int>
  Touch(t / "v03" / "a.pbtxt");      // not canonical
  Touch(t / "README.md");            // stray file
  auto versions = DiscoverVersions(dir.path(), "host-x86-64-v3");
  ASSERT_TRUE(versions.ok()) << versions.status();
  EXPECT_THAT(*versions, ElementsAre(1, 2, 5, 10));  // numeric, not lexicographic
  EXPECT_THAT(SelectVersions(*versions, false), ElementsAre(1, 5));
  auto missing = DiscoverVersions(dir.path(), "cuda-sm_90");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("has no golden versions"));
}

TEST(VersionSelectionTest, AllVersionsEnvironmentFlag) {
  ::unsetenv("XLA_AOT_TEST_ALL_VERSIONS");
  EXPECT_FALSE(*AllVersionsFromEnvironment());
  ::setenv("XLA_AOT_TEST_ALL_VERSIONS", "1", 1);
  EXPECT_TRUE(*AllVersionsFromEnvironment());
  ::setenv("XLA_AOT_TEST_ALL_VERSIONS", "true", 1);
  EXPECT_TRUE(*AllVersionsFromEnvironment());
  ::setenv("XLA_AOT_TEST_ALL_VERSIONS", "0", 1);
  EXPECT_FALSE(*AllVersionsFromEnvironment());
  ::setenv("XLA_AOT_TEST_ALL_VERSIONS", "garbage", 1);
  auto bad = AllVersionsFromEnvironment();
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("XLA_AOT_TEST_ALL_VERSIONS=garbage is not a boolean"));
  ::unsetenv("XLA_AOT_TEST_ALL_VERSIONS");
}

}  // namespace
}  // namespace aot
