#include "harness/triage/triage.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/golden/golden_ops.h"
#include "harness/schema/annotations.h"
#include "harness/schema/reachability.h"
#include "harness/schema/schema_check.h"
#include "support/date.h"
#include "support/status_macros.h"

namespace aot {
namespace {

constexpr char kProcedureLand[] = "land";
constexpr char kProcedureReserve[] =
    "wait until emission stopped >= 6 months ago, keep the FromProto fallback until then (with "
    "an expiry comment), then remove it and mark the number and name `reserved`";
constexpr char kProcedureNewTag[] = "never; assign a new tag (a new field for the new behaviour)";
constexpr char kProcedureStaged[] =
    "staged rollout: runtime support first, emission off by default behind an emission flag; "
    "turn it on once the runtime with support is 2 weeks old";
constexpr char kProcedureAlias[] = "keep an alias under the old name for 6 months";
constexpr char kProcedureDepends[] =
    "only if correct for every artifact of the last 6 months; if meaning changes, add a new "
    "field or flag";
constexpr char kProcedureOptional[] = "make FromProto handle unset (legacy semantics)";

std::vector<std::string> Minus(const std::vector<std::string>& a,
                               const std::vector<std::string>& b) {
  std::set<std::string> bs(b.begin(), b.end());
  std::vector<std::string> out;
  for (const std::string& x : a) {
    if (!bs.count(x)) out.push_back(x);
  }
  return out;
}

class Builder {
 public:
  explicit Builder(TriageReport* report) : report_(report) {}
  void Add(int step, std::string what, std::string verdict, bool breaks_now, std::string evidence,
           std::string procedure) {
    report_->changes.push_back({step, std::move(what), std::move(verdict), breaks_now,
                                std::move(evidence), std::move(procedure)});
  }

 private:
  TriageReport* report_;
};

}  // namespace

bool TriageReport::ok() const {
  return std::none_of(changes.begin(), changes.end(),
                      [](const TriageChange& c) { return c.breaks_now; });
}

nlohmann::ordered_json TriageReport::ToJson() const {
  nlohmann::ordered_json j;
  j["verdict"] = ok() ? "safe to land now" : "breaks a window now";
  j["base"] = base_source;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const TriageChange& c : changes) {
    list.push_back({{"step", c.step},
                    {"what", c.what},
                    {"verdict", c.verdict},
                    {"breaks_now", c.breaks_now},
                    {"evidence", c.evidence},
                    {"procedure", c.procedure}});
  }
  j["changes"] = list;
  return j;
}

std::string TriageReport::ToText() const {
  std::string out = absl::StrCat("triage against ", base_source, "\n");
  for (const TriageChange& c : changes) {
    absl::StrAppend(&out, c.breaks_now ? "BREAKS " : "ok     ", "[step ", c.step, "] ", c.verdict,
                    ": ", c.what, "\n");
    if (!c.evidence.empty()) absl::StrAppend(&out, "         evidence: ", c.evidence, "\n");
    absl::StrAppend(&out, "         procedure: ", c.procedure, "\n");
  }
  absl::StrAppend(&out, "triage: ", changes.size(), " change(s); ",
                  ok() ? "safe to land now" : "a change breaks a window now", "\n");
  return out;
}

absl::StatusOr<TriageReport> Triage(const TriageInput& in) {
  AOT_ASSIGN_OR_RETURN(auto now, Date::Parse(in.now));
  TriageReport report;
  report.base_source = in.base_source;
  Builder add(&report);

  // The head runtime against the goldens of the backward window: the
  // evidence for every backward question below.
  ReplayOptions replay;
  replay.golden_dir = in.golden_dir;
  replay.targets = in.targets;
  replay.now = in.now;
  replay.load_options = in.head_load_options;
  auto backward = ReplayGoldens(replay);
  AOT_RETURN_IF_ERROR(backward);
  std::vector<std::string> failures;
  for (const ReplayRecord& r : backward->records) {
    if (r.status == ReplayStatus::kFail) {
      failures.push_back(absl::StrCat(r.target, " v", r.version, " ", r.test, ": ", r.reason));
    }
  }
  std::set<size_t> explained;
  auto failure_mentioning = [&](const std::vector<std::string>& needles) -> std::string {
    for (size_t i = 0; i < failures.size(); ++i) {
      for (const std::string& n : needles) {
        if (!n.empty() && absl::StrContains(failures[i], n)) {
          explained.insert(i);
          return failures[i];
        }
      }
    }
    return "";
  };

  // The head compiler's output against the base runtime: what it emits
  // that the base cannot read.
  AOT_ASSIGN_OR_RETURN(auto checker,
                       ForwardChecker::Create(in.base_runtime, in.base_schema, in.head_pool));
  std::vector<ForwardFinding> forward;
  std::set<std::string> ignorable_emitted;  // notices: fields the base may skip
  for (const ForwardArtifact& a : in.head_artifacts) {
    for (ForwardFinding& f : checker->Check(a)) {
      if (f.severity == "error") {
        forward.push_back(std::move(f));
      } else {
        ignorable_emitted.insert(f.message.substr(0, f.message.find(' ')));
      }
    }
  }
  std::set<size_t> attributed;
  auto emitted = [&](const std::string& needle) -> std::string {
    std::string first;
    for (size_t i = 0; i < forward.size(); ++i) {
      if (absl::StrContains(forward[i].message, needle) ||
          absl::StrContains(forward[i].path, needle)) {
        attributed.insert(i);
        if (first.empty()) first = forward[i].ToString();
      }
    }
    return first;
  };

  // --- Schema ---------------------------------------------------------
  auto schema = CheckSchema({{"base", in.base_schema}}, {"head", in.head_schema});
  AOT_RETURN_IF_ERROR(schema);
  for (const SchemaFinding& v : schema->violations) {
    const std::string& rule = v.rule;
    if (absl::StrContains(rule, "CHANGED") && rule != "ANNOTATION_LOOSENED") {
      add.Add(2, v.ToString(), "breaking-both", true, "an existing field's wire meaning changes",
              kProcedureNewTag);
    } else if (rule == "MISSING_ANNOTATION" || rule == "ANNOTATION_LOOSENED") {
      add.Add(4, v.ToString(), "breaking-forward", true,
              "older runtimes cannot tell whether they may ignore it", kProcedureStaged);
    } else {
      add.Add(3, v.ToString(), "breaking-backward", true,
              "removed or reused numbers and names must stay reserved forever", kProcedureReserve);
    }
  }
  AOT_ASSIGN_OR_RETURN(auto base_pool, BuildDescriptorPool(in.base_schema, "base"));
  AOT_ASSIGN_OR_RETURN(auto head_pool, BuildDescriptorPool(in.head_schema, "head"));
  auto base_reach = ComputeReachable(*base_pool);
  auto head_reach = ComputeReachable(*head_pool);
  AOT_RETURN_IF_ERROR(base_reach);
  AOT_RETURN_IF_ERROR(head_reach);
  for (const std::string& field : base_reach->fields) {
    if (head_reach->fields.count(field)) continue;
    const google::protobuf::FieldDescriptor* f = base_pool->FindFieldByName(field);
    std::string name = f != nullptr ? f->name() : field;
    std::string number = f != nullptr ? absl::StrCat("field ", f->number()) : "";
    std::string failure = failure_mentioning({absl::StrCat("\"", name, "\""), number});
    add.Add(3, absl::StrCat("field ", field, " removed"), "breaking-backward", !failure.empty(),
            failure.empty() ? "no golden of the last 6 months uses it (emission stopped >= 6 "
                              "months ago)"
                            : absl::StrCat("a golden of the last 6 months uses it: ", failure),
            kProcedureReserve);
  }
  for (const SchemaFinding& a : schema->additions) {
    if (a.rule != "FIELD_ADDED" && a.rule != "ONEOF_CASE_ADDED" && a.rule != "ENUM_VALUE_ADDED") {
      continue;
    }
    std::string short_name = a.element.substr(a.element.rfind('.') + 1);
    const google::protobuf::FieldDescriptor* hf = head_pool->FindFieldByName(a.element);
    bool ignorable = hf != nullptr && hf->real_containing_oneof() == nullptr &&
                     FieldAnnotation(hf).value.ignorable_by_older_runtimes();
    std::string emission = emitted(a.element);
    if (emission.empty()) emission = emitted(absl::StrCat("'", short_name, "'"));
    if (ignorable) {
      add.Add(6, absl::StrCat(a.rule, " ", a.element, " (ignorable by older runtimes)"), "safe",
              false,
              ignorable_emitted.count(a.element)
                  ? "the head compiler already emits it; the base runtime skips it"
                  : "not emitted by the head compiler yet",
              kProcedureOptional);
    } else {
      add.Add(4, absl::StrCat(a.rule, " ", a.element), "breaking-forward", !emission.empty(),
              emission.empty() ? "not emitted yet by the head compiler (runtime support first: "
                                 "safe to land as phase 1)"
                               : absl::StrCat("the head compiler emits it: ", emission),
              kProcedureStaged);
    }
  }

  // --- Runtime registries and tables ----------------------------------
  const google::protobuf::Descriptor* base_thunk =
      base_pool->FindMessageTypeByName("aot.ThunkProto");
  for (const std::string& kind : Minus(in.base_runtime.thunk_kinds, in.head_runtime.thunk_kinds)) {
    std::vector<std::string> mentions = {absl::StrCat("'", kind, "'"),
                                         absl::StrCat("\"", kind, "\""), "unknown thunk kind"};
    // Binary goldens name a field the schema no longer has by its number:
    // the kind's number in the base schema.
    const google::protobuf::FieldDescriptor* field =
        base_thunk != nullptr ? base_thunk->FindFieldByName(kind) : nullptr;
    std::string number;
    if (field != nullptr) {
      number = absl::StrCat("ThunkProto field ", field->number(), " = '", kind,
                            "' in the base schema; ");
      mentions.push_back(absl::StrCat("(ThunkProto) field ", field->number(), " "));
    }
    std::string failure = failure_mentioning(mentions);
    add.Add(3, absl::StrCat("thunk kind '", kind, "' removed from the runtime"),
            "breaking-backward", !failure.empty(),
            failure.empty()
                ? "no golden of the last 6 months emits it"
                : absl::StrCat("a golden of the last 6 months emits it (", number, "): ", failure),
            kProcedureReserve);
  }
  for (const std::string& kind : Minus(in.head_runtime.thunk_kinds, in.base_runtime.thunk_kinds)) {
    add.Add(4, absl::StrCat("runtime support for thunk kind '", kind, "'"), "safe", false,
            "phase 1 of a staged rollout (the compiler must not emit it by default for 2 weeks)",
            "land with round-trip tests");
  }
  std::vector<std::string> head_names = in.head_runtime.FfiNamesResolvedAt(now);
  for (const std::string& name : Minus(in.base_runtime.FfiNamesResolvedAt(now), head_names)) {
    add.Add(5, absl::StrCat("custom call / FFI name '", name, "' no longer resolves"),
            "breaking-backward", true, "artifacts of the last 6 months may call it by that name",
            kProcedureAlias);
  }
  for (const std::string& name :
       Minus(in.base_runtime.ffi_handlers, in.head_runtime.ffi_handlers)) {
    if (std::find(head_names.begin(), head_names.end(), name) == head_names.end()) continue;
    add.Add(5, absl::StrCat("FFI handler '", name, "' renamed; the old name stays an alias"),
            "safe", false, "", kProcedureAlias);
  }
  for (const std::string& op : Minus(in.base_runtime.hlo_opcodes, in.head_runtime.hlo_opcodes)) {
    std::string failure = failure_mentioning({absl::StrCat("'", op, "'")});
    add.Add(3, absl::StrCat("HLO opcode '", op, "' removed from the runtime's table"),
            "breaking-backward", !failure.empty(),
            failure.empty() ? "no golden of the last 6 months embeds it"
                            : absl::StrCat("a golden of the last 6 months embeds it: ", failure),
            kProcedureReserve);
  }
  for (const std::string& op : Minus(in.head_runtime.hlo_opcodes, in.base_runtime.hlo_opcodes)) {
    add.Add(4, absl::StrCat("the runtime learns HLO opcode '", op, "'"), "safe", false,
            "phase 1: emit it only once this runtime is 2 weeks old", "land");
  }
  for (const std::string& symbol :
       Minus(in.base_runtime.host_kernel_symbols, in.head_runtime.host_kernel_symbols)) {
    std::string failure = failure_mentioning({absl::StrCat("'", symbol, "'")});
    add.Add(5, absl::StrCat("host kernel import '", symbol, "' no longer resolved"),
            "breaking-backward", !failure.empty(),
            failure.empty() ? "no golden of the last 6 months imports it"
                            : absl::StrCat("a golden of the last 6 months imports it: ", failure),
            "keep resolving it for 6 months after the compiler stopped emitting calls to it");
  }

  // --- Runtime-read flags and load passes (step 2) --------------------
  bool backward_ok = failures.empty();
  std::string backward_evidence =
      backward_ok ? absl::StrCat("every golden of the last 6 months replays (", backward->passed,
                                 " passed)")
                  : absl::StrCat(failures.size(), " golden replay(s) fail, e.g. ", failures[0]);
  for (const auto& [flag, value] : in.base_runtime.flag_defaults) {
    auto it = in.head_runtime.flag_defaults.find(flag);
    std::string head_value = it == in.head_runtime.flag_defaults.end() ? "<removed>" : it->second;
    if (head_value == value) continue;
    for (size_t i = 0; i < failures.size(); ++i) explained.insert(i);
    add.Add(2, absl::StrCat("runtime flag default ", flag, ": ", value, " -> ", head_value),
            "depends", !backward_ok, backward_evidence, kProcedureDepends);
  }
  if (in.base_runtime.load_passes != in.head_runtime.load_passes) {
    for (size_t i = 0; i < failures.size(); ++i) explained.insert(i);
    add.Add(2,
            absl::StrCat("load passes: [", absl::StrJoin(in.base_runtime.load_passes, ", "),
                         "] -> [", absl::StrJoin(in.head_runtime.load_passes, ", "), "]"),
            "depends", !backward_ok, backward_evidence, kProcedureDepends);
  }

  // --- What the head compiler emits (step 4) --------------------------
  std::map<std::string, std::vector<const ForwardFinding*>> by_rule;
  for (size_t i = 0; i < forward.size(); ++i) {
    if (!attributed.count(i)) by_rule[forward[i].rule].push_back(&forward[i]);
  }
  for (const auto& [rule, findings] : by_rule) {
    add.Add(4,
            absl::StrCat("the head compiler emits what the base runtime cannot read (", rule, ", ",
                         findings.size(), " finding(s))"),
            "breaking-forward", true, findings[0]->ToString(), kProcedureStaged);
  }
  // Replay failures no difference above explains: execution semantics.
  for (size_t i = 0; i < failures.size(); ++i) {
    if (explained.count(i)) continue;
    add.Add(2, "the runtime no longer reproduces a golden of the last 6 months",
            "breaking-backward", true, failures[i], kProcedureDepends);
  }
  if (report.changes.empty()) {
    add.Add(1, "no difference in the schema, registries, opcodes, flags or emitted artifacts",
            "safe", false,
            absl::StrCat("compiler-internal or behaviour-preserving change; ", backward_evidence),
            kProcedureLand);
  }
  return report;
}

}  // namespace aot
