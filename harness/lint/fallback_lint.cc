#include "harness/lint/fallback_lint.h"

#include <filesystem>
#include <regex>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "runtime/ffi/ffi_registry.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {

namespace fs = std::filesystem;

namespace {

constexpr char kMarker[] = "Compatibility fallback:";
constexpr char kExpiryPrefix[] = "Can be removed in";

bool IsComment(absl::string_view line) {
  return absl::StartsWith(absl::StripLeadingAsciiWhitespace(line), "//");
}

}  // namespace

bool LintReport::ok() const {
  for (const LintFinding& f : findings) {
    if (f.severity == "error") return false;
  }
  return true;
}

void LintFallbacksInText(const std::string& path, const std::string& text, const Date& now,
                         LintReport* report) {
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  static const std::regex kExpiry(
      R"(Can be removed in ([A-Z][a-z]+) ([0-9]{4}) \(6 months backward compatibility window\)\.)");
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(kMarker) == std::string::npos || !IsComment(lines[i])) continue;
    ++report->fallbacks;
    // The rest of this comment block.
    std::string block;
    size_t expiry_line = i;
    for (size_t j = i; j < lines.size() && IsComment(lines[j]); ++j) {
      if (lines[j].find(kExpiryPrefix) != std::string::npos) expiry_line = j;
      absl::StrAppend(&block, absl::StripLeadingAsciiWhitespace(lines[j]).substr(2), " ");
    }
    // Comment lines may wrap the sentence: match on the joined block.
    std::string joined;
    for (absl::string_view word : absl::StrSplit(block, ' ', absl::SkipEmpty())) {
      if (word == "//") continue;
      absl::StrAppend(&joined, joined.empty() ? "" : " ", word);
    }
    std::smatch match;
    if (joined.find(kExpiryPrefix) == std::string::npos) {
      report->findings.push_back({"error", path, static_cast<int>(i + 1),
                                  "compatibility fallback without an expiry comment \"// Can be "
                                  "removed in <Month YYYY> (6 months backward compatibility "
                                  "window).\""});
      continue;
    }
    if (!std::regex_search(joined, match, kExpiry) || MonthNumber(match[1].str()) == 0) {
      report->findings.push_back({"error", path, static_cast<int>(expiry_line + 1),
                                  "malformed expiry comment: expected \"Can be removed in "
                                  "<Month> <YYYY> (6 months backward compatibility window).\""});
      continue;
    }
    int month = MonthNumber(match[1].str());
    int year = std::stoi(match[2]);
    if (year < now.year || (year == now.year && month <= now.month)) {
      report->findings.push_back(
          {"notice", path, static_cast<int>(i + 1),
           absl::StrCat("fallback expired in ", match[1].str(), " ", year,
                        ": it may be removed now (mark its tags and names reserved)")});
    }
  }
}

absl::StatusOr<LintReport> LintFallbacks(const std::string& root, const Date& now) {
  LintReport report;
  fs::path dir = fs::path(root) / "runtime";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat("no runtime/ directory under ", root));
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    std::string ext = entry.path().extension().string();
    if (ext == ".h" || ext == ".cc") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    AOT_ASSIGN_OR_RETURN(auto text, ReadFileToString(f.string()));
    LintFallbacksInText(fs::relative(f, root).string(), text, now, &report);
  }
  LintAliases(now, &report);
  return report;
}

void LintAliases(const Date& now, LintReport* report) {
  for (const FfiRegistry::AliasInfo& alias : FfiRegistry::Global().Aliases()) {
    auto expiry = Date::Parse(alias.expiry);
    if (!expiry.ok()) {
      report->findings.push_back({"error", "runtime/ffi", 0,
                                  absl::StrCat("alias '", alias.alias,
                                               "' has an unreadable expiry '", alias.expiry, "'")});
      continue;
    }
    if (*expiry <= now) {
      report->findings.push_back(
          {"notice", "runtime/ffi", 0,
           absl::StrCat("alias '", alias.alias, "' -> '", alias.target, "' expired on ",
                        alias.expiry, ": it may be removed now")});
    }
  }
}

}  // namespace aot
