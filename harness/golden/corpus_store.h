#ifndef AOT_HARNESS_GOLDEN_CORPUS_STORE_H_
#define AOT_HARNESS_GOLDEN_CORPUS_STORE_H_

// Operations over a whole corpus's store (golden_store.h): integrity check,
// retirement of blobs no version names, and addressing one golden test as
// TARGET/vN/TEST for show and diff. Apart from the compiler, like
// golden_store.

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/golden/golden_store.h"
#include "nlohmann/json.hpp"

namespace aot {

// Every version directory under <golden_dir>/executables (v<N> holding a
// MANIFEST.json or a *.pbtxt), by target then version number.
struct StoredVersion {
  std::string target;
  int version = 0;
  std::string dir;
};
std::vector<StoredVersion> ListStoredVersions(const std::string& golden_dir);

// The BlobKey of every blob a format 2 manifest under golden_dir names,
// leaving out the versions `skip` (when given) returns true for. An
// unreadable manifest is an error naming it (nothing may be retired while
// one is unreadable).
absl::StatusOr<std::set<std::string>> ReferencedBlobs(
    const std::string& golden_dir, const std::function<bool(const StoredVersion&)>& skip = nullptr);

// Blobs (and stray files) in the store that no manifest names: removed
// unless `dry_run`; their paths either way.
absl::StatusOr<std::vector<std::string>> RemoveUnreferencedBlobs(const std::string& golden_dir,
                                                                 bool dry_run);

struct FsckReport {
  int versions = 0;
  int per_file_versions = 0;  // format 1, not yet repacked
  int tests = 0;              // (version, test) entries
  int blobs = 0;              // distinct blobs in the store
  uint64_t blob_bytes = 0;
  // Each a line naming the file: an unreadable manifest, a manifest naming a
  // missing (dangling) or corrupted blob, a stray file in a version
  // directory, a per-file version whose files do not match its manifest.
  std::vector<std::string> errors;
  // Blobs no manifest names, files in the store that are not blobs, and
  // per-file files an interrupted repack left in a version directory.
  std::vector<std::string> unreferenced;
  bool removed_unreferenced = false;
  bool ok() const { return errors.empty(); }
  nlohmann::ordered_json ToJson() const;
  std::string Summary() const;
};

// Reads every manifest and every blob of the corpus once: every digest is
// checked against the bytes. With `remove_unreferenced`, the unreferenced
// blobs are then removed (only when no error was found).
FsckReport FsckCorpus(const std::string& golden_dir, bool remove_unreferenced);

// TARGET/vN/TEST, as `aot-compat show` and `diff` take it.
struct GoldenRef {
  std::string target;
  int version = 0;
  std::string test;
  std::string ToString() const;
};
absl::StatusOr<GoldenRef> ParseGoldenRef(absl::string_view text);
std::string GoldenRefDir(const std::string& golden_dir, const GoldenRef& ref);
// The test as its version holds it: InvalidArgument / NotFound naming what
// is wrong (no such version, a manifest naming no such test, a missing or
// corrupted blob).
absl::StatusOr<GoldenArtifact> ReadGoldenRef(const std::string& golden_dir, const GoldenRef& ref);

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_CORPUS_STORE_H_
