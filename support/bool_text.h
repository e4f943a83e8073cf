#ifndef AOT_SUPPORT_BOOL_TEXT_H_
#define AOT_SUPPORT_BOOL_TEXT_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot {

// Parses a boolean the way every tool, flag and environment variable of the
// project does: 1/true/yes/on and 0/false/no/off (case-insensitive).
absl::StatusOr<bool> ParseBool(absl::string_view text);

}  // namespace aot

#endif  // AOT_SUPPORT_BOOL_TEXT_H_
