#include "support/progress.h"

#include <cstdio>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

std::string Contents(FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buffer[256];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0) out.append(buffer, n);
  return out;
}

TEST(ProgressTest, RewritesOneLineAndKeepsFinishedSteps) {
  FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress progress(/*enabled=*/true, f, /*tick=*/std::chrono::milliseconds(0));
    progress.Update("replay host v1: add_mul", 3, 10);
    progress.Update("replay host v1: dot", 4, 10);
    progress.Line("replay host v1: 10 passed");
    progress.Update("gate: lint");
    progress.Clear();
    progress.Update("building abc123");
  }
  std::string text = Contents(f);
  EXPECT_THAT(text, HasSubstr("replay host v1: add_mul (3/10)\033[K"));
  EXPECT_THAT(text, HasSubstr("\r[   0.0 s] replay host v1: dot (4/10)"));
  EXPECT_THAT(text, HasSubstr("\r\033[K[   0.0 s] replay host v1: 10 passed\n"));
  EXPECT_THAT(text, HasSubstr("gate: lint\033[K\r\033[K\r[   0.0 s] building"));
  // The destructor ends the line left open, with no count when there is
  // no total.
  EXPECT_THAT(text, MatchesRegex(".*building abc123\033\\[K\n$"));
  std::fclose(f);
}

TEST(ProgressTest, TheOpenLineTicks) {
  FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress progress(/*enabled=*/true, f, /*tick=*/std::chrono::milliseconds(20));
    progress.Update("building abc123");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  std::string text = Contents(f);
  size_t redraws = 0;
  for (size_t at = text.find("building abc123"); at != std::string::npos;
       at = text.find("building abc123", at + 1)) {
    ++redraws;
  }
  // Drawn once by Update, then again by the ticker (about 15 times here;
  // at least once even on a loaded machine).
  EXPECT_GE(redraws, 2u) << text;
  std::fclose(f);
}

TEST(ProgressTest, DisabledWritesNothing) {
  FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress progress(/*enabled=*/false, f);
    progress.Update("x", 1, 2);
    progress.Line("y");
    EXPECT_FALSE(progress.enabled());
  }
  EXPECT_EQ(Contents(f), "");
  std::fclose(f);
}

}  // namespace
}  // namespace aot
