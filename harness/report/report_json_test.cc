#include "harness/report/report_json.h"

#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/report/qualification_report.h"
#include "harness/report/report_testing.h"

namespace aot {
namespace {

using aot::testing::Sample;
using ::testing::HasSubstr;

TEST(ReportJsonTest, JsonRoundTrips) {
  QualificationData original = Sample();
  nlohmann::ordered_json json = QualificationToJson(original);
  EXPECT_EQ(json["cells"].size(), original.cells.size());
  EXPECT_EQ(json["verdict"], "blocked");

  // Through text too, as report.json is read back.
  absl::StatusOr<QualificationData> back =
      QualificationFromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(QualificationToJson(*back), json);
  EXPECT_EQ(back->title, original.title);
  EXPECT_EQ(back->now, "2026-12-01");
  ASSERT_EQ(back->cells.size(), 6u);
  EXPECT_EQ(back->cells[2].test, "softmax");
  EXPECT_EQ(back->cells[2].version, 2);
  EXPECT_DOUBLE_EQ(back->cells[1].load_ms, 1.25);
  EXPECT_FALSE(back->checks[1].ok);
  EXPECT_EQ(back->blockers[0].fix, original.blockers[0].fix);
  EXPECT_EQ(back->timeline[3].kind, TimelineKind::kRelease);

  // Directly from the ordered_json as well.
  absl::StatusOr<QualificationData> direct = QualificationFromJson(json);
  ASSERT_TRUE(direct.ok()) << direct.status();
  EXPECT_EQ(QualificationToJson(*direct), json);
}

TEST(ReportJsonTest, EnumsAreWrittenByName) {
  nlohmann::ordered_json json = QualificationToJson(Sample());
  EXPECT_EQ(json["cells"][0]["status"], "expired");
  EXPECT_EQ(json["cells"][1]["status"], "pass");
  EXPECT_EQ(json["cells"][2]["status"], "fail");
  EXPECT_EQ(json["cells"][3]["status"], "skipped");
  EXPECT_EQ(json["timeline"][0]["kind"], "version");
  EXPECT_EQ(json["timeline"][3]["kind"], "release");
}

TEST(ReportJsonTest, NamesExecutedAndValidatedOnlyTargets) {
  QualificationData d = Sample();
  ReplayRecord skipped;
  skipped.target = "cuda-sm_90";
  skipped.status = ReplayStatus::kSkipped;
  d.cells.push_back(skipped);
  nlohmann::ordered_json json = QualificationToJson(d);
  EXPECT_THAT(json["validated_only_targets"], ::testing::Contains("cuda-sm_90"));
  EXPECT_THAT(json["executed_targets"], ::testing::Not(::testing::Contains("cuda-sm_90")));
  EXPECT_FALSE(json["executed_targets"].empty());
}

TEST(ReportJsonTest, BlockerRuleIsPartOfTheMessage) {
  QualificationData data = Sample();
  data.blockers[0].rule = "REPLAY_FAILED";
  nlohmann::ordered_json json = QualificationToJson(data);
  EXPECT_EQ(json["blockers"][0]["message"], "[REPLAY_FAILED] softmax fails on host-x86-64-v3 v2");
  EXPECT_FALSE(json["blockers"][0].contains("rule"));

  absl::StatusOr<QualificationData> back = QualificationFromJson(json);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->blockers[0].rule, "");
  EXPECT_EQ(back->blockers[0].message, "[REPLAY_FAILED] softmax fails on host-x86-64-v3 v2");
  EXPECT_EQ(QualificationToJson(*back), json);
}

TEST(ReportJsonTest, JsonErrorsNameTheBadKey) {
  nlohmann::json json = QualificationToJson(Sample());
  json["cells"][3]["status"] = "exploded";
  absl::StatusOr<QualificationData> bad = QualificationFromJson(json);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("cells[3].status"));
  EXPECT_THAT(bad.status().message(), HasSubstr("exploded"));
  EXPECT_THAT(bad.status().message(), HasSubstr("pass | fail | skipped | expired"));

  json = QualificationToJson(Sample());
  json["cells"][0]["version"] = "one";
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("cells[0].version"));

  json = QualificationToJson(Sample());
  json["timeline"][1]["date"] = "2026-02-30";
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("timeline[1].date"));

  json = QualificationToJson(Sample());
  json["timeline"][1]["kind"] = "branch";
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("timeline[1].kind"));

  json = QualificationToJson(Sample());
  json["checks"][0].erase("ok");
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("checks[0].ok"));

  json = QualificationToJson(Sample());
  json.erase("verdict");
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("'verdict'"));

  json = QualificationToJson(Sample());
  json["verdict"] = "maybe";
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("pass | blocked"));

  json = QualificationToJson(Sample());
  json["cells"][1]["run_ms"] = -1;
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("cells[1].run_ms"));

  EXPECT_FALSE(QualificationFromJson(nlohmann::json::array()).ok());
}

TEST(ReportJsonTest, RenderReportJsonIsIndentedWithAFinalNewline) {
  std::string text = RenderReportJson(Sample());
  EXPECT_EQ(text, QualificationToJson(Sample()).dump(2) + "\n");
  QualificationData data = Sample();
  data.tool_version = "bad utf-8 \xff here";
  EXPECT_THAT(RenderReportJson(data), HasSubstr("bad utf-8 \xef\xbf\xbd here"));
}

}  // namespace
}  // namespace aot
