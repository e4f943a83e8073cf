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
// Within one process each distinct artifact is replayed once: a backwards
// compatibility case whose artifact and I/O blobs (same platform) an
// earlier case already replayed skips, naming that version, or fails when
// that replay failed.
//
//   TEST_P(AotGoldenTest, Softmax) { CheckGolden("softmax"); }
//   INSTANTIATE_AOT_GOLDEN_TESTS(AotGoldenTest, "host-x86-64-v3");
//   int main(int argc, char** argv) { return aot::RunGoldenTestMain(argc, argv); }
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

// Records that `fixture`'s instantiations check `target` (the CTest groups
// name the target); INSTANTIATE_AOT_GOLDEN_TESTS calls it.
bool RegisterGoldenFixture(const char* fixture, const char* target);

// One CTest test per group of a golden test binary's cases:
//   golden.backward.<target>      BackwardsCompatibility/<fixture>.*
//   golden.verification.<target>  GoldenFileVerification/<fixture>.*
// for every fixture INSTANTIATE_AOT_GOLDEN_TESTS registered, and
// golden.<suite> <suite>.* for every other test suite of the binary
// (GoldenParamsTest). One line per group: "<ctest name> <gtest filter>".
std::string CtestGroupListing();

// main() of a golden test binary: GoogleTest's, plus
//   --aot_list_ctest_groups[=PATH]  write CtestGroupListing() (to PATH, or
//                                   stdout) and run nothing;
//   --aot_all_skipped_exit_code=N   exit N when the run passed but no test
//                                   passed non-skipped (every case skipped,
//                                   or none matched the filter): CTest's
//                                   SKIP_RETURN_CODE.
int RunGoldenTestMain(int argc, char** argv);

#define INSTANTIATE_AOT_GOLDEN_TESTS(fixture, target)                                        \
  [[maybe_unused]] static const bool fixture##_aot_golden_registered =                       \
      ::aot::RegisterGoldenFixture(#fixture, target);                                        \
  INSTANTIATE_TEST_SUITE_P(BackwardsCompatibility, fixture,                                  \
                           ::testing::ValuesIn(::aot::BackwardsCompatibilityParams(target)), \
                           ::aot::GoldenParamName);                                          \
  INSTANTIATE_TEST_SUITE_P(GoldenFileVerification, fixture,                                  \
                           ::testing::ValuesIn(::aot::GoldenFileVerificationParams(target)), \
                           ::aot::GoldenParamName)

}  // namespace aot

#endif  // AOT_HARNESS_TESTING_AOT_GOLDEN_TEST_H_
