#include "harness/lint/fallback_lint.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

Date D(const char* text) { return *Date::Parse(text); }

TEST(FallbackLintTest, FallbackWithoutExpiryIsAnError) {
  LintReport report;
  LintFallbacksInText("runtime/x.cc",
                      "int a;\n"
                      "  // Compatibility fallback: reads the old `foo` field.\n"
                      "  if (old) Foo();\n",
                      D("2026-11-29"), &report);
  EXPECT_EQ(report.fallbacks, 1);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].severity, "error");
  EXPECT_EQ(report.findings[0].line, 2);
  EXPECT_FALSE(report.ok());
}

TEST(FallbackLintTest, FutureExpiryIsCleanPastExpiryIsANotice) {
  const char* text =
      "// Compatibility fallback: artifacts of the last 6 months still name it.\n"
      "// Can be removed in June 2027 (6 months backward compatibility window).\n";
  LintReport early;
  LintFallbacksInText("runtime/x.cc", text, D("2026-11-29"), &early);
  EXPECT_TRUE(early.findings.empty());
  EXPECT_TRUE(early.ok());
  LintReport late;
  LintFallbacksInText("runtime/x.cc", text, D("2027-06-01"), &late);
  ASSERT_EQ(late.findings.size(), 1u);
  EXPECT_EQ(late.findings[0].severity, "notice");
  EXPECT_THAT(late.findings[0].message, HasSubstr("expired in June 2027"));
  EXPECT_TRUE(late.ok());
}

TEST(FallbackLintTest, WrappedExpiryLinesAreUnderstoodMalformedOnesAreNot) {
  LintReport wrapped;
  LintFallbacksInText("runtime/x.cc",
                      "// Compatibility fallback: old form. Can be removed in\n"
                      "// March 2027 (6 months backward compatibility window).\n",
                      D("2026-11-29"), &wrapped);
  EXPECT_TRUE(wrapped.findings.empty());
  LintReport bad;
  LintFallbacksInText(
      "runtime/x.cc",
      "// Compatibility fallback: old form.\n"
      "// Can be removed in Smarch 2027 (6 months backward compatibility window).\n",
      D("2026-11-29"), &bad);
  ASSERT_EQ(bad.findings.size(), 1u);
  EXPECT_THAT(bad.findings[0].message, HasSubstr("malformed expiry comment"));
}

// The lint and the window agree: for a form superseded on any day of three
// years, the expiry line FallbackExpiryLine writes makes the lint's notice
// fire exactly from the first day of the first month in which the window
// has expired the last golden carrying the old form: never before (the
// fallback still has goldens to read), and not a month later than needed.
TEST(FallbackLintTest, ExpiryAgreesWithTheBackwardWindowOnEveryDay) {
  int days = 0;
  for (Date superseded = D("2026-01-01"); superseded < D("2029-01-01");
       superseded = superseded.PlusDays(1), ++days) {
    const std::string text = absl::StrCat("// Compatibility fallback: the old form.\n",
                                          FallbackExpiryLine(superseded), "\n");
    const Date removal = FallbackRemovalMonth(superseded);
    ASSERT_EQ(removal.day, 1);
    const std::vector<DatedVersion> versions = {{1, superseded.MinusDays(1)}, {2, superseded}};
    auto notice_on = [&](const Date& now) {
      LintReport report;
      LintFallbacksInText("runtime/x.cc", text, now, &report);
      EXPECT_TRUE(report.ok()) << text;
      return !report.findings.empty();
    };
    // The day before the removal month: no notice. Its first day: a notice,
    // and the old form's last golden is expired by then.
    EXPECT_FALSE(notice_on(removal.MinusDays(1))) << superseded.ToString();
    ASSERT_TRUE(notice_on(removal)) << superseded.ToString();
    EXPECT_EQ(ComputeBackwardWindow(versions, removal).expired, std::vector<int>{1})
        << "superseded " << superseded.ToString() << ": the lint allows removal on "
        << removal.ToString() << " while the window still holds the old form";
    // And the month before would have been too early.
    const Date month_before = removal.MinusMonths(1);
    EXPECT_TRUE(ComputeBackwardWindow(versions, month_before).expired.empty())
        << superseded.ToString();
  }
  EXPECT_EQ(days, 1096);
}

TEST(FallbackLintTest, TheRuntimeIsCleanTodayAndAliasesExpire) {
  auto report = LintFallbacks(".", D("2026-11-29"));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_GE(report->fallbacks, 1);  // the aot.gelu_tanh alias
  EXPECT_TRUE(report->ok());
  for (const LintFinding& f : report->findings)
    ADD_FAILURE() << f.file << ":" << f.line << " " << f.message;
  auto later = LintFallbacks(".", D("2027-07-01"));
  ASSERT_TRUE(later.ok());
  bool alias_notice = false, fallback_notice = false;
  for (const LintFinding& f : later->findings) {
    if (f.message.find("alias 'aot.gelu_tanh'") != std::string::npos) alias_notice = true;
    if (f.message.find("fallback expired in June 2027") != std::string::npos)
      fallback_notice = true;
  }
  EXPECT_TRUE(alias_notice);
  EXPECT_TRUE(fallback_notice);
}

}  // namespace
}  // namespace aot
