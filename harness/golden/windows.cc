#include "harness/golden/windows.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_store.h"
#include "support/status_macros.h"

namespace aot {

BackwardWindow ComputeBackwardWindow(std::vector<DatedVersion> versions, const Date& now) {
  BackwardWindow w;
  w.start = now.MinusMonths(kBackwardWindowMonths);
  std::sort(versions.begin(), versions.end(),
            [](const DatedVersion& a, const DatedVersion& b) { return a.version < b.version; });
  int newest_before = -1;
  Date newest_before_date;
  for (const DatedVersion& v : versions) {
    if (v.created > now) continue;  // not current yet
    if (v.created >= w.start) {
      w.in_window.push_back(v.version);
    } else if (newest_before < 0 || v.created >= newest_before_date) {
      newest_before = v.version;
      newest_before_date = v.created;
    }
  }
  if (newest_before >= 0) w.in_window.push_back(newest_before);
  std::sort(w.in_window.begin(), w.in_window.end());
  for (const DatedVersion& v : versions) {
    if (v.created > now) continue;
    if (!std::binary_search(w.in_window.begin(), w.in_window.end(), v.version)) {
      w.expired.push_back(v.version);
    }
  }
  return w;
}

namespace {

constexpr const char* kMonthNames[] = {"January",   "February", "March",    "April",
                                       "May",       "June",     "July",     "August",
                                       "September", "October",  "November", "December"};

}  // namespace

const char* MonthName(int month) { return month >= 1 && month <= 12 ? kMonthNames[month - 1] : ""; }

int MonthNumber(absl::string_view name) {
  for (int i = 0; i < 12; ++i) {
    if (name == kMonthNames[i]) return i + 1;
  }
  return 0;
}

Date FallbackRemovalMonth(const Date& superseded_on) {
  // v1 carries the old form (the last version before the change), v2 the
  // new one; walk the days until the window expires v1 (six months and a
  // day or so: a few hundred iterations at most).
  const std::vector<DatedVersion> versions = {{1, superseded_on.MinusDays(1)}, {2, superseded_on}};
  Date day = superseded_on;
  while (ComputeBackwardWindow(versions, day).expired.empty()) day = day.PlusDays(1);
  if (day.day == 1) return day;
  return day.month == 12 ? Date{day.year + 1, 1, 1} : Date{day.year, day.month + 1, 1};
}

std::string FallbackExpiryLine(const Date& superseded_on) {
  const Date month = FallbackRemovalMonth(superseded_on);
  return absl::StrCat("// Can be removed in ", MonthName(month.month), " ", month.year,
                      " (6 months backward compatibility window).");
}

absl::StatusOr<std::vector<DatedVersion>> DatedVersions(const std::string& golden_dir,
                                                        absl::string_view target) {
  AOT_ASSIGN_OR_RETURN(auto versions, DiscoverVersions(golden_dir, target));
  std::vector<DatedVersion> dated;
  for (int v : versions) {
    AOT_ASSIGN_OR_RETURN(auto manifest, ReadManifest(VersionDir(golden_dir, target, v)));
    auto date = Date::Parse(manifest.created);
    if (!date.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          VersionDir(golden_dir, target, v), "/MANIFEST.json: created: ", date.status().message()));
    }
    dated.push_back({v, *date});
  }
  return dated;
}

}  // namespace aot
