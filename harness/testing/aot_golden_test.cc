#include "harness/testing/aot_golden_test.h"

#include <mutex>
#include <set>

#include "absl/strings/str_cat.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/target/target_config.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/golden/golden_store.h"
#include "support/file_io.h"

namespace aot {

std::vector<GoldenParam> BackwardsCompatibilityParams(const std::string& target,
                                                      const std::string& golden_dir) {
  std::vector<GoldenParam> params;
  auto versions = DiscoverVersions(golden_dir, target);
  if (!versions.ok()) return params;
  // Only the versions that run: the boundary ones, or every one with
  // XLA_AOT_TEST_ALL_VERSIONS=1 (a bad value instantiates them all, and
  // each test then fails naming it). CTest lists the instances when the
  // binary is built; one per version that would only skip cost a test
  // process each, most of CTest's golden time.
  auto all = AllVersionsFromEnvironment();
  const std::vector<int> selected = all.ok() ? SelectVersions(*versions, *all) : *versions;
  for (int v : selected) {
    params.push_back({GoldenParam::Mode::kBackwardsCompatibility, target, v, golden_dir});
  }
  return params;
}

std::vector<GoldenParam> GoldenFileVerificationParams(const std::string& target,
                                                      const std::string& golden_dir) {
  auto versions = DiscoverVersions(golden_dir, target);
  if (!versions.ok()) return {};
  return {{GoldenParam::Mode::kGoldenFileVerification, target, versions->back(), golden_dir}};
}

void PrintTo(const GoldenParam& param, std::ostream* os) {
  *os << param.target << " v" << param.version
      << (param.mode == GoldenParam::Mode::kBackwardsCompatibility ? " (backwards compatibility)"
                                                                   : " (golden file verification)");
}

std::string GoldenParamName(const ::testing::TestParamInfo<GoldenParam>& info) {
  return absl::StrCat("v", info.param.version);
}

void AotGoldenTest::CheckGolden(const std::string& test) {
  const GoldenParam& p = GetParam();
  auto target = TargetAsGenerated(p.golden_dir, p.target);
  ASSERT_TRUE(target.ok()) << target.status();
  auto versions = DiscoverVersions(p.golden_dir, p.target);
  ASSERT_TRUE(versions.ok()) << versions.status();
  if (p.mode == GoldenParam::Mode::kBackwardsCompatibility) {
    auto all = AllVersionsFromEnvironment();
    ASSERT_TRUE(all.ok()) << all.status();
    std::vector<int> selected = SelectVersions(*versions, *all);
    if (std::find(selected.begin(), selected.end(), p.version) == selected.end()) {
      GTEST_SKIP() << "v" << p.version << " is not a boundary version; set "
                   << "XLA_AOT_TEST_ALL_VERSIONS=1 to check every version";
    }
  }
  int version = p.version;
  if (p.mode == GoldenParam::Mode::kGoldenFileVerification) {
    auto update = UpdateGoldensFromEnvironment();
    ASSERT_TRUE(update.ok()) << update.status();
    if (*update) {
      static std::mutex mu;
      static std::set<std::string> updated;
      std::lock_guard<std::mutex> lock(mu);
      if (updated.insert(p.target).second) {
        auto results = GenerateGoldens(p.golden_dir, {p.target}, TodayDate());
        ASSERT_TRUE(results.ok()) << results.status();
      }
      auto newest = DiscoverVersions(p.golden_dir, p.target);
      ASSERT_TRUE(newest.ok());
      version = newest->back();
    }
  }
  std::string dir = VersionDir(p.golden_dir, p.target, version);
  auto manifest = ReadManifest(dir);
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  ASSERT_TRUE(VerifyManifest(dir, *manifest).ok()) << VerifyManifest(dir, *manifest);
  if (p.mode == GoldenParam::Mode::kBackwardsCompatibility &&
      !manifest->files.contains(test + ".pbtxt")) {
    // A module added to the corpus after this version was written.
    GTEST_SKIP() << p.target << " v" << version << " has no " << test
                 << " (added to the corpus in a later version)";
  }
  auto golden = ReadArtifact(dir, test);
  ASSERT_TRUE(golden.ok()) << golden.status();
  GoldenArtifact artifact = *golden;
  if (p.mode == GoldenParam::Mode::kGoldenFileVerification) {
    // The current compiler must reproduce the newest golden.
    auto modules = DiscoverModules(p.golden_dir);
    ASSERT_TRUE(modules.ok()) << modules.status();
    const CorpusModule* module = nullptr;
    for (const CorpusModule& m : *modules) {
      if (m.test == test) module = &m;
    }
    ASSERT_NE(module, nullptr) << "no corpus module named " << test;
    auto built = BuildArtifact(*module, *target);
    ASSERT_TRUE(built.ok()) << built.status();
    std::string diff = DiffExecutables(golden->executable, built->executable);
    ASSERT_TRUE(diff.empty()) << "the current compiler's output for " << test << " differs from "
                              << p.target << " v" << version << ":\n"
                              << diff << "\nRun with XLA_AOT_UPDATE_GOLDENS=1 (or `aot-compat "
                              << "generate --target=" << p.target << "`) to write v" << version + 1
                              << ".";
    artifact.executable = built->executable;
  }
  ReplayRecord r = ReplayArtifact(*target, version, artifact);
  if (r.status == ReplayStatus::kSkipped) GTEST_SKIP() << r.reason;
  EXPECT_EQ(r.status, ReplayStatus::kPass) << r.reason;
}

}  // namespace aot
