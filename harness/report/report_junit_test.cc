#include "harness/report/report_junit.h"

#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/report/qualification_report.h"
#include "harness/report/report_testing.h"

namespace aot {
namespace {

using aot::testing::DegenerateSample;
using aot::testing::HasNonFiniteNumber;
using aot::testing::HostileSample;
using aot::testing::kHostileReasonStripped;
using aot::testing::Sample;
using aot::testing::Suite;
using aot::testing::XmlChecker;
using aot::testing::XmlElement;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ReportJunitTest, JunitCountsPerSuiteAndGate) {
  std::string xml = RenderJunitXml(Sample());
  XmlChecker checker(xml);
  std::unique_ptr<XmlElement> root = checker.Parse();
  ASSERT_NE(root, nullptr) << checker.error() << "\n" << xml;
  EXPECT_EQ(root->name, "testsuites");
  ASSERT_EQ(root->Children("testsuite").size(), 4u);  // 3 versions + gate
  // Ordered by target, then version.
  EXPECT_EQ(root->Children("testsuite")[0]->Attr("name"), "host-x86-64-v2.v1");
  EXPECT_EQ(root->Children("testsuite")[3]->Attr("name"), "gate");

  const XmlElement* v3v2 = Suite(*root, "host-x86-64-v3.v2");
  ASSERT_NE(v3v2, nullptr);
  EXPECT_EQ(v3v2->Attr("tests"), "3");
  EXPECT_EQ(v3v2->Attr("failures"), "1");
  EXPECT_EQ(v3v2->Attr("skipped"), "1");
  EXPECT_EQ(v3v2->Attr("time"), "0.008");  // 1.75 ms + 6 ms, + 0
  auto cases = v3v2->Children("testcase");
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0]->Attr("classname"), "host-x86-64-v3.v2");
  EXPECT_EQ(cases[0]->Attr("name"), "add_mul");
  EXPECT_TRUE(cases[0]->children.empty());
  ASSERT_EQ(cases[1]->Children("failure").size(), 1u);
  EXPECT_EQ(cases[1]->Children("failure")[0]->Attr("message"), "output mismatch at [3]");
  ASSERT_EQ(cases[2]->Children("skipped").size(), 1u);
  EXPECT_EQ(cases[2]->Children("skipped")[0]->Attr("message"), "needs AVX-512");

  const XmlElement* v3v1 = Suite(*root, "host-x86-64-v3.v1");
  ASSERT_NE(v3v1, nullptr);
  EXPECT_EQ(v3v1->Attr("tests"), "1");
  EXPECT_EQ(v3v1->Attr("failures"), "0");
  EXPECT_EQ(v3v1->Attr("skipped"), "1");
  auto expired = v3v1->Children("testcase")[0]->Children("skipped");
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(expired[0]->Attr("message"), "expired:"))
      << expired[0]->Attr("message");

  const XmlElement* v2v1 = Suite(*root, "host-x86-64-v2.v1");
  ASSERT_NE(v2v1, nullptr);
  EXPECT_EQ(v2v1->Attr("tests"), "2");
  EXPECT_EQ(v2v1->Attr("failures"), "0");
  EXPECT_EQ(v2v1->Attr("skipped"), "0");

  const XmlElement* gate = Suite(*root, "gate");
  ASSERT_NE(gate, nullptr);
  EXPECT_EQ(gate->Attr("tests"), "3");
  EXPECT_EQ(gate->Attr("failures"), "1");
  auto checks = gate->Children("testcase");
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(checks[1]->Attr("name"), "backward");
  ASSERT_EQ(checks[1]->Children("failure").size(), 1u);
  const XmlElement& failure = *checks[1]->Children("failure")[0];
  EXPECT_EQ(failure.Attr("message"), "1 replay failed");
  EXPECT_THAT(failure.text, HasSubstr("softmax fails on host-x86-64-v3 v2"));
  EXPECT_THAT(failure.text, HasSubstr("restore the old rounding"));
  EXPECT_TRUE(checks[0]->Children("failure").empty());

  EXPECT_EQ(root->Attr("tests"), "9");
  EXPECT_EQ(root->Attr("failures"), "2");
  EXPECT_EQ(root->Attr("skipped"), "2");
}

TEST(ReportJunitTest, StatusAndVerdictAreWrittenByName) {
  QualificationData d = Sample();
  std::string xml = RenderJunitXml(d);
  EXPECT_THAT(xml, HasSubstr("<failure message=\"output mismatch at [3]\" type=\"fail\">"));
  EXPECT_THAT(xml, HasSubstr("<skipped message=\"needs AVX-512\"/>"));
  EXPECT_THAT(xml, HasSubstr("<property name=\"verdict\" value=\"blocked\"/>"));

  d.verdict = Verdict::kPass;
  d.cells[3].reason.clear();
  xml = RenderJunitXml(d);
  EXPECT_THAT(xml, HasSubstr("<property name=\"verdict\" value=\"pass\"/>"));
  EXPECT_THAT(xml, HasSubstr("<skipped message=\"skipped\"/>"));
}

TEST(ReportJunitTest, BlockerOfAnUnlistedCheckFailsTheGate) {
  QualificationData d = Sample();
  d.blockers.push_back({.check = "ledger", .message = "field 42 emitted before its window"});
  std::string xml = RenderJunitXml(d);
  XmlChecker checker(xml);
  auto root = checker.Parse();
  ASSERT_NE(root, nullptr) << checker.error();
  const XmlElement* gate = Suite(*root, "gate");
  ASSERT_NE(gate, nullptr);
  EXPECT_EQ(gate->Attr("tests"), "4");
  EXPECT_EQ(gate->Attr("failures"), "2");
}

TEST(ReportJunitTest, BlockerRuleLeadsTheFailureBody) {
  QualificationData d = Sample();
  d.blockers[0].rule = "REPLAY_FAILED";
  std::string xml = RenderJunitXml(d);
  EXPECT_THAT(xml, HasSubstr("blocker: [REPLAY_FAILED] softmax fails on host-x86-64-v3 v2\n"));
}

TEST(ReportJunitTest, EscapesHostileText) {
  std::string xml = RenderJunitXml(HostileSample());
  EXPECT_THAT(xml, Not(HasSubstr("\x01")));
  EXPECT_THAT(xml, Not(HasSubstr("\x1b")));
  EXPECT_THAT(xml, Not(HasSubstr("\xff")));
  XmlChecker checker(xml);
  auto root = checker.Parse();
  ASSERT_NE(root, nullptr) << checker.error() << "\n" << xml;
  const XmlElement* suite = Suite(*root, "host-x86-64-v3.v2");
  ASSERT_NE(suite, nullptr);
  const XmlElement* failing = suite->Children("testcase")[1];
  EXPECT_EQ(failing->Attr("name"), "soft<max>");
  EXPECT_EQ(failing->Children("failure")[0]->Attr("message"), kHostileReasonStripped);
  EXPECT_EQ(failing->Children("failure")[0]->text, kHostileReasonStripped);
  EXPECT_EQ(Suite(*root, "gate")->Children("testcase")[1]->Children("failure")[0]->Attr("message"),
            "a\"b<c");
  EXPECT_THAT(xml, HasSubstr("message=\"a&quot;b&lt;c\""));
}

TEST(ReportJunitTest, EmptyAndDegenerateDataRenderWithoutNaN) {
  std::string xml = RenderJunitXml(QualificationData());
  EXPECT_FALSE(HasNonFiniteNumber(xml)) << xml;
  XmlChecker checker(xml);
  auto root = checker.Parse();
  ASSERT_NE(root, nullptr) << checker.error();
  EXPECT_EQ(root->Attr("tests"), "0");

  xml = RenderJunitXml(DegenerateSample());
  EXPECT_FALSE(HasNonFiniteNumber(xml)) << xml;
}

}  // namespace
}  // namespace aot
