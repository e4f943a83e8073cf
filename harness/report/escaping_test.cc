#include "harness/report/escaping.h"

#include <cmath>
#include <limits>
#include <string>

#include "gtest/gtest.h"

namespace aot {
namespace {

TEST(EscapingTest, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(EscapeXmlText("a & b < c > d \" e ' f"), "a &amp; b &lt; c &gt; d &quot; e &apos; f");
  EXPECT_EQ(EscapeXmlAttribute("a & b < c > d \" e ' f"),
            "a &amp; b &lt; c &gt; d &quot; e &apos; f");
  EXPECT_EQ(EscapeHtml("a & b < c > d \" e ' f"), "a &amp; b &lt; c &gt; d &quot; e &#39; f");
}

TEST(EscapingTest, WhitespaceByMarkup) {
  EXPECT_EQ(EscapeXmlText("a\tb\nc\rd"), "a\tb\nc&#13;d");
  EXPECT_EQ(EscapeXmlAttribute("a\tb\nc\rd"), "a&#9;b&#10;c&#13;d");
  EXPECT_EQ(EscapeHtml("a\tb\nc\rd"), "a\tb\nc\rd");
}

TEST(EscapingTest, ForbiddenCharactersAreDropped) {
  EXPECT_EQ(EscapeXmlText(std::string("a\x01\x1b\0b", 5)), "ab");
  EXPECT_EQ(EscapeHtml("a\x7f"
                       "b"),
            "a\x7f"
            "b");                                         // allowed by XML 1.0
  EXPECT_EQ(EscapeXmlText("\xef\xbf\xbe"), "");           // U+FFFE
  EXPECT_EQ(EscapeXmlAttribute("x\xef\xbf\xbfy"), "xy");  // U+FFFF
}

TEST(EscapingTest, ValidUtf8IsKept) {
  const std::string text = "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";  // é € 😀
  EXPECT_EQ(EscapeXmlText(text), text);
  EXPECT_EQ(EscapeHtml(text), text);
}

TEST(EscapingTest, MalformedUtf8BecomesReplacementCharacters) {
  const std::string kReplacement = "\xef\xbf\xbd";
  EXPECT_EQ(EscapeHtml("a\xff"
                       "b"),
            "a" + kReplacement + "b");
  EXPECT_EQ(EscapeHtml("\xc0\xaf"), kReplacement + kReplacement);  // overlong '/'
  EXPECT_EQ(EscapeHtml("\xed\xa0\x80"), kReplacement + kReplacement + kReplacement);  // surrogate
  EXPECT_EQ(EscapeHtml("\xe2\x82"), kReplacement + kReplacement);                     // truncated
  EXPECT_EQ(EscapeHtml("\xf4\x90\x80\x80"),
            kReplacement + kReplacement + kReplacement + kReplacement);  // above U+10FFFF
}

TEST(EscapingTest, MarkupNumberIsNeverNanOrInf) {
  EXPECT_EQ(MarkupNumber(1.23456, 3), "1.235");
  EXPECT_EQ(MarkupNumber(1200, 0), "1200");
  EXPECT_EQ(MarkupNumber(-2.5, 1), "-2.5");
  EXPECT_EQ(MarkupNumber(std::nan(""), 2), "0.00");
  EXPECT_EQ(MarkupNumber(std::numeric_limits<double>::infinity(), 1), "0.0");
}

TEST(EscapingTest, FiniteNonNegative) {
  EXPECT_EQ(FiniteNonNegative(2.5), 2.5);
  EXPECT_EQ(FiniteNonNegative(-1), 0);
  EXPECT_EQ(FiniteNonNegative(std::nan("")), 0);
  EXPECT_EQ(FiniteNonNegative(std::numeric_limits<double>::infinity()), 0);
}

}  // namespace
}  // namespace aot
