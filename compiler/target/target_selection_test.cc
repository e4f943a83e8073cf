#include "compiler/target/target_selection.h"

#include <set>
#include <string>

#include "compiler/target/target_config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

TEST(TargetSelectionTest, PlatformNames) {
  EXPECT_EQ(*ParsePlatformName("host"), PLATFORM_HOST);
  EXPECT_EQ(*ParsePlatformName("cuda"), PLATFORM_CUDA);
  EXPECT_EQ(*ParsePlatformName("gpu"), PLATFORM_CUDA);
  EXPECT_FALSE(ParsePlatformName("tpu").ok());
  EXPECT_EQ(PlatformName(PLATFORM_CUDA), "cuda");
}

TEST(TargetSelectionTest, DefaultTargets) {
  EXPECT_EQ(DefaultTargetName(PLATFORM_CUDA, {}), "h100");
  EXPECT_EQ(DefaultTargetName(PLATFORM_HOST, {}), "host-x86-64-v2");
  std::set<std::string> v2 = {"sse4.2", "popcnt", "ssse3", "sse4.1", "sse3", "cx16", "sahf"};
  std::set<std::string> v3 = v2;
  for (const char* f : {"avx", "avx2", "fma", "bmi", "bmi2", "f16c", "lzcnt", "movbe", "xsave"}) {
    v3.insert(f);
  }
  // Whatever the exact lists, a richer feature set never picks a lower level.
  std::string low = DefaultTargetName(PLATFORM_HOST, v2);
  std::string high = DefaultTargetName(PLATFORM_HOST, v3);
  EXPECT_THAT(low, MatchesRegex("host-x86-64-v[234]"));
  EXPECT_GE(high, low);
  // Every default is a shipped spec.
  for (const std::string& name : {low, high, DefaultTargetName(PLATFORM_CUDA, {})}) {
    EXPECT_TRUE(ShippedTargetConfig(name).ok()) << name;
  }
}

TEST(TargetSelectionTest, SelectTargetChecksThePlatform) {
  auto host = SelectTarget(PLATFORM_HOST, "");
  ASSERT_TRUE(host.ok()) << host.status();
  EXPECT_EQ(host->platform(), PLATFORM_HOST);
  auto cuda = SelectTarget(PLATFORM_CUDA, "");
  ASSERT_TRUE(cuda.ok()) << cuda.status();
  EXPECT_EQ(cuda->name(), "h100");
  auto a100 = SelectTarget(PLATFORM_CUDA, "a100");
  ASSERT_TRUE(a100.ok());
  EXPECT_EQ(a100->name(), "a100");

  auto mismatch = SelectTarget(PLATFORM_HOST, "a100");
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(mismatch.status().message()),
              HasSubstr("target config 'a100' is for platform cuda, not host"));
  EXPECT_FALSE(SelectTarget(PLATFORM_HOST, "no-such-target").ok());
}

}  // namespace
}  // namespace aot
