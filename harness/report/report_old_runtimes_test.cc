// Older runtimes' verdicts in the qualification report: report.json keeps
// and reads them back, junit.xml has a suite per runtime with a failing
// testcase per artifact it did not run, index.html a verdict grid.
#include "harness/report/report_old_runtimes.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/report/report_html.h"
#include "harness/report/report_json.h"
#include "harness/report/report_junit.h"
#include "harness/report/report_testing.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

QualificationData WithOldRuntimes() {
  QualificationData data = aot::testing::Sample();
  const std::string no_args =
      "argument 1 has shape u8[1056]{0}, parameter 1 is s4[64,33]{1,0:E(4)}";
  data.old_runtimes = {
      {"2026-12-04-fd9c2736", "5a98162", "packed_types_host", "packed_int4_matmul",
       OldRunVerdict::kNotRunnable, no_args},
      {"2026-12-04-fd9c2736", "5a98162", "narrow_types_host", "int4_weights",
       OldRunVerdict::kPassed, "reference: match"},
      {"2026-12-07-c75c19a8", "739b6fa", "packed_types_host", "packed_int4_matmul",
       OldRunVerdict::kPassed, "reference: match"},
      {"2026-12-07-c75c19a8", "739b6fa", "packed_types_h100", "packed_int4_matmul",
       OldRunVerdict::kValidated, "loaded and validated, not executed: no CUDA device"}};
  return data;
}

TEST(ReportOldRuntimesTest, JsonKeepsEveryVerdictAndReadsItBack) {
  QualificationData data = WithOldRuntimes();
  nlohmann::ordered_json json = QualificationToJson(data);
  ASSERT_EQ(json["old_runtimes"].size(), 4u);
  EXPECT_EQ(json["old_runtimes"][0]["verdict"], "not_runnable");
  auto back = QualificationFromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->old_runtimes.size(), 4u);
  EXPECT_EQ(back->old_runtimes[0].verdict, OldRunVerdict::kNotRunnable);
  EXPECT_EQ(back->old_runtimes[0].detail, data.old_runtimes[0].detail);
  EXPECT_EQ(back->old_runtimes[3].verdict, OldRunVerdict::kValidated);
  EXPECT_EQ(QualificationToJson(*back), json);

  nlohmann::json bad = nlohmann::json::parse(json.dump());
  bad["old_runtimes"][1]["verdict"] = "fine";
  auto refused = QualificationFromJson(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("old_runtimes[1].verdict"));
}

TEST(ReportOldRuntimesTest, JunitHasASuitePerRuntimeFailingWhatItDidNotRun) {
  const std::string xml = RenderJunitXml(WithOldRuntimes());
  aot::testing::XmlChecker checker(xml);
  auto root = checker.Parse();
  ASSERT_NE(root, nullptr) << checker.error();
  const aot::testing::XmlElement* old =
      aot::testing::Suite(*root, "old-runtime.2026-12-04-fd9c2736");
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(old->Attr("tests"), "2");
  EXPECT_EQ(old->Attr("failures"), "1");
  const aot::testing::XmlElement* fixed =
      aot::testing::Suite(*root, "old-runtime.2026-12-07-c75c19a8");
  ASSERT_NE(fixed, nullptr);
  EXPECT_EQ(fixed->Attr("failures"), "0");
  EXPECT_THAT(xml, HasSubstr("not_runnable: argument 1 has shape u8[1056]{0}"));
}

TEST(ReportOldRuntimesTest, HtmlShowsTheGridAndEveryFailure) {
  std::string html;
  AppendOldRuntimesHtml(WithOldRuntimes(), &html);
  EXPECT_THAT(html, HasSubstr("<th title=\"5a98162\">2026-12-04-fd9c2736</th>"));
  EXPECT_THAT(html,
              HasSubstr("packed_types_host/packed_int4_matmul</td><td class=\"status-fail\""));
  EXPECT_THAT(html, HasSubstr(">N</td><td class=\"status-pass\""));
  EXPECT_THAT(html, HasSubstr("<span class=\"tag\">2026-12-04-fd9c2736</span>packed_types_host/"
                              "packed_int4_matmul: not_runnable: argument 1"));
  // The whole page has the section; a report without old runs has none.
  EXPECT_THAT(RenderHtml(WithOldRuntimes()), HasSubstr("<h2>Older runtimes</h2>"));
  EXPECT_THAT(RenderHtml(aot::testing::Sample()),
              ::testing::Not(HasSubstr("<h2>Older runtimes</h2>")));
}

}  // namespace
}  // namespace aot
