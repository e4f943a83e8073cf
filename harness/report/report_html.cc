#include "harness/report/report_html.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "harness/report/escaping.h"
#include "harness/report/report_css.h"
#include "harness/report/report_old_runtimes.h"
#include "support/date.h"

namespace aot {

namespace {

// How bad a status is, for showing one of several cells in a grid square.
int Severity(ReplayStatus status) {
  switch (status) {
    case ReplayStatus::kPass:
      return 0;
    case ReplayStatus::kSkipped:
      return 1;
    case ReplayStatus::kExpired:
      return 2;
    case ReplayStatus::kFail:
      return 4;
  }
  return 3;
}

std::string StatusClass(ReplayStatus status) {
  return absl::StrCat("status-", ReplayStatusName(status));
}

// Days since 1970-01-01 of a valid date (the proleptic Gregorian calendar).
int64_t DayNumber(const Date& date) {
  static const int kCumulative[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
  int64_t y = date.year;
  int64_t days = 365 * (y - 1970);
  // Leap days in the years [1970, y).
  const auto leaps_before = [](int64_t year) {
    int64_t p = year - 1;
    return p / 4 - p / 100 + p / 400;
  };
  days += leaps_before(y) - leaps_before(1970);
  days += kCumulative[date.month - 1];
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (leap && date.month > 2) ++days;
  return days + date.day - 1;
}

std::optional<int64_t> ParseDay(absl::string_view text) {
  absl::StatusOr<Date> date = Date::Parse(text);
  if (!date.ok()) return std::nullopt;
  return DayNumber(*date);
}

void AppendMeta(const QualificationData& data, std::string* out) {
  absl::StrAppend(out, "<p class=\"meta\">");
  const auto item = [&](absl::string_view name, const std::string& value) {
    absl::StrAppend(out, "<span><b>", name, ":</b> ", value.empty() ? "&mdash;" : EscapeHtml(value),
                    "</span>");
  };
  item("now", data.now);
  item("backward window start", data.backward_window_start);
  item("forward window start", data.forward_window_start);
  item("tool", data.tool_version);
  absl::StrAppend(out, "</p>\n");
}

void AppendVerdict(const QualificationData& data, std::string* out) {
  switch (data.verdict) {
    case Verdict::kPass: {
      // Qualified only where the goldens ran: a target whose replays were
      // all skipped was loaded and validated, not executed.
      ExecutionCoverage coverage = ComputeExecutionCoverage(data.cells);
      if (coverage.complete()) {
        absl::StrAppend(out,
                        "<div class=\"verdict verdict-pass\">PASS &mdash; "
                        "release qualified</div>\n");
      } else {
        absl::StrAppend(out,
                        "<div class=\"verdict verdict-pass\">PASS &mdash; not fully qualified: ",
                        EscapeHtml(coverage.Describe()), "</div>\n");
      }
      break;
    }
    case Verdict::kBlocked:
      absl::StrAppend(out, "<div class=\"verdict verdict-blocked\">BLOCKED &mdash; ",
                      data.blockers.size(), data.blockers.size() == 1 ? " blocker" : " blockers",
                      "</div>\n");
      break;
  }
}

void AppendChecks(const QualificationData& data, std::string* out) {
  absl::StrAppend(out, "<h2>Checks</h2>\n");
  if (data.checks.empty()) {
    absl::StrAppend(out, "<p class=\"empty\">No checks recorded.</p>\n");
    return;
  }
  absl::StrAppend(out,
                  "<table class=\"checks\"><tr><th>check</th><th>result</th>"
                  "<th>summary</th><th>blockers</th></tr>\n");
  for (const GateCheck& check : data.checks) {
    size_t blockers = std::count_if(data.blockers.begin(), data.blockers.end(),
                                    [&](const GateBlocker& b) { return b.check == check.name; });
    absl::StrAppend(out, "<tr><td>", EscapeHtml(check.name), "</td><td class=\"",
                    check.ok ? "check-ok\">&#10003; ok" : "check-failed\">&#10007; failed",
                    "</td><td>", EscapeHtml(check.summary), "</td><td>", blockers, "</td></tr>\n");
  }
  absl::StrAppend(out, "</table>\n");
}

void AppendMatrix(const QualificationData& data, std::string* out) {
  absl::StrAppend(out, "<h2>Replay matrix</h2>\n");
  if (data.cells.empty()) {
    absl::StrAppend(out, "<p class=\"empty\">No replays recorded.</p>\n");
    return;
  }
  // The count of each status, ordered by the status's name.
  std::map<absl::string_view, std::pair<ReplayStatus, int>> counts;
  for (const ReplayRecord& cell : data.cells) {
    ++counts.try_emplace(ReplayStatusName(cell.status), cell.status, 0).first->second.second;
  }
  absl::StrAppend(out, "<p class=\"legend\">", data.cells.size(), " replays: ");
  for (const auto& [name, status_count] : counts) {
    absl::StrAppend(out, "<span class=\"", StatusClass(status_count.first), "\">", EscapeHtml(name),
                    " ", status_count.second, "</span>");
  }
  absl::StrAppend(out, "</p>\n");

  std::map<ColumnKey, std::vector<const ReplayRecord*>> columns = GroupByVersion(data);
  std::set<std::string> tests;
  // (test, column) -> cells (normally one).
  std::map<std::pair<std::string, ColumnKey>, std::vector<const ReplayRecord*>> grid;
  for (const ReplayRecord& cell : data.cells) {
    tests.insert(cell.test);
    grid[{cell.test, {cell.target, cell.version}}].push_back(&cell);
  }

  absl::StrAppend(out,
                  "<div class=\"matrix-wrap\"><table class=\"matrix\">"
                  "<tr><th>test</th>");
  for (const auto& [key, cells] : columns) {
    int passed = std::count_if(cells.begin(), cells.end(),
                               [](auto* c) { return c->status == ReplayStatus::kPass; });
    std::string date = cells.front()->version_date;
    absl::StrAppend(out, "<th class=\"col\">", EscapeHtml(key.first), "<br>v", key.second,
                    date.empty() ? "" : "<br><small>", EscapeHtml(date),
                    date.empty() ? "" : "</small>", "<br><small>", passed, "/", cells.size(),
                    " pass</small></th>");
  }
  absl::StrAppend(out, "</tr>\n");
  for (const std::string& test : tests) {
    absl::StrAppend(out, "<tr><th>", EscapeHtml(test), "</th>");
    for (const auto& column : columns) {
      auto it = grid.find({test, column.first});
      if (it == grid.end()) {
        absl::StrAppend(out,
                        "<td class=\"cell status-none\" title=\"not "
                        "replayed\">&middot;</td>");
        continue;
      }
      const ReplayRecord* worst = it->second.front();
      std::vector<std::string> lines;
      for (const ReplayRecord* cell : it->second) {
        if (Severity(cell->status) > Severity(worst->status)) worst = cell;
        std::string line =
            absl::StrCat(ColumnName(column.first), " ", test, ": ", ReplayStatusName(cell->status));
        if (!cell->reason.empty()) absl::StrAppend(&line, " - ", cell->reason);
        absl::StrAppend(&line, "\nload ", MarkupNumber(cell->load_ms, 2), " ms, run ",
                        MarkupNumber(cell->run_ms, 2), " ms");
        lines.push_back(std::move(line));
      }
      absl::StrAppend(out, "<td class=\"cell ", StatusClass(worst->status), "\" title=\"",
                      EscapeHtml(absl::StrJoin(lines, "\n")), "\">",
                      EscapeHtml(ReplayStatusName(worst->status)),
                      it->second.size() > 1 ? absl::StrCat(" &times;", it->second.size()) : "",
                      "</td>");
    }
    absl::StrAppend(out, "</tr>\n");
  }
  absl::StrAppend(out, "</table></div>\n");
}

// The x coordinate of a day on a linear scale.
struct DayScale {
  int64_t first = 0;
  int64_t last = 1;  // > first
  double left = 0, right = 1;
  double X(int64_t day) const {
    return left +
           (right - left) * static_cast<double>(day - first) / static_cast<double>(last - first);
  }
};

void AppendTimeline(const QualificationData& data, std::string* out) {
  absl::StrAppend(out, "<h2>Timeline</h2>\n");
  struct Boundary {
    const char* css;
    const char* label;
    std::string date;
    std::optional<int64_t> day;
  };
  std::vector<Boundary> boundaries = {
      {"b-backward", "backward window start", data.backward_window_start, {}},
      {"b-forward", "forward window start", data.forward_window_start, {}},
      {"b-now", "now", data.now, {}}};
  std::vector<int64_t> days;
  for (Boundary& b : boundaries) {
    b.day = ParseDay(b.date);
    if (b.day) days.push_back(*b.day);
  }
  std::vector<std::pair<const TimelineEntry*, int64_t>> entries;
  std::vector<std::string> undated;
  for (const TimelineEntry& entry : data.timeline) {
    std::optional<int64_t> day = ParseDay(entry.date);
    if (!day) {
      undated.push_back(entry.label);
      continue;
    }
    entries.push_back({&entry, *day});
    days.push_back(*day);
  }
  if (days.empty()) {
    absl::StrAppend(out, "<p class=\"empty\">No dated entries.</p>\n");
    return;
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.second < b.second; });

  constexpr double kWidth = 1200, kHeight = 440;
  constexpr double kAxisY = 240, kVersionY = 212, kReleaseY = 268;
  constexpr double kLineTop = 58, kLineBottom = kHeight - 8;
  int64_t min_day = *std::min_element(days.begin(), days.end());
  int64_t max_day = *std::max_element(days.begin(), days.end());
  int64_t pad = std::max<int64_t>(3, (max_day - min_day) / 30);
  DayScale scale{min_day - pad, max_day + pad, 40, kWidth - 200};

  absl::StrAppend(out, "<svg class=\"timeline\" width=\"", MarkupNumber(kWidth, 0), "\" height=\"",
                  MarkupNumber(kHeight, 0), "\" viewBox=\"0 0 ", MarkupNumber(kWidth, 0), " ",
                  MarkupNumber(kHeight, 0),
                  "\" role=\"img\" aria-label=\"versions and releases by "
                  "date\">\n");

  std::optional<int64_t> backward = boundaries[0].day;
  std::optional<int64_t> forward = boundaries[1].day;
  std::optional<int64_t> now = boundaries[2].day;
  // The windows as bands ending at now.
  if (backward && now && *backward <= *now) {
    absl::StrAppend(out, "<rect x=\"", MarkupNumber(scale.X(*backward), 1), "\" y=\"",
                    MarkupNumber(kLineTop, 1), "\" width=\"",
                    MarkupNumber(scale.X(*now) - scale.X(*backward), 1), "\" height=\"",
                    MarkupNumber(kLineBottom - kLineTop, 1),
                    "\" fill=\"#ef6c00\" fill-opacity=\"0.07\"/>\n");
  }
  if (forward && now && *forward <= *now) {
    absl::StrAppend(
        out, "<rect x=\"", MarkupNumber(scale.X(*forward), 1), "\" y=\"", MarkupNumber(kLineTop, 1),
        "\" width=\"", MarkupNumber(scale.X(*now) - scale.X(*forward), 1), "\" height=\"",
        MarkupNumber(kLineBottom - kLineTop, 1), "\" fill=\"#1565c0\" fill-opacity=\"0.10\"/>\n");
  }

  // Month ticks, at most ~14 labelled.
  Date first;
  {
    // The first month start at or after the scale's first day.
    int64_t d = scale.first;
    int year = 1970 + static_cast<int>(d / 366);
    while (DayNumber({year + 1, 1, 1}) <= d) ++year;
    int month = 1;
    while (month < 12 && DayNumber({year, month + 1, 1}) <= d) ++month;
    first = Date{year, month, 1};
    if (DayNumber(first) < d) {
      first = month == 12 ? Date{year + 1, 1, 1} : Date{year, month + 1, 1};
    }
  }
  std::vector<Date> ticks;
  for (Date t = first; DayNumber(t) <= scale.last;
       t = t.month == 12 ? Date{t.year + 1, 1, 1} : Date{t.year, t.month + 1, 1}) {
    ticks.push_back(t);
  }
  size_t step = std::max<size_t>(1, (ticks.size() + 13) / 14);
  for (size_t i = 0; i < ticks.size(); ++i) {
    double x = scale.X(DayNumber(ticks[i]));
    absl::StrAppend(out, "<line class=\"tick\" x1=\"", MarkupNumber(x, 1), "\" y1=\"",
                    MarkupNumber(kAxisY - 6, 1), "\" x2=\"", MarkupNumber(x, 1), "\" y2=\"",
                    MarkupNumber(kAxisY + 6, 1), "\"/>");
    if (i % step == 0) {
      absl::StrAppend(out, "<text x=\"", MarkupNumber(x, 1), "\" y=\"",
                      MarkupNumber(kAxisY + 17, 1), "\" text-anchor=\"middle\">",
                      ticks[i].ToString().substr(0, 7), "</text>");
    }
    absl::StrAppend(out, "\n");
  }
  absl::StrAppend(out, "<line class=\"axis\" x1=\"", MarkupNumber(scale.left, 1), "\" y1=\"",
                  MarkupNumber(kAxisY, 1), "\" x2=\"", MarkupNumber(scale.right, 1), "\" y2=\"",
                  MarkupNumber(kAxisY, 1), "\"/>\n");

  // Versions above the axis, releases below. Labels of entries on the same
  // day stack (one row each), and flip to the left near the right edge.
  std::map<std::pair<TimelineKind, int64_t>, int> rows;
  for (const auto& [entry, day] : entries) {
    double x = scale.X(day);
    int row = rows[{entry->kind, day}]++;
    bool flip = x > scale.right - 220;
    double label_x = flip ? x - 8 : x + 8;
    const char* anchor = flip ? "end" : "start";
    std::string tip = EscapeHtml(
        absl::StrCat(TimelineKindName(entry->kind), " ", entry->label, " (", entry->date, ")"));
    if (entry->kind == TimelineKind::kRelease) {
      absl::StrAppend(out, "<g><title>", tip, "</title><rect class=\"tl-release\" x=\"",
                      MarkupNumber(x - 5, 1), "\" y=\"", MarkupNumber(kReleaseY - 5, 1),
                      "\" width=\"10\" height=\"10\" transform=\"rotate(45 ", MarkupNumber(x, 1),
                      " ", MarkupNumber(kReleaseY, 1), ")\"/><text x=\"", MarkupNumber(label_x, 1),
                      "\" y=\"", MarkupNumber(kReleaseY + 18 + 14 * row, 1), "\" text-anchor=\"",
                      anchor, "\">", EscapeHtml(entry->label), "</text></g>\n");
    } else {
      bool old = backward && day < *backward;
      absl::StrAppend(out, "<g><title>", tip, old ? " - outside the backward window" : "",
                      "</title><circle class=\"", old ? "tl-version-old" : "tl-version", "\" cx=\"",
                      MarkupNumber(x, 1), "\" cy=\"", MarkupNumber(kVersionY, 1),
                      "\" r=\"5\"/><text x=\"", MarkupNumber(label_x, 1), "\" y=\"",
                      MarkupNumber(kVersionY - 12 - 14 * row, 1), "\" text-anchor=\"", anchor,
                      "\">", EscapeHtml(entry->label), "</text></g>\n");
    }
  }

  // The boundaries: one label row each, so they never overlap.
  double mid = (scale.left + scale.right) / 2;
  for (size_t i = 0; i < boundaries.size(); ++i) {
    const Boundary& b = boundaries[i];
    if (!b.day) continue;
    double x = scale.X(*b.day);
    double label_y = 16 + 16 * static_cast<double>(i);
    absl::StrAppend(out, "<line class=\"boundary ", b.css, "\" x1=\"", MarkupNumber(x, 1),
                    "\" y1=\"", MarkupNumber(label_y + 4, 1), "\" x2=\"", MarkupNumber(x, 1),
                    "\" y2=\"", MarkupNumber(kLineBottom, 1), "\"/><text x=\"",
                    MarkupNumber(x > mid ? x - 4 : x + 4, 1), "\" y=\"", MarkupNumber(label_y, 1),
                    "\" text-anchor=\"", x > mid ? "end" : "start", "\">", b.label, " ",
                    EscapeHtml(b.date), "</text>\n");
  }
  absl::StrAppend(out, "</svg>\n");
  absl::StrAppend(out,
                  "<p class=\"meta\"><span>&#9679; golden version (grey: before the "
                  "backward window)</span><span>&#9670; release</span></p>\n");
  if (!undated.empty()) {
    absl::StrAppend(out, "<p class=\"empty\">Undated: ", EscapeHtml(absl::StrJoin(undated, ", ")),
                    "</p>\n");
  }
}

void AppendTimings(const QualificationData& data, std::string* out) {
  absl::StrAppend(out, "<h2>Load and run time per version</h2>\n");
  std::map<ColumnKey, std::vector<const ReplayRecord*>> groups = GroupByVersion(data);
  if (groups.empty()) {
    absl::StrAppend(out, "<p class=\"empty\">No timings recorded.</p>\n");
    return;
  }
  struct Row {
    std::string label;
    int runs = 0;
    double load = 0, run = 0;  // means over replays that ran
  };
  std::vector<Row> rows;
  double max = 0;
  for (const auto& [key, cells] : groups) {
    Row row{ColumnName(key)};
    for (const ReplayRecord* cell : cells) {
      if (cell->status != ReplayStatus::kPass && cell->status != ReplayStatus::kFail) continue;
      ++row.runs;
      row.load += FiniteNonNegative(cell->load_ms);
      row.run += FiniteNonNegative(cell->run_ms);
    }
    if (row.runs > 0) {
      row.load /= row.runs;
      row.run /= row.runs;
    }
    max = std::max({max, row.load, row.run});
    rows.push_back(std::move(row));
  }
  if (!(max > 0)) max = 1;  // all zero: bars of zero length, no 0/0

  constexpr double kLabelWidth = 240, kBarWidth = 760, kRowHeight = 36;
  constexpr double kTop = 26;
  double height = kTop + kRowHeight * static_cast<double>(rows.size()) + 8;
  double width = kLabelWidth + kBarWidth + 160;
  absl::StrAppend(out, "<svg class=\"timings\" width=\"", MarkupNumber(width, 0), "\" height=\"",
                  MarkupNumber(height, 0), "\" viewBox=\"0 0 ", MarkupNumber(width, 0), " ",
                  MarkupNumber(height, 0),
                  "\" role=\"img\" aria-label=\"mean load and run time per "
                  "target and version\">\n");
  absl::StrAppend(
      out, "<rect class=\"bar-load\" x=\"", MarkupNumber(kLabelWidth, 0),
      "\" y=\"6\" width=\"12\" height=\"10\"/><text x=\"", MarkupNumber(kLabelWidth + 16, 0),
      "\" y=\"15\">mean load ms</text><rect class=\"bar-run\" x=\"",
      MarkupNumber(kLabelWidth + 120, 0), "\" y=\"6\" width=\"12\" height=\"10\"/><text x=\"",
      MarkupNumber(kLabelWidth + 136, 0), "\" y=\"15\">mean run ms (replays that ran)</text>\n");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    double y = kTop + kRowHeight * static_cast<double>(i);
    absl::StrAppend(out, "<text x=\"", MarkupNumber(kLabelWidth - 8, 0), "\" y=\"",
                    MarkupNumber(y + 20, 1), "\" text-anchor=\"end\">", EscapeHtml(row.label),
                    "</text>");
    if (row.runs == 0) {
      absl::StrAppend(out, "<text x=\"", MarkupNumber(kLabelWidth, 0), "\" y=\"",
                      MarkupNumber(y + 20, 1), "\">no replays ran</text>\n");
      continue;
    }
    const auto bar = [&](const char* css, double value, double bar_y, const char* what) {
      double w = kBarWidth * value / max;
      absl::StrAppend(out, "<rect class=\"", css, "\" x=\"", MarkupNumber(kLabelWidth, 1),
                      "\" y=\"", MarkupNumber(bar_y, 1), "\" width=\"", MarkupNumber(w, 1),
                      "\" height=\"13\"><title>", EscapeHtml(row.label), " ", what, " ",
                      MarkupNumber(value, 3), " ms (mean of ", row.runs,
                      ")</title></rect><text x=\"", MarkupNumber(kLabelWidth + w + 4, 1), "\" y=\"",
                      MarkupNumber(bar_y + 11, 1), "\">", MarkupNumber(value, 2), " ms</text>");
    };
    bar("bar-load", row.load, y + 3, "load");
    bar("bar-run", row.run, y + 18, "run");
    absl::StrAppend(out, "\n");
  }
  absl::StrAppend(out, "</svg>\n");
}

void AppendFindings(const QualificationData& data, std::string* out) {
  absl::StrAppend(out, "<h2>Blockers</h2>\n");
  if (data.blockers.empty()) {
    absl::StrAppend(out, "<p class=\"empty\">None.</p>\n");
  } else {
    absl::StrAppend(out, "<ol class=\"blockers\">\n");
    for (const GateBlocker& b : data.blockers) {
      absl::StrAppend(out, "<li><span class=\"tag\">", EscapeHtml(b.check), "</span>",
                      EscapeHtml(BlockerMessage(b)));
      if (!b.fix.empty()) {
        absl::StrAppend(out, "<div class=\"fix\"><b>Fix:</b> ", EscapeHtml(b.fix), "</div>");
      }
      absl::StrAppend(out, "</li>\n");
    }
    absl::StrAppend(out, "</ol>\n");
  }
  absl::StrAppend(out, "<h2>Notices</h2>\n");
  if (data.notices.empty()) {
    absl::StrAppend(out, "<p class=\"empty\">None.</p>\n");
  } else {
    absl::StrAppend(out, "<ul class=\"notices\">\n");
    for (const GateNotice& n : data.notices) {
      absl::StrAppend(out, "<li><span class=\"tag\">", EscapeHtml(n.check), "</span>",
                      EscapeHtml(n.message), "</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
  }
}

}  // namespace

std::string RenderHtml(const QualificationData& data) {
  std::string out;
  absl::StrAppend(&out,
                  "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                  "'none'; style-src 'unsafe-inline'; img-src data:\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, "
                  "initial-scale=1\">\n<title>",
                  EscapeHtml(data.title), " &mdash; ", EscapeHtml(VerdictName(data.verdict)),
                  "</title>\n<style>", kReportCss, "</style>\n</head>\n<body>\n<h1>",
                  EscapeHtml(data.title), "</h1>\n");
  AppendVerdict(data, &out);
  AppendMeta(data, &out);
  AppendChecks(data, &out);
  AppendMatrix(data, &out);
  AppendTimeline(data, &out);
  AppendTimings(data, &out);
  AppendOldRuntimesHtml(data, &out);
  AppendFindings(data, &out);
  absl::StrAppend(&out, "<footer>", EscapeHtml(data.title), " &middot; now ", EscapeHtml(data.now),
                  " &middot; ", EscapeHtml(data.tool_version), "</footer>\n</body>\n</html>\n");
  return out;
}

}  // namespace aot
