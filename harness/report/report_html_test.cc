#include "harness/report/report_html.h"

#include <unistd.h>

#include <cstdlib>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/report/qualification_report.h"
#include "harness/report/report_testing.h"
#include "support/file_io.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

using aot::testing::DegenerateSample;
using aot::testing::HasNonFiniteNumber;
using aot::testing::HostileSample;
using aot::testing::Sample;
using aot::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ReportHtmlTest, HtmlIsSelfContainedAndComplete) {
  QualificationData d = Sample();
  std::string html = RenderHtml(d);
  EXPECT_TRUE(absl::StartsWith(html, "<!DOCTYPE html>"));
  for (absl::string_view outside :
       {"http://", "https://", "src=", "<link", "url(", "@import", "//cdn"}) {
    EXPECT_THAT(html, Not(HasSubstr(outside))) << outside;
  }
  EXPECT_THAT(html, HasSubstr("<style>"));
  EXPECT_THAT(html, HasSubstr("class=\"verdict verdict-blocked\""));
  EXPECT_THAT(html, HasSubstr("BLOCKED"));
  for (const char* test : {"add_mul", "softmax", "gemm_f16"}) {
    EXPECT_THAT(html, HasSubstr(absl::StrCat("<th>", test, "</th>"))) << test;
  }
  for (const char* status : {"pass", "fail", "skipped", "expired"}) {
    EXPECT_THAT(html, HasSubstr(absl::StrCat("class=\"cell status-", status))) << status;
  }
  // Tooltips carry the reason and timings.
  EXPECT_THAT(html, HasSubstr("output mismatch at [3]"));
  EXPECT_THAT(html, HasSubstr("load 2.00 ms, run 4.00 ms"));
  // The timeline and its boundaries.
  EXPECT_THAT(html, HasSubstr("<svg class=\"timeline\""));
  EXPECT_THAT(html, HasSubstr("backward window start 2026-06-01"));
  EXPECT_THAT(html, HasSubstr("forward window start 2026-11-17"));
  EXPECT_THAT(html, HasSubstr("now 2026-12-01"));
  EXPECT_THAT(html, HasSubstr("2026-11-30-1a2b3c4d"));
  // The timing chart.
  EXPECT_THAT(html, HasSubstr("<svg class=\"timings\""));
  EXPECT_THAT(html, HasSubstr("class=\"bar-load\""));
  // Checks, blockers with their fix, notices.
  EXPECT_THAT(html, HasSubstr("schema-check"));
  EXPECT_THAT(html, HasSubstr("1 replay failed"));
  EXPECT_THAT(html, HasSubstr(d.blockers[0].fix));
  EXPECT_THAT(html, HasSubstr(d.notices[0].message));
  EXPECT_FALSE(HasNonFiniteNumber(html));

  d.verdict = Verdict::kPass;
  d.blockers.clear();
  std::string pass = RenderHtml(d);
  EXPECT_THAT(pass, HasSubstr("class=\"verdict verdict-pass\""));
  EXPECT_THAT(pass, Not(HasSubstr("class=\"verdict verdict-blocked\"")));
}

TEST(ReportHtmlTest, StatusesVerdictAndKindsAreShownByName) {
  QualificationData d = Sample();
  std::string html = RenderHtml(d);
  EXPECT_THAT(html, HasSubstr("&mdash; blocked</title>"));
  // The legend, ordered by status name.
  EXPECT_THAT(html, HasSubstr("<p class=\"legend\">6 replays: "
                              "<span class=\"status-expired\">expired 1</span>"
                              "<span class=\"status-fail\">fail 1</span>"
                              "<span class=\"status-pass\">pass 3</span>"
                              "<span class=\"status-skipped\">skipped 1</span></p>"));
  EXPECT_THAT(html, HasSubstr("host-x86-64-v3.v2 softmax: fail - output mismatch at [3]"));
  EXPECT_THAT(html, HasSubstr("<title>release 2026-11-30-1a2b3c4d (2026-11-30)</title>"));
  EXPECT_THAT(html, HasSubstr("<title>version host-x86-64-v3 v2 (2026-09-10)</title>"));

  d.verdict = Verdict::kPass;
  EXPECT_THAT(RenderHtml(d), HasSubstr("&mdash; pass</title>"));
}

TEST(ReportHtmlTest, PassQualifiesOnlyWhatRanAndNamesTargetsOnlyValidated) {
  QualificationData d = Sample();
  d.verdict = Verdict::kPass;
  d.blockers.clear();
  auto cell = [](const std::string& target, ReplayStatus status) {
    ReplayRecord r;
    r.target = target;
    r.version = 1;
    r.test = "add_mul";
    r.status = status;
    return r;
  };
  // Every replay ran: qualified.
  d.cells = {cell("host-x86-64-v3", ReplayStatus::kPass), cell("cuda-sm_90", ReplayStatus::kPass)};
  EXPECT_THAT(RenderHtml(d), HasSubstr("PASS &mdash; release qualified"));
  // The CUDA replays were all skipped (no device): not "release qualified".
  d.cells = {cell("host-x86-64-v3", ReplayStatus::kPass),
             cell("cuda-sm_90", ReplayStatus::kSkipped),
             cell("cuda-sm_80", ReplayStatus::kSkipped)};
  std::string partial = RenderHtml(d);
  EXPECT_THAT(partial, Not(HasSubstr("release qualified")));
  EXPECT_THAT(partial,
              HasSubstr("PASS &mdash; not fully qualified: executed: host-x86-64-v3; loaded and "
                        "validated only (not executed): cuda-sm_80, cuda-sm_90"));
  // Nothing ran at all.
  d.cells = {cell("cuda-sm_90", ReplayStatus::kSkipped)};
  EXPECT_THAT(RenderHtml(d), HasSubstr("not fully qualified: no target executed"));
}

TEST(ReportHtmlTest, BlockerRuleLeadsItsMessage) {
  QualificationData d = Sample();
  d.blockers[0].rule = "REPLAY_FAILED";
  EXPECT_THAT(RenderHtml(d),
              HasSubstr("</span>[REPLAY_FAILED] softmax fails on host-x86-64-v3 v2"));
}

TEST(ReportHtmlTest, EscapesHostileText) {
  QualificationData d = HostileSample();
  std::string html = RenderHtml(d);
  EXPECT_THAT(html, Not(HasSubstr("\x01")));
  EXPECT_THAT(html, Not(HasSubstr("\xff")));
  EXPECT_THAT(html, Not(HasSubstr("<tag>")));
  EXPECT_THAT(html, Not(HasSubstr("soft<max>")));
  EXPECT_THAT(html, HasSubstr("soft&lt;max&gt;"));
  EXPECT_THAT(html, HasSubstr("bad &lt;tag&gt; &amp; &quot;quoted&quot; "
                              "&#39;it&#39; end"));
  EXPECT_THAT(html, HasSubstr("use &lt;b&gt;&amp;amp;&lt;/b&gt;"));
}

TEST(ReportHtmlTest, EmptyAndDegenerateDataRenderWithoutNaN) {
  QualificationData empty;
  std::string html = RenderHtml(empty);
  EXPECT_FALSE(HasNonFiniteNumber(html)) << html;
  EXPECT_THAT(html, HasSubstr("No replays recorded"));
  EXPECT_THAT(html, HasSubstr("No dated entries"));

  html = RenderHtml(DegenerateSample());
  EXPECT_FALSE(HasNonFiniteNumber(html)) << html;
  EXPECT_THAT(html, HasSubstr("<svg class=\"timeline\""));
  EXPECT_THAT(html, HasSubstr("no replays ran"));
}

// ---------------------------------------------------------------------------
// A real browser, when one is installed.

std::string ShellQuote(absl::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

std::string FindChromium() {
  if (const char* env = std::getenv("AOT_CHROMIUM"); env && *env) return env;
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  for (const char* name : {"chromium", "chromium-browser", "google-chrome", "chrome"}) {
    absl::string_view rest = path;
    while (true) {
      size_t colon = rest.find(':');
      absl::string_view dir = rest.substr(0, colon);
      if (!dir.empty()) {
        std::string candidate = absl::StrCat(dir, "/", name);
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
      }
      if (colon == absl::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  return "";
}

TEST(ReportHtmlTest, RendersInHeadlessChromium) {
  std::string chromium = FindChromium();
  if (chromium.empty()) {
    GTEST_SKIP() << "no chromium, chromium-browser, google-chrome or chrome "
                    "on PATH and AOT_CHROMIUM unset; skipping the browser "
                    "render check";
  }
  TempDir tmp;
  const std::string& dir = tmp.path();
  ASSERT_TRUE(WriteQualificationReport(Sample(), dir).ok());
  std::string url = absl::StrCat("file://", dir, "/index.html");
  std::string flags = "--headless --no-sandbox --disable-gpu";
  std::string profile = ShellQuote(absl::StrCat(dir, "/profile"));

  std::string dom_path = absl::StrCat(dir, "/dom.html");
  std::string command =
      absl::StrCat("timeout 60 ", ShellQuote(chromium), " ", flags, " --user-data-dir=", profile,
                   " --dump-dom ", ShellQuote(url), " > ", ShellQuote(dom_path), " 2> ",
                   ShellQuote(absl::StrCat(dir, "/dom.err")));
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  absl::StatusOr<std::string> dom = ReadFileToString(dom_path);
  ASSERT_TRUE(dom.ok()) << dom.status();
  EXPECT_THAT(*dom, HasSubstr("BLOCKED"));
  EXPECT_THAT(*dom, HasSubstr("softmax"));
  EXPECT_THAT(*dom, HasSubstr("<svg"));

  std::string shot = absl::StrCat(dir, "/shot.png");
  command =
      absl::StrCat("timeout 60 ", ShellQuote(chromium), " ", flags, " --user-data-dir=", profile,
                   " --screenshot=", ShellQuote(shot), " --window-size=1280,2000 ", ShellQuote(url),
                   " > ", ShellQuote(absl::StrCat(dir, "/shot.out")), " 2>&1");
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  absl::StatusOr<std::string> png = ReadFileToString(shot);
  ASSERT_TRUE(png.ok()) << png.status();
  ASSERT_GT(png->size(), 8u);
  EXPECT_EQ(png->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

}  // namespace
}  // namespace aot
