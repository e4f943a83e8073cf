#ifndef AOT_HARNESS_GOLDEN_GOLDEN_STORE_H_
#define AOT_HARNESS_GOLDEN_GOLDEN_STORE_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "proto/executable.pb.h"
#include "proto/golden_io.pb.h"
#include "support/blob_store.h"

namespace aot {

// The golden corpus on disk (golden/README.md):
//   executables/<target>/v<N>/MANIFEST.json   a version: its metadata and,
//                                             per test, the blobs it holds
//   store/artifacts/<aa>/<sha256>.pb          each distinct artifact once
//   store/io/<aa>/<sha256>.pb                 each distinct I/O record once
//
// "The same artifact": two artifacts are the same when their bytes are equal
// once the build stamp is cleared, the ExecutableMetadataProto fields that
// name the build and not the program (compiler_version, source_path). The
// blob holds the stamp-free artifact (binary, deterministic serialization);
// each manifest entry records the stamp its own compiler wrote. So one blob
// serves every version whose compiler still emits that artifact, and each
// version still resolves to exactly the artifact its compiler wrote. Any
// other difference, kernel object code included, is a new blob.
//
// Format 1 (before the store): each test as <test>.pbtxt (text format) and
// <test>.io.pb beside a MANIFEST.json listing their sha256. Still read, so a
// corpus not yet repacked (aot-compat repack) works as before; never written.

// The stamp-free part of an artifact is in the blob; this is the rest.
struct ManifestEntry {
  std::string artifact;  // sha256 of the artifact blob
  std::string io;        // sha256 of the I/O blob
  // The build stamp (ExecutableMetadataProto.compiler_version, source_path).
  // In MANIFEST.json compiler_version is left out where it is the
  // version's own compiler_version.
  std::string compiler_version;
  std::string source_path;
  const std::string& digest(absl::string_view kind) const;
};

inline constexpr char kArtifactBlobs[] = "artifacts";
inline constexpr char kIoBlobs[] = "io";

// "<kind>/<digest>": one blob of the store, as the sets of blobs a corpus
// names, verifies or retires hold it.
std::string BlobKey(absl::string_view kind, absl::string_view digest);

// MANIFEST.json of one golden version.
struct Manifest {
  int format = 2;  // 1: per-file version, 2: version in the store
  int version = 0;
  std::string target;
  std::string created;           // YYYY-MM-DD
  std::string compiler_version;  // git describe
  std::string compiler_commit;
  std::string schema_fingerprint;
  nlohmann::ordered_json abi_version;  // the artifacts' AbiVersionProto
  std::string target_config;           // text proto
  // The emission flags the artifacts were compiled with (the target's own
  // and aot-compat generate's --xla_aot_<flag>=true), sorted; verify and
  // the gate compile the target with them. Absent from the JSON when empty.
  std::vector<std::string> emission_flags;
  // Format 2: test -> its blobs and stamp.
  std::map<std::string, ManifestEntry> tests;
  // Format 1: file name -> sha256 of the version's files. Format 2 after
  // aot-compat repack: the same record of the files the version had
  // ("legacy_files"), which the store rebuilds byte for byte.
  std::map<std::string, std::string> files;

  nlohmann::ordered_json ToJson() const;
  static absl::StatusOr<Manifest> FromJson(const std::string& text, const std::string& path);
  // The version's tests, sorted.
  std::vector<std::string> TestNames() const;
  // Adds the BlobKey of every blob the version names (format 2) to `keys`.
  void AddBlobKeys(std::set<std::string>* keys) const;
  bool HasTest(const std::string& test) const;
};

// One test of a version: the artifact and its recorded inputs/outputs.
struct GoldenArtifact {
  std::string test;
  ExecutableProto executable;
  GoldenIoProto io;
  // Format 2: the blobs it was read from (empty for format 1 and for
  // artifacts not read from a version).
  std::string artifact_digest;
  std::string io_digest;
};

// The store of a corpus (<golden_dir>/store) and of the corpus a version
// directory (<golden_dir>/executables/<target>/v<N>) belongs to.
BlobStore GoldenBlobStore(const std::string& golden_dir);
BlobStore StoreOfVersionDir(const std::string& version_dir);

absl::StatusOr<Manifest> ReadManifest(const std::string& version_dir);
// Format 2: every blob an entry names exists with that digest, and nothing
// else but MANIFEST.json is in the directory. Format 1: every file the
// manifest lists exists with that sha256, and every artifact in the
// directory is listed. Errors say "corrupted" / "tampered" / "missing blob"
// and name the file. `verified` (may be null) remembers the blobs already
// hashed, so a blob shared by many versions is hashed once.
absl::Status VerifyManifest(const std::string& version_dir, const Manifest& manifest,
                            std::set<std::string>* verified = nullptr);
// Files in a format 2 version directory besides MANIFEST.json: with
// `leftovers`, those a killed writer left (the unchanged files its `files`
// record names, left by a repack killed before removing them, and
// dot-named temporary files: harmless, nothing reads them; repack or fsck
// --remove_unreferenced removes them); otherwise every other file
// (tampering). Sorted paths; empty for format 1.
std::vector<std::string> StrayFiles(const std::string& version_dir, const Manifest& manifest,
                                    bool leftovers);
// Test names of a version directory, sorted: its manifest's (format 2) or
// the stems of *.pbtxt (format 1); empty when it has neither.
std::vector<std::string> ListTests(const std::string& version_dir);
absl::StatusOr<GoldenArtifact> ReadArtifact(const std::string& version_dir,
                                            const std::string& test);
// The same with the version's manifest already read.
absl::StatusOr<GoldenArtifact> ReadArtifact(const std::string& version_dir,
                                            const Manifest& manifest, const std::string& test);

// Text of an artifact (format 1's <test>.pbtxt, aot-compat show):
// deterministic text format.
std::string ArtifactText(const ExecutableProto& executable);

// The artifact blob's bytes (the stamp cleared, deterministic binary) and the
// stamp, for a manifest entry.
std::string ArtifactBlobBytes(const ExecutableProto& executable);
void RecordStamp(const ExecutableProto& executable, ManifestEntry* entry);
// An artifact from its blob's bytes with the entry's stamp applied. A field
// the current schema does not know is refused naming where it is and its
// number (binary artifacts carry no field names).
absl::StatusOr<ExecutableProto> ArtifactFromBlob(const std::string& bytes,
                                                 const ManifestEntry& entry,
                                                 const std::string& where);

// Writes a new version: each artifact and I/O record into the store (blobs
// already there are shared), then the version directory, holding only its
// MANIFEST.json (format 2), into a temporary directory next to it and one
// rename. Refuses to overwrite an existing version. A writer killed at any
// point leaves either no version or the whole one, and at most blobs no
// manifest names (aot-compat fsck reports them).
absl::Status WriteVersion(const std::string& version_dir,
                          const std::vector<GoldenArtifact>& artifacts, Manifest manifest);

// --- The one-time move of a format 1 version into the store -------------

struct RepackResult {
  std::string version_dir;
  bool repacked = false;  // false: already format 2 (leftover files removed)
  int tests = 0;
  int new_blobs = 0;          // blobs this version added to the store
  uint64_t bytes_before = 0;  // the per-file files' bytes
};

// Moves a format 1 version into the store, checked: every file against its
// manifest sha256 first; then each artifact and I/O record into the store;
// then every file rebuilt from the store and compared byte for byte with
// the original; only then the manifest replaced (atomically, keeping each
// file's sha256 as `files`), and the per-file files removed last. Killed at
// any point, it can be run again: a format 2 version's leftover per-file
// files are removed when they match its `files` record. Any mismatch stops
// it with DataLoss naming the file, the version untouched.
absl::StatusOr<RepackResult> RepackVersion(const std::string& version_dir);

// The files of a format 1 version rebuilt from a format 2 manifest (what
// repack checks, and what the corpus test checks over every version):
// file name -> bytes.
absl::StatusOr<std::map<std::string, std::string>> RebuildLegacyFiles(
    const std::string& version_dir, const Manifest& manifest);

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_GOLDEN_STORE_H_
