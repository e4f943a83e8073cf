#include "harness/testing/aot_golden_test.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/target/target_config.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/golden/golden_store.h"
#include "support/file_io.h"

namespace aot {
namespace {

// The fixtures INSTANTIATE_AOT_GOLDEN_TESTS registered, in registration
// order: fixture -> target.
std::vector<std::pair<std::string, std::string>>& GoldenFixtures() {
  static auto* fixtures = new std::vector<std::pair<std::string, std::string>>();
  return *fixtures;
}

constexpr char kBackwardsCompatibility[] = "BackwardsCompatibility";
constexpr char kGoldenFileVerification[] = "GoldenFileVerification";

// A backwards compatibility replay already done in this process, by the
// key of what it replayed: "<platform>/<artifact blob>/<I/O blob>".
struct EarlierReplay {
  std::string target;
  int version = 0;
  ReplayStatus status = ReplayStatus::kFail;
  std::string reason;
};

std::mutex replayed_mu;
std::map<std::string, EarlierReplay>& Replayed() {
  static auto* replayed = new std::map<std::string, EarlierReplay>();
  return *replayed;
}

// VerifyManifest of a version, hashing each blob of a corpus (golden
// directory) once per process: the blobs are content-addressed and shared
// by many versions and tests, and every case checks its version. The
// directory listing (nothing but MANIFEST.json) is checked every time.
absl::Status VerifyVersion(const std::string& golden_dir, const std::string& version_dir,
                           const Manifest& manifest) {
  static std::mutex mu;
  static auto* verified = new std::map<std::string, std::set<std::string>>();
  std::error_code ec;
  std::filesystem::path corpus = std::filesystem::absolute(golden_dir, ec);
  std::lock_guard<std::mutex> lock(mu);
  return VerifyManifest(
      version_dir, manifest,
      &(*verified)[(ec ? std::filesystem::path(golden_dir) : corpus).lexically_normal().string()]);
}

}  // namespace

bool RegisterGoldenFixture(const char* fixture, const char* target) {
  GoldenFixtures().emplace_back(fixture, target);
  return true;
}

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
  absl::Status integrity = VerifyVersion(p.golden_dir, dir, *manifest);
  ASSERT_TRUE(integrity.ok()) << integrity;
  if (p.mode == GoldenParam::Mode::kBackwardsCompatibility && !manifest->HasTest(test)) {
    // A module added to the corpus after this version was written.
    GTEST_SKIP() << p.target << " v" << version << " has no " << test
                 << " (added to the corpus in a later version)";
  }
  auto golden = ReadArtifact(dir, *manifest, test);
  ASSERT_TRUE(golden.ok()) << golden.status();
  GoldenArtifact artifact = *golden;
  // The stored artifact and I/O record (format 2): replayed once per
  // process, by the first case that has them.
  std::string replay_key;
  if (p.mode == GoldenParam::Mode::kBackwardsCompatibility && !artifact.artifact_digest.empty() &&
      !artifact.io_digest.empty()) {
    replay_key = ReplayKey(target->platform, artifact.artifact_digest, artifact.io_digest);
    std::lock_guard<std::mutex> lock(replayed_mu);
    auto it = Replayed().find(replay_key);
    if (it != Replayed().end()) {
      const EarlierReplay& earlier = it->second;
      const std::string same =
          absl::StrCat("same artifact and I/O blobs as ", earlier.target, " v", earlier.version);
      if (earlier.status == ReplayStatus::kPass) GTEST_SKIP() << same << ", replayed there";
      if (earlier.status == ReplayStatus::kSkipped) {
        GTEST_SKIP() << same << ", replayed there (skipped: " << earlier.reason << ")";
      }
      FAIL() << same << ", whose replay failed there: " << earlier.reason;
    }
  }
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
  if (!replay_key.empty()) {
    std::lock_guard<std::mutex> lock(replayed_mu);
    Replayed().emplace(replay_key, EarlierReplay{p.target, version, r.status, r.reason});
  }
  if (r.status == ReplayStatus::kSkipped) GTEST_SKIP() << r.reason;
  EXPECT_EQ(std::string(ReplayStatusName(r.status)), "pass") << r.reason;
}

std::string CtestGroupListing() {
  std::string out;
  std::set<std::string> grouped;
  static constexpr std::pair<const char*, const char*> kModes[] = {
      {"backward", kBackwardsCompatibility}, {"verification", kGoldenFileVerification}};
  for (const auto& [fixture, target] : GoldenFixtures()) {
    for (const auto& [mode, prefix] : kModes) {
      const std::string suite = absl::StrCat(prefix, "/", fixture);
      if (!grouped.insert(suite).second) continue;
      absl::StrAppend(&out, "golden.", mode, ".", target, " ", suite, ".*\n");
    }
  }
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const std::string suite = unit.GetTestSuite(i)->name();
    if (!grouped.insert(suite).second) continue;
    absl::StrAppend(&out, "golden.", suite, " ", suite, ".*\n");
  }
  return out;
}

int RunGoldenTestMain(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  bool list = false;
  std::string list_path;
  int all_skipped_exit_code = -1;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--aot_list_ctest_groups") {
      list = true;
    } else if (absl::ConsumePrefix(&arg, "--aot_list_ctest_groups=")) {
      list = true;
      list_path = std::string(arg);
    } else if (absl::ConsumePrefix(&arg, "--aot_all_skipped_exit_code=")) {
      if (!absl::SimpleAtoi(arg, &all_skipped_exit_code) || all_skipped_exit_code < 0 ||
          all_skipped_exit_code > 255) {
        std::cerr << argv[0] << ": --aot_all_skipped_exit_code wants 0..255, not '" << arg << "'\n";
        return 2;
      }
    } else if (absl::StartsWith(arg, "--aot_")) {
      std::cerr << argv[0] << ": unknown flag " << arg
                << " (--aot_list_ctest_groups[=PATH], --aot_all_skipped_exit_code=N)\n";
      return 2;
    }
  }
  if (list) {
    const std::string listing = CtestGroupListing();
    if (list_path.empty()) {
      std::cout << listing;
      return 0;
    }
    if (absl::Status written = WriteFileAtomically(list_path, listing); !written.ok()) {
      std::cerr << argv[0] << ": " << written.message() << "\n";
      return 1;
    }
    return 0;
  }
  const int rc = RUN_ALL_TESTS();
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  if (rc == 0 && all_skipped_exit_code >= 0 && !GTEST_FLAG_GET(list_tests) &&
      unit.successful_test_count() == 0) {
    std::cout << "[  SKIPPED ] no test passed: " << unit.skipped_test_count() << " of "
              << unit.test_to_run_count() << " skipped (exit code " << all_skipped_exit_code
              << ")\n";
    return all_skipped_exit_code;
  }
  return rc;
}

}  // namespace aot
