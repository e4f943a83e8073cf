#include "support/bool_text.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace aot {

absl::StatusOr<bool> ParseBool(absl::string_view text) {
  std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  if (lower == "1" || lower == "true" || lower == "yes" || lower == "on") {
    return true;
  }
  if (lower == "0" || lower == "false" || lower == "no" || lower == "off") {
    return false;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", text, "' is not a boolean (use 1/0, true/false)"));
}

}  // namespace aot
