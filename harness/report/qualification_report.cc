#include "harness/report/qualification_report.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/report/report_html.h"
#include "harness/report/report_json.h"
#include "harness/report/report_junit.h"
#include "support/file_io.h"

namespace aot {

namespace fs = std::filesystem;

absl::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kBlocked:
      return "blocked";
  }
  return "unknown";
}

absl::string_view TimelineKindName(TimelineKind kind) {
  switch (kind) {
    case TimelineKind::kVersion:
      return "version";
    case TimelineKind::kRelease:
      return "release";
  }
  return "unknown";
}

std::string BlockerMessage(const GateBlocker& blocker) {
  if (blocker.rule.empty()) return blocker.message;
  return absl::StrCat("[", blocker.rule, "] ", blocker.message);
}

std::string ColumnName(const ColumnKey& key) { return absl::StrCat(key.first, ".v", key.second); }

std::map<ColumnKey, std::vector<const ReplayRecord*>> GroupByVersion(
    const QualificationData& data) {
  std::map<ColumnKey, std::vector<const ReplayRecord*>> groups;
  for (const ReplayRecord& cell : data.cells) {
    groups[{cell.target, cell.version}].push_back(&cell);
  }
  return groups;
}

absl::Status WriteQualificationReport(const QualificationData& data, const std::string& out_dir) {
  if (out_dir.empty()) {
    return absl::InvalidArgumentError("qualification report: the output directory is empty");
  }
  std::error_code ec;
  fs::file_status status = fs::status(out_dir, ec);
  if (fs::exists(status) && !fs::is_directory(status)) {
    return absl::FailedPreconditionError(absl::StrCat("qualification report: output path '",
                                                      out_dir, "' exists and is not a directory"));
  }
  ec.clear();
  fs::create_directories(out_dir, ec);
  if (ec) {
    return absl::FailedPreconditionError(absl::StrCat(
        "qualification report: cannot create output directory '", out_dir, "': ", ec.message()));
  }
  const std::pair<const char*, std::string> files[] = {{"report.json", RenderReportJson(data)},
                                                       {"junit.xml", RenderJunitXml(data)},
                                                       {"index.html", RenderHtml(data)}};
  for (const auto& [name, contents] : files) {
    std::string path = (fs::path(out_dir) / name).string();
    if (absl::Status s = WriteFileAtomically(path, contents); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("qualification report: ", s.message()));
    }
  }
  return absl::OkStatus();
}

std::vector<std::pair<std::string, std::vector<const OldRuntimeCell*>>> GroupByRuntime(
    const QualificationData& data) {
  std::vector<std::pair<std::string, std::vector<const OldRuntimeCell*>>> groups;
  for (const OldRuntimeCell& c : data.old_runtimes) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == c.runtime; });
    if (it == groups.end()) {
      groups.push_back({c.runtime, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(&c);
  }
  return groups;
}

}  // namespace aot
