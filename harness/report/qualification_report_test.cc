#include "harness/report/qualification_report.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/report/report_html.h"
#include "harness/report/report_json.h"
#include "harness/report/report_junit.h"
#include "harness/report/report_testing.h"
#include "support/file_io.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

using aot::testing::Sample;
using aot::testing::TempDir;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Optional;

TEST(QualificationReportTest, EnumNames) {
  EXPECT_EQ(ReplayStatusName(ReplayStatus::kPass), "pass");
  EXPECT_EQ(ReplayStatusName(ReplayStatus::kFail), "fail");
  EXPECT_EQ(ReplayStatusName(ReplayStatus::kSkipped), "skipped");
  EXPECT_EQ(ReplayStatusName(ReplayStatus::kExpired), "expired");
  EXPECT_EQ(VerdictName(Verdict::kPass), "pass");
  EXPECT_EQ(VerdictName(Verdict::kBlocked), "blocked");
  EXPECT_EQ(TimelineKindName(TimelineKind::kVersion), "version");
  EXPECT_EQ(TimelineKindName(TimelineKind::kRelease), "release");
}

TEST(QualificationReportTest, EnumFromNameInvertsTheNames) {
  for (ReplayStatus status : kReplayStatuses) {
    EXPECT_THAT(EnumFromName(ReplayStatusName(status), kReplayStatuses, ReplayStatusName),
                Optional(status));
  }
  for (Verdict verdict : kVerdicts) {
    EXPECT_THAT(EnumFromName(VerdictName(verdict), kVerdicts, VerdictName), Optional(verdict));
  }
  for (TimelineKind kind : kTimelineKinds) {
    EXPECT_THAT(EnumFromName(TimelineKindName(kind), kTimelineKinds, TimelineKindName),
                Optional(kind));
  }
  EXPECT_EQ(EnumFromName("Pass", kReplayStatuses, ReplayStatusName), std::nullopt);
  EXPECT_EQ(EnumFromName("", kVerdicts, VerdictName), std::nullopt);
}

TEST(QualificationReportTest, UnsetVerdictAndStatusFailClosed) {
  EXPECT_EQ(QualificationData().verdict, Verdict::kBlocked);
  EXPECT_EQ(ReplayRecord().status, ReplayStatus::kFail);
}

TEST(QualificationReportTest, BlockerMessageLeadsWithTheRule) {
  EXPECT_EQ(BlockerMessage({.check = "lint", .rule = "R", .message = "m"}), "[R] m");
  EXPECT_EQ(BlockerMessage({.check = "lint", .message = "m"}), "m");
}

TEST(QualificationReportTest, GroupsCellsByTargetThenVersion) {
  QualificationData data = Sample();
  std::vector<std::string> columns;
  for (const auto& [key, cells] : GroupByVersion(data)) {
    columns.push_back(absl::StrCat(ColumnName(key), ":", cells.size()));
  }
  EXPECT_THAT(columns,
              ElementsAre("host-x86-64-v2.v1:2", "host-x86-64-v3.v1:1", "host-x86-64-v3.v2:3"));
}

TEST(QualificationReportTest, WritesAllThreeFilesIntoANewNestedDirectory) {
  TempDir tmp;
  std::string dir = (fs::path(tmp.path()) / "a" / "b" / "report").string();
  ASSERT_TRUE(WriteQualificationReport(Sample(), dir).ok());
  for (const char* name : {"report.json", "junit.xml", "index.html"}) {
    EXPECT_TRUE(fs::is_regular_file(fs::path(dir) / name)) << name;
  }
  absl::StatusOr<std::string> json = ReadFileToString((fs::path(dir) / "report.json").string());
  ASSERT_TRUE(json.ok()) << json.status();
  absl::StatusOr<QualificationData> back = QualificationFromJson(nlohmann::json::parse(*json));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(QualificationToJson(*back), QualificationToJson(Sample()));
  absl::StatusOr<std::string> xml = ReadFileToString((fs::path(dir) / "junit.xml").string());
  ASSERT_TRUE(xml.ok());
  EXPECT_EQ(*xml, RenderJunitXml(Sample()));
  // Writing again over an existing report is fine.
  EXPECT_TRUE(WriteQualificationReport(Sample(), dir).ok());
}

TEST(QualificationReportTest, RefusesAnOutputPathThatIsAFile) {
  TempDir tmp;
  std::string file = (fs::path(tmp.path()) / "taken").string();
  ASSERT_TRUE(WriteFileAtomically(file, "x").ok());
  absl::Status status = WriteQualificationReport(Sample(), file);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr(file));
  EXPECT_THAT(status.message(), HasSubstr("not a directory"));

  std::string below = (fs::path(file) / "sub").string();
  status = WriteQualificationReport(Sample(), below);
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr(below));
}

}  // namespace
}  // namespace aot
