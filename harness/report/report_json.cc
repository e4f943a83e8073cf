#include "harness/report/report_json.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "support/date.h"
#include "support/status_macros.h"

namespace aot {

namespace {

using Json = nlohmann::json;

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

// Reads the required enum at `key`: one of `all`, by its `name_of` name.
template <typename Enum, size_t N>
absl::Status ReadEnum(const Json& object, absl::string_view parent, const char* key,
                      const Enum (&all)[N], absl::string_view (*name_of)(Enum), Enum* out) {
  std::string name;
  AOT_RETURN_IF_ERROR(ReadString(object, parent, key, /*required=*/true, &name));
  std::optional<Enum> value = EnumFromName(name, all, name_of);
  if (!value.has_value()) {
    const auto append_name = [&](std::string* text, Enum e) { absl::StrAppend(text, name_of(e)); };
    return BadKey(KeyPath(parent, key), absl::StrCat("'", name, "' is not one of ",
                                                     absl::StrJoin(all, " | ", append_name)));
  }
  *out = *value;
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

absl::Status ReadCell(const Json& j, const std::string& path, ReplayRecord* c) {
  AOT_RETURN_IF_ERROR(ReadString(j, path, "target", true, &c->target));
  AOT_RETURN_IF_ERROR(ReadVersion(j, path, "version", &c->version));
  AOT_RETURN_IF_ERROR(ReadDate(j, path, "version_date", false, &c->version_date));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "test", true, &c->test));
  AOT_RETURN_IF_ERROR(ReadEnum(j, path, "status", kReplayStatuses, ReplayStatusName, &c->status));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "reason", false, &c->reason));
  AOT_RETURN_IF_ERROR(ReadMillis(j, path, "load_ms", &c->load_ms));
  AOT_RETURN_IF_ERROR(ReadMillis(j, path, "run_ms", &c->run_ms));
  return absl::OkStatus();
}

absl::Status ReadTimelineEntry(const Json& j, const std::string& path, TimelineEntry* e) {
  AOT_RETURN_IF_ERROR(ReadEnum(j, path, "kind", kTimelineKinds, TimelineKindName, &e->kind));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "label", true, &e->label));
  AOT_RETURN_IF_ERROR(ReadDate(j, path, "date", true, &e->date));
  return absl::OkStatus();
}

absl::Status ReadCheck(const Json& j, const std::string& path, GateCheck* c) {
  AOT_RETURN_IF_ERROR(ReadString(j, path, "name", true, &c->name));
  AOT_RETURN_IF_ERROR(ReadBool(j, path, "ok", true, &c->ok));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "summary", false, &c->summary));
  return absl::OkStatus();
}

// The rule stays empty: report.json has it inside the message.
absl::Status ReadBlocker(const Json& j, const std::string& path, GateBlocker* b) {
  AOT_RETURN_IF_ERROR(ReadString(j, path, "check", true, &b->check));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "message", true, &b->message));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "fix", false, &b->fix));
  return absl::OkStatus();
}

absl::string_view OldRunVerdictView(OldRunVerdict v) { return OldRunVerdictName(v); }

absl::Status ReadOldRuntimeCell(const Json& j, const std::string& path, OldRuntimeCell* c) {
  AOT_RETURN_IF_ERROR(ReadString(j, path, "runtime", true, &c->runtime));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "commit", false, &c->commit));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "target", true, &c->target));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "test", true, &c->test));
  AOT_RETURN_IF_ERROR(
      ReadEnum(j, path, "verdict", kOldRunVerdicts, OldRunVerdictView, &c->verdict));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "detail", false, &c->detail));
  return absl::OkStatus();
}

absl::Status ReadNotice(const Json& j, const std::string& path, GateNotice* n) {
  AOT_RETURN_IF_ERROR(ReadString(j, path, "check", true, &n->check));
  AOT_RETURN_IF_ERROR(ReadString(j, path, "message", true, &n->message));
  return absl::OkStatus();
}

}  // namespace

nlohmann::ordered_json QualificationToJson(const QualificationData& data) {
  nlohmann::ordered_json j;
  j["title"] = data.title;
  j["now"] = data.now;
  j["backward_window_start"] = data.backward_window_start;
  j["forward_window_start"] = data.forward_window_start;
  j["verdict"] = std::string(VerdictName(data.verdict));
  j["tool_version"] = data.tool_version;
  ExecutionCoverage coverage = ComputeExecutionCoverage(data.cells);
  j["executed_targets"] = coverage.executed;
  j["validated_only_targets"] = coverage.validated_only;
  j["checks"] = nlohmann::ordered_json::array();
  for (const GateCheck& c : data.checks) {
    j["checks"].push_back({{"name", c.name}, {"ok", c.ok}, {"summary", c.summary}});
  }
  j["cells"] = nlohmann::ordered_json::array();
  for (const ReplayRecord& c : data.cells) {
    j["cells"].push_back({{"target", c.target},
                          {"version", c.version},
                          {"version_date", c.version_date},
                          {"test", c.test},
                          {"status", std::string(ReplayStatusName(c.status))},
                          {"reason", c.reason},
                          {"load_ms", c.load_ms},
                          {"run_ms", c.run_ms}});
  }
  j["timeline"] = nlohmann::ordered_json::array();
  for (const TimelineEntry& e : data.timeline) {
    j["timeline"].push_back(
        {{"kind", std::string(TimelineKindName(e.kind))}, {"label", e.label}, {"date", e.date}});
  }
  j["blockers"] = nlohmann::ordered_json::array();
  for (const GateBlocker& b : data.blockers) {
    j["blockers"].push_back({{"check", b.check}, {"message", BlockerMessage(b)}, {"fix", b.fix}});
  }
  j["notices"] = nlohmann::ordered_json::array();
  for (const GateNotice& n : data.notices) {
    j["notices"].push_back({{"check", n.check}, {"message", n.message}});
  }
  j["old_runtimes"] = nlohmann::ordered_json::array();
  for (const OldRuntimeCell& c : data.old_runtimes) {
    j["old_runtimes"].push_back({{"runtime", c.runtime},
                                 {"commit", c.commit},
                                 {"target", c.target},
                                 {"test", c.test},
                                 {"verdict", OldRunVerdictName(c.verdict)},
                                 {"detail", c.detail}});
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
  AOT_RETURN_IF_ERROR(ReadEnum(json, "", "verdict", kVerdicts, VerdictName, &data.verdict));
  AOT_RETURN_IF_ERROR(ReadString(json, "", "tool_version", false, &data.tool_version));
  AOT_RETURN_IF_ERROR(ReadArray(json, "checks", ReadCheck, &data.checks));
  AOT_RETURN_IF_ERROR(ReadArray(json, "cells", ReadCell, &data.cells));
  AOT_RETURN_IF_ERROR(ReadArray(json, "timeline", ReadTimelineEntry, &data.timeline));
  AOT_RETURN_IF_ERROR(ReadArray(json, "blockers", ReadBlocker, &data.blockers));
  AOT_RETURN_IF_ERROR(ReadArray(json, "notices", ReadNotice, &data.notices));
  AOT_RETURN_IF_ERROR(ReadArray(json, "old_runtimes", ReadOldRuntimeCell, &data.old_runtimes));
  return data;
}

std::string RenderReportJson(const QualificationData& data) {
  return QualificationToJson(data).dump(2, ' ', false,
                                        nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

}  // namespace aot
