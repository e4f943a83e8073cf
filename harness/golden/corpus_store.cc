#include "harness/golden/corpus_store.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "support/status_macros.h"

namespace aot {

namespace fs = std::filesystem;

namespace {

// N of a directory named v<N> (canonical digits), or -1.
int VersionNumber(const std::string& name) {
  int v = -1;
  if (name.size() < 2 || name[0] != 'v' || !absl::SimpleAtoi(name.substr(1), &v) || v < 0 ||
      name.substr(1) != absl::StrCat(v)) {
    return -1;
  }
  return v;
}

}  // namespace

std::vector<StoredVersion> ListStoredVersions(const std::string& golden_dir) {
  std::vector<StoredVersion> versions;
  std::error_code ec;
  for (const auto& target : fs::directory_iterator(fs::path(golden_dir) / "executables", ec)) {
    if (!target.is_directory(ec)) continue;
    std::error_code inner;
    for (const auto& dir : fs::directory_iterator(target.path(), inner)) {
      const int v = VersionNumber(dir.path().filename().string());
      if (v < 0 || !dir.is_directory(inner)) continue;
      bool is_version = fs::exists(dir.path() / "MANIFEST.json", inner);
      for (const auto& f : fs::directory_iterator(dir.path(), inner)) {
        if (f.path().extension() == ".pbtxt") is_version = true;
      }
      if (is_version)
        versions.push_back({target.path().filename().string(), v, dir.path().string()});
    }
  }
  std::sort(versions.begin(), versions.end(), [](const StoredVersion& a, const StoredVersion& b) {
    return std::tie(a.target, a.version) < std::tie(b.target, b.version);
  });
  return versions;
}

absl::StatusOr<std::set<std::string>> ReferencedBlobs(
    const std::string& golden_dir, const std::function<bool(const StoredVersion&)>& skip) {
  std::set<std::string> referenced;
  for (const StoredVersion& v : ListStoredVersions(golden_dir)) {
    if (skip && skip(v)) continue;
    AOT_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(v.dir));
    manifest.AddBlobKeys(&referenced);
  }
  return referenced;
}

namespace {

// Files in the store no manifest names (`referenced`).
std::vector<std::string> UnreferencedFiles(const BlobStore& store,
                                           const std::set<std::string>& referenced) {
  std::vector<std::string> out;
  for (const char* kind : {kArtifactBlobs, kIoBlobs}) {
    for (const BlobStore::Entry& e : store.List(kind)) {
      if (e.digest.empty() || !referenced.contains(BlobKey(kind, e.digest))) {
        out.push_back(e.path);
      }
    }
  }
  return out;
}

absl::Status RemoveFiles(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::remove(path, ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot remove ", path, ": ", ec.message()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> RemoveUnreferencedBlobs(const std::string& golden_dir,
                                                                 bool dry_run) {
  AOT_ASSIGN_OR_RETURN(auto referenced, ReferencedBlobs(golden_dir));
  std::vector<std::string> unreferenced =
      UnreferencedFiles(GoldenBlobStore(golden_dir), referenced);
  if (!dry_run) AOT_RETURN_IF_ERROR(RemoveFiles(unreferenced));
  return unreferenced;
}

FsckReport FsckCorpus(const std::string& golden_dir, bool remove_unreferenced) {
  FsckReport report;
  const BlobStore store = GoldenBlobStore(golden_dir);
  std::set<std::string> referenced;
  std::set<std::string> verified;
  for (const StoredVersion& v : ListStoredVersions(golden_dir)) {
    ++report.versions;
    auto manifest = ReadManifest(v.dir);
    if (!manifest.ok()) {
      report.errors.push_back(std::string(manifest.status().message()));
      continue;
    }
    if (manifest->format == 1) ++report.per_file_versions;
    for (const std::string& path : StrayFiles(v.dir, *manifest, /*leftovers=*/true)) {
      report.unreferenced.push_back(path);
    }
    report.tests += static_cast<int>(manifest->TestNames().size());
    manifest->AddBlobKeys(&referenced);
    // One error per version: the first thing wrong, naming its file; then
    // the remaining blobs of the version are still checked.
    if (absl::Status s = VerifyManifest(v.dir, *manifest, &verified); !s.ok()) {
      report.errors.push_back(std::string(s.message()));
    }
  }
  for (const char* kind : {kArtifactBlobs, kIoBlobs}) {
    for (const BlobStore::Entry& e : store.List(kind)) {
      if (e.digest.empty()) continue;
      ++report.blobs;
      report.blob_bytes += e.size;
      const std::string key = BlobKey(kind, e.digest);
      if (referenced.contains(key) || verified.contains(key)) continue;
      // Unreferenced blobs are checked too: a damaged one is still damage.
      if (auto bytes = store.Get(kind, e.digest); !bytes.ok()) {
        report.errors.push_back(std::string(bytes.status().message()));
      }
    }
  }
  for (const std::string& path : UnreferencedFiles(store, referenced)) {
    report.unreferenced.push_back(path);
  }
  if (remove_unreferenced && report.ok()) {
    if (absl::Status s = RemoveFiles(report.unreferenced); !s.ok()) {
      report.errors.push_back(std::string(s.message()));
    } else {
      report.removed_unreferenced = true;
    }
  }
  return report;
}

nlohmann::ordered_json FsckReport::ToJson() const {
  nlohmann::ordered_json j;
  j["ok"] = ok();
  j["versions"] = versions;
  j["per_file_versions"] = per_file_versions;
  j["tests"] = tests;
  j["blobs"] = blobs;
  j["blob_bytes"] = blob_bytes;
  j["errors"] = errors;
  j["unreferenced"] = unreferenced;
  j["removed_unreferenced"] = removed_unreferenced;
  return j;
}

std::string FsckReport::Summary() const {
  std::string out = absl::StrFormat(
      "fsck: %d versions (%d per-file, not yet repacked), %d tests, %d blobs (%.1f MB), %d "
      "unreferenced%s, %d errors\n",
      versions, per_file_versions, tests, blobs, blob_bytes / 1e6, unreferenced.size(),
      removed_unreferenced ? " (removed)" : "", errors.size());
  for (const std::string& e : errors) absl::StrAppend(&out, "  error: ", e, "\n");
  for (const std::string& u : unreferenced) {
    absl::StrAppend(&out, "  unreferenced: ", u, removed_unreferenced ? " (removed)" : "", "\n");
  }
  return out;
}

std::string GoldenRef::ToString() const { return absl::StrCat(target, "/v", version, "/", test); }

absl::StatusOr<GoldenRef> ParseGoldenRef(absl::string_view text) {
  std::vector<std::string> parts = absl::StrSplit(text, '/');
  GoldenRef ref;
  if (parts.size() != 3 || parts[0].empty() || parts[2].empty() ||
      (ref.version = VersionNumber(parts[1])) < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not TARGET/vN/TEST (e.g. host-x86-64-v3/v20/add_mul)"));
  }
  ref.target = parts[0];
  ref.test = parts[2];
  return ref;
}

std::string GoldenRefDir(const std::string& golden_dir, const GoldenRef& ref) {
  return (fs::path(golden_dir) / "executables" / ref.target / absl::StrCat("v", ref.version))
      .string();
}

absl::StatusOr<GoldenArtifact> ReadGoldenRef(const std::string& golden_dir, const GoldenRef& ref) {
  const std::string dir = GoldenRefDir(golden_dir, ref);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat(ref.ToString(), ": no such version (", dir, ")"));
  }
  AOT_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(dir));
  if (!manifest.HasTest(ref.test)) {
    return absl::NotFoundError(
        absl::StrCat(ref.ToString(), ": ", dir, "/MANIFEST.json names no test '", ref.test, "'"));
  }
  return ReadArtifact(dir, manifest, ref.test);
}

}  // namespace aot
