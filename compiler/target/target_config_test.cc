#include "compiler/target/target_config.h"

#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/file_io.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

// Every file in compiler/target/specs/ parses and validates, and is the same spec
// the binary ships under that name.
TEST(TargetConfigTest, EveryShippedSpecFileParses) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("compiler/target/specs")) {
    if (entry.path().extension() != ".txtpb") continue;
    ++count;
    auto text = ReadFileToString(entry.path().string());
    ASSERT_TRUE(text.ok()) << text.status();
    auto config = ParseTargetConfig(*text, entry.path().string());
    ASSERT_TRUE(config.ok()) << config.status();
    EXPECT_EQ(config->name(), entry.path().stem().string()) << "spec name must equal its file name";
    auto shipped = ShippedTargetConfig(entry.path().stem().string());
    ASSERT_TRUE(shipped.ok()) << shipped.status();
    EXPECT_EQ(shipped->SerializeAsString(), config->SerializeAsString());
  }
  EXPECT_EQ(count, 5);
  EXPECT_EQ(ShippedTargetConfigNames().size(), 5u);
}

TEST(TargetConfigTest, ShippedSpecsHaveExpectedCapabilities) {
  auto h100 = ShippedTargetConfig("h100");
  ASSERT_TRUE(h100.ok());
  EXPECT_EQ(h100->platform(), PLATFORM_CUDA);
  EXPECT_EQ(h100->device_description().capability().cuda().major(), 9);
  EXPECT_EQ(h100->llvm_cpu(), "sm_90");
  auto a100 = ShippedTargetConfig("a100");
  ASSERT_TRUE(a100.ok());
  EXPECT_EQ(a100->device_description().capability().cuda().major(), 8);
  auto v4 = ShippedTargetConfig("host-x86-64-v4");
  ASSERT_TRUE(v4.ok());
  EXPECT_EQ(v4->device_description().capability().host().isa_level(), X86_64_V4);
}

TEST(TargetConfigTest, UnknownNameListsShippedSpecs) {
  auto missing = ShippedTargetConfig("tpu");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("h100"));
}

TEST(TargetConfigTest, SyntaxErrorNamesSourceAndLine) {
  auto bad =
      ParseTargetConfig("name: \"x\"\nbogus_field: 1\nplatform: PLATFORM_HOST\n", "spec.txtpb");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("spec.txtpb:2:"));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("bogus_field"));
}

TEST(TargetConfigTest, InconsistentSpecsAreRejected) {
  auto config = *ShippedTargetConfig("h100");
  config.set_llvm_cpu("sm_80");
  EXPECT_THAT(ValidateTargetConfig(config, "x").message(),
              HasSubstr("does not match compute capability 9.0"));
  config = *ShippedTargetConfig("h100");
  config.mutable_device_description()->mutable_capability()->mutable_host();
  EXPECT_THAT(ValidateTargetConfig(config, "x").message(),
              HasSubstr("needs device_description.capability.cuda"));
  config = *ShippedTargetConfig("host-x86-64-v3");
  config.mutable_device_description()->set_threads_per_block_limit(0);
  EXPECT_THAT(ValidateTargetConfig(config, "x").message(),
              HasSubstr("threads_per_block_limit must be positive"));
  config = *ShippedTargetConfig("host-x86-64-v3");
  config.set_platform(PLATFORM_UNSPECIFIED);
  EXPECT_FALSE(ValidateTargetConfig(config, "x").ok());
}

TEST(TargetConfigTest, ResolvePrefersAnExistingPath) {
  auto by_path = ResolveTargetConfig("compiler/target/specs/a100.txtpb");
  ASSERT_TRUE(by_path.ok()) << by_path.status();
  EXPECT_EQ(by_path->name(), "a100");
  auto by_name = ResolveTargetConfig("a100");
  ASSERT_TRUE(by_name.ok());
  EXPECT_FALSE(ResolveTargetConfig("does/not/exist.txtpb").ok());
}

}  // namespace
}  // namespace aot
