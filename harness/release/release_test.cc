// Releases (capability snapshots of the runtime): capture, JSON, cutting,
// ordering and the forward window.
#include "harness/release/release.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/schema/schema_check.h"
#include "nlohmann/json.hpp"
#include "proto/schema.h"
#include "support/date.h"
#include "support/file_io.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

ReleaseSnapshot Release(const std::string& date) {
  ReleaseSnapshot r = CaptureRuntimeCapabilities();
  r.date = date;
  r.id = absl::StrCat(date, "-test");
  return r;
}

TEST(ReleaseTest, CapturesThisRuntime) {
  ReleaseSnapshot r = CaptureRuntimeCapabilities();
  EXPECT_THAT(r.thunk_kinds, ::testing::Contains("kernel"));
  EXPECT_THAT(r.hlo_opcodes, ::testing::Contains("add"));
  EXPECT_TRUE(r.ResolvesFfiName("aot.gelu"));
  EXPECT_TRUE(r.ResolvesFfiName("aot.gelu_tanh"));  // an alias
  EXPECT_FALSE(r.ResolvesFfiName("aot.nope"));
  EXPECT_EQ(r.flag_defaults.at("enable_command_buffers"), "true");
  EXPECT_EQ(r.schema_fingerprint, SchemaFingerprint());
  EXPECT_GE(r.abi_version, 1);
}

TEST(ReleaseTest, JsonRoundTripsAndNamesBadKeys) {
  ReleaseSnapshot r = Release("2026-11-01");
  r.descriptor_set = "schema/x.binpb";
  auto back = ReleaseFromJson(ReleaseToJson(r), "r.json");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(ReleaseToJson(*back), ReleaseToJson(r));
  nlohmann::json bad = ReleaseToJson(r);
  bad["thunk_kinds"] = 7;
  auto error = ReleaseFromJson(bad, "r.json");
  ASSERT_FALSE(error.ok());
  EXPECT_THAT(std::string(error.status().message()),
              HasSubstr("r.json: release key 'thunk_kinds'"));
  bad = ReleaseToJson(r);
  bad["date"] = "2026-13-01";
  EXPECT_FALSE(ReleaseFromJson(bad, "r.json").ok());
}

TEST(ReleaseTest, CutWritesOnceAndReusesTheMatchingSnapshot) {
  testing::TempDir dir("aot_release_test");
  // A committed snapshot of this very schema.
  fs::create_directories(fs::path(dir.path()) / "schema");
  std::string snapshot =
      DefaultSnapshotPath(dir.path() + "/schema", "2026-11-29", SchemaDescriptorSet());
  ASSERT_TRUE(WriteSnapshot(snapshot, SchemaDescriptorSet()).ok());
  auto first = CutRelease(dir.path(), "2026-12-01", /*allow_dirty=*/true);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(first->wrote_release);
  EXPECT_FALSE(first->wrote_snapshot);  // the committed snapshot matches
  auto again = CutRelease(dir.path(), "2026-12-05", /*allow_dirty=*/true);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_FALSE(again->wrote_release);  // nothing changed
  EXPECT_EQ(again->path, first->path);
  auto releases = LoadReleases(dir.path());
  ASSERT_TRUE(releases.ok()) << releases.status();
  ASSERT_EQ(releases->size(), 1u);
  EXPECT_EQ((*releases)[0].descriptor_set, "schema/" + fs::path(snapshot).filename().string());
  EXPECT_THAT((*releases)[0].id, ::testing::StartsWith("2026-12-01-"));
  EXPECT_FALSE(CutRelease(dir.path(), "12/01/2026", /*allow_dirty=*/true).ok());
}

TEST(ReleaseTest, OnlyACommittedBuildIsReleasable) {
  ReleaseSnapshot r = Release("2026-12-01");
  r.git_commit = "323f59f470e9c79838445e727df194756f601e18";
  r.git_describe = "323f59f470e9";
  EXPECT_TRUE(CheckReleasable(r).ok());
  r.git_describe = "323f59f470e9-dirty";
  EXPECT_EQ(CheckReleasable(r).code(), absl::StatusCode::kFailedPrecondition);
  r.git_describe = "unknown";
  r.git_commit = "unknown";
  EXPECT_FALSE(CheckReleasable(r).ok());
}

TEST(ReleaseTest, CutWritesASnapshotWhenNoneMatches) {
  testing::TempDir dir("aot_release_test");
  auto cut = CutRelease(dir.path(), "2026-12-01", /*allow_dirty=*/true);
  ASSERT_TRUE(cut.ok()) << cut.status();
  EXPECT_TRUE(cut->wrote_snapshot);
  EXPECT_TRUE(fs::exists(cut->snapshot_path));
}

TEST(ReleaseTest, ReleasesOfOneDayAreOrderedByWhenTheyWereCut) {
  testing::TempDir dir("aot_release_test");
  fs::create_directories(fs::path(dir.path()) / "releases");
  ReleaseSnapshot later = Release("2026-12-01");
  later.id = "2026-12-01-00000000";
  later.cut_at = "2026-12-01T11:00:00Z";
  ReleaseSnapshot earlier = Release("2026-12-01");
  earlier.id = "2026-12-01-ffffffff";
  earlier.cut_at = "2026-12-01T10:00:00Z";
  for (const ReleaseSnapshot& r : {later, earlier}) {
    ASSERT_TRUE(
        WriteFileAtomically(dir.path() + "/releases/" + r.id + ".json", ReleaseToJson(r).dump(2))
            .ok());
  }
  auto releases = LoadReleases(dir.path());
  ASSERT_TRUE(releases.ok()) << releases.status();
  ASSERT_EQ(releases->size(), 2u);
  EXPECT_EQ((*releases)[0].id, "2026-12-01-ffffffff");
  EXPECT_EQ((*releases)[1].id, "2026-12-01-00000000");
}

TEST(ReleaseTest, ForwardWindowIsTheLastTwoWeeksPlusTheNewestBefore) {
  std::vector<ReleaseSnapshot> releases;
  for (const char* d : {"2026-10-01", "2026-11-01", "2026-11-16", "2026-11-20", "2026-12-10"}) {
    releases.push_back(Release(d));
  }
  auto now = Date::Parse("2026-11-30");
  ASSERT_TRUE(now.ok());
  ReleaseWindow w = ComputeForwardWindow(releases, *now);
  EXPECT_EQ(w.start.ToString(), "2026-11-16");
  std::vector<std::string> ids;
  for (const ReleaseSnapshot& r : w.releases) ids.push_back(r.id);
  EXPECT_THAT(ids, ElementsAre("2026-11-01-test", "2026-11-16-test", "2026-11-20-test"));
  EXPECT_THAT(w.older, ElementsAre("2026-10-01-test"));
  // Only releases before the window: the newest of them.
  ReleaseWindow later = ComputeForwardWindow(releases, *Date::Parse("2027-03-01"));
  ASSERT_EQ(later.releases.size(), 1u);
  EXPECT_EQ(later.releases[0].id, "2026-12-10-test");
}

}  // namespace
}  // namespace aot
