#ifndef AOT_SUPPORT_BLOB_STORE_H_
#define AOT_SUPPORT_BLOB_STORE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot {

// A content-addressed store of immutable blobs on disk:
//   <root>/<kind>/<first two hex digits>/<sha256>.pb
// Each distinct byte string is stored once, named by the SHA-256 of its
// bytes; `kind` ("artifacts", "io") keeps unrelated blobs apart. Writes are
// atomic (temporary file, fsync, rename, directory fsync), so a reader or a
// writer killed at any point never sees a partial blob; every read checks
// the bytes against their name.
class BlobStore {
 public:
  explicit BlobStore(std::string root) : root_(std::move(root)) {}

  const std::string& root() const { return root_; }

  // The file a blob of `kind` with `digest` lives in (whether or not it
  // exists).
  std::string PathOf(absl::string_view kind, absl::string_view digest) const;

  // Stores `bytes` (nothing is written when an intact blob with those bytes
  // is already there; a damaged one is replaced) and returns its digest.
  absl::StatusOr<std::string> Put(absl::string_view kind, absl::string_view bytes) const;

  // The blob's bytes, checked against `digest`: DataLoss naming the file
  // when it is missing ("missing blob") or its bytes do not hash to its name
  // ("corrupted or tampered blob"); InvalidArgument for a malformed digest.
  absl::StatusOr<std::string> Get(absl::string_view kind, absl::string_view digest) const;

  // Whether the blob's file exists (its bytes are not read).
  bool Contains(absl::string_view kind, absl::string_view digest) const;

  // One file under <root>/<kind>: its digest (empty when the name is not
  // "<64 hex>.pb" in the directory its first two digits name) and path.
  struct Entry {
    std::string digest;
    std::string path;
    uint64_t size = 0;
  };
  // Every regular file under <root>/<kind>, sorted by path (an absent kind
  // directory is empty, not an error).
  std::vector<Entry> List(absl::string_view kind) const;

  // Removes a blob (absent: nothing to do). For retirement and fsck only:
  // a blob still named by a manifest must never be removed.
  absl::Status Remove(absl::string_view kind, absl::string_view digest) const;

 private:
  std::string root_;
};

// Whether `digest` is 64 lowercase hex digits.
bool IsSha256Hex(absl::string_view digest);

}  // namespace aot

#endif  // AOT_SUPPORT_BLOB_STORE_H_
