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
// directory, fsync, then rename. A reader never sees a partial file; on
// failure the temporary is removed and `path` is untouched.
absl::Status WriteFileAtomically(const std::string& path, absl::string_view contents);

}  // namespace aot

#endif  // AOT_SUPPORT_FILE_IO_H_
