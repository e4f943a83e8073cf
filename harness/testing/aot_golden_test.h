#ifndef AOT_HARNESS_TESTING_AOT_GOLDEN_TEST_H_
#define AOT_HARNESS_TESTING_AOT_GOLDEN_TEST_H_

#include <ostream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace aot {

// A GoogleTest fixture for golden AOT tests, as XLA's aot_compatibility
// tests: a test body names a corpus program; per parameter the fixture's
// "client" either compiles it with the current compiler and requires the
// result to match the newest golden (GoldenFileVerification/v<N>), or loads
// golden v<N> instead of compiling (BackwardsCompatibility/v<N>); both then
// run the recorded inputs and compare with the recorded outputs.
// XLA_AOT_UPDATE_GOLDENS=1 makes verification write v<N+1> first (when
// the output changed). By default only the boundary versions run (the
// oldest and the second newest); XLA_AOT_TEST_ALL_VERSIONS=1 runs all.
//
//   TEST_P(AotGoldenTest, Softmax) { CheckGolden("softmax"); }
//   INSTANTIATE_AOT_GOLDEN_TESTS(AotGoldenTest, "host-x86-64-v3");
struct GoldenParam {
  enum class Mode { kBackwardsCompatibility, kGoldenFileVerification };
  Mode mode = Mode::kBackwardsCompatibility;
  std::string target;
  int version = 0;
  std::string golden_dir = "golden";
};

// Readable parameter in test output: "cuda-sm_90 v1 (backwards compatibility)".
void PrintTo(const GoldenParam& param, std::ostream* os);

class AotGoldenTest : public ::testing::TestWithParam<GoldenParam> {
 protected:
  void CheckGolden(const std::string& test);
};

std::vector<GoldenParam> BackwardsCompatibilityParams(const std::string& target,
                                                      const std::string& golden_dir = "golden");
std::vector<GoldenParam> GoldenFileVerificationParams(const std::string& target,
                                                      const std::string& golden_dir = "golden");
std::string GoldenParamName(const ::testing::TestParamInfo<GoldenParam>& info);

#define INSTANTIATE_AOT_GOLDEN_TESTS(fixture, target)                                        \
  INSTANTIATE_TEST_SUITE_P(BackwardsCompatibility, fixture,                                  \
                           ::testing::ValuesIn(::aot::BackwardsCompatibilityParams(target)), \
                           ::aot::GoldenParamName);                                          \
  INSTANTIATE_TEST_SUITE_P(GoldenFileVerification, fixture,                                  \
                           ::testing::ValuesIn(::aot::GoldenFileVerificationParams(target)), \
                           ::aot::GoldenParamName)

}  // namespace aot

#endif  // AOT_HARNESS_TESTING_AOT_GOLDEN_TEST_H_
