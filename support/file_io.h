#ifndef AOT_SUPPORT_FILE_IO_H_
#define AOT_SUPPORT_FILE_IO_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot {

// Reads a whole file. Fails with NotFound / InvalidArgument naming the path;
// refuses files larger than `max_bytes` before reading them.
absl::StatusOr<std::string> ReadFileToString(const std::string& path,
                                             uint64_t max_bytes = uint64_t{1} << 32);

// Writes `contents` to `path` atomically: a temporary file in the same
// directory, fsync, rename, then fsync of the directory (so the new entry,
// not only the bytes, survives a crash). A reader never sees a partial file;
// on failure the temporary is removed and `path` is untouched.
absl::Status WriteFileAtomically(const std::string& path, absl::string_view contents);

// fsync of a directory: makes the entries created, renamed or removed in it
// durable. Fails naming `dir` when it cannot be opened or synced.
absl::Status SyncDirectory(const std::string& dir);

}  // namespace aot

#endif  // AOT_SUPPORT_FILE_IO_H_
