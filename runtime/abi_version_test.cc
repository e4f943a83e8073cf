#include "runtime/abi_version.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

RuntimeAbiVersion Runtime() {
  RuntimeAbiVersion v;
  v.abi_version = 2;
  v.llvm = {19, 1, 7};
  return v;
}

TEST(RuntimeAbiVersionTest, AcceptsArtifactAtOrBelowItsVersions) {
  AbiVersionProto artifact;
  artifact.set_runtime_abi_version(2);
  artifact.mutable_llvm()->mutable_minimum()->set_major(19);
  EXPECT_TRUE(Runtime().IsCompatibleWith(artifact).ok());
  artifact.set_runtime_abi_version(1);
  EXPECT_TRUE(Runtime().IsCompatibleWith(artifact).ok());
  EXPECT_TRUE(Runtime().IsCompatibleWith(AbiVersionProto()).ok());
}

TEST(RuntimeAbiVersionTest, NewerAbiNumberIsFailedPreconditionStatingBothSides) {
  AbiVersionProto artifact;
  artifact.set_runtime_abi_version(3);
  absl::Status s = Runtime().IsCompatibleWith(artifact);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), AllOf(HasSubstr(">= 3"), HasSubstr("ABI version 2")));
}

TEST(RuntimeAbiVersionTest, ToolchainBelowMinimumIsFailedPrecondition) {
  AbiVersionProto artifact;
  auto* min = artifact.mutable_llvm()->mutable_minimum();
  min->set_major(19);
  min->set_minor(2);
  absl::Status s = Runtime().IsCompatibleWith(artifact);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), AllOf(HasSubstr("llvm >= 19.2.0"), HasSubstr("has llvm 19.1.7")));
}

TEST(RuntimeAbiVersionTest, MissingToolchainIsFailedPrecondition) {
  AbiVersionProto artifact;
  artifact.mutable_cuda()->mutable_minimum()->set_major(12);
  absl::Status s = Runtime().IsCompatibleWith(artifact);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("has no cuda"));
}

TEST(RuntimeAbiVersionTest, CurrentReportsLinkedLlvm) {
  RuntimeAbiVersion v = RuntimeAbiVersion::Current();
  EXPECT_EQ(v.abi_version, kRuntimeAbiVersion);
  EXPECT_EQ(v.llvm.major, 19);
}

}  // namespace
}  // namespace aot
