#include "support/blob_store.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "support/file_io.h"
#include "support/sha256.h"

namespace aot {

namespace fs = std::filesystem;

bool IsSha256Hex(absl::string_view digest) {
  return digest.size() == 64 && std::all_of(digest.begin(), digest.end(), [](char c) {
           return absl::ascii_isdigit(c) || (c >= 'a' && c <= 'f');
         });
}

std::string BlobStore::PathOf(absl::string_view kind, absl::string_view digest) const {
  return (fs::path(root_) / std::string(kind) / std::string(digest.substr(0, 2)) /
          absl::StrCat(digest, ".pb"))
      .string();
}

bool BlobStore::Contains(absl::string_view kind, absl::string_view digest) const {
  std::error_code ec;
  return IsSha256Hex(digest) && fs::is_regular_file(PathOf(kind, digest), ec);
}

absl::StatusOr<std::string> BlobStore::Put(absl::string_view kind, absl::string_view bytes) const {
  std::string digest = Sha256Hex(bytes);
  const std::string path = PathOf(kind, digest);
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    // Blobs are immutable: an intact one is never written again.
    auto existing = ReadFileToString(path);
    if (existing.ok() && *existing == bytes) return digest;
  }
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) {
    return absl::InternalError(absl::StrCat("cannot create the blob directory ",
                                            fs::path(path).parent_path().string(), ": ",
                                            ec.message()));
  }
  if (absl::Status s = WriteFileAtomically(path, bytes); !s.ok()) return s;
  return digest;
}

absl::StatusOr<std::string> BlobStore::Get(absl::string_view kind, absl::string_view digest) const {
  if (!IsSha256Hex(digest)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", digest, "' is not a sha256 digest (64 lowercase hex digits)"));
  }
  const std::string path = PathOf(kind, digest);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return absl::DataLossError(absl::StrCat("missing blob: ", path, " (", kind, " ", digest,
                                            ") is named by a manifest but not in the store"));
  }
  auto bytes = ReadFileToString(path);
  if (!bytes.ok()) {
    return absl::DataLossError(
        absl::StrCat("unreadable blob: ", path, ": ", bytes.status().message()));
  }
  std::string actual = Sha256Hex(*bytes);
  if (actual != digest) {
    return absl::DataLossError(absl::StrCat("corrupted or tampered blob: sha256 of ", path, " is ",
                                            actual, ", its name says ", digest));
  }
  return bytes;
}

std::vector<BlobStore::Entry> BlobStore::List(absl::string_view kind) const {
  std::vector<Entry> entries;
  std::error_code ec;
  const fs::path dir = fs::path(root_) / std::string(kind);
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    Entry e;
    e.path = it->path().string();
    e.size = it->file_size(ec);
    const std::string name = it->path().filename().string();
    const std::string parent = it->path().parent_path().filename().string();
    if (name.size() == 67 && name.substr(64) == ".pb" && IsSha256Hex(name.substr(0, 64)) &&
        it->path().parent_path().parent_path() == dir && parent == name.substr(0, 2)) {
      e.digest = name.substr(0, 64);
    }
    entries.push_back(std::move(e));
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.path < b.path; });
  return entries;
}

absl::Status BlobStore::Remove(absl::string_view kind, absl::string_view digest) const {
  if (!IsSha256Hex(digest)) {
    return absl::InvalidArgumentError(absl::StrCat("'", digest, "' is not a sha256 digest"));
  }
  std::error_code ec;
  fs::remove(PathOf(kind, digest), ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot remove ", PathOf(kind, digest), ": ", ec.message()));
  }
  return absl::OkStatus();
}

}  // namespace aot
