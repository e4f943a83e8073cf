// The replay cache on a synthetic corpus in a temp directory: hits after a
// first replay, what is never cached, what makes a miss, and the tools'
// default directory.
#include "harness/golden/replay_cache.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/golden/golden_store.h"
#include "nlohmann/json.hpp"
#include "runtime/runtime_fingerprint.h"
#include "support/file_io.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::TempDir;

constexpr char kTarget[] = "host-x86-64-v2";

// Number of entries (*.json) under a cache directory.
int CountEntries(const std::string& dir) {
  if (!fs::exists(dir)) return 0;
  int n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".json") ++n;
  }
  return n;
}

// A corpus of two real modules, generated once for the suite and copied
// into each test's directory (tests edit their copy), and a cache directory
// per test.
class ReplayCacheTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    corpus_ = new TempDir("aot_replay_cache_corpus");
    fs::path root(corpus_->path());
    fs::create_directories(root / "modules" / "elementwise");
    fs::create_directories(root / "modules" / "reductions");
    fs::copy_file("golden/modules/elementwise/add_mul.hlo",
                  root / "modules" / "elementwise" / "add_mul.hlo");
    fs::copy_file("golden/modules/reductions/reduce_sum_rows.hlo",
                  root / "modules" / "reductions" / "reduce_sum_rows.hlo");
    auto generated = GenerateGoldens(root.string(), {kTarget}, "2026-05-01");
    ASSERT_TRUE(generated.ok()) << generated.status();
    generated_ = true;
  }
  static void TearDownTestSuite() {
    delete corpus_;
    corpus_ = nullptr;
  }

  void SetUp() override {
    ASSERT_TRUE(generated_) << "the suite's corpus was not generated";
    fs::copy(corpus_->path(), golden(), fs::copy_options::recursive);
  }

  std::string golden() const { return (fs::path(dir_.path()) / "golden").string(); }
  std::string cache_dir() const { return (fs::path(dir_.path()) / "cache").string(); }
  std::string v1() const { return VersionDir(golden(), kTarget, 1); }

  absl::StatusOr<ReplayReport> Replay(const std::string& cache, int jobs = 0) {
    ReplayOptions options;
    options.golden_dir = golden();
    options.targets = {kTarget};
    options.all_versions = true;
    options.cache_dir = cache;
    options.jobs = jobs;
    return ReplayGoldens(options);
  }

  // The key this process's runtime gives a test of v1 (what ReplayGoldens
  // looks up), and the cache it was made for.
  ReplayCacheKey KeyOf(const std::string& test, ReplayCacheRun& run) {
    auto artifact = ReadArtifact(v1(), test);
    EXPECT_TRUE(artifact.ok()) << artifact.status();
    auto target = FindGoldenTarget(kTarget);
    EXPECT_TRUE(target.ok());
    std::optional<ReplayCacheKey> key = run.KeyFor(target->platform, *artifact);
    EXPECT_TRUE(key.has_value());
    return key.value_or(ReplayCacheKey{});
  }

  // Replaces a test's I/O blob in v1's MANIFEST with recorded outputs that
  // differ from what the artifact computes (its replay then fails).
  void BreakRecordedOutput(const std::string& test) {
    auto artifact = ReadArtifact(v1(), test);
    ASSERT_TRUE(artifact.ok()) << artifact.status();
    GoldenIoProto io = artifact->io;
    ASSERT_GT(io.results(0).f32s_size(), 0);
    io.mutable_results(0)->set_f32s(0, io.results(0).f32s(0) + 1.0f);
    auto digest = StoreOfVersionDir(v1()).Put(kIoBlobs, io.SerializeAsString());
    ASSERT_TRUE(digest.ok()) << digest.status();
    auto manifest = ReadManifest(v1());
    ASSERT_TRUE(manifest.ok()) << manifest.status();
    manifest->tests.at(test).io = *digest;
    ASSERT_TRUE(
        WriteFileAtomically((fs::path(v1()) / "MANIFEST.json").string(), manifest->ToJson().dump(2))
            .ok());
  }

  static TempDir* corpus_;
  static bool generated_;
  TempDir dir_;
};

TempDir* ReplayCacheTest::corpus_ = nullptr;
bool ReplayCacheTest::generated_ = false;

TEST_F(ReplayCacheTest, SecondReplayTakesEveryVerdictFromTheCache) {
  auto first = Replay(cache_dir());
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->passed, 2);
  EXPECT_EQ(first->cached, 0);
  EXPECT_EQ(first->runtime_fingerprint.size(), 64u);
  EXPECT_EQ(CountEntries(cache_dir()), 2);
  for (const ReplayRecord& r : first->records) EXPECT_FALSE(r.from_replay_cache) << r.test;

  // Mark one entry, keeping it valid: the second replay reporting the mark
  // shows its verdict came from the entry, not from loading the artifact.
  ReplayCacheRun run(cache_dir(), {"host"}, LoadOptions{}, /*require_execution=*/false);
  ASSERT_EQ(run.cache().runtime_fingerprint(), first->runtime_fingerprint);
  const std::string entry = run.cache().EntryPath(KeyOf("add_mul", run));
  auto text = ReadFileToString(entry);
  ASSERT_TRUE(text.ok()) << text.status();
  nlohmann::json j = nlohmann::json::parse(*text);
  EXPECT_EQ(j["status"], "pass");
  EXPECT_EQ(j["test"], "add_mul");
  j["reason"] = "marked by the test";
  ASSERT_TRUE(WriteFileAtomically(entry, j.dump()).ok());

  auto second = Replay(cache_dir());
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->passed, 2);
  EXPECT_EQ(second->failed, 0);
  EXPECT_EQ(second->cached, 2);
  ASSERT_EQ(second->records.size(), 2u);
  for (const ReplayRecord& r : second->records) {
    EXPECT_TRUE(r.from_replay_cache) << r.test;
    EXPECT_EQ(r.target, kTarget);
    EXPECT_EQ(r.version, 1);
    EXPECT_EQ(r.version_date, "2026-05-01");
    EXPECT_EQ(r.reason, r.test == "add_mul" ? "marked by the test" : "") << r.test;
  }
  nlohmann::ordered_json json = second->ToJson();
  EXPECT_EQ(json["summary"]["cached"], 2);
  EXPECT_EQ(json["results"][0]["from_replay_cache"], true);
  EXPECT_EQ(json["replay_cache"]["dir"], cache_dir());
  EXPECT_EQ(json["replay_cache"]["runtime_fingerprint"], first->runtime_fingerprint);
}

TEST_F(ReplayCacheTest, ParallelReplayStoresAndFindsTheSameEntries) {
  auto first = Replay(cache_dir(), /*jobs=*/4);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(CountEntries(cache_dir()), 2);
  auto second = Replay(cache_dir(), /*jobs=*/1);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->cached, 2);
}

TEST_F(ReplayCacheTest, AFailureIsNeverCached) {
  BreakRecordedOutput("add_mul");
  auto first = Replay(cache_dir());
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->failed, 1);
  EXPECT_EQ(first->passed, 1);
  EXPECT_EQ(CountEntries(cache_dir()), 1);  // the pass only
  ReplayCacheRun run(cache_dir(), {"host"}, LoadOptions{}, false);
  EXPECT_FALSE(run.Lookup(KeyOf("add_mul", run)).has_value());
  EXPECT_TRUE(run.Lookup(KeyOf("reduce_sum_rows", run)).has_value());

  // Replayed again, and failing again: never a verdict from the cache.
  auto second = Replay(cache_dir());
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->failed, 1);
  EXPECT_EQ(second->cached, 1);
  for (const ReplayRecord& r : second->records) {
    EXPECT_EQ(r.from_replay_cache, r.status == ReplayStatus::kPass) << r.test;
    if (r.status == ReplayStatus::kFail) {
      EXPECT_THAT(r.reason, HasSubstr("outputs differ"));
    }
  }

  // Store itself refuses a failure and an expired record, writing nothing.
  ReplayRecord failed;
  failed.status = ReplayStatus::kFail;
  absl::Status s = run.cache().Store(KeyOf("add_mul", run), failed);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("only pass and skipped"));
  ReplayRecord expired;
  expired.status = ReplayStatus::kExpired;
  EXPECT_EQ(run.cache().Store(KeyOf("add_mul", run), expired).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CountEntries(cache_dir()), 1);
}

TEST_F(ReplayCacheTest, AnotherRuntimeFingerprintIsAMiss) {
  ASSERT_TRUE(Replay(cache_dir()).ok());
  ReplayCacheRun run(cache_dir(), {"host"}, LoadOptions{}, false);
  const ReplayCacheKey key = KeyOf("add_mul", run);
  ASSERT_TRUE(run.Lookup(key).has_value());

  ReplayCache other(cache_dir(), std::string(64, '0'));
  EXPECT_NE(other.Key(key), run.cache().Key(key));
  EXPECT_FALSE(other.Lookup(key).has_value());

  // An entry under the right path that names another fingerprint (copied
  // or edited) is not believed either.
  const std::string entry = run.cache().EntryPath(key);
  auto text = ReadFileToString(entry);
  ASSERT_TRUE(text.ok());
  nlohmann::json j = nlohmann::json::parse(*text);
  j["runtime_fingerprint"] = std::string(64, '0');
  ASSERT_TRUE(WriteFileAtomically(entry, j.dump()).ok());
  EXPECT_FALSE(run.Lookup(key).has_value());
}

TEST_F(ReplayCacheTest, ACorruptEntryIsAMissAndIsReplaced) {
  ASSERT_TRUE(Replay(cache_dir()).ok());
  ReplayCacheRun run(cache_dir(), {"host"}, LoadOptions{}, false);
  const ReplayCacheKey key = KeyOf("add_mul", run);
  const std::string entry = run.cache().EntryPath(key);
  ASSERT_TRUE(run.Lookup(key).has_value());

  auto valid = ReadFileToString(entry);
  ASSERT_TRUE(valid.ok());
  const nlohmann::json good = nlohmann::json::parse(*valid);
  // Each of these is a miss, none an error.
  std::vector<std::string> corrupt = {"", "{\"format\": 1, \"sta", "[1, 2, 3]", "null"};
  for (const char* drop :
       {"status", "reason", "load_ms", "key", "io_digest", "format", "late_libraries"}) {
    nlohmann::json j = good;
    j.erase(drop);
    corrupt.push_back(j.dump());
  }
  for (const auto& [field, value] :
       std::vector<std::pair<std::string, nlohmann::json>>{{"status", "fail"},
                                                           {"status", "expired"},
                                                           {"status", 1},
                                                           {"artifact_digest", "ab"},
                                                           {"format", 2},
                                                           {"late_libraries", "none"},
                                                           {"run_ms", "fast"}}) {
    nlohmann::json j = good;
    j[field] = value;
    corrupt.push_back(j.dump());
  }
  for (const std::string& bytes : corrupt) {
    ASSERT_TRUE(WriteFileAtomically(entry, bytes).ok());
    EXPECT_FALSE(run.Lookup(key).has_value()) << bytes;
  }
  // A directory where the entry should be: unreadable, a miss.
  fs::remove(entry);
  fs::create_directory(entry);
  EXPECT_FALSE(run.Lookup(key).has_value());
  fs::remove(entry);

  // The replay replays it and stores a good entry again.
  ASSERT_TRUE(WriteFileAtomically(entry, "garbage").ok());
  auto report = Replay(cache_dir());
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->passed, 2);
  EXPECT_EQ(report->cached, 1);  // reduce_sum_rows
  auto replaced = run.Lookup(key);
  ASSERT_TRUE(replaced.has_value());
  EXPECT_EQ(replaced->status, ReplayStatus::kPass);
}

TEST_F(ReplayCacheTest, NoCacheDirReplaysEverything) {
  ASSERT_TRUE(Replay(cache_dir()).ok());
  ASSERT_EQ(CountEntries(cache_dir()), 2);
  // --no_cache: an empty cache_dir; a broken output shows it really ran.
  BreakRecordedOutput("add_mul");
  auto report = Replay("");
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->cached, 0);
  EXPECT_EQ(report->failed, 1);
  EXPECT_EQ(report->passed, 1);
  for (const ReplayRecord& r : report->records) EXPECT_FALSE(r.from_replay_cache);
  EXPECT_TRUE(report->cache_dir.empty());
  EXPECT_FALSE(report->ToJson().contains("replay_cache"));
}

// Loads a system library this process has not mapped yet (as cuDNN maps its
// parts, or the driver its PTX JIT, at first use); null when there is none.
void* LoadUnmappedLibrary() {
  const std::string mapped = MappedSharedLibraries();
  for (const char* name : {"libanl.so.1", "libutil.so.1", "libBrokenLocale.so.1"}) {
    if (mapped.find(absl::StrCat("/", name, " ")) != std::string::npos) continue;
    if (void* handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return handle;
  }
  return nullptr;
}

TEST_F(ReplayCacheTest, ALibraryMappedMidRunIsRecordedAndChecked) {
  ReplayCacheRun run(cache_dir(), {"host"}, LoadOptions{}, false);
  ReplayRecord pass;
  pass.status = ReplayStatus::kPass;
  const ReplayCacheKey before_key = KeyOf("add_mul", run);
  run.Store(before_key, pass);
  auto text = ReadFileToString(run.cache().EntryPath(before_key));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(nlohmann::json::parse(*text)["late_libraries"], nlohmann::json::array());

  const std::vector<MappedLibrary> libraries = MappedSharedLibraryList();
  void* handle = LoadUnmappedLibrary();
  if (handle == nullptr) GTEST_SKIP() << "no unmapped library to load";
  MappedLibrary loaded;
  for (const MappedLibrary& l : MappedSharedLibraryList()) {
    bool known = false;
    for (const MappedLibrary& k : libraries) known = known || k.path == l.path;
    if (!known) loaded = l;
  }
  ASSERT_FALSE(loaded.path.empty());

  // Stored with the library it may depend on, and found while that library
  // is the same file.
  const ReplayCacheKey key = KeyOf("reduce_sum_rows", run);
  run.Store(key, pass);
  dlclose(handle);
  EXPECT_EQ(run.Warning(), "");
  const std::string entry = run.cache().EntryPath(key);
  text = ReadFileToString(entry);
  ASSERT_TRUE(text.ok()) << text.status();
  nlohmann::json j = nlohmann::json::parse(*text);
  bool recorded = false;
  for (const auto& l : j["late_libraries"]) {
    if (l["path"] == loaded.path) {
      recorded = true;
      EXPECT_EQ(l["state"], loaded.state);
    }
  }
  EXPECT_TRUE(recorded) << j.dump(2);
  EXPECT_TRUE(run.Lookup(key).has_value());

  // Once the library on disk is another file (size or time), a miss.
  for (auto& l : j["late_libraries"]) {
    if (l["path"] == loaded.path) l["state"] = "1 1.000000000";
  }
  ASSERT_TRUE(WriteFileAtomically(entry, j.dump()).ok());
  EXPECT_FALSE(run.Lookup(key).has_value());
}

TEST_F(ReplayCacheTest, ALibraryOfTheFingerprintChangingOnDiskStopsStores) {
  // A private copy of a system library, mapped before the run starts (so
  // the fingerprint names it), then touched during the run.
  void* system = LoadUnmappedLibrary();
  if (system == nullptr) GTEST_SKIP() << "no unmapped library to load";
  std::string original;
  for (const MappedLibrary& l : MappedSharedLibraryList()) {
    for (const char* name : {"/libanl.so.1", "/libutil.so.1", "/libBrokenLocale.so.1"}) {
      if (l.path.size() > std::strlen(name) &&
          l.path.compare(l.path.size() - std::strlen(name), std::strlen(name), name) == 0) {
        original = l.path;
      }
    }
  }
  ASSERT_FALSE(original.empty());
  const fs::path copy = fs::path(dir_.path()) / "libreplaycachecopy.so";
  fs::copy_file(original, copy);
  dlclose(system);
  void* handle = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();

  ReplayCacheRun run(cache_dir(), {"host"}, LoadOptions{}, false);
  fs::last_write_time(copy, fs::last_write_time(copy) + std::chrono::hours(1));
  ReplayRecord pass;
  pass.status = ReplayStatus::kPass;
  run.Store(KeyOf("add_mul", run), pass);
  dlclose(handle);
  EXPECT_THAT(run.Warning(), HasSubstr("1 verdict(s) not stored"));
  EXPECT_THAT(run.Warning(), HasSubstr(copy.string() + " changed on disk"));
  EXPECT_EQ(CountEntries(cache_dir()), 0);
}

TEST_F(ReplayCacheTest, Format1ArtifactsAreNeverCached) {
  ReplayCacheRun run(cache_dir(), {"host"}, LoadOptions{}, false);
  auto artifact = ReadArtifact(v1(), "add_mul");
  ASSERT_TRUE(artifact.ok());
  artifact->artifact_digest.clear();
  artifact->io_digest.clear();
  EXPECT_FALSE(run.KeyFor("host", *artifact).has_value());
  ReplayCacheKey key;
  key.platform = "host";
  ReplayRecord pass;
  pass.status = ReplayStatus::kPass;
  absl::Status s = run.cache().Store(key, pass);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("format 1"));
  EXPECT_FALSE(run.cache().Lookup(key).has_value());
  EXPECT_EQ(CountEntries(cache_dir()), 0);
}

TEST_F(ReplayCacheTest, KeyOfTheMachineVerdict) {
  ReplayCacheRun run(cache_dir(), {"host"}, LoadOptions{}, false);
  const ReplayCacheKey key = KeyOf("add_mul", run);
  EXPECT_TRUE(key.can_execute);  // the host platform runs kernels
  EXPECT_EQ(key.capability_verdict, "ok");

  // A CPU without the x86-64-v2 features: the capability check fails, so
  // the key differs from that of a machine that has them.
  LoadOptions old_cpu;
  old_cpu.host_cpu_features_override = {"sse2"};
  ReplayCacheRun old_run(cache_dir(), {"host"}, old_cpu, false);
  const ReplayCacheKey old_key = KeyOf("add_mul", old_run);
  EXPECT_NE(old_key.capability_verdict, "ok");
  EXPECT_NE(old_run.cache().Key(old_key), run.cache().Key(key));

  // A platform the run did not announce gives no key.
  auto artifact = ReadArtifact(v1(), "add_mul");
  ASSERT_TRUE(artifact.ok());
  EXPECT_FALSE(run.KeyFor("cuda", *artifact).has_value());
}

TEST(ReplayCacheKeyTest, EveryFieldChangesTheKey) {
  ReplayCache cache("/unused", std::string(64, 'a'));
  ReplayCacheKey base;
  base.platform = "host";
  base.artifact_digest = std::string(64, 'b');
  base.io_digest = std::string(64, 'c');
  base.can_execute = true;
  base.capability_verdict = "ok";
  const std::string k = cache.Key(base);
  EXPECT_EQ(k.size(), 64u);
  EXPECT_EQ(cache.Key(base), k);  // deterministic
  EXPECT_EQ(cache.EntryPath(base), absl::StrCat("/unused/", k.substr(0, 2), "/", k, ".json"));

  std::vector<std::pair<std::string, ReplayCacheKey>> variants;
  auto vary = [&](const std::string& what, auto edit) {
    ReplayCacheKey key = base;
    edit(key);
    variants.emplace_back(what, key);
  };
  vary("platform", [](ReplayCacheKey& x) { x.platform = "cuda"; });
  vary("artifact", [](ReplayCacheKey& x) { x.artifact_digest = std::string(64, 'd'); });
  vary("io", [](ReplayCacheKey& x) { x.io_digest = std::string(64, 'd'); });
  vary("can_execute", [](ReplayCacheKey& x) { x.can_execute = false; });
  vary("capability", [](ReplayCacheKey& x) { x.capability_verdict = "mismatch"; });
  vary("budget", [](ReplayCacheKey& x) { x.load_options.memory_budget_bytes = 1; });
  vary("nesting", [](ReplayCacheKey& x) { x.load_options.max_control_nesting = 3; });
  vary("command buffers", [](ReplayCacheKey& x) { x.load_options.enable_command_buffers = false; });
  vary("features", [](ReplayCacheKey& x) { x.load_options.host_cpu_features_override = {"avx"}; });
  vary("features split", [](ReplayCacheKey& x) {
    x.load_options.host_cpu_features_override = {"av", "x"};
  });
  vary("device_less", [](ReplayCacheKey& x) { x.load_options.device_less = true; });
  vary("require_execution", [](ReplayCacheKey& x) { x.require_execution = true; });
  std::set<std::string> seen = {k};
  for (const auto& [what, key] : variants) {
    EXPECT_TRUE(seen.insert(cache.Key(key)).second) << what << " does not change the key";
  }
  EXPECT_NE(ReplayCache("/unused", std::string(64, 'e')).Key(base), k) << "fingerprint";
}

TEST(DefaultReplayCacheDirTest, EnvironmentThenHome) {
  const char* saved_cache = getenv("XLA_AOT_REPLAY_CACHE");
  const char* saved_home = getenv("HOME");
  std::string cache_value = saved_cache ? saved_cache : "";
  std::string home_value = saved_home ? saved_home : "";

  setenv("XLA_AOT_REPLAY_CACHE", "/tmp/somewhere", 1);
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(DefaultReplayCacheDir(), "/tmp/somewhere");
  setenv("XLA_AOT_REPLAY_CACHE", "", 1);
  EXPECT_EQ(DefaultReplayCacheDir(), "/home/someone/.cache/xla-aot/replay");
  unsetenv("XLA_AOT_REPLAY_CACHE");
  EXPECT_EQ(DefaultReplayCacheDir(), "/home/someone/.cache/xla-aot/replay");
  unsetenv("HOME");
  EXPECT_EQ(DefaultReplayCacheDir(), "");

  if (saved_cache) setenv("XLA_AOT_REPLAY_CACHE", cache_value.c_str(), 1);
  if (saved_home) setenv("HOME", home_value.c_str(), 1);
}

}  // namespace
}  // namespace aot
