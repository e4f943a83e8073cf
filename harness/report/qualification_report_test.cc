#include "harness/report/qualification_report.h"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/testing/temp_dir.h"
#include "support/file_io.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

using aot::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

// ---------------------------------------------------------------------------
// A tiny XML 1.0 checker: elements, attributes, text, the XML declaration and
// the five predefined entities plus character references. It rejects what a
// real parser rejects in the subset we emit: unbalanced tags, a raw '<' or a
// stray '&' in attribute values or text, characters XML forbids, and
// duplicate attributes. Values come back unescaped.

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<std::unique_ptr<XmlElement>> children;
  std::string text;

  std::vector<const XmlElement*> Children(absl::string_view tag) const {
    std::vector<const XmlElement*> found;
    for (const auto& child : children) {
      if (child->name == tag) found.push_back(child.get());
    }
    return found;
  }
  std::string Attr(const std::string& key) const {
    auto it = attributes.find(key);
    return it == attributes.end() ? "<absent>" : it->second;
  }
};

class XmlChecker {
 public:
  // `text` must outlive the checker.
  explicit XmlChecker(absl::string_view text) : text_(text) {}

  // The root element, or null with `error()` set.
  std::unique_ptr<XmlElement> Parse() {
    if (absl::StartsWith(text_, "<?xml")) {
      size_t end = text_.find("?>");
      if (end == absl::string_view::npos) return Fail("unterminated <?xml");
      pos_ = end + 2;
    }
    SkipSpace();
    auto root = ParseElement();
    if (root == nullptr) return nullptr;
    SkipSpace();
    if (pos_ != text_.size()) return Fail("content after the root element");
    return root;
  }
  const std::string& error() const { return error_; }

 private:
  std::nullptr_t Fail(absl::string_view why) {
    if (error_.empty()) error_ = absl::StrCat(why, " at offset ", pos_);
    return nullptr;
  }
  void SkipSpace() {
    while (pos_ < text_.size() &&
           absl::string_view(" \t\r\n").find(text_[pos_]) != absl::string_view::npos) {
      ++pos_;
    }
  }
  static bool IsNameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == ':';
  }
  std::string ParseName() {
    size_t start = pos_;
    while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  // Unescapes character data up to `stop`; fails on '<', a bad entity or a
  // forbidden control character.
  bool ParseChars(char stop, std::string* out) {
    while (pos_ < text_.size() && text_[pos_] != stop) {
      char c = text_[pos_];
      unsigned char u = static_cast<unsigned char>(c);
      if (c == '<') return Fail("raw '<' in character data"), false;
      if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') {
        return Fail("control character forbidden by XML 1.0"), false;
      }
      if (c != '&') {
        out->push_back(c);
        ++pos_;
        continue;
      }
      size_t semi = text_.find(';', pos_);
      if (semi == absl::string_view::npos || semi - pos_ > 10) {
        return Fail("stray '&'"), false;
      }
      absl::string_view entity = text_.substr(pos_ + 1, semi - pos_ - 1);
      static const std::map<std::string, char> kNamed = {
          {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
      if (auto it = kNamed.find(std::string(entity)); it != kNamed.end()) {
        out->push_back(it->second);
      } else if (absl::StartsWith(entity, "#")) {
        bool hex = absl::StartsWith(entity, "#x");
        std::string digits(entity.substr(hex ? 2 : 1));
        if (digits.empty()) return Fail("empty character reference"), false;
        long code = std::strtol(digits.c_str(), nullptr, hex ? 16 : 10);
        if (code != 9 && code != 10 && code != 13 && code < 0x20) {
          return Fail("reference to a forbidden character"), false;
        }
        if (code >= 0x80) return Fail("unexpected non-ASCII reference"), false;
        out->push_back(static_cast<char>(code));
      } else {
        return Fail("unknown entity"), false;
      }
      pos_ = semi + 1;
    }
    return true;
  }
  std::unique_ptr<XmlElement> ParseElement() {
    if (pos_ >= text_.size() || text_[pos_] != '<') return Fail("expected '<'");
    ++pos_;
    auto element = std::make_unique<XmlElement>();
    element->name = ParseName();
    if (element->name.empty()) return Fail("expected an element name");
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size()) return Fail("unterminated start tag");
      if (absl::StartsWith(text_.substr(pos_), "/>")) {
        pos_ += 2;
        return element;
      }
      if (text_[pos_] == '>') {
        ++pos_;
        break;
      }
      std::string key = ParseName();
      if (key.empty()) return Fail("expected an attribute name");
      if (pos_ + 1 >= text_.size() || text_[pos_] != '=' || text_[pos_ + 1] != '"') {
        return Fail("expected =\"");
      }
      pos_ += 2;
      std::string value;
      if (!ParseChars('"', &value)) return nullptr;
      if (pos_ >= text_.size()) return Fail("unterminated attribute value");
      ++pos_;
      if (!element->attributes.emplace(key, value).second) {
        return Fail("duplicate attribute");
      }
    }
    while (true) {
      if (!ParseChars('<', &element->text)) return nullptr;
      if (pos_ >= text_.size()) return Fail("unterminated element");
      if (absl::StartsWith(text_.substr(pos_), "</")) {
        pos_ += 2;
        if (ParseName() != element->name) return Fail("mismatched end tag");
        SkipSpace();
        if (pos_ >= text_.size() || text_[pos_] != '>') {
          return Fail("expected '>'");
        }
        ++pos_;
        return element;
      }
      auto child = ParseElement();
      if (child == nullptr) return nullptr;
      element->children.push_back(std::move(child));
    }
  }

  absl::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

// ---------------------------------------------------------------------------
// Data.

QualificationData Sample() {
  QualificationData d;
  d.now = "2026-12-01";
  d.backward_window_start = "2026-06-01";
  d.forward_window_start = "2026-11-17";
  d.verdict = "blocked";
  d.tool_version = "v0.3-12-gabcdef0";
  d.checks = {{"schema-check", true, "no breaking changes"},
              {"backward", false, "1 replay failed"},
              {"forward", true, "all emitted fields readable by v-14d"}};
  d.cells = {
      {"host-x86-64-v3", 1, "2026-03-02", "add_mul", "expired",
       "created 2026-03-02, before the backward window", 0, 0},
      {"host-x86-64-v3", 2, "2026-09-10", "add_mul", "pass", "", 1.25, 0.5},
      {"host-x86-64-v3", 2, "2026-09-10", "softmax", "fail", "output mismatch at [3]", 2.0, 4.0},
      {"host-x86-64-v3", 2, "2026-09-10", "gemm_f16", "skipped", "needs AVX-512", 0, 0},
      {"host-x86-64-v2", 1, "2026-10-01", "add_mul", "pass", "", 1.0, 0.25},
      {"host-x86-64-v2", 1, "2026-10-01", "softmax", "pass", "", 1.5, 0.75},
  };
  d.timeline = {{"version", "host-x86-64-v3 v1", "2026-03-02"},
                {"version", "host-x86-64-v3 v2", "2026-09-10"},
                {"version", "host-x86-64-v2 v1", "2026-10-01"},
                {"release", "2026-11-30-1a2b3c4d", "2026-11-30"}};
  d.blockers = {{"backward", "softmax fails on host-x86-64-v3 v2",
                 "restore the old rounding of exp() in runtime/kernels"}};
  d.notices = {{"lint", "fallback aot.gelu_tanh may be removed in June 2027"}};
  return d;
}

const XmlElement* Suite(const XmlElement& root, absl::string_view name) {
  for (const XmlElement* suite : root.Children("testsuite")) {
    if (suite->Attr("name") == name) return suite;
  }
  return nullptr;
}

// A number that must not appear in markup: NaN or infinity, as C, JS or
// printf would spell it, as an attribute value or an element's text.
bool HasNonFiniteNumber(const std::string& text) {
  static const std::regex kBad("(=\"|>)\\s*[-+]?(nan|inf)", std::regex::icase);
  return std::regex_search(text, kBad);
}

// ---------------------------------------------------------------------------
// JSON.

TEST(QualificationReportTest, JsonRoundTrips) {
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
  EXPECT_EQ(back->timeline[3].kind, "release");

  // Directly from the ordered_json as well.
  absl::StatusOr<QualificationData> direct = QualificationFromJson(json);
  ASSERT_TRUE(direct.ok()) << direct.status();
  EXPECT_EQ(QualificationToJson(*direct), json);
}

TEST(QualificationReportTest, JsonErrorsNameTheBadKey) {
  nlohmann::json json = QualificationToJson(Sample());
  json["cells"][3]["status"] = "exploded";
  absl::StatusOr<QualificationData> bad = QualificationFromJson(json);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("cells[3].status"));
  EXPECT_THAT(bad.status().message(), HasSubstr("exploded"));

  json = QualificationToJson(Sample());
  json["cells"][0]["version"] = "one";
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("cells[0].version"));

  json = QualificationToJson(Sample());
  json["timeline"][1]["date"] = "2026-02-30";
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("timeline[1].date"));

  json = QualificationToJson(Sample());
  json["checks"][0].erase("ok");
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("checks[0].ok"));

  json = QualificationToJson(Sample());
  json.erase("verdict");
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("'verdict'"));

  json = QualificationToJson(Sample());
  json["cells"][1]["run_ms"] = -1;
  EXPECT_THAT(QualificationFromJson(json).status().message(), HasSubstr("cells[1].run_ms"));

  EXPECT_FALSE(QualificationFromJson(nlohmann::json::array()).ok());
}

// ---------------------------------------------------------------------------
// JUnit.

TEST(QualificationReportTest, JunitCountsPerSuiteAndGate) {
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

TEST(QualificationReportTest, BlockerOfAnUnlistedCheckFailsTheGate) {
  QualificationData d = Sample();
  d.blockers.push_back({"ledger", "field 42 emitted before its window", ""});
  std::string xml = RenderJunitXml(d);
  XmlChecker checker(xml);
  auto root = checker.Parse();
  ASSERT_NE(root, nullptr) << checker.error();
  const XmlElement* gate = Suite(*root, "gate");
  ASSERT_NE(gate, nullptr);
  EXPECT_EQ(gate->Attr("tests"), "4");
  EXPECT_EQ(gate->Attr("failures"), "2");
}

TEST(QualificationReportTest, XmlAndHtmlEscapeHostileText) {
  QualificationData d = Sample();
  const std::string hostile = "bad <tag> & \"quoted\" 'it'\x01\x1b end";
  d.cells[2].reason = hostile;
  d.cells[2].test = "soft<max>";
  d.checks[1].summary = "a\"b<c";
  d.blockers[0].fix = "use <b>&amp;</b>";
  d.tool_version = "bad utf-8 \xff\xfe here";

  std::string xml = RenderJunitXml(d);
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
  const std::string stripped = "bad <tag> & \"quoted\" 'it' end";
  EXPECT_EQ(failing->Children("failure")[0]->Attr("message"), stripped);
  EXPECT_EQ(failing->Children("failure")[0]->text, stripped);
  EXPECT_EQ(Suite(*root, "gate")->Children("testcase")[1]->Children("failure")[0]->Attr("message"),
            "a\"b<c");
  EXPECT_THAT(xml, HasSubstr("message=\"a&quot;b&lt;c\""));

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

// ---------------------------------------------------------------------------
// HTML.

TEST(QualificationReportTest, HtmlIsSelfContainedAndComplete) {
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

  d.verdict = "pass";
  d.blockers.clear();
  std::string pass = RenderHtml(d);
  EXPECT_THAT(pass, HasSubstr("class=\"verdict verdict-pass\""));
  EXPECT_THAT(pass, Not(HasSubstr("class=\"verdict verdict-blocked\"")));
}

TEST(QualificationReportTest, EmptyAndDegenerateDataRenderWithoutNaN) {
  QualificationData empty;
  std::string html = RenderHtml(empty);
  EXPECT_FALSE(HasNonFiniteNumber(html)) << html;
  EXPECT_THAT(html, HasSubstr("No replays recorded"));
  EXPECT_THAT(html, HasSubstr("No dated entries"));
  std::string xml = RenderJunitXml(empty);
  EXPECT_FALSE(HasNonFiniteNumber(xml)) << xml;
  XmlChecker checker(xml);
  auto root = checker.Parse();
  ASSERT_NE(root, nullptr) << checker.error();
  EXPECT_EQ(root->Attr("tests"), "0");

  // One date only (a zero-length span), all timings zero or non-finite.
  QualificationData degenerate;
  degenerate.verdict = "pass";
  degenerate.now = "2026-12-01";
  degenerate.backward_window_start = "2026-12-01";
  degenerate.forward_window_start = "2026-12-01";
  degenerate.timeline = {{"version", "t v1", "2026-12-01"}, {"release", "r", "not a date"}};
  degenerate.cells = {{"t", 1, "2026-12-01", "a", "pass", "", 0, 0},
                      {"t", 2, "2026-12-01", "a", "skipped", "", 0, 0},
                      {"u", 1, "2026-12-01", "a", "fail", "", std::nan(""),
                       std::numeric_limits<double>::infinity()}};
  html = RenderHtml(degenerate);
  EXPECT_FALSE(HasNonFiniteNumber(html)) << html;
  EXPECT_THAT(html, HasSubstr("<svg class=\"timeline\""));
  EXPECT_THAT(html, HasSubstr("no replays ran"));
  xml = RenderJunitXml(degenerate);
  EXPECT_FALSE(HasNonFiniteNumber(xml)) << xml;
}

// ---------------------------------------------------------------------------
// Writing.

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

TEST(QualificationReportTest, RendersInHeadlessChromium) {
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
