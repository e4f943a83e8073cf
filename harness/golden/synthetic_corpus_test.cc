#include "harness/golden/synthetic_corpus.h"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/golden/golden_store.h"
#include "harness/release/release_snapshot.h"
#include "support/blob_store.h"
#include "support/scratch_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

// A tiny history: two host targets (the default suites, and packed_types,
// whose 3 modules need a renamed copy to reach 4), 6 daily versions.
constexpr int kVersions = 6;
constexpr int kModules = 4;
constexpr double kChangeFraction = 0.3;
const std::vector<std::string>& Targets() {
  static const auto* targets = new std::vector<std::string>{"host-x86-64-v2", "packed_types_host"};
  return *targets;
}

class SyntheticCorpusTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ScratchDir("synthetic_corpus_test");
    SyntheticHistoryOptions options;
    options.golden_dir = dir_->path() + "/golden";
    options.targets = Targets();
    options.versions = kVersions;
    options.modules_per_target = kModules;
    options.change_fraction = kChangeFraction;
    options.start_date = "2026-06-01";
    options.release_every_days = 2;
    auto stats = WriteSyntheticHistory(options);
    ASSERT_TRUE(stats.ok()) << stats.status();
    stats_ = new SyntheticHistoryStats(*stats);
  }
  static void TearDownTestSuite() {
    delete stats_;
    delete dir_;
  }
  void SetUp() override { ASSERT_NE(stats_, nullptr) << "the history was not written"; }

  static std::string GoldenDir() { return dir_->path() + "/golden"; }
  // target -> version -> manifest
  static std::map<std::string, std::map<int, Manifest>> Manifests() {
    std::map<std::string, std::map<int, Manifest>> out;
    for (const std::string& target : Targets()) {
      auto versions = DiscoverVersions(GoldenDir(), target);
      EXPECT_TRUE(versions.ok()) << versions.status();
      if (!versions.ok()) continue;
      for (int v : *versions) {
        auto manifest = ReadManifest(VersionDir(GoldenDir(), target, v));
        EXPECT_TRUE(manifest.ok()) << manifest.status();
        if (manifest.ok()) out[target][v] = *manifest;
      }
    }
    return out;
  }

  static ScratchDir* dir_;
  static SyntheticHistoryStats* stats_;
};

ScratchDir* SyntheticCorpusTest::dir_ = nullptr;
SyntheticHistoryStats* SyntheticCorpusTest::stats_ = nullptr;

TEST_F(SyntheticCorpusTest, WritesEveryVersionDatedOneDayApart) {
  EXPECT_EQ(stats_->targets, 2);
  EXPECT_EQ(stats_->versions, 2 * kVersions);
  EXPECT_EQ(stats_->entries, 2 * kVersions * kModules);
  EXPECT_EQ(stats_->seed_artifacts, 2 * kModules);
  EXPECT_EQ(stats_->first_date, "2026-06-01");
  EXPECT_EQ(stats_->last_date, "2026-06-06");
  auto manifests = Manifests();
  for (const std::string& target : Targets()) {
    ASSERT_EQ(manifests[target].size(), static_cast<size_t>(kVersions)) << target;
    std::set<std::string> stamps;
    for (const auto& [v, manifest] : manifests[target]) {
      EXPECT_EQ(manifest.format, 2);
      EXPECT_EQ(manifest.created, absl::StrCat("2026-06-0", v));
      EXPECT_EQ(manifest.tests.size(), static_cast<size_t>(kModules));
      stamps.insert(manifest.compiler_version);
      for (const auto& [test, entry] : manifest.tests) {
        EXPECT_EQ(entry.compiler_version, manifest.compiler_version) << test;
      }
    }
    EXPECT_EQ(stamps.size(), static_cast<size_t>(kVersions)) << "a compiler per version";
  }
  // packed_types has 3 modules: the fourth is a renamed copy.
  EXPECT_TRUE(manifests["packed_types_host"][1].HasTest(
      SyntheticModuleName(manifests["packed_types_host"][1].TestNames()[0], 1)))
      << "tests: " << manifests["packed_types_host"][1].TestNames().size();
  auto modules = DiscoverModules(GoldenDir());
  ASSERT_TRUE(modules.ok()) << modules.status();
  EXPECT_EQ(modules->size(), static_cast<size_t>(stats_->modules));
  auto releases = LoadReleases(GoldenDir());
  ASSERT_TRUE(releases.ok()) << releases.status();
  EXPECT_EQ(releases->size(), 3u);  // days 0, 2 and 4
  EXPECT_EQ(stats_->releases, 3);
}

TEST_F(SyntheticCorpusTest, UnchangedModulesShareBlobsAndAboutTheFractionChanges) {
  auto manifests = Manifests();
  int changes = 0, kept = 0;
  std::set<std::string> artifacts;
  for (const std::string& target : Targets()) {
    for (int v = 2; v <= kVersions; ++v) {
      const Manifest& before = manifests[target][v - 1];
      const Manifest& now = manifests[target][v];
      for (const auto& [test, entry] : now.tests) {
        const ManifestEntry& previous = before.tests.at(test);
        // Only a changed module gets a new artifact; the I/O never changes.
        EXPECT_EQ(entry.io, previous.io) << target << " v" << v << " " << test;
        if (entry.artifact == previous.artifact) {
          ++kept;
        } else {
          ++changes;
        }
      }
    }
    for (const auto& [v, manifest] : manifests[target]) {
      for (const auto& [test, entry] : manifest.tests) artifacts.insert(entry.artifact);
    }
  }
  EXPECT_EQ(changes, stats_->changed_artifacts);
  EXPECT_EQ(static_cast<int>(artifacts.size()), stats_->distinct_artifacts);
  EXPECT_EQ(stats_->distinct_artifacts, stats_->seed_artifacts + stats_->changed_artifacts)
      << "every seed and every revision is an artifact of its own";
  const int trials = 2 * kModules * (kVersions - 1);
  EXPECT_EQ(changes + kept, trials);
  // 40 trials at 0.3: 12 expected (the seed is fixed, so this is exact
  // run to run; the bounds say "about the fraction").
  EXPECT_GE(changes, trials * kChangeFraction / 3);
  EXPECT_LE(changes, trials * kChangeFraction * 2);
  // The store holds each distinct blob once, nothing else.
  const BlobStore store = GoldenBlobStore(GoldenDir());
  EXPECT_EQ(store.List(kArtifactBlobs).size(), static_cast<size_t>(stats_->distinct_artifacts));
  EXPECT_EQ(store.List(kIoBlobs).size(), static_cast<size_t>(stats_->distinct_io));
  EXPECT_LT(stats_->artifact_bytes + stats_->io_bytes, stats_->logical_bytes);
}

TEST_F(SyntheticCorpusTest, EveryVersionReplaysAndTheNewestVerifies) {
  ReplayOptions options;
  options.golden_dir = GoldenDir();
  options.targets = Targets();
  options.all_versions = true;
  auto report = ReplayGoldens(options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->failed, 0) << report->VersionTable();
  EXPECT_EQ(report->passed + report->skipped, 2 * kVersions * kModules);
  EXPECT_GT(report->passed, 0);
  // The changed artifacts differ only where verification does not look: the
  // newest version is what the current compiler emits.
  auto verified = VerifyGoldens(GoldenDir(), Targets(), /*strict=*/false);
  ASSERT_TRUE(verified.ok()) << verified.status();
  for (const VerifyResult& r : *verified) {
    EXPECT_TRUE(r.ok) << r.target << " v" << r.version << ":\n" << r.diff;
    EXPECT_EQ(r.version, kVersions);
  }
}

TEST(SyntheticCorpusOptionsTest, RefusesBadOptionsAndAnExistingCorpus) {
  ScratchDir dir("synthetic_corpus_options");
  SyntheticHistoryOptions options;
  options.golden_dir = dir.path();
  options.versions = 0;
  EXPECT_EQ(WriteSyntheticHistory(options).status().code(), absl::StatusCode::kInvalidArgument);
  options.versions = 2;
  options.change_fraction = 1.5;
  EXPECT_EQ(WriteSyntheticHistory(options).status().code(), absl::StatusCode::kInvalidArgument);
  options.change_fraction = 0.05;
  fs::create_directories(dir.path() + "/executables");
  EXPECT_EQ(WriteSyntheticHistory(options).status().code(), absl::StatusCode::kAlreadyExists);
}

TEST(SyntheticModuleNameTest, CopyZeroIsTheModule) {
  EXPECT_EQ(SyntheticModuleName("matmul", 0), "matmul");
  EXPECT_EQ(SyntheticModuleName("matmul", 2), "matmul_s2");
}

}  // namespace
}  // namespace aot
