// The golden corpus machinery on synthetic corpora in temp directories:
// generate, verify, replay, the backward window and prune.
#include "harness/golden/golden_ops.h"

#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/golden/corpus.h"
#include "harness/golden/corpus_store.h"
#include "harness/golden/golden_store.h"
#include "support/file_io.h"
#include "support/sha256.h"
#include "support/subprocess.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

using testing::TempDir;

// A corpus of two real modules in a temp directory.
class GoldenOpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(dir_.path());
    fs::create_directories(root_ / "modules" / "elementwise");
    fs::create_directories(root_ / "modules" / "reductions");
    fs::copy_file("golden/modules/elementwise/add_mul.hlo",
                  root_ / "modules" / "elementwise" / "add_mul.hlo");
    fs::copy_file("golden/modules/reductions/reduce_sum_rows.hlo",
                  root_ / "modules" / "reductions" / "reduce_sum_rows.hlo");
  }
  std::string golden() const { return root_.string(); }
  std::string v(int n) const { return VersionDir(golden(), "host-x86-64-v2", n); }
  absl::StatusOr<ReplayReport> Replay() {
    ReplayOptions options;
    options.golden_dir = golden();
    options.targets = {"host-x86-64-v2"};
    options.all_versions = true;
    return ReplayGoldens(options);
  }
  // Replaces a test's artifact or I/O blob in a version's MANIFEST (a
  // "legitimate" edit, so the integrity check passes and the content check
  // runs).
  void RewriteWithManifest(int version, const std::string& test, const char* kind,
                           const std::string& bytes) {
    auto digest = StoreOfVersionDir(v(version)).Put(kind, bytes);
    ASSERT_TRUE(digest.ok()) << digest.status();
    auto manifest = ReadManifest(v(version));
    ASSERT_TRUE(manifest.ok());
    ManifestEntry& entry = manifest->tests.at(test);
    (std::string(kind) == kArtifactBlobs ? entry.artifact : entry.io) = *digest;
    ASSERT_TRUE(WriteFileAtomically((fs::path(v(version)) / "MANIFEST.json").string(),
                                    manifest->ToJson().dump(2))
                    .ok());
  }

  TempDir dir_;
  fs::path root_;
};

// The compile cache: a second compile of the unchanged corpus reads every
// artifact back (an entry edited in place comes back as edited, so it was
// not compiled again); a changed module is compiled again.
TEST_F(GoldenOpsTest, CompileCacheServesUnchangedModulesAndRecompilesChangedOnes) {
  const std::string cache = (root_ / "cache").string();
  auto first = CompileCorpus(golden(), {"host-x86-64-v2"}, nullptr, cache);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->size(), 2u);
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(root_ / "cache" / "compile")) {
    entries.push_back(e.path());
  }
  ASSERT_EQ(entries.size(), 2u);
  // Without the cache, the same bytes.
  auto plain = CompileCorpus(golden(), {"host-x86-64-v2"});
  ASSERT_TRUE(plain.ok());
  for (size_t i = 0; i < plain->size(); ++i) {
    EXPECT_EQ((*plain)[i].executable.SerializeAsString(),
              (*first)[i].executable.SerializeAsString());
  }
  for (const fs::path& entry : entries) {
    ExecutableProto e;
    auto bytes = ReadFileToString(entry.string());
    ASSERT_TRUE(bytes.ok() && e.ParseFromString(*bytes));
    e.set_name(absl::StrCat("from-cache-", e.name()));
    ASSERT_TRUE(WriteFileAtomically(entry.string(), e.SerializeAsString()).ok());
  }
  auto second = CompileCorpus(golden(), {"host-x86-64-v2"}, nullptr, cache);
  ASSERT_TRUE(second.ok()) << second.status();
  for (const CompiledTest& t : *second) {
    EXPECT_TRUE(absl::StartsWith(t.executable.name(), "from-cache-")) << t.test;
  }
  // Another target is another key.
  auto v3 = CompileCorpus(golden(), {"host-x86-64-v3"}, nullptr, cache);
  ASSERT_TRUE(v3.ok());
  for (const CompiledTest& t : *v3) EXPECT_FALSE(absl::StartsWith(t.executable.name(), "from-"));
  // The module's text changed (a comment): compiled again.
  const fs::path module = root_ / "modules" / "elementwise" / "add_mul.hlo";
  auto text = ReadFileToString(module.string());
  ASSERT_TRUE(text.ok());
  ASSERT_TRUE(WriteFileAtomically(module.string(), *text + "\n// edited\n").ok());
  auto third = CompileCorpus(golden(), {"host-x86-64-v2"}, nullptr, cache);
  ASSERT_TRUE(third.ok());
  for (const CompiledTest& t : *third) {
    EXPECT_EQ(absl::StartsWith(t.executable.name(), "from-cache-"), t.test != "add_mul") << t.test;
  }
}

TEST_F(GoldenOpsTest, GenerateWritesV1ThenNothingUntilTheOutputChanges) {
  auto first = GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-05-01");
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE((*first)[0].wrote);
  EXPECT_EQ((*first)[0].version, 1);
  auto manifest = ReadManifest(v(1));
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  EXPECT_EQ(manifest->created, "2026-05-01");
  EXPECT_EQ(manifest->format, 2);
  EXPECT_EQ(manifest->tests.size(), 2u);
  EXPECT_TRUE(manifest->files.empty());
  EXPECT_TRUE(VerifyManifest(v(1), *manifest).ok());
  // The version directory holds the manifest alone; the blobs are in the store.
  EXPECT_EQ(std::distance(fs::directory_iterator(v(1)), fs::directory_iterator()), 1);
  EXPECT_EQ(GoldenBlobStore(golden()).List(kArtifactBlobs).size(), 2u);
  EXPECT_EQ(GoldenBlobStore(golden()).List(kIoBlobs).size(), 2u);
  std::string v1_artifact = ArtifactText(ReadArtifact(v(1), "add_mul")->executable);

  auto again = GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-05-02");
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE((*again)[0].wrote);
  EXPECT_THAT((*again)[0].message, HasSubstr("up to date with v1"));

  // Change a program: v2 appears, v1 is untouched.
  std::string path = (root_ / "modules" / "elementwise" / "add_mul.hlo").string();
  std::string text = *ReadFileToString(path);
  text.replace(text.find("subtract("), 9, "maximum(");
  text.replace(text.find("%sub = "), 7, "%max = ");
  ASSERT_TRUE(WriteFileAtomically(path, text).ok());
  auto verify = VerifyGoldens(golden(), {"host-x86-64-v2"}, false);
  ASSERT_TRUE(verify.ok()) << verify.status();
  EXPECT_FALSE((*verify)[0].ok);
  EXPECT_THAT((*verify)[0].diff, HasSubstr("add_mul"));
  auto third = GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-06-01");
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_TRUE((*third)[0].wrote);
  EXPECT_EQ((*third)[0].version, 2);
  EXPECT_EQ(ArtifactText(ReadArtifact(v(1), "add_mul")->executable), v1_artifact);
  // v2 shares reduce_sum_rows's unchanged blobs with v1: one new artifact
  // and one new I/O record.
  auto v2_manifest = ReadManifest(v(2));
  ASSERT_TRUE(v2_manifest.ok());
  EXPECT_EQ(v2_manifest->tests.at("reduce_sum_rows").artifact,
            manifest->tests.at("reduce_sum_rows").artifact);
  EXPECT_NE(v2_manifest->tests.at("add_mul").artifact, manifest->tests.at("add_mul").artifact);
  EXPECT_EQ(GoldenBlobStore(golden()).List(kArtifactBlobs).size(), 3u);
  auto verify_after = VerifyGoldens(golden(), {"host-x86-64-v2"}, false);
  ASSERT_TRUE(verify_after.ok());
  EXPECT_TRUE((*verify_after)[0].ok) << (*verify_after)[0].diff;
  // Both versions replay; v2's reduce_sum_rows is v1's blobs, replayed once
  // and reported under both versions.
  auto report = Replay();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->passed, 4);
  EXPECT_EQ(report->failed, 0);
  int shared = 0;
  for (const ReplayRecord& r : report->records) {
    if (r.replayed_as.empty()) continue;
    ++shared;
    EXPECT_EQ(r.version, 2);
    EXPECT_EQ(r.test, "reduce_sum_rows");
    EXPECT_EQ(r.replayed_as, "host-x86-64-v2 v1");
  }
  EXPECT_EQ(shared, 1);
}

TEST_F(GoldenOpsTest, CorruptedGoldenIsReportedAsSuch) {
  ASSERT_TRUE(GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-05-01").ok());
  auto manifest = ReadManifest(v(1));
  ASSERT_TRUE(manifest.ok());
  const BlobStore store = GoldenBlobStore(golden());
  std::string path = store.PathOf(kArtifactBlobs, manifest->tests.at("add_mul").artifact);
  std::string bytes = *ReadFileToString(path);
  bytes[bytes.size() / 2] ^= 1;
  ASSERT_TRUE(WriteFileAtomically(path, bytes).ok());
  auto report = Replay();
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->failed, 1);
  EXPECT_THAT(report->records[0].reason,
              HasSubstr("corrupted or tampered blob: sha256 of " + path));
  EXPECT_THAT(report->records[0].reason, HasSubstr("test 'add_mul'"));
  // A missing blob is named as such.
  ASSERT_TRUE(store.Remove(kArtifactBlobs, manifest->tests.at("add_mul").artifact).ok());
  auto missing = Replay();
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing->failed, 1);
  EXPECT_THAT(missing->records[0].reason, HasSubstr("missing blob: " + path));
}

TEST_F(GoldenOpsTest, AStrayFileInAVersionDirectoryIsTampering) {
  ASSERT_TRUE(GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-05-01").ok());
  ASSERT_TRUE(WriteFileAtomically((fs::path(v(1)) / "add_mul.pbtxt").string(), "x").ok());
  auto report = Replay();
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->failed, 1);
  EXPECT_THAT(report->records[0].reason, HasSubstr("add_mul.pbtxt is not part of the version"));
}

TEST_F(GoldenOpsTest, ChangedOutputsFailReplay) {
  ASSERT_TRUE(GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-05-01").ok());
  auto artifact = ReadArtifact(v(1), "add_mul");
  ASSERT_TRUE(artifact.ok());
  GoldenIoProto io = artifact->io;
  io.mutable_results(0)->set_f32s(3, io.results(0).f32s(3) + 1.0f);
  RewriteWithManifest(1, "add_mul", kIoBlobs, io.SerializeAsString());
  auto report = Replay();
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->failed, 1);
  EXPECT_EQ(report->passed, 1);
  for (const ReplayRecord& r : report->records) {
    if (r.status == ReplayStatus::kFail) {
      EXPECT_EQ(r.test, "add_mul");
      EXPECT_THAT(r.reason, HasSubstr("outputs differ from the recorded ones"));
      EXPECT_THAT(r.reason, HasSubstr("bitwise"));
    }
  }
}

TEST_F(GoldenOpsTest, GoldenTheRuntimeRefusesFailsReplay) {
  ASSERT_TRUE(GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-05-01").ok());
  auto artifact = ReadArtifact(v(1), "reduce_sum_rows");
  ASSERT_TRUE(artifact.ok());
  ExecutableProto e = artifact->executable;
  e.mutable_hlo_module()
      ->mutable_hlo_module()
      ->mutable_computations(0)
      ->mutable_instructions(0)
      ->set_opcode("all-to-all-v2");
  RewriteWithManifest(1, "reduce_sum_rows", kArtifactBlobs, ArtifactBlobBytes(e));
  auto report = Replay();
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->failed, 1);
  for (const ReplayRecord& r : report->records) {
    if (r.status == ReplayStatus::kFail) {
      EXPECT_THAT(r.reason, HasSubstr("the current runtime refuses the artifact"));
      EXPECT_THAT(r.reason, HasSubstr("unknown HLO opcode 'all-to-all-v2'"));
    }
  }
  EXPECT_FALSE(report->ToJson()["summary"]["failed"].get<int>() == 0);
}

// Replay with 8 artifacts at once gives the report a serial replay gives
// (same records in the same order), with a pass, a failure and an
// unreadable artifact in one version.
TEST_F(GoldenOpsTest, ParallelReplayReportsWhatSerialReplayReports) {
  for (const char* name : {"compare_select", "integer_ops", "transcendental"}) {
    fs::copy_file(absl::StrCat("golden/modules/elementwise/", name, ".hlo"),
                  root_ / "modules" / "elementwise" / absl::StrCat(name, ".hlo"));
  }
  ASSERT_TRUE(GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-05-01").ok());
  auto artifact = ReadArtifact(v(1), "add_mul");
  ASSERT_TRUE(artifact.ok());
  GoldenIoProto io = artifact->io;
  io.mutable_results(0)->set_f32s(0, io.results(0).f32s(0) + 1.0f);
  RewriteWithManifest(1, "add_mul", kIoBlobs, io.SerializeAsString());
  RewriteWithManifest(1, "integer_ops", kArtifactBlobs, "not a binary proto {");
  auto run = [&](int jobs) {
    ReplayOptions options;
    options.golden_dir = golden();
    options.targets = {"host-x86-64-v2"};
    options.all_versions = true;
    options.jobs = jobs;
    return ReplayGoldens(options);
  };
  auto serial = run(1);
  ASSERT_TRUE(serial.ok()) << serial.status();
  ASSERT_EQ(serial->records.size(), 5u);
  EXPECT_EQ(serial->failed, 2);
  for (int repeat = 0; repeat < 3; ++repeat) {
    auto parallel = run(8);
    ASSERT_TRUE(parallel.ok()) << parallel.status();
    ASSERT_EQ(parallel->records.size(), serial->records.size());
    for (size_t i = 0; i < serial->records.size(); ++i) {
      EXPECT_EQ(parallel->records[i].test, serial->records[i].test);
      EXPECT_EQ(parallel->records[i].status, serial->records[i].status);
      EXPECT_EQ(parallel->records[i].reason, serial->records[i].reason);
      EXPECT_EQ(parallel->records[i].version_date, serial->records[i].version_date);
    }
    EXPECT_EQ(parallel->passed, serial->passed);
    EXPECT_EQ(parallel->failed, serial->failed);
    EXPECT_EQ(parallel->skipped, serial->skipped);
  }
}

TEST(ReplayRequireExecutionTest, ArtifactsNothingCanExecuteFailInsteadOfSkipping) {
  // The bundled corpus's CUDA goldens (newest version only, to stay quick).
  ReplayOptions options;
  options.golden_dir = "golden";
  options.targets = {"cuda-sm_90"};
  options.versions = {2};
  auto lenient = ReplayGoldens(options);
  ASSERT_TRUE(lenient.ok()) << lenient.status();
  if (lenient->skipped == 0) GTEST_SKIP() << "a CUDA device executed every artifact here";
  EXPECT_EQ(lenient->failed, 0);
  options.require_execution = true;
  auto strict = ReplayGoldens(options);
  ASSERT_TRUE(strict.ok()) << strict.status();
  EXPECT_EQ(strict->skipped, 0);
  EXPECT_EQ(strict->failed, lenient->skipped);
  EXPECT_FALSE(strict->ok());
  for (const ReplayRecord& r : strict->records) {
    if (r.status == ReplayStatus::kFail) {
      EXPECT_THAT(r.reason, HasSubstr("--require_execution: ")) << r.test;
    }
  }
}

TEST_F(GoldenOpsTest, ReplayOfATargetWithoutVersionsIsAnError) {
  ReplayOptions options;
  options.golden_dir = golden();
  options.targets = {"cuda-sm_90"};
  auto report = ReplayGoldens(options);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()), HasSubstr("has no golden versions"));
}

TEST_F(GoldenOpsTest, BackwardWindowReplayAndPruneUseManifestDates) {
  std::string path = (root_ / "modules" / "elementwise" / "add_mul.hlo").string();
  std::string original = *ReadFileToString(path);
  ASSERT_TRUE(GenerateGoldens(golden(), {"host-x86-64-v2"}, "2025-01-01").ok());
  std::string text = original;
  text.replace(text.find("subtract("), 9, "maximum(");
  ASSERT_TRUE(WriteFileAtomically(path, text).ok());
  ASSERT_TRUE(GenerateGoldens(golden(), {"host-x86-64-v2"}, "2025-03-01").ok());
  text.replace(text.find("maximum("), 8, "minimum(");
  ASSERT_TRUE(WriteFileAtomically(path, text).ok());
  ASSERT_TRUE(GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-10-01").ok());
  ReplayOptions options;
  options.golden_dir = golden();
  options.targets = {"host-x86-64-v2"};
  options.now = "2026-11-29";
  auto report = ReplayGoldens(options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->expired, 1);
  EXPECT_EQ(report->failed, 0);
  EXPECT_EQ(report->passed, 4);  // v2 and v3, two tests each
  EXPECT_EQ(report->records[0].status, ReplayStatus::kExpired);
  EXPECT_EQ(report->records[0].version, 1);
  // Prune: a dry run lists v1; the real run deletes v1 only.
  auto listed = PruneExpired(golden(), "host-x86-64-v2", "2026-11-29", /*dry_run=*/true);
  ASSERT_TRUE(listed.ok());
  EXPECT_THAT(*listed, ElementsAre(1));
  EXPECT_TRUE(fs::exists(v(1)));
  // v1's add_mul blobs are named by no other version: they retire with it;
  // reduce_sum_rows's are v2's and v3's too, and stay.
  auto v1_manifest = ReadManifest(v(1));
  ASSERT_TRUE(v1_manifest.ok());
  const BlobStore store = GoldenBlobStore(golden());
  std::vector<std::string> would_retire;
  ASSERT_TRUE(PruneExpired(golden(), "host-x86-64-v2", "2026-11-29", true, &would_retire).ok());
  EXPECT_THAT(
      would_retire,
      UnorderedElementsAre(store.PathOf(kArtifactBlobs, v1_manifest->tests.at("add_mul").artifact),
                           store.PathOf(kIoBlobs, v1_manifest->tests.at("add_mul").io)));
  EXPECT_TRUE(fs::exists(would_retire[0]));
  std::vector<std::string> retired;
  auto pruned = PruneExpired(golden(), "host-x86-64-v2", "2026-11-29", /*dry_run=*/false, &retired);
  ASSERT_TRUE(pruned.ok());
  EXPECT_EQ(retired, would_retire);
  EXPECT_FALSE(fs::exists(retired[0]));
  EXPECT_FALSE(fs::exists(retired[1]));
  EXPECT_TRUE(store.Contains(kArtifactBlobs, v1_manifest->tests.at("reduce_sum_rows").artifact));
  EXPECT_TRUE(FsckCorpus(golden(), false).ok());
  EXPECT_FALSE(fs::exists(v(1)));
  EXPECT_TRUE(fs::exists(v(2)));
  EXPECT_TRUE(fs::exists(v(3)));
  // Earlier, v1 was inside the window: nothing to prune.
  auto early = PruneExpired(golden(), "host-x86-64-v2", "2025-05-01", true);
  ASSERT_TRUE(early.ok());
  EXPECT_TRUE(early->empty());
}

TEST_F(GoldenOpsTest, WriteVersionNeverOverwrites) {
  ASSERT_TRUE(GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-05-01").ok());
  Manifest m;
  m.version = 1;
  absl::Status s = WriteVersion(v(1), {}, m);
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists);
}

// aot-compat generate --xla_aot_<flag>=true: the flag is on for the
// target's compile, the manifest records it, and verify compiles the
// target as its newest version was generated; generating again without
// the flag writes the next version.
TEST_F(GoldenOpsTest, GenerateWithAnEmissionFlagRecordsItAndVerifyHonoursIt) {
  fs::copy_file("golden/modules/elementwise/donated_accumulate.hlo",
                root_ / "modules" / "elementwise" / "donated_accumulate.hlo");
  auto flagged = GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-05-01", nullptr,
                                 {"emit_input_output_alias"});
  ASSERT_TRUE(flagged.ok()) << flagged.status();
  EXPECT_EQ((*flagged)[0].version, 1);
  auto manifest = ReadManifest(v(1));
  ASSERT_TRUE(manifest.ok());
  EXPECT_THAT(manifest->emission_flags, ElementsAre("emit_input_output_alias"));
  auto artifact = ReadArtifact(v(1), "donated_accumulate");
  ASSERT_TRUE(artifact.ok()) << artifact.status();
  EXPECT_GT(artifact->executable.input_output_aliases_size(), 0);
  auto verify = VerifyGoldens(golden(), {"host-x86-64-v2"}, false);
  ASSERT_TRUE(verify.ok()) << verify.status();
  EXPECT_TRUE((*verify)[0].ok) << (*verify)[0].diff;
  auto plain = GenerateGoldens(golden(), {"host-x86-64-v2"}, "2026-05-02");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_TRUE((*plain)[0].wrote);
  EXPECT_THAT((*plain)[0].message, HasSubstr("donated_accumulate"));
  auto plain_manifest = ReadManifest(v(2));
  ASSERT_TRUE(plain_manifest.ok());
  EXPECT_TRUE(plain_manifest->emission_flags.empty());
}

// A collective target: only the collectives suite, compiled with
// emit_collectives (recorded), four replicas' inputs and results per test,
// replayed on four threads.
TEST_F(GoldenOpsTest, CollectiveTargetGeneratesAndReplaysPerReplica) {
  fs::create_directories(root_ / "modules" / "collectives");
  fs::copy_file("golden/modules/collectives/all_reduce_sum.hlo",
                root_ / "modules" / "collectives" / "all_reduce_sum.hlo");
  auto generated = GenerateGoldens(golden(), {"collective_ops_host_4replica"}, "2026-05-01");
  ASSERT_TRUE(generated.ok()) << generated.status();
  const std::string dir = VersionDir(golden(), "collective_ops_host_4replica", 1);
  EXPECT_THAT(ListTests(dir), ElementsAre("all_reduce_sum"));
  auto manifest = ReadManifest(dir);
  ASSERT_TRUE(manifest.ok());
  EXPECT_THAT(manifest->emission_flags, ElementsAre("emit_collectives"));
  auto artifact = ReadArtifact(dir, "all_reduce_sum");
  ASSERT_TRUE(artifact.ok());
  EXPECT_EQ(artifact->executable.device_assignment().replica_count(), 4);
  EXPECT_EQ(artifact->io.replicas_size(), 4);
  ReplayOptions options;
  options.golden_dir = golden();
  options.targets = {"collective_ops_host_4replica"};
  auto report = ReplayGoldens(options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->passed, 1);
  EXPECT_EQ(report->failed, 0);
}

}  // namespace
}  // namespace aot

namespace aot {
namespace {

// aot-compat generate's precondition: a binary built from a commit, that
// commit the golden directory's HEAD, its modules committed.
TEST(CheckGeneratedFromCleanCommitTest, NamesWhatIsNotClean) {
  testing::TempDir dir;
  const std::string root = dir.path();
  // Outside git only the build itself is checked.
  EXPECT_TRUE(CheckGeneratedFromCleanCommit(root, "abc1234", std::string(40, 'a')).ok());
  absl::Status dirty = CheckGeneratedFromCleanCommit(root, "abc1234-dirty", std::string(40, 'a'));
  EXPECT_EQ(dirty.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(dirty.message()), HasSubstr("built from 'abc1234-dirty', not a commit"));
  EXPECT_FALSE(CheckGeneratedFromCleanCommit(root, "unknown", "unknown").ok());

  // A git work tree with one committed module.
  std::filesystem::create_directories(root + "/modules");
  ASSERT_TRUE(WriteFileAtomically(root + "/modules/m.hlo", "HloModule m\n").ok());
  const std::string git =
      absl::StrCat("git -C ", ShellQuote(root), " -c user.name=t -c user.email=t@example.com ");
  ASSERT_EQ(RunShellCommand(git + "init -q").exit_code, 0);
  ASSERT_EQ(RunShellCommand(git + "add -A").exit_code, 0);
  ASSERT_EQ(RunShellCommand(git + "commit -q -m m").exit_code, 0);
  CommandResult head = RunShellCommand(git + "rev-parse HEAD");
  ASSERT_EQ(head.exit_code, 0);
  const std::string commit(absl::StripAsciiWhitespace(head.output));
  EXPECT_TRUE(CheckGeneratedFromCleanCommit(root, "v1", commit).ok());
  absl::Status stale = CheckGeneratedFromCleanCommit(root, "v0", std::string(40, 'b'));
  EXPECT_EQ(stale.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(stale.message()),
              HasSubstr(absl::StrCat("is at HEAD ", commit.substr(0, 12))));
  ASSERT_TRUE(WriteFileAtomically(root + "/modules/new.hlo", "HloModule n\n").ok());
  absl::Status uncommitted = CheckGeneratedFromCleanCommit(root, "v1", commit);
  EXPECT_EQ(uncommitted.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(uncommitted.message()), HasSubstr("modules has uncommitted changes"));
  EXPECT_THAT(std::string(uncommitted.message()), HasSubstr("new.hlo"));
}

}  // namespace
}  // namespace aot
