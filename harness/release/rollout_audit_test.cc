// The ledger against released binaries' recorded runs: which targets hold
// a flag's flag-on path, the per-release records, and the audit's first
// release and earliest switch day, on copies of the committed manifests of
// packed_types_host/_h100.
#include "harness/release/rollout_audit.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/golden/golden_store.h"
#include "harness/testing/synthetic_history.h"
#include "support/file_io.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

EmissionFlag PackedFlag(const std::string& release, const std::string& date) {
  EmissionFlag f;
  f.name = "emit_packed_sub_byte_layouts";
  f.description = "packed sub-byte layouts";
  f.runtime_release = release;
  f.runtime_support_since = date;
  return f;
}

ReleaseSnapshot Release(const std::string& date, const std::string& hash) {
  ReleaseSnapshot r;
  r.date = date;
  r.id = absl::StrCat(date, "-", hash);
  r.git_commit = std::string(40, hash[0]);
  return r;
}

TEST(FlagOnTargetsTest, ATargetHoldsTheFlagWithTheLatestSupportOfItsFlags) {
  const std::vector<EmissionFlag>& ledger = EmissionLedger();
  const EmissionFlag* packed = FindEmissionFlag("emit_packed_sub_byte_layouts");
  const EmissionFlag* extended = FindEmissionFlag("emit_extended_element_types");
  ASSERT_NE(packed, nullptr);
  ASSERT_NE(extended, nullptr);
  EXPECT_THAT(FlagOnTargets(*packed, ledger),
              ElementsAre("packed_types_host", "packed_types_h100"));
  std::vector<std::string> ext = FlagOnTargets(*extended, ledger);
  EXPECT_THAT(ext, ::testing::Contains("narrow_types_host"));
  EXPECT_THAT(ext, ::testing::Contains("complex_types_h100"));
  // packed_types also needs the packed flag, supported later.
  EXPECT_THAT(ext, ::testing::Not(::testing::Contains("packed_types_host")));
  // Every flag of the shipped ledger has a flag-on target.
  for (const EmissionFlag& f : ledger) {
    EXPECT_FALSE(FlagOnTargets(f, ledger).empty()) << f.name;
  }
}

TEST(EarliestDayTest, FifteenDaysAfterTheFirstReleaseThatRuns) {
  std::vector<ReleaseSnapshot> releases = {Release("2026-11-20", "aaaaaaaa"),
                                           Release("2026-12-04", "bbbbbbbb"),
                                           Release("2026-12-07", "cccccccc")};
  auto from = Date::Parse("2026-12-07");
  ASSERT_TRUE(from.ok());
  // Only 2026-12-07 runs: on 2026-12-21 the window is [12-07, 12-21] plus
  // the newest before (12-04): still failing. On 12-22 only 12-07 is left.
  auto day = EarliestDayEveryWindowReleaseRuns(
      releases, *from, [](const ReleaseSnapshot& r) { return r.date == "2026-12-07"; });
  ASSERT_TRUE(day.has_value());
  EXPECT_EQ(day->ToString(), "2026-12-22");
  EXPECT_FALSE(EarliestDayEveryWindowReleaseRuns(releases, *from, [](const ReleaseSnapshot&) {
                 return false;
               }).has_value());
}

class RolloutAuditTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    root_ = dir_.path();
    // The audit reads the newest manifests only.
    for (const char* target : {"packed_types_host", "packed_types_h100"}) {
      for (const auto& t : testing::CopyCommittedManifest(root_, target)) digests_.push_back(t);
    }
    ASSERT_FALSE(digests_.empty());
  }

  std::vector<OldRun> Runs(OldRunVerdict verdict, const std::string& detail) {
    std::vector<OldRun> runs;
    for (const auto& [target, test, digest] : digests_) {
      runs.push_back({target, test, digest, verdict, detail});
    }
    return runs;
  }

  testing::TempDir dir_{"rollout-audit-test"};
  std::string root_;
  std::vector<testing::ManifestTest> digests_;
};

TEST_F(RolloutAuditTest, RecordsRoundTripAndKeepTheFirstVerdict) {
  ReleaseSnapshot old = Release("2026-12-04", "fd9c2736");
  ASSERT_TRUE(RecordReleaseRuns(root_, old, Runs(OldRunVerdict::kNotRunnable, "no args")).ok());
  // A digest already recorded keeps its verdict.
  ASSERT_TRUE(RecordReleaseRuns(root_, old, Runs(OldRunVerdict::kPassed, "match")).ok());
  auto records = LoadReleaseRunRecords(root_);
  ASSERT_TRUE(records.ok()) << records.status();
  ASSERT_EQ(records->size(), 1u);
  const ReleaseRunRecord& r = records->at(old.id);
  EXPECT_EQ(r.git_commit, old.git_commit);
  EXPECT_EQ(r.runs.size(), digests_.size());
  for (const auto& [digest, run] : r.runs) EXPECT_EQ(run.verdict, OldRunVerdict::kNotRunnable);
}

TEST_F(RolloutAuditTest, BadRecordsAreRefusedNamingTheFile) {
  fs::create_directories(fs::path(root_) / "rollout");
  const std::string path = root_ + "/rollout/2026-12-04-x.json";
  ASSERT_TRUE(WriteFileAtomically(path, R"({"release": "2026-12-04-x", "git_commit": "a",
      "runs": [{"target": "t", "test": "a", "digest": "d", "verdict": "maybe", "detail": ""}]})")
                  .ok());
  auto records = LoadReleaseRunRecords(root_);
  ASSERT_FALSE(records.ok());
  EXPECT_THAT(records.status().message(), HasSubstr("2026-12-04-x.json"));
  EXPECT_THAT(records.status().message(), HasSubstr("runs[0].verdict 'maybe'"));
  ASSERT_TRUE(
      WriteFileAtomically(path, R"({"release": "other", "git_commit": "a", "runs": []})").ok());
  records = LoadReleaseRunRecords(root_);
  ASSERT_FALSE(records.ok());
  EXPECT_THAT(records.status().message(), HasSubstr("not its file name's"));
}

// The case of 2026-12-04: the release at the support commit cannot make
// arguments for packed entry values; the next release runs them.
TEST_F(RolloutAuditTest, FirstReleaseThatRunsAndTheEarliestSwitchDay) {
  std::vector<ReleaseSnapshot> releases = {Release("2026-12-03", "c125f0cd"),
                                           Release("2026-12-04", "fd9c2736"),
                                           Release("2026-12-07", "e0e0e0e0")};
  const std::string no_args =
      "argument 1 has shape u8[1056]{0}, parameter 1 is s4[64,33]{1,0:E(4)}";
  ASSERT_TRUE(RecordReleaseRuns(root_, releases[0],
                                Runs(OldRunVerdict::kRefused, "unknown field element_size_in_bits"))
                  .ok());
  ASSERT_TRUE(
      RecordReleaseRuns(root_, releases[1], Runs(OldRunVerdict::kNotRunnable, no_args)).ok());
  std::vector<EmissionFlag> ledger = {PackedFlag(releases[1].id, "2026-12-04")};

  // 2026-12-07 not yet recorded: no release runs them yet.
  auto records = LoadReleaseRunRecords(root_);
  ASSERT_TRUE(records.ok());
  auto audits = AuditEmissionFlags(root_, ledger, releases, *records);
  ASSERT_TRUE(audits.ok()) << audits.status();
  ASSERT_EQ(audits->size(), 1u);
  const FlagAudit& before = (*audits)[0];
  EXPECT_THAT(before.targets, ElementsAre("packed_types_host", "packed_types_h100"));
  EXPECT_EQ(before.artifacts, static_cast<int>(digests_.size()));
  ASSERT_EQ(before.releases.size(), 3u);
  EXPECT_EQ(before.releases[0].state, ReleaseRunsFlag::kFails);
  EXPECT_EQ(before.releases[0].verdict, OldRunVerdict::kRefused);
  EXPECT_EQ(before.releases[1].state, ReleaseRunsFlag::kFails);
  EXPECT_THAT(before.releases[1].example, HasSubstr("packed_types_host/"));
  EXPECT_THAT(before.releases[1].example, HasSubstr(no_args));
  EXPECT_EQ(before.releases[2].state, ReleaseRunsFlag::kUnrecorded);
  EXPECT_TRUE(before.first_release.empty());
  EXPECT_TRUE(before.earliest_switch.empty());

  ASSERT_TRUE(RecordReleaseRuns(root_, releases[2], Runs(OldRunVerdict::kPassed, "match")).ok());
  records = LoadReleaseRunRecords(root_);
  ASSERT_TRUE(records.ok());
  audits = AuditEmissionFlags(root_, ledger, releases, *records);
  ASSERT_TRUE(audits.ok());
  const FlagAudit& after = (*audits)[0];
  EXPECT_EQ(after.releases[2].state, ReleaseRunsFlag::kRuns);
  EXPECT_EQ(after.first_release, releases[2].id);
  EXPECT_EQ(after.first_release_date, "2026-12-07");
  EXPECT_EQ(after.earliest_switch, "2026-12-22");
  EXPECT_EQ(after.ledger_release, releases[1].id);

  const std::string table = FlagAuditTable(*audits);
  EXPECT_THAT(table, ::testing::ContainsRegex("emit_packed_sub_byte_layouts +R  N  Y"));
  EXPECT_THAT(table, HasSubstr("2026-12-22"));
  EXPECT_THAT(table, HasSubstr(absl::StrCat(releases[1].id, ": packed_types_")));
  EXPECT_EQ(after.ToJson()["releases"][1]["state"], "fails");
}

}  // namespace
}  // namespace aot
