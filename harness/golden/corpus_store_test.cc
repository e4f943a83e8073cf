// The corpus store: manifests (format 2), fsck, references, repack, and the
// bundled corpus rebuilding every file it had before the store.
#include "harness/golden/corpus_store.h"

#include <filesystem>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/golden/golden_store.h"
#include "support/file_io.h"
#include "support/sha256.h"
#include "support/subprocess.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::SizeIs;

constexpr char kTarget[] = "host-x86-64-v2";

class StoreOpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(dir_.path());
    fs::create_directories(root_ / "modules" / "elementwise");
    for (const char* name : {"add_mul", "compare_select"}) {
      fs::copy_file(absl::StrCat("golden/modules/elementwise/", name, ".hlo"),
                    root_ / "modules" / "elementwise" / absl::StrCat(name, ".hlo"));
    }
    ASSERT_TRUE(GenerateGoldens(golden(), {kTarget}, "2026-05-01").ok());
    auto manifest = ReadManifest(v1());
    ASSERT_TRUE(manifest.ok()) << manifest.status();
    manifest_ = *manifest;
  }
  std::string golden() const { return root_.string(); }
  std::string v1() const { return VersionDir(golden(), kTarget, 1); }
  std::string BlobPath(const char* kind, const std::string& test) const {
    return GoldenBlobStore(golden()).PathOf(kind, manifest_.tests.at(test).digest(kind));
  }

  testing::TempDir dir_;
  fs::path root_;
  Manifest manifest_;
};

TEST_F(StoreOpsTest, ABlobHoldsTheArtifactWithoutItsStampAndTheEntryHoldsTheStamp) {
  auto artifact = ReadArtifact(v1(), "add_mul");
  ASSERT_TRUE(artifact.ok()) << artifact.status();
  const ManifestEntry& entry = manifest_.tests.at("add_mul");
  EXPECT_FALSE(entry.compiler_version.empty());
  EXPECT_EQ(artifact->executable.metadata().compiler_version(), entry.compiler_version);
  EXPECT_EQ(artifact->artifact_digest, entry.artifact);
  auto blob = GoldenBlobStore(golden()).Get(kArtifactBlobs, entry.artifact);
  ASSERT_TRUE(blob.ok());
  ExecutableProto stored;
  ASSERT_TRUE(stored.ParseFromString(*blob));
  EXPECT_TRUE(stored.metadata().compiler_version().empty());
  EXPECT_TRUE(stored.metadata().source_path().empty());
  // Another stamp, the same blob.
  ExecutableProto restamped = artifact->executable;
  restamped.mutable_metadata()->set_compiler_version("another-build");
  EXPECT_EQ(Sha256Hex(ArtifactBlobBytes(restamped)), entry.artifact);
}

TEST_F(StoreOpsTest, AnEntryWritesItsCompilerVersionOnlyWhereItIsNotTheVersions) {
  Manifest m = manifest_;
  m.tests.at("add_mul").compiler_version = "older-build";
  m.tests.at("compare_select").compiler_version = "";  // an artifact without a stamp
  nlohmann::ordered_json j = m.ToJson();
  for (const auto& [test, entry] : manifest_.tests) {
    EXPECT_EQ(entry.compiler_version, manifest_.compiler_version) << test;
    EXPECT_FALSE(manifest_.ToJson()["tests"][test].contains("compiler_version")) << test;
  }
  EXPECT_EQ(j["tests"]["add_mul"]["compiler_version"], "older-build");
  EXPECT_EQ(j["tests"]["compare_select"]["compiler_version"], "");
  auto back = Manifest::FromJson(j.dump(), "M.json");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->tests.at("add_mul").compiler_version, "older-build");
  EXPECT_EQ(back->tests.at("compare_select").compiler_version, "");
  EXPECT_EQ(back->ToJson().dump(), j.dump());
}

TEST_F(StoreOpsTest, FsckIsCleanOnAFreshCorpus) {
  FsckReport report = FsckCorpus(golden(), false);
  EXPECT_TRUE(report.ok()) << report.Summary();
  EXPECT_EQ(report.versions, 1);
  EXPECT_EQ(report.tests, 2);
  EXPECT_EQ(report.blobs, 4);
  EXPECT_TRUE(report.unreferenced.empty());
  EXPECT_THAT(report.Summary(), HasSubstr("1 versions (0 per-file, not yet repacked), 2 tests"));
}

TEST_F(StoreOpsTest, FsckNamesACorruptedBlob) {
  const std::string path = BlobPath(kIoBlobs, "compare_select");
  std::string bytes = *ReadFileToString(path);
  bytes.back() ^= 1;
  ASSERT_TRUE(WriteFileAtomically(path, bytes).ok());
  FsckReport report = FsckCorpus(golden(), false);
  ASSERT_FALSE(report.ok());
  ASSERT_THAT(report.errors, SizeIs(1));
  EXPECT_THAT(report.errors[0], HasSubstr("test 'compare_select'"));
  EXPECT_THAT(report.errors[0], HasSubstr("corrupted or tampered blob: sha256 of " + path));
}

TEST_F(StoreOpsTest, FsckNamesADanglingReferenceAndKeepsUnreferencedBlobsWhenBroken) {
  const std::string path = BlobPath(kArtifactBlobs, "add_mul");
  fs::remove(path);
  // A blob no manifest names: reported, not removed while something is wrong.
  auto stray = GoldenBlobStore(golden()).Put(kArtifactBlobs, "orphan");
  ASSERT_TRUE(stray.ok());
  FsckReport report = FsckCorpus(golden(), /*remove_unreferenced=*/true);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.errors[0], HasSubstr("missing blob: " + path));
  ASSERT_THAT(report.unreferenced, SizeIs(1));
  EXPECT_FALSE(report.removed_unreferenced);
  EXPECT_TRUE(fs::exists(report.unreferenced[0]));
}

TEST_F(StoreOpsTest, FsckRemovesUnreferencedBlobsAndStrayStoreFilesOnRequest) {
  auto orphan = GoldenBlobStore(golden()).Put(kIoBlobs, "orphan");
  ASSERT_TRUE(orphan.ok());
  const std::string junk = (root_ / "store" / "io" / "notes.txt").string();
  ASSERT_TRUE(WriteFileAtomically(junk, "?").ok());
  FsckReport listed = FsckCorpus(golden(), false);
  EXPECT_TRUE(listed.ok()) << listed.Summary();
  EXPECT_THAT(listed.unreferenced, SizeIs(2));
  FsckReport removed = FsckCorpus(golden(), true);
  EXPECT_TRUE(removed.removed_unreferenced);
  EXPECT_FALSE(fs::exists(junk));
  EXPECT_TRUE(FsckCorpus(golden(), false).unreferenced.empty());
  // The referenced blobs are all still there.
  EXPECT_TRUE(FsckCorpus(golden(), false).ok());
}

TEST_F(StoreOpsTest, AManifestNamingABadDigestOrAnUnknownTestIsAClearError) {
  nlohmann::ordered_json j = manifest_.ToJson();
  j["tests"]["add_mul"]["artifact"] = "xyz";
  auto bad = Manifest::FromJson(j.dump(), "M.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("M.json: test 'add_mul': artifacts digest 'xyz' is not a sha256"));
  j = manifest_.ToJson();
  j["format"] = 7;
  EXPECT_THAT(std::string(Manifest::FromJson(j.dump(), "M.json").status().message()),
              HasSubstr("unknown manifest format 7"));

  auto unknown = ReadGoldenRef(golden(), {kTarget, 1, "no_such_test"});
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("names no test 'no_such_test'"));
  auto no_version = ReadGoldenRef(golden(), {kTarget, 9, "add_mul"});
  EXPECT_THAT(std::string(no_version.status().message()), HasSubstr("no such version"));
  EXPECT_FALSE(ParseGoldenRef("host/1/add_mul").ok());
  EXPECT_FALSE(ParseGoldenRef("host/v1").ok());
  auto ref = ParseGoldenRef("host-x86-64-v2/v12/add_mul");
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->version, 12);
  EXPECT_EQ(ref->ToString(), "host-x86-64-v2/v12/add_mul");
}

TEST_F(StoreOpsTest, AFieldTheSchemaNoLongerHasIsRefusedByNumber) {
  auto artifact = ReadArtifact(v1(), "add_mul");
  ASSERT_TRUE(artifact.ok());
  ExecutableProto e = artifact->executable;
  ThunkProto* thunk = e.mutable_thunks(0);
  thunk->GetReflection()->MutableUnknownFields(thunk)->AddVarint(4242, 1);
  auto read = ArtifactFromBlob(e.SerializeAsString(), ManifestEntry{}, "where");
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(std::string(read.status().message()),
              HasSubstr("where: ExecutableProto.thunks[0] (ThunkProto) field 4242 is not in the "
                        "current schema"));
}

// A version written the way the corpus was before the store.
void WritePerFile(const std::string& dir, const Manifest& packed,
                  const std::map<std::string, std::string>& files) {
  Manifest legacy = packed;
  legacy.format = 1;
  legacy.tests.clear();
  legacy.files.clear();
  for (const auto& [name, bytes] : files) {
    ASSERT_TRUE(WriteFileAtomically(dir + "/" + name, bytes).ok());
    legacy.files[name] = Sha256Hex(bytes);
  }
  ASSERT_TRUE(WriteFileAtomically(dir + "/MANIFEST.json", legacy.ToJson().dump(2)).ok());
}

TEST_F(StoreOpsTest, RepackMovesAPerFileVersionAndRebuildsItsBytes) {
  auto files = RebuildLegacyFiles(v1(), manifest_);
  ASSERT_TRUE(files.ok()) << files.status();
  ASSERT_EQ(files->size(), 4u);
  WritePerFile(v1(), manifest_, *files);
  fs::remove_all(root_ / "store");
  auto legacy = ReadManifest(v1());
  ASSERT_TRUE(legacy.ok());
  EXPECT_EQ(legacy->format, 1);
  // Format 1 still reads and replays.
  auto read = ReadArtifact(v1(), "add_mul");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(read->artifact_digest.empty());

  auto result = RepackVersion(v1());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->repacked);
  EXPECT_EQ(result->tests, 2);
  EXPECT_EQ(result->new_blobs, 4);
  auto packed = ReadManifest(v1());
  ASSERT_TRUE(packed.ok());
  EXPECT_EQ(packed->format, 2);
  EXPECT_EQ(packed->files, legacy->files);  // kept as legacy_files
  EXPECT_EQ(std::distance(fs::directory_iterator(v1()), fs::directory_iterator()), 1);
  auto rebuilt = RebuildLegacyFiles(v1(), *packed);
  ASSERT_TRUE(rebuilt.ok());
  EXPECT_EQ(*rebuilt, *files);
  // Again: nothing to do.
  auto again = RepackVersion(v1());
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->repacked);
  EXPECT_TRUE(FsckCorpus(golden(), false).ok());
}

TEST_F(StoreOpsTest, RepackRefusesATamperedFileAndLeavesTheVersionAsItIs) {
  auto files = RebuildLegacyFiles(v1(), manifest_);
  ASSERT_TRUE(files.ok());
  WritePerFile(v1(), manifest_, *files);
  ASSERT_TRUE(WriteFileAtomically(v1() + "/add_mul.io.pb", "tampered").ok());
  auto result = RepackVersion(v1());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("add_mul.io.pb"));
  auto manifest = ReadManifest(v1());
  ASSERT_TRUE(manifest.ok());
  EXPECT_EQ(manifest->format, 1);
  EXPECT_TRUE(fs::exists(v1() + "/add_mul.pbtxt"));
}

TEST_F(StoreOpsTest, RepackLeftoversAreHarmlessAndRemovedByTheRerun) {
  auto files = RebuildLegacyFiles(v1(), manifest_);
  ASSERT_TRUE(files.ok());
  // As a repack killed after replacing the manifest leaves it.
  Manifest packed = manifest_;
  for (const auto& [name, bytes] : *files) {
    ASSERT_TRUE(WriteFileAtomically(v1() + "/" + name, bytes).ok());
    packed.files[name] = Sha256Hex(bytes);
  }
  ASSERT_TRUE(WriteFileAtomically(v1() + "/MANIFEST.json", packed.ToJson().dump(2)).ok());
  EXPECT_TRUE(VerifyManifest(v1(), packed).ok());
  FsckReport report = FsckCorpus(golden(), false);
  EXPECT_TRUE(report.ok()) << report.Summary();
  EXPECT_THAT(report.unreferenced, SizeIs(4));
  // A changed leftover is tampering.
  ASSERT_TRUE(WriteFileAtomically(v1() + "/add_mul.pbtxt", "changed").ok());
  absl::Status tampered = VerifyManifest(v1(), packed);
  EXPECT_THAT(std::string(tampered.message()),
              HasSubstr("add_mul.pbtxt is not part of the version"));
  ASSERT_TRUE(WriteFileAtomically(v1() + "/add_mul.pbtxt", files->at("add_mul.pbtxt")).ok());
  auto rerun = RepackVersion(v1());
  ASSERT_TRUE(rerun.ok()) << rerun.status();
  EXPECT_EQ(std::distance(fs::directory_iterator(v1()), fs::directory_iterator()), 1);
}

// The migration lost nothing: every version of the bundled corpus in the
// store rebuilds, byte for byte, the files it had before (its manifest's
// legacy_files record), and that record is what the version's MANIFEST
// listed before the store (git history, where there is one).
TEST(CorpusStoreTest, EveryRepackedVersionRebuildsTheFilesItHad) {
  int versions = 0, files = 0, from_history = 0;
  const std::string git = "git -C golden";
  const bool have_history =
      RunShellCommand(git + " cat-file -e e709c41:golden/README.md 2>/dev/null").exit_code == 0;
  for (const StoredVersion& v : ListStoredVersions("golden")) {
    auto manifest = ReadManifest(v.dir);
    ASSERT_TRUE(manifest.ok()) << manifest.status();
    if (manifest->format != 2 || manifest->files.empty()) continue;
    ++versions;
    auto rebuilt = RebuildLegacyFiles(v.dir, *manifest);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
    ASSERT_EQ(rebuilt->size(), manifest->files.size()) << v.dir;
    for (const auto& [name, bytes] : *rebuilt) {
      EXPECT_EQ(Sha256Hex(bytes), manifest->files.at(name)) << v.dir << "/" << name;
      ++files;
    }
    if (!have_history) continue;
    // The manifest as the last commit before the store had it.
    CommandResult old = RunShellCommand(absl::StrCat(git, " show e709c41:golden/executables/",
                                                     v.target, "/v", v.version, "/MANIFEST.json"));
    if (old.exit_code != 0) continue;  // a version written after the store
    auto before = Manifest::FromJson(old.output, "e709c41 " + v.dir);
    ASSERT_TRUE(before.ok()) << before.status();
    EXPECT_EQ(before->format, 1);
    EXPECT_EQ(before->files, manifest->files) << v.dir;
    ++from_history;
  }
  // Every version that existed before the store: 102 versions of the 12
  // targets, 10,268 files (81 versions moved first, cuda-sm_90's 21 after).
  EXPECT_GE(versions, 102);
  EXPECT_GE(files, 10268);
  if (have_history) EXPECT_GE(from_history, 102);
  RecordProperty("files_rebuilt", files);
}

}  // namespace
}  // namespace aot
