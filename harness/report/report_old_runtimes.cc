#include "harness/report/report_old_runtimes.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/report/escaping.h"

namespace aot {

void AppendOldRuntimesHtml(const QualificationData& data, std::string* out) {
  if (data.old_runtimes.empty()) return;
  const auto groups = GroupByRuntime(data);
  // Rows: every artifact any runtime ran, in first-seen order.
  std::vector<std::pair<std::string, std::string>> rows;
  std::map<std::pair<std::string, std::string>, std::map<std::string, const OldRuntimeCell*>> at;
  for (const OldRuntimeCell& c : data.old_runtimes) {
    auto key = std::make_pair(c.target, c.test);
    if (!at.count(key)) rows.push_back(key);
    at[key][c.runtime] = &c;
  }
  absl::StrAppend(out, "<h2>Older runtimes</h2>\n<p>What released runtimes, built at their ",
                  "commits, did with these artifacts: P passed, V loaded and validated (no ",
                  "device), M mismatched, R refused by the runtime, N not runnable by its ",
                  "tool.</p>\n<table class=\"old-runtimes\">\n<tr><th>artifact</th>");
  for (const auto& [runtime, cells] : groups) {
    absl::StrAppend(out, "<th title=\"", EscapeHtml(cells.front()->commit), "\">",
                    EscapeHtml(runtime), "</th>");
  }
  absl::StrAppend(out, "</tr>\n");
  for (const auto& key : rows) {
    absl::StrAppend(out, "<tr><td>", EscapeHtml(key.first), "/", EscapeHtml(key.second), "</td>");
    for (const auto& [runtime, cells] : groups) {
      auto it = at[key].find(runtime);
      if (it == at[key].end()) {
        absl::StrAppend(out, "<td></td>");
        continue;
      }
      const OldRuntimeCell& c = *it->second;
      absl::StrAppend(out, "<td class=\"", OldRunOk(c.verdict) ? "status-pass" : "status-fail",
                      "\" title=\"", EscapeHtml(c.detail), "\">",
                      std::string(1, OldRunVerdictLetter(c.verdict)), "</td>");
    }
    absl::StrAppend(out, "</tr>\n");
  }
  absl::StrAppend(out, "</table>\n");
  std::string failures;
  for (const OldRuntimeCell& c : data.old_runtimes) {
    if (OldRunOk(c.verdict)) continue;
    absl::StrAppend(&failures, "<li><span class=\"tag\">", EscapeHtml(c.runtime), "</span>",
                    EscapeHtml(c.target), "/", EscapeHtml(c.test), ": ",
                    OldRunVerdictName(c.verdict), ": ", EscapeHtml(c.detail), "</li>\n");
  }
  if (!failures.empty()) absl::StrAppend(out, "<ul class=\"notices\">\n", failures, "</ul>\n");
}

}  // namespace aot
