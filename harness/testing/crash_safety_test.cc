// Crash safety of the corpus writers, in the manner of SQLite's crash tests:
// `aot-compat generate`, `release` and `schema-snapshot` run as children
// and are killed with SIGKILL at every crash point they pass (after each
// file write, before and after each rename, after each directory sync:
// support/crash_point.h). After every kill the corpus must be exactly the
// old one or exactly the new one (byte for byte), every MANIFEST must agree
// with its files, `replay` must pass, and running the command again must
// finish the job.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/golden/corpus_store.h"
#include "harness/golden/golden_store.h"
#include "harness/release/release_snapshot.h"
#include "nlohmann/json.hpp"
#include "support/file_io.h"
#include "support/sha256.h"
#include "support/subprocess.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

constexpr char kTarget[] = "host-x86-64-v3";
constexpr char kDate[] = "2026-12-01";

// Every regular file under `root` whose name does not start with '.'
// (writers' temporary files and staging directories are dot-named and
// ignored by every reader) -> its sha256. A release's `cut_at` (the time it
// was cut) is left out: two runs differ there and nowhere else.
std::map<std::string, std::string> Snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::exists(root, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name[0] == '.') {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    std::string relative = fs::relative(it->path(), root).string();
    auto bytes = ReadFileToString(it->path().string());
    if (!bytes.ok()) {
      out[relative] = "unreadable";
      continue;
    }
    if (absl::StartsWith(relative, "releases/")) {
      nlohmann::json j = nlohmann::json::parse(*bytes, nullptr, /*allow_exceptions=*/false);
      if (j.is_object()) j.erase("cut_at");
      *bytes = j.dump();
    }
    out[relative] = Sha256Hex(*bytes);
  }
  return out;
}

// Runs aot-compat `args` in `dir` (the corpus is "."; artifacts record
// module paths relative to it) with the crash environment; returns the exit
// code, or -signal when killed.
int RunCompat(const fs::path& dir, const std::string& args, const std::string& env) {
  CommandResult r = RunShellCommand(
      absl::StrCat("cd '", dir.string(), "' && ", env, " '", AOT_COMPAT_BINARY, "' ", args));
  if (r.exit_code == 0) return 0;
  // The shell reports a child killed by signal S as 128 + S.
  return r.exit_code >= 128 ? -(r.exit_code - 128) : r.exit_code;
}

// The crash points `args` passes when it runs to completion in a copy of
// `corpus` (their count and labels).
std::vector<std::string> CrashPoints(const fs::path& corpus, const fs::path& scratch,
                                     const std::string& args) {
  fs::path copy = scratch / "count";
  fs::remove_all(copy);
  fs::copy(corpus, copy, fs::copy_options::recursive);
  fs::path log = scratch / "points.log";
  fs::remove(log);
  EXPECT_EQ(RunCompat(copy, args, absl::StrCat("AOT_CRASH_POINTS_LOG='", log.string(), "'")), 0);
  std::vector<std::string> points;
  for (absl::string_view line :
       absl::StrSplit(ReadFileToString(log.string()).value_or(""), '\n', absl::SkipEmpty())) {
    points.emplace_back(line);
  }
  return points;
}

// `state` less the store files that are in `new_state` and not in
// `old_state` (blobs of a version not yet written).
std::map<std::string, std::string> WithoutNewBlobs(
    std::map<std::string, std::string> state, const std::map<std::string, std::string>& old_state,
    const std::map<std::string, std::string>& new_state) {
  for (auto it = state.begin(); it != state.end();) {
    const bool new_blob = absl::StartsWith(it->first, "store/") && !old_state.contains(it->first) &&
                          new_state.contains(it->first) && new_state.at(it->first) == it->second;
    it = new_blob ? state.erase(it) : std::next(it);
  }
  return state;
}

class CrashSafetyTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(scratch_.path().empty()); }

  // For each crash point of `args` on `corpus`: a fresh copy, the command
  // killed there, then `check(copy, point)` (which returns whether the
  // corpus is still the old one); then, from an old corpus, the command run
  // again must succeed. Returns how many points were tried.
  int KillAtEveryPoint(
      const fs::path& corpus, const std::string& args,
      const std::function<bool(const fs::path&, const std::string&)>& check,
      const std::function<void(const fs::path&, const std::string&)>& after_rerun = nullptr) {
    std::vector<std::string> points = CrashPoints(corpus, scratch_.path(), args);
    EXPECT_FALSE(points.empty()) << args;
    for (size_t i = 0; i < points.size(); ++i) {
      fs::path copy = fs::path(scratch_.path()) / absl::StrCat("kill-", i + 1);
      fs::remove_all(copy);
      fs::copy(corpus, copy, fs::copy_options::recursive);
      int rc = RunCompat(copy, args, absl::StrCat("AOT_CRASH_AT=", i + 1));
      EXPECT_EQ(rc, -9) << "point " << points[i] << ": not killed (exit " << rc << ")";
      if (check(copy, points[i])) {
        EXPECT_EQ(RunCompat(copy, args, ""), 0) << "rerun after " << points[i];
        if (after_rerun) after_rerun(copy, points[i]);
      }
      fs::remove_all(copy);
    }
    return static_cast<int>(points.size());
  }

  testing::TempDir scratch_{"aot_crash_safety"};
};

// The tests the corpus fixture uses: the small modules of one suite of the
// bundled corpus. One suite is enough for every kind of crash point (each
// module adds the same writes); every generate below compiles them all, at
// every kill, so each module more costs CI time without a new point kind.
std::vector<fs::path> FixtureModules() {
  std::vector<fs::path> out;
  for (const auto& e :
       fs::directory_iterator(fs::path(AOT_SOURCE_DIR) / "golden/modules/elementwise")) {
    if (e.path().extension() == ".hlo") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_F(CrashSafetyTest, GenerateLeavesTheOldOrTheNewCorpus) {
  std::vector<fs::path> modules = FixtureModules();
  ASSERT_GE(modules.size(), 3u);
  // The old corpus: v1 of all modules but the last; the new one adds v2 with
  // the last module too.
  fs::path old_corpus = fs::path(scratch_.path()) / "old";
  for (size_t i = 0; i + 1 < modules.size(); ++i) {
    fs::path dest =
        old_corpus / "modules" / modules[i].parent_path().filename() / modules[i].filename();
    fs::create_directories(dest.parent_path());
    fs::copy_file(modules[i], dest);
  }
  const std::string generate = absl::StrCat("generate --golden_dir=. --target=", kTarget,
                                            " --date=", kDate, " --allow_dirty");
  ASSERT_EQ(RunCompat(old_corpus, generate, ""), 0);
  fs::path last =
      old_corpus / "modules" / modules.back().parent_path().filename() / modules.back().filename();
  fs::copy_file(modules.back(), last);
  const auto old_state = Snapshot(old_corpus);
  fs::path new_corpus = fs::path(scratch_.path()) / "new";
  fs::copy(old_corpus, new_corpus, fs::copy_options::recursive);
  ASSERT_EQ(RunCompat(new_corpus, generate, ""), 0);
  const auto new_state = Snapshot(new_corpus);
  fs::path v2 = fs::path("executables") / kTarget / "v2";
  ASSERT_TRUE(fs::exists(new_corpus / v2 / "MANIFEST.json"));

  int old_seen = 0, new_seen = 0;
  int points = KillAtEveryPoint(
      old_corpus, generate,
      [&](const fs::path& copy, const std::string& point) {
        auto state = Snapshot(copy);
        // Blobs are stored before the version that names them appears: a
        // kill in between leaves the old corpus plus some of the new blobs
        // (whole: each is written atomically), which no manifest names yet.
        bool is_old = WithoutNewBlobs(state, old_state, new_state) == old_state;
        bool is_new = state == new_state;
        FsckReport fsck = FsckCorpus(copy.string(), /*remove_unreferenced=*/false);
        EXPECT_TRUE(fsck.ok()) << "after " << point << ":\n" << fsck.Summary();
        EXPECT_TRUE(is_old || is_new)
            << "after " << point << ": neither the old nor the new corpus";
        old_seen += is_old;
        new_seen += is_new;
        for (const char* v : {"v1", "v2"}) {
          fs::path dir = copy / "executables" / kTarget / v;
          if (!fs::exists(dir)) continue;
          auto manifest = ReadManifest(dir.string());
          EXPECT_TRUE(manifest.ok()) << point << ": " << manifest.status();
          if (manifest.ok()) {
            EXPECT_TRUE(VerifyManifest(dir.string(), *manifest).ok()) << point;
          }
        }
        CommandResult replay = RunShellCommand(
            absl::StrCat("'", AOT_COMPAT_BINARY, "' replay --all_versions --golden_dir='",
                         copy.string(), "' --target=", kTarget));
        EXPECT_EQ(replay.exit_code, 0) << "after " << point << ":\n" << replay.output;
        return is_old;
      },
      [&](const fs::path& copy, const std::string& point) {
        // The rerun wrote v2 and removed the killed writer's staging
        // directory.
        EXPECT_EQ(Snapshot(copy), new_state) << "rerun after " << point;
        for (const auto& e : fs::directory_iterator(copy / "executables" / kTarget)) {
          EXPECT_FALSE(absl::StartsWith(e.path().filename().string(), ".tmp-"))
              << "rerun after " << point << " left " << e.path();
        }
      });
  // 13 with the five elementwise modules: the new module's two blobs (3
  // points each), the other modules' blobs shared with v1 (no write), the
  // manifest and the rename. A writer that stops passing its crash points
  // (or writes fewer files) drops below.
  EXPECT_GE(points, 12);
  EXPECT_GT(old_seen, 0);
  EXPECT_GT(new_seen, 0);
  RecordProperty("kill_points", points);
}

// A version written the way the corpus was before the store (format 1):
// <test>.pbtxt, <test>.io.pb and a MANIFEST.json listing their sha256.
void WritePerFileVersion(const fs::path& dir, const Manifest& packed) {
  fs::create_directories(dir);
  Manifest legacy = packed;
  legacy.format = 1;
  legacy.tests.clear();
  legacy.files.clear();
  auto files = RebuildLegacyFiles(dir.string(), packed);
  ASSERT_TRUE(files.ok()) << files.status();
  for (const auto& [name, bytes] : *files) {
    ASSERT_TRUE(WriteFileAtomically((dir / name).string(), bytes).ok());
    legacy.files[name] = Sha256Hex(bytes);
  }
  ASSERT_TRUE(WriteFileAtomically((dir / "MANIFEST.json").string(), legacy.ToJson().dump(2)).ok());
}

// aot-compat repack of a per-file corpus, killed at every point: every
// version still resolves to exactly the bytes it had (per-file, or from the
// store), replay passes, and the rerun completes the move.
TEST_F(CrashSafetyTest, RepackLosesNothingWhereverItIsKilled) {
  std::vector<fs::path> modules = FixtureModules();
  fs::path corpus = fs::path(scratch_.path()) / "per-file";
  for (size_t i = 0; i < 2; ++i) {
    fs::path dest =
        corpus / "modules" / modules[i].parent_path().filename() / modules[i].filename();
    fs::create_directories(dest.parent_path());
    fs::copy_file(modules[i], dest);
  }
  ASSERT_EQ(RunCompat(corpus,
                      absl::StrCat("generate --golden_dir=. --target=", kTarget, " --date=", kDate,
                                   " --allow_dirty"),
                      ""),
            0);
  // Turn v1 into a per-file version and drop the store.
  const fs::path v1 = corpus / "executables" / kTarget / "v1";
  auto packed = ReadManifest(v1.string());
  ASSERT_TRUE(packed.ok()) << packed.status();
  fs::remove(v1 / "MANIFEST.json");
  WritePerFileVersion(v1, *packed);
  fs::remove_all(corpus / "store");
  const auto before = Snapshot(corpus);
  std::map<std::string, std::string> original;  // file name -> sha256
  for (const auto& [path, sha] : before) {
    if (absl::StartsWith(path, "executables/") && !absl::EndsWith(path, "MANIFEST.json")) {
      original[fs::path(path).filename().string()] = sha;
    }
  }
  ASSERT_EQ(original.size(), 4u);

  const std::string repack = "repack --golden_dir=.";
  int points = KillAtEveryPoint(
      corpus, repack,
      [&](const fs::path& copy, const std::string& point) {
        const std::string dir = (copy / "executables" / kTarget / "v1").string();
        auto manifest = ReadManifest(dir);
        EXPECT_TRUE(manifest.ok()) << point << ": " << manifest.status();
        if (!manifest.ok()) return false;
        EXPECT_TRUE(VerifyManifest(dir, *manifest).ok()) << point;
        std::map<std::string, std::string> resolved;
        if (manifest->format == 1) {
          for (const auto& [name, sha] : manifest->files) {
            resolved[name] = Sha256Hex(ReadFileToString(dir + "/" + name).value_or(""));
          }
        } else {
          auto files = RebuildLegacyFiles(dir, *manifest);
          EXPECT_TRUE(files.ok()) << point << ": " << files.status();
          if (files.ok()) {
            for (const auto& [name, bytes] : *files) resolved[name] = Sha256Hex(bytes);
          }
        }
        EXPECT_EQ(resolved, original) << "after " << point;
        CommandResult replay = RunShellCommand(
            absl::StrCat("'", AOT_COMPAT_BINARY, "' replay --all_versions --golden_dir='",
                         copy.string(), "' --target=", kTarget));
        EXPECT_EQ(replay.exit_code, 0) << "after " << point << ":\n" << replay.output;
        return true;
      },
      [&](const fs::path& copy, const std::string& point) {
        const std::string dir = (copy / "executables" / kTarget / "v1").string();
        auto manifest = ReadManifest(dir);
        ASSERT_TRUE(manifest.ok());
        EXPECT_EQ(manifest->format, 2) << "rerun after " << point;
        EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1)
            << "rerun after " << point << " left per-file files";
        // At most the killed run's temporary file is left, unreferenced.
        FsckReport fsck = FsckCorpus(copy.string(), false);
        EXPECT_TRUE(fsck.ok()) << fsck.Summary();
        EXPECT_LE(fsck.unreferenced.size(), 1u) << fsck.Summary();
      });
  // 4 blobs x 3, the manifest's 3, the checkpoints and 4 removals.
  EXPECT_GE(points, 18);
}

TEST_F(CrashSafetyTest, ReleaseAndSchemaSnapshotLeaveOldOrNewFiles) {
  fs::path empty = fs::path(scratch_.path()) / "empty";
  fs::create_directories(empty);
  // release: the schema snapshot first, then the release that references
  // it. A kill between them leaves the snapshot alone, which is exactly
  // what `schema-snapshot` would have written: a valid corpus, which the
  // rerun completes.
  const std::string release = "release --golden_dir=. --date=2099-01-01 --allow_dirty";
  fs::path full = fs::path(scratch_.path()) / "released";
  fs::copy(empty, full, fs::copy_options::recursive);
  ASSERT_EQ(RunCompat(full, release, ""), 0);
  const auto new_state = Snapshot(full);
  ASSERT_EQ(new_state.size(), 2u);
  std::map<std::string, std::string> snapshot_only;
  for (const auto& [path, hash] : new_state) {
    if (absl::StartsWith(path, "schema/")) snapshot_only[path] = hash;
  }
  int points =
      KillAtEveryPoint(empty, release, [&](const fs::path& copy, const std::string& point) {
        auto state = Snapshot(copy);
        EXPECT_TRUE(state.empty() || state == snapshot_only || state == new_state)
            << "after " << point << ": a partial release";
        auto releases = LoadReleases(copy.string());
        EXPECT_TRUE(releases.ok()) << point << ": " << releases.status();
        return state != new_state;
      });
  EXPECT_GE(points, 6);

  const std::string snapshot = absl::StrCat("schema-snapshot --dir=. --date=", kDate);
  fs::path written = fs::path(scratch_.path()) / "snapshotted";
  fs::create_directories(written);
  ASSERT_EQ(RunCompat(written, snapshot, ""), 0);
  const auto snapshot_state = Snapshot(written);
  int snapshot_points =
      KillAtEveryPoint(empty, snapshot, [&](const fs::path& copy, const std::string& point) {
        auto state = Snapshot(copy);
        EXPECT_TRUE(state.empty() || state == snapshot_state) << "after " << point;
        return state.empty();
      });
  EXPECT_GE(snapshot_points, 3);
}

}  // namespace
}  // namespace aot
