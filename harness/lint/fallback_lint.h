#ifndef AOT_HARNESS_LINT_FALLBACK_LINT_H_
#define AOT_HARNESS_LINT_FALLBACK_LINT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/golden/windows.h"

namespace aot {

// Fallback expiry lint (CONTRACT.md s. 6). A compatibility fallback in the
// runtime is a comment block containing the marker line
//   // Compatibility fallback: <what it keeps working>
// and, within the same comment block, the expiry line
//   // Can be removed in <Month> <YYYY> (6 months backward compatibility window).
// The lint reports:
//   error  - a fallback without an expiry line, or an expiry line that does
//            not parse;
//   notice - a fallback whose expiry month has begun (it may be removed now);
//   notice - a custom-call / FFI alias past its expiry date.
struct LintFinding {
  std::string severity;  // "error" | "notice"
  std::string file;
  int line = 0;
  std::string message;
};

struct LintReport {
  std::vector<LintFinding> findings;
  int fallbacks = 0;
  bool ok() const;  // no errors
};

// Scans *.h / *.cc under `root`/runtime.
absl::StatusOr<LintReport> LintFallbacks(const std::string& root, const Date& now);

// The same on one file's text (`path` is only for messages).
void LintFallbacksInText(const std::string& path, const std::string& text, const Date& now,
                         LintReport* report);

// Aliases past their expiry (from the runtime's FFI registry).
void LintAliases(const Date& now, LintReport* report);

}  // namespace aot

#endif  // AOT_HARNESS_LINT_FALLBACK_LINT_H_
