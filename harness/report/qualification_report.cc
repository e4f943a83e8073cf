#include "harness/report/qualification_report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "support/date.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {

namespace fs = std::filesystem;

namespace {

using Json = nlohmann::json;

// ---------------------------------------------------------------------------
// Text hygiene shared by XML and HTML.

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Decodes one UTF-8 sequence at `text[*pos]`, advancing `*pos`. Returns
// nullopt (having consumed one byte) for a malformed sequence: a bad lead
// byte, a missing continuation, an overlong form, a surrogate or a value
// above U+10FFFF.
std::optional<uint32_t> DecodeUtf8(absl::string_view text, size_t* pos) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(*pos);
  int length = 0;
  uint32_t cp = 0;
  uint32_t min = 0;
  if (lead < 0x80) {
    ++*pos;
    return lead;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    cp = lead & 0x1F;
    min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    cp = lead & 0x0F;
    min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    cp = lead & 0x07;
    min = 0x10000;
  } else {
    ++*pos;
    return std::nullopt;
  }
  if (*pos + length > text.size()) {
    ++*pos;
    return std::nullopt;
  }
  for (int i = 1; i < length; ++i) {
    unsigned char c = byte(*pos + i);
    if ((c & 0xC0) != 0x80) {
      ++*pos;
      return std::nullopt;
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++*pos;
    return std::nullopt;
  }
  *pos += length;
  return cp;
}

// The characters XML 1.0 allows (s. 2.2), which HTML is happy with too.
bool IsXmlChar(uint32_t cp) {
  return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
         (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

enum class Markup { kXmlText, kXmlAttribute, kHtml };

// Escapes `text` for `markup`: valid UTF-8 out (malformed sequences become
// U+FFFD), characters XML 1.0 forbids dropped, markup characters as
// entities. In XML attributes, tab / newline / carriage return are written
// as character references so attribute normalization keeps them.
std::string Escape(absl::string_view text, Markup markup) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    std::optional<uint32_t> cp = DecodeUtf8(text, &pos);
    if (!cp.has_value()) {
      AppendUtf8(0xFFFD, &out);
      continue;
    }
    if (!IsXmlChar(*cp)) continue;
    switch (*cp) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += markup == Markup::kHtml ? "&#39;" : "&apos;";
        break;
      case '\t':
        out += markup == Markup::kXmlAttribute ? "&#9;" : "\t";
        break;
      case '\n':
        out += markup == Markup::kXmlAttribute ? "&#10;" : "\n";
        break;
      case '\r':
        out += markup == Markup::kHtml ? "\r" : "&#13;";
        break;
      default:
        AppendUtf8(*cp, &out);
    }
  }
  return out;
}

std::string XmlText(absl::string_view text) { return Escape(text, Markup::kXmlText); }
std::string XmlAttr(absl::string_view text) { return Escape(text, Markup::kXmlAttribute); }
std::string Html(absl::string_view text) { return Escape(text, Markup::kHtml); }

// A number for XML / SVG: never "nan" or "inf".
std::string Num(double value, int precision) {
  if (!std::isfinite(value)) value = 0;
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", precision, value);
  return buffer;
}

double NonNegative(double value) { return std::isfinite(value) && value > 0 ? value : 0; }

// ---------------------------------------------------------------------------
// Shared views of the data.

constexpr absl::string_view kStatuses[] = {"pass", "fail", "skipped", "expired"};

bool IsKnownStatus(absl::string_view status) {
  return std::find(std::begin(kStatuses), std::end(kStatuses), status) != std::end(kStatuses);
}

// How bad a status is, for showing one of several cells in a grid square.
int Severity(absl::string_view status) {
  if (status == "pass") return 0;
  if (status == "skipped") return 1;
  if (status == "expired") return 2;
  if (status == "fail") return 4;
  return 3;
}

std::string StatusClass(absl::string_view status) {
  return IsKnownStatus(status) ? absl::StrCat("status-", status) : std::string("status-other");
}

using ColumnKey = std::pair<std::string, int>;  // target, version

std::string ColumnName(const ColumnKey& key) { return absl::StrCat(key.first, ".v", key.second); }

// Cells grouped by target/version, ordered by target then version; cells
// keep their input order within a group.
std::map<ColumnKey, std::vector<const ReportCell*>> GroupByVersion(const QualificationData& data) {
  std::map<ColumnKey, std::vector<const ReportCell*>> groups;
  for (const ReportCell& cell : data.cells) {
    groups[{cell.target, cell.version}].push_back(&cell);
  }
  return groups;
}

std::string CellSeconds(const ReportCell& cell) {
  return Num((NonNegative(cell.load_ms) + NonNegative(cell.run_ms)) / 1000.0, 3);
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

// ---------------------------------------------------------------------------
// JSON reading.

std::string KeyPath(absl::string_view parent, absl::string_view key) {
  return parent.empty() ? std::string(key) : absl::StrCat(parent, ".", key);
}

absl::Status BadKey(absl::string_view path, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("qualification report: '", path, "': ", what));
}

// Finds `key` in `object`; nullptr when absent (an error when `required`).
absl::StatusOr<const Json*> Find(const Json& object, absl::string_view parent, const char* key,
                                 bool required) {
  auto it = object.find(key);
  if (it == object.end()) {
    if (required) return BadKey(KeyPath(parent, key), "missing");
    return nullptr;
  }
  return &*it;
}

absl::Status ReadString(const Json& object, absl::string_view parent, const char* key,
                        bool required, std::string* out) {
  AOT_ASSIGN_OR_RETURN(const Json* value, Find(object, parent, key, required));
  if (value == nullptr) return absl::OkStatus();
  if (!value->is_string()) {
    return BadKey(KeyPath(parent, key), absl::StrCat("expected a string, got ", value->dump()));
  }
  *out = value->get<std::string>();
  return absl::OkStatus();
}

absl::Status ReadDate(const Json& object, absl::string_view parent, const char* key, bool required,
                      std::string* out) {
  AOT_RETURN_IF_ERROR(ReadString(object, parent, key, required, out));
  if ((required || !out->empty()) && !Date::Parse(*out).ok()) {
    return BadKey(KeyPath(parent, key), absl::StrCat("'", *out, "' is not a date YYYY-MM-DD"));
  }
  return absl::OkStatus();
}

absl::Status ReadOneOf(const Json& object, absl::string_view parent, const char* key, bool required,
                       const std::vector<absl::string_view>& allowed, std::string* out) {
  AOT_RETURN_IF_ERROR(ReadString(object, parent, key, required, out));
  if (!required && out->empty()) return absl::OkStatus();
  if (std::find(allowed.begin(), allowed.end(), *out) == allowed.end()) {
    return BadKey(KeyPath(parent, key),
                  absl::StrCat("'", *out, "' is not one of ", absl::StrJoin(allowed, " | ")));
  }
  return absl::OkStatus();
}

absl::Status ReadBool(const Json& object, absl::string_view parent, const char* key, bool required,
                      bool* out) {
  AOT_ASSIGN_OR_RETURN(const Json* value, Find(object, parent, key, required));
  if (value == nullptr) return absl::OkStatus();
  if (!value->is_boolean()) {
    return BadKey(KeyPath(parent, key),
                  absl::StrCat("expected true or false, got ", value->dump()));
  }
  *out = value->get<bool>();
  return absl::OkStatus();
}

absl::Status ReadVersion(const Json& object, absl::string_view parent, const char* key, int* out) {
  AOT_ASSIGN_OR_RETURN(const Json* value, Find(object, parent, key, true));
  const Json& v = *value;
  if (!v.is_number_integer() || v.get<int64_t>() < 0 ||
      v.get<int64_t>() > std::numeric_limits<int>::max()) {
    return BadKey(KeyPath(parent, key),
                  absl::StrCat("expected a non-negative integer, got ", v.dump()));
  }
  *out = static_cast<int>(v.get<int64_t>());
  return absl::OkStatus();
}

absl::Status ReadMillis(const Json& object, absl::string_view parent, const char* key,
                        double* out) {
  AOT_ASSIGN_OR_RETURN(const Json* value, Find(object, parent, key, false));
  if (value == nullptr) return absl::OkStatus();
  const Json& v = *value;
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0) {
    return BadKey(KeyPath(parent, key), absl::StrCat("expected a non-negative number of "
                                                     "milliseconds, got ",
                                                     v.dump()));
  }
  *out = v.get<double>();
  return absl::OkStatus();
}

// Reads the array at `key` (absent: empty) with `read_one` per element.
template <typename T, typename ReadOne>
absl::Status ReadArray(const Json& object, const char* key, ReadOne read_one, std::vector<T>* out) {
  AOT_ASSIGN_OR_RETURN(const Json* value, Find(object, "", key, false));
  if (value == nullptr) return absl::OkStatus();
  if (!value->is_array()) {
    return BadKey(key, "expected an array");
  }
  for (size_t i = 0; i < value->size(); ++i) {
    const Json& element = (*value)[i];
    std::string path = absl::StrCat(key, "[", i, "]");
    if (!element.is_object()) return BadKey(path, "expected an object");
    T item;
    AOT_RETURN_IF_ERROR(read_one(element, path, &item));
    out->push_back(std::move(item));
  }
  return absl::OkStatus();
}

absl::Status ReadCell(const Json& j, const std::string& path, ReportCell* c) {
  AOT_RETURN_IF_ERROR(ReadString(j, path, "target", true, &c->target));
  AOT_RETURN_IF_ERROR(ReadVersion(j, path, "version", &c->version));
  AOT_RETURN_IF_ERROR(ReadDate(j, path, "version_date", false, &c->version_date));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "test", true, &c->test));
  AOT_RETURN_IF_ERROR(
      ReadOneOf(j, path, "status", true, {std::begin(kStatuses), std::end(kStatuses)}, &c->status));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "reason", false, &c->reason));
  AOT_RETURN_IF_ERROR(ReadMillis(j, path, "load_ms", &c->load_ms));
  AOT_RETURN_IF_ERROR(ReadMillis(j, path, "run_ms", &c->run_ms));
  return absl::OkStatus();
}

absl::Status ReadTimelineEntry(const Json& j, const std::string& path, TimelineEntry* e) {
  AOT_RETURN_IF_ERROR(ReadOneOf(j, path, "kind", true, {"version", "release"}, &e->kind));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "label", true, &e->label));
  AOT_RETURN_IF_ERROR(ReadDate(j, path, "date", true, &e->date));
  return absl::OkStatus();
}

absl::Status ReadCheck(const Json& j, const std::string& path, ReportCheck* c) {
  AOT_RETURN_IF_ERROR(ReadString(j, path, "name", true, &c->name));
  AOT_RETURN_IF_ERROR(ReadBool(j, path, "ok", true, &c->ok));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "summary", false, &c->summary));
  return absl::OkStatus();
}

absl::Status ReadBlocker(const Json& j, const std::string& path, ReportBlocker* b) {
  AOT_RETURN_IF_ERROR(ReadString(j, path, "check", true, &b->check));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "message", true, &b->message));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "fix", false, &b->fix));
  return absl::OkStatus();
}

absl::Status ReadNotice(const Json& j, const std::string& path, ReportNotice* n) {
  AOT_RETURN_IF_ERROR(ReadString(j, path, "check", true, &n->check));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "message", true, &n->message));
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// HTML pieces.

constexpr char kCss[] = R"css(
:root { --pass: #2e7d32; --fail: #c62828; --skipped: #9e9e9e;
  --expired: #ef6c00; --other: #6a1b9a; --ink: #1f2328; --muted: #59636e;
  --line: #d1d9e0; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); margin: 24px auto; max-width: 1240px; padding: 0 16px; }
h1 { font-size: 24px; margin: 0 0 12px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line);
  padding-bottom: 4px; }
.verdict { padding: 14px 18px; border-radius: 6px; color: #fff;
  font-size: 20px; font-weight: 700; }
.verdict-pass { background: var(--pass); }
.verdict-blocked { background: var(--fail); }
.verdict-unknown { background: var(--other); }
.meta { color: var(--muted); margin: 8px 0 0; }
.meta span { margin-right: 18px; white-space: nowrap; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left;
  vertical-align: top; }
th { background: #f6f8fa; }
.check-ok { color: var(--pass); font-weight: 600; }
.check-failed { color: var(--fail); font-weight: 600; }
.matrix-wrap { overflow-x: auto; }
.matrix th.col { font-weight: 600; font-size: 12px; text-align: center; }
.matrix th.col small { font-weight: 400; color: var(--muted); }
.matrix td.cell { text-align: center; color: #fff; font-size: 12px;
  min-width: 64px; }
.status-pass { background: var(--pass); }
.status-fail { background: var(--fail); }
.status-skipped { background: var(--skipped); }
.status-expired { background: var(--expired); }
.status-other { background: var(--other); }
.status-none { background: #fff; color: var(--muted) !important; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 6px;
  border-radius: 3px; color: #fff; font-size: 12px; }
svg text { font: 11px system-ui, sans-serif; fill: var(--ink); }
svg .axis { stroke: var(--ink); stroke-width: 1; }
svg .tick { stroke: var(--line); }
svg .boundary { stroke-width: 2; stroke-dasharray: 5 3; }
svg .b-backward { stroke: var(--expired); }
svg .b-forward { stroke: #1565c0; }
svg .b-now { stroke: var(--ink); stroke-dasharray: none; }
svg .tl-version { fill: #1565c0; }
svg .tl-version-old { fill: var(--skipped); }
svg .tl-release { fill: var(--pass); }
svg .bar-load { fill: #1565c0; }
svg .bar-run { fill: var(--expired); }
.blockers li { margin-bottom: 8px; }
.blockers .fix { color: var(--pass); }
.tag { display: inline-block; background: #f6f8fa; border: 1px solid var(--line);
  border-radius: 3px; padding: 0 5px; font-size: 12px; margin-right: 4px; }
.empty { color: var(--muted); font-style: italic; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
)css";

void AppendMeta(const QualificationData& data, std::string* out) {
  absl::StrAppend(out, "<p class=\"meta\">");
  const auto item = [&](absl::string_view name, const std::string& value) {
    absl::StrAppend(out, "<span><b>", name, ":</b> ", value.empty() ? "&mdash;" : Html(value),
                    "</span>");
  };
  item("now", data.now);
  item("backward window start", data.backward_window_start);
  item("forward window start", data.forward_window_start);
  item("tool", data.tool_version);
  absl::StrAppend(out, "</p>\n");
}

void AppendVerdict(const QualificationData& data, std::string* out) {
  if (data.verdict == "pass") {
    absl::StrAppend(out,
                    "<div class=\"verdict verdict-pass\">PASS &mdash; "
                    "release qualified</div>\n");
  } else if (data.verdict == "blocked") {
    absl::StrAppend(out, "<div class=\"verdict verdict-blocked\">BLOCKED &mdash; ",
                    data.blockers.size(), data.blockers.size() == 1 ? " blocker" : " blockers",
                    "</div>\n");
  } else {
    absl::StrAppend(out,
                    "<div class=\"verdict verdict-unknown\">UNKNOWN verdict "
                    "&ldquo;",
                    Html(data.verdict), "&rdquo;</div>\n");
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
  for (const ReportCheck& check : data.checks) {
    size_t blockers = std::count_if(data.blockers.begin(), data.blockers.end(),
                                    [&](const ReportBlocker& b) { return b.check == check.name; });
    absl::StrAppend(out, "<tr><td>", Html(check.name), "</td><td class=\"",
                    check.ok ? "check-ok\">&#10003; ok" : "check-failed\">&#10007; failed",
                    "</td><td>", Html(check.summary), "</td><td>", blockers, "</td></tr>\n");
  }
  absl::StrAppend(out, "</table>\n");
}

void AppendMatrix(const QualificationData& data, std::string* out) {
  absl::StrAppend(out, "<h2>Replay matrix</h2>\n");
  if (data.cells.empty()) {
    absl::StrAppend(out, "<p class=\"empty\">No replays recorded.</p>\n");
    return;
  }
  std::map<std::string, int> counts;
  for (const ReportCell& cell : data.cells) ++counts[cell.status];
  absl::StrAppend(out, "<p class=\"legend\">", data.cells.size(), " replays: ");
  for (const auto& [status, count] : counts) {
    absl::StrAppend(out, "<span class=\"", StatusClass(status), "\">", Html(status), " ", count,
                    "</span>");
  }
  absl::StrAppend(out, "</p>\n");

  std::map<ColumnKey, std::vector<const ReportCell*>> columns = GroupByVersion(data);
  std::set<std::string> tests;
  // (test, column) -> cells (normally one).
  std::map<std::pair<std::string, ColumnKey>, std::vector<const ReportCell*>> grid;
  for (const ReportCell& cell : data.cells) {
    tests.insert(cell.test);
    grid[{cell.test, {cell.target, cell.version}}].push_back(&cell);
  }

  absl::StrAppend(out,
                  "<div class=\"matrix-wrap\"><table class=\"matrix\">"
                  "<tr><th>test</th>");
  for (const auto& [key, cells] : columns) {
    int passed =
        std::count_if(cells.begin(), cells.end(), [](auto* c) { return c->status == "pass"; });
    std::string date = cells.front()->version_date;
    absl::StrAppend(out, "<th class=\"col\">", Html(key.first), "<br>v", key.second,
                    date.empty() ? "" : "<br><small>", Html(date), date.empty() ? "" : "</small>",
                    "<br><small>", passed, "/", cells.size(), " pass</small></th>");
  }
  absl::StrAppend(out, "</tr>\n");
  for (const std::string& test : tests) {
    absl::StrAppend(out, "<tr><th>", Html(test), "</th>");
    for (const auto& column : columns) {
      auto it = grid.find({test, column.first});
      if (it == grid.end()) {
        absl::StrAppend(out,
                        "<td class=\"cell status-none\" title=\"not "
                        "replayed\">&middot;</td>");
        continue;
      }
      const ReportCell* worst = it->second.front();
      std::vector<std::string> lines;
      for (const ReportCell* cell : it->second) {
        if (Severity(cell->status) > Severity(worst->status)) worst = cell;
        std::string line = absl::StrCat(ColumnName(column.first), " ", test, ": ", cell->status);
        if (!cell->reason.empty()) absl::StrAppend(&line, " - ", cell->reason);
        absl::StrAppend(&line, "\nload ", Num(cell->load_ms, 2), " ms, run ", Num(cell->run_ms, 2),
                        " ms");
        lines.push_back(std::move(line));
      }
      absl::StrAppend(out, "<td class=\"cell ", StatusClass(worst->status), "\" title=\"",
                      Html(absl::StrJoin(lines, "\n")), "\">", Html(worst->status),
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

  absl::StrAppend(out, "<svg class=\"timeline\" width=\"", Num(kWidth, 0), "\" height=\"",
                  Num(kHeight, 0), "\" viewBox=\"0 0 ", Num(kWidth, 0), " ", Num(kHeight, 0),
                  "\" role=\"img\" aria-label=\"versions and releases by "
                  "date\">\n");

  std::optional<int64_t> backward = boundaries[0].day;
  std::optional<int64_t> forward = boundaries[1].day;
  std::optional<int64_t> now = boundaries[2].day;
  // The windows as bands ending at now.
  if (backward && now && *backward <= *now) {
    absl::StrAppend(out, "<rect x=\"", Num(scale.X(*backward), 1), "\" y=\"", Num(kLineTop, 1),
                    "\" width=\"", Num(scale.X(*now) - scale.X(*backward), 1), "\" height=\"",
                    Num(kLineBottom - kLineTop, 1),
                    "\" fill=\"#ef6c00\" fill-opacity=\"0.07\"/>\n");
  }
  if (forward && now && *forward <= *now) {
    absl::StrAppend(out, "<rect x=\"", Num(scale.X(*forward), 1), "\" y=\"", Num(kLineTop, 1),
                    "\" width=\"", Num(scale.X(*now) - scale.X(*forward), 1), "\" height=\"",
                    Num(kLineBottom - kLineTop, 1),
                    "\" fill=\"#1565c0\" fill-opacity=\"0.10\"/>\n");
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
    absl::StrAppend(out, "<line class=\"tick\" x1=\"", Num(x, 1), "\" y1=\"", Num(kAxisY - 6, 1),
                    "\" x2=\"", Num(x, 1), "\" y2=\"", Num(kAxisY + 6, 1), "\"/>");
    if (i % step == 0) {
      absl::StrAppend(out, "<text x=\"", Num(x, 1), "\" y=\"", Num(kAxisY + 17, 1),
                      "\" text-anchor=\"middle\">", ticks[i].ToString().substr(0, 7), "</text>");
    }
    absl::StrAppend(out, "\n");
  }
  absl::StrAppend(out, "<line class=\"axis\" x1=\"", Num(scale.left, 1), "\" y1=\"", Num(kAxisY, 1),
                  "\" x2=\"", Num(scale.right, 1), "\" y2=\"", Num(kAxisY, 1), "\"/>\n");

  // Versions above the axis, releases below. Labels of entries on the same
  // day stack (one row each), and flip to the left near the right edge.
  std::map<std::pair<std::string, int64_t>, int> rows;
  for (const auto& [entry, day] : entries) {
    double x = scale.X(day);
    int row = rows[{entry->kind == "release" ? "release" : "version", day}]++;
    bool flip = x > scale.right - 220;
    double label_x = flip ? x - 8 : x + 8;
    const char* anchor = flip ? "end" : "start";
    std::string tip = Html(absl::StrCat(entry->kind, " ", entry->label, " (", entry->date, ")"));
    if (entry->kind == "release") {
      absl::StrAppend(out, "<g><title>", tip, "</title><rect class=\"tl-release\" x=\"",
                      Num(x - 5, 1), "\" y=\"", Num(kReleaseY - 5, 1),
                      "\" width=\"10\" height=\"10\" transform=\"rotate(45 ", Num(x, 1), " ",
                      Num(kReleaseY, 1), ")\"/><text x=\"", Num(label_x, 1), "\" y=\"",
                      Num(kReleaseY + 18 + 14 * row, 1), "\" text-anchor=\"", anchor, "\">",
                      Html(entry->label), "</text></g>\n");
    } else {
      bool old = backward && day < *backward;
      absl::StrAppend(out, "<g><title>", tip, old ? " - outside the backward window" : "",
                      "</title><circle class=\"", old ? "tl-version-old" : "tl-version", "\" cx=\"",
                      Num(x, 1), "\" cy=\"", Num(kVersionY, 1), "\" r=\"5\"/><text x=\"",
                      Num(label_x, 1), "\" y=\"", Num(kVersionY - 12 - 14 * row, 1),
                      "\" text-anchor=\"", anchor, "\">", Html(entry->label), "</text></g>\n");
    }
  }

  // The boundaries: one label row each, so they never overlap.
  double mid = (scale.left + scale.right) / 2;
  for (size_t i = 0; i < boundaries.size(); ++i) {
    const Boundary& b = boundaries[i];
    if (!b.day) continue;
    double x = scale.X(*b.day);
    double label_y = 16 + 16 * static_cast<double>(i);
    absl::StrAppend(out, "<line class=\"boundary ", b.css, "\" x1=\"", Num(x, 1), "\" y1=\"",
                    Num(label_y + 4, 1), "\" x2=\"", Num(x, 1), "\" y2=\"", Num(kLineBottom, 1),
                    "\"/><text x=\"", Num(x > mid ? x - 4 : x + 4, 1), "\" y=\"", Num(label_y, 1),
                    "\" text-anchor=\"", x > mid ? "end" : "start", "\">", b.label, " ",
                    Html(b.date), "</text>\n");
  }
  absl::StrAppend(out, "</svg>\n");
  absl::StrAppend(out,
                  "<p class=\"meta\"><span>&#9679; golden version (grey: before the "
                  "backward window)</span><span>&#9670; release</span></p>\n");
  if (!undated.empty()) {
    absl::StrAppend(out, "<p class=\"empty\">Undated: ", Html(absl::StrJoin(undated, ", ")),
                    "</p>\n");
  }
}

void AppendTimings(const QualificationData& data, std::string* out) {
  absl::StrAppend(out, "<h2>Load and run time per version</h2>\n");
  std::map<ColumnKey, std::vector<const ReportCell*>> groups = GroupByVersion(data);
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
    for (const ReportCell* cell : cells) {
      if (cell->status != "pass" && cell->status != "fail") continue;
      ++row.runs;
      row.load += NonNegative(cell->load_ms);
      row.run += NonNegative(cell->run_ms);
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
  absl::StrAppend(out, "<svg class=\"timings\" width=\"", Num(width, 0), "\" height=\"",
                  Num(height, 0), "\" viewBox=\"0 0 ", Num(width, 0), " ", Num(height, 0),
                  "\" role=\"img\" aria-label=\"mean load and run time per "
                  "target and version\">\n");
  absl::StrAppend(out, "<rect class=\"bar-load\" x=\"", Num(kLabelWidth, 0),
                  "\" y=\"6\" width=\"12\" height=\"10\"/><text x=\"", Num(kLabelWidth + 16, 0),
                  "\" y=\"15\">mean load ms</text><rect class=\"bar-run\" x=\"",
                  Num(kLabelWidth + 120, 0), "\" y=\"6\" width=\"12\" height=\"10\"/><text x=\"",
                  Num(kLabelWidth + 136, 0), "\" y=\"15\">mean run ms (replays that ran)</text>\n");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    double y = kTop + kRowHeight * static_cast<double>(i);
    absl::StrAppend(out, "<text x=\"", Num(kLabelWidth - 8, 0), "\" y=\"", Num(y + 20, 1),
                    "\" text-anchor=\"end\">", Html(row.label), "</text>");
    if (row.runs == 0) {
      absl::StrAppend(out, "<text x=\"", Num(kLabelWidth, 0), "\" y=\"", Num(y + 20, 1),
                      "\">no replays ran</text>\n");
      continue;
    }
    const auto bar = [&](const char* css, double value, double bar_y, const char* what) {
      double w = kBarWidth * value / max;
      absl::StrAppend(out, "<rect class=\"", css, "\" x=\"", Num(kLabelWidth, 1), "\" y=\"",
                      Num(bar_y, 1), "\" width=\"", Num(w, 1), "\" height=\"13\"><title>",
                      Html(row.label), " ", what, " ", Num(value, 3), " ms (mean of ", row.runs,
                      ")</title></rect><text x=\"", Num(kLabelWidth + w + 4, 1), "\" y=\"",
                      Num(bar_y + 11, 1), "\">", Num(value, 2), " ms</text>");
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
    for (const ReportBlocker& b : data.blockers) {
      absl::StrAppend(out, "<li><span class=\"tag\">", Html(b.check), "</span>", Html(b.message));
      if (!b.fix.empty()) {
        absl::StrAppend(out, "<div class=\"fix\"><b>Fix:</b> ", Html(b.fix), "</div>");
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
    for (const ReportNotice& n : data.notices) {
      absl::StrAppend(out, "<li><span class=\"tag\">", Html(n.check), "</span>", Html(n.message),
                      "</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
  }
}

}  // namespace

nlohmann::ordered_json QualificationToJson(const QualificationData& data) {
  nlohmann::ordered_json j;
  j["title"] = data.title;
  j["now"] = data.now;
  j["backward_window_start"] = data.backward_window_start;
  j["forward_window_start"] = data.forward_window_start;
  j["verdict"] = data.verdict;
  j["tool_version"] = data.tool_version;
  j["checks"] = nlohmann::ordered_json::array();
  for (const ReportCheck& c : data.checks) {
    j["checks"].push_back({{"name", c.name}, {"ok", c.ok}, {"summary", c.summary}});
  }
  j["cells"] = nlohmann::ordered_json::array();
  for (const ReportCell& c : data.cells) {
    j["cells"].push_back({{"target", c.target},
                          {"version", c.version},
                          {"version_date", c.version_date},
                          {"test", c.test},
                          {"status", c.status},
                          {"reason", c.reason},
                          {"load_ms", c.load_ms},
                          {"run_ms", c.run_ms}});
  }
  j["timeline"] = nlohmann::ordered_json::array();
  for (const TimelineEntry& e : data.timeline) {
    j["timeline"].push_back({{"kind", e.kind}, {"label", e.label}, {"date", e.date}});
  }
  j["blockers"] = nlohmann::ordered_json::array();
  for (const ReportBlocker& b : data.blockers) {
    j["blockers"].push_back({{"check", b.check}, {"message", b.message}, {"fix", b.fix}});
  }
  j["notices"] = nlohmann::ordered_json::array();
  for (const ReportNotice& n : data.notices) {
    j["notices"].push_back({{"check", n.check}, {"message", n.message}});
  }
  return j;
}

absl::StatusOr<QualificationData> QualificationFromJson(const Json& json) {
  if (!json.is_object()) {
    return absl::InvalidArgumentError(
        "qualification report: expected a JSON object at the top level");
  }
  QualificationData data;
  AOT_RETURN_IF_ERROR(ReadString(json, "", "title", false, &data.title));
  AOT_RETURN_IF_ERROR(ReadDate(json, "", "now", false, &data.now));
  AOT_RETURN_IF_ERROR(
      ReadDate(json, "", "backward_window_start", false, &data.backward_window_start));
  AOT_RETURN_IF_ERROR(
      ReadDate(json, "", "forward_window_start", false, &data.forward_window_start));
  AOT_RETURN_IF_ERROR(ReadOneOf(json, "", "verdict", true, {"pass", "blocked"}, &data.verdict));
  AOT_RETURN_IF_ERROR(ReadString(json, "", "tool_version", false, &data.tool_version));
  AOT_RETURN_IF_ERROR(ReadArray(json, "checks", ReadCheck, &data.checks));
  AOT_RETURN_IF_ERROR(ReadArray(json, "cells", ReadCell, &data.cells));
  AOT_RETURN_IF_ERROR(ReadArray(json, "timeline", ReadTimelineEntry, &data.timeline));
  AOT_RETURN_IF_ERROR(ReadArray(json, "blockers", ReadBlocker, &data.blockers));
  AOT_RETURN_IF_ERROR(ReadArray(json, "notices", ReadNotice, &data.notices));
  return data;
}

std::string RenderJunitXml(const QualificationData& data) {
  struct Counts {
    size_t tests = 0, failures = 0, skipped = 0;
    double seconds = 0;
  };
  std::string suites;
  Counts total;

  for (const auto& [key, cells] : GroupByVersion(data)) {
    Counts counts;
    std::string cases;
    std::string classname = XmlAttr(ColumnName(key));
    for (const ReportCell* cell : cells) {
      ++counts.tests;
      counts.seconds += (NonNegative(cell->load_ms) + NonNegative(cell->run_ms)) / 1000.0;
      absl::StrAppend(&cases, "    <testcase classname=\"", classname, "\" name=\"",
                      XmlAttr(cell->test), "\" time=\"", CellSeconds(*cell), "\"");
      if (cell->status == "pass") {
        absl::StrAppend(&cases, "/>\n");
        continue;
      }
      absl::StrAppend(&cases, ">\n");
      if (cell->status == "skipped" || cell->status == "expired") {
        ++counts.skipped;
        std::string message = cell->reason.empty() ? std::string(cell->status) : cell->reason;
        if (cell->status == "expired" && !absl::StartsWith(message, "expired:")) {
          message = absl::StrCat("expired: ", cell->reason.empty() ? "outside the backward "
                                                                     "window"
                                                                   : cell->reason);
        }
        absl::StrAppend(&cases, "      <skipped message=\"", XmlAttr(message), "\"/>\n");
      } else {
        ++counts.failures;
        std::string message = cell->status == "fail"
                                  ? (cell->reason.empty() ? "failed" : cell->reason)
                                  : absl::StrCat("unknown status '", cell->status, "'",
                                                 cell->reason.empty() ? "" : ": ", cell->reason);
        absl::StrAppend(&cases, "      <failure message=\"", XmlAttr(message), "\" type=\"",
                        XmlAttr(cell->status), "\">", XmlText(message), "</failure>\n");
      }
      absl::StrAppend(&cases, "    </testcase>\n");
    }
    absl::StrAppend(&suites, "  <testsuite name=\"", classname, "\" tests=\"", counts.tests,
                    "\" failures=\"", counts.failures, "\" errors=\"0\" skipped=\"", counts.skipped,
                    "\" time=\"", Num(counts.seconds, 3), "\">\n    <properties>\n",
                    "      <property name=\"target\" value=\"", XmlAttr(key.first),
                    "\"/>\n      <property name=\"version\" value=\"", key.second,
                    "\"/>\n      <property name=\"version_date\" value=\"",
                    XmlAttr(cells.front()->version_date), "\"/>\n    </properties>\n", cases,
                    "  </testsuite>\n");
    total.tests += counts.tests;
    total.failures += counts.failures;
    total.skipped += counts.skipped;
    total.seconds += counts.seconds;
  }

  // The gate: one testcase per check, plus one per check that only a
  // blocker names.
  std::vector<ReportCheck> checks = data.checks;
  for (const ReportBlocker& b : data.blockers) {
    bool known =
        std::any_of(checks.begin(), checks.end(), [&](auto& c) { return c.name == b.check; });
    if (!known) checks.push_back({b.check, false, "blocked"});
  }
  Counts gate;
  std::string cases;
  for (const ReportCheck& check : checks) {
    ++gate.tests;
    std::string body;
    for (const ReportBlocker& b : data.blockers) {
      if (b.check != check.name) continue;
      absl::StrAppend(&body, "blocker: ", b.message, "\n");
      if (!b.fix.empty()) absl::StrAppend(&body, "fix: ", b.fix, "\n");
    }
    absl::StrAppend(&cases, "    <testcase classname=\"gate\" name=\"", XmlAttr(check.name),
                    "\" time=\"0.000\"");
    if (check.ok && body.empty()) {
      absl::StrAppend(&cases, "/>\n");
      continue;
    }
    ++gate.failures;
    std::string message = check.summary.empty() ? "check failed" : check.summary;
    absl::StrAppend(&cases, ">\n      <failure message=\"", XmlAttr(message),
                    "\" type=\"blocked\">", XmlText(body.empty() ? message : body),
                    "</failure>\n    </testcase>\n");
  }
  absl::StrAppend(
      &suites, "  <testsuite name=\"gate\" tests=\"", gate.tests, "\" failures=\"", gate.failures,
      "\" errors=\"0\" skipped=\"0\" ", "time=\"0.000\">\n    <properties>\n",
      "      <property name=\"verdict\" value=\"", XmlAttr(data.verdict),
      "\"/>\n      <property name=\"now\" value=\"", XmlAttr(data.now),
      "\"/>\n      <property name=\"backward_window_start\" value=\"",
      XmlAttr(data.backward_window_start),
      "\"/>\n      <property name=\"forward_window_start\" value=\"",
      XmlAttr(data.forward_window_start), "\"/>\n      <property name=\"tool_version\" value=\"",
      XmlAttr(data.tool_version), "\"/>\n    </properties>\n", cases, "  </testsuite>\n");
  total.tests += gate.tests;
  total.failures += gate.failures;

  return absl::StrCat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"",
                      XmlAttr(data.title), "\" tests=\"", total.tests, "\" failures=\"",
                      total.failures, "\" errors=\"0\" skipped=\"", total.skipped, "\" time=\"",
                      Num(total.seconds, 3), "\">\n", suites, "</testsuites>\n");
}

std::string RenderHtml(const QualificationData& data) {
  std::string out;
  absl::StrAppend(&out,
                  "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                  "'none'; style-src 'unsafe-inline'; img-src data:\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, "
                  "initial-scale=1\">\n<title>",
                  Html(data.title), " &mdash; ", Html(data.verdict), "</title>\n<style>", kCss,
                  "</style>\n</head>\n<body>\n<h1>", Html(data.title), "</h1>\n");
  AppendVerdict(data, &out);
  AppendMeta(data, &out);
  AppendChecks(data, &out);
  AppendMatrix(data, &out);
  AppendTimeline(data, &out);
  AppendTimings(data, &out);
  AppendFindings(data, &out);
  absl::StrAppend(&out, "<footer>", Html(data.title), " &middot; now ", Html(data.now),
                  " &middot; ", Html(data.tool_version), "</footer>\n</body>\n</html>\n");
  return out;
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
  std::string json = QualificationToJson(data).dump(
                         2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
                     "\n";
  const std::pair<const char*, std::string> files[] = {{"report.json", std::move(json)},
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

}  // namespace aot
