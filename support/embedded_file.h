#ifndef AOT_SUPPORT_EMBEDDED_FILE_H_
#define AOT_SUPPORT_EMBEDDED_FILE_H_

#include <span>

#include "absl/strings/string_view.h"

namespace aot {

// A file compiled into a binary by cmake/EmbedFiles.cmake.
struct EmbeddedFile {
  absl::string_view name;  // basename
  absl::string_view contents;
};

}  // namespace aot

#endif  // AOT_SUPPORT_EMBEDDED_FILE_H_
