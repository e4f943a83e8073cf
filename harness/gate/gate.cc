#include "harness/gate/gate.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/golden/windows.h"
#include "harness/lint/fallback_lint.h"
#include "harness/schema/schema_check.h"
#include "proto/schema.h"
#include "support/date.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// The safe procedure for each rule (CONTRACT.md s. 5 table and s. 6).
std::string FixFor(absl::string_view check, absl::string_view rule) {
  if (check == "schema") {
    if (absl::StrContains(rule, "RESERVED") || absl::StrContains(rule, "REMOVED")) {
      return "keep the field until its emission stopped 6 months ago, then remove it and add its "
             "number and name to `reserved`";
    }
    if (absl::StrContains(rule, "REUSED")) {
      return "assign a new, never-used number/name; numbers and names are never reused";
    }
    if (absl::StrContains(rule, "ANNOTATION")) {
      return "annotate the new field with (aot.compat) (ignorable_by_older_runtimes, "
             "runtime_support_since, emission_flag); never loosen an existing annotation";
    }
    return "never change an existing field's number, type, cardinality or oneof; add a new field "
           "with a new number for the new behaviour";
  }
  if (check == "backward") {
    return "the current runtime must load and run every golden of the last 6 months: restore the "
           "FromProto branch / handler / alias (keep fallbacks 6 months after emission stopped, "
           "with an expiry comment) or revert the runtime change";
  }
  if (check == "flags") {
    return "keep the old default for existing artifacts: add a new field or flag for the new "
           "behaviour instead of changing what existing artifacts mean";
  }
  if (check == "registry") {
    return "keep the old name registered as an alias (FfiRegistry alias with an expiry 6 months "
           "out) until every artifact that uses it has left the backward window";
  }
  if (check == "forward") {
    if (rule == "IGNORABLE_FIELD") return "";
    if (rule == "UNRESOLVED_FFI_NAME") {
      return "register the new name in the runtime first (or keep emitting the old name) and "
             "wait until that release is 2 weeks old";
    }
    return "staged rollout: land runtime support first, keep emission off by default behind an "
           "emission flag in compiler/rollout, and turn it on only once every runtime of the last "
           "2 weeks supports it (or annotate an optional field ignorable_by_older_runtimes)";
  }
  if (check == "ledger") {
    return "keep the emission flag off by default until its runtime support is 14 days old; keep "
           "the old form's fallback 6 months after emission switched";
  }
  if (check == "rollout") {
    if (rule == "NO_FLAG_ON_TARGET") {
      return "add a golden target compiled with the flag on (GoldenTargets in "
             "harness/golden/corpus.cc) and generate its goldens, so released runtimes can be run "
             "on its flag-on artifacts";
    }
    if (rule == "ROLLOUT_UNRECORDED" || rule == "LEDGER_RELEASE_UNRECORDED") {
      return "record the release's runs: `aot-compat rollout-audit --build --release=<id>` (or "
             "`aot-compat gate --build_old`) builds its runtime at its commit, cached, runs the "
             "flag-on goldens and writes golden/rollout/<id>.json; commit it";
    }
    return "runtime_release is the first release whose built runtime runs every flag-on artifact "
           "(`aot-compat rollout-audit`); where none does yet, fix the runtime and cut a release "
           "(`aot-compat release`); the flag stays off until 14 full days after that release";
  }
  if (check == "lint") {
    return "add `// Can be removed in <Month YYYY> (6 months backward compatibility window).` to "
           "the fallback's comment";
  }
  if (check == "verify") {
    return "if the compiler change is intended, write a new golden version with `aot-compat "
           "generate` (never edit goldens in place)";
  }
  return "";
}

void Block(GateReport* report, std::string check, std::string rule, std::string message) {
  std::string fix = FixFor(check, rule);
  report->blockers.push_back(
      {std::move(check), std::move(rule), std::move(message), std::move(fix)});
}

absl::Status SchemaCheckStep(const GateOptions& options, GateReport* report) {
  GateCheck check{"schema", true, ""};
  auto snapshots = ListSnapshots(options.golden_dir + "/schema");
  if (!snapshots.ok()) {
    check.ok = false;
    check.summary = "no schema snapshot";
    Block(report, "schema", "NO_SNAPSHOT",
          absl::StrCat(snapshots.status().message(),
                       ": commit one with `aot-compat schema-snapshot`"));
    report->checks.push_back(check);
    return absl::OkStatus();
  }
  AOT_ASSIGN_OR_RETURN(auto history, ReadSchemaHistory(*snapshots));
  SchemaVersion head{"<head schema>",
                     options.head_schema ? *options.head_schema : SchemaDescriptorSet()};
  AOT_ASSIGN_OR_RETURN(auto result, CheckSchema(history, head));
  for (const SchemaFinding& v : result.violations) {
    Block(report, "schema", v.rule, v.ToString());
  }
  for (const SchemaFinding& a : result.additions) {
    report->notices.push_back({"schema", a.ToString()});
  }
  check.ok = result.ok();
  check.summary = absl::StrCat(history.size(), " snapshot(s); ", result.violations.size(),
                               " violation(s), ", result.additions.size(), " addition(s)");
  report->checks.push_back(check);
  return absl::OkStatus();
}

absl::Status BackwardStep(const GateOptions& options, const std::vector<std::string>& targets,
                          const std::vector<ReleaseSnapshot>& releases,
                          const ReleaseSnapshot& runtime, const Date& now, GateReport* report) {
  ReplayOptions replay;
  replay.golden_dir = options.golden_dir;
  replay.targets = targets;
  replay.now = options.now;
  replay.load_options = options.load_options;
  replay.progress = options.progress;
  replay.cache_dir = options.replay_cache_dir;
  AOT_ASSIGN_OR_RETURN(auto result, ReplayGoldens(replay));
  report->backward = std::move(result);
  report->backward_window_start = now.MinusMonths(kBackwardWindowMonths).ToString();
  GateCheck check{"backward", report->backward.ok(), ""};
  for (const ReplayRecord& r : report->backward.records) {
    if (r.status == ReplayStatus::kFail) {
      Block(report, "backward", "REPLAY_FAILED",
            absl::StrCat(r.target, " v", r.version, " (", r.version_date, ") ", r.test, ": ",
                         r.reason));
    } else if (r.status == ReplayStatus::kExpired) {
      report->notices.push_back(
          {"backward", absl::StrCat(r.target, " v", r.version, " expired: ", r.reason)});
    }
  }
  check.summary =
      absl::StrCat(report->backward.passed, " passed, ", report->backward.failed, " failed, ",
                   report->backward.skipped, " skipped, ", report->backward.expired, " expired");
  if (!report->backward.cache_dir.empty()) {
    absl::StrAppend(&check.summary, " (", report->backward.cached, " from the replay cache)");
  }
  if (!report->backward.cache_warning.empty()) {
    report->notices.push_back({"backward", report->backward.cache_warning});
  }
  report->checks.push_back(check);
  // What retirement may take now (CONTRACT.md: versions outside the backward
  // window), with the command that does it.
  std::map<std::string, std::vector<std::string>> prunable;
  for (const ReplayRecord& r : report->backward.records) {
    if (r.status == ReplayStatus::kExpired) {
      prunable[r.target].push_back(absl::StrCat("v", r.version));
    }
  }
  if (!prunable.empty()) {
    std::vector<std::string> parts;
    for (const auto& [target, versions] : prunable) {
      parts.push_back(absl::StrCat(target, " ", absl::StrJoin(versions, ",")));
    }
    report->notices.push_back(
        {"prune",
         absl::StrCat(
             "prunable (outside the 6-month backward window): ", absl::StrJoin(parts, "; "),
             ". `aot-compat prune --golden_dir=", options.golden_dir, " --now=", options.now,
             "` retires them and the blobs no other version names")});
  }

  // Runtime-read flag defaults against the newest release before now.
  GateCheck flags{"flags", true, ""};
  // The releases current in the backward window: their names must still
  // resolve (step 5 of the decision tree).
  std::vector<ReleaseSnapshot> in_window =
      ComputeReleaseWindow(releases, now.MinusMonths(kBackwardWindowMonths), now).releases;
  std::map<std::string, std::string> current = RuntimeFlagDefaults(options.load_options);
  std::vector<std::string> changed;
  if (!in_window.empty()) {
    for (const auto& [name, value] : in_window.back().flag_defaults) {
      auto it = current.find(name);
      std::string now_value = it == current.end() ? "<removed>" : it->second;
      if (now_value != value) {
        changed.push_back(absl::StrCat(name, ": ", value, " -> ", now_value, " (release ",
                                       in_window.back().id, ")"));
      }
    }
  }
  for (const std::string& c : changed) {
    if (report->backward.ok()) {
      report->notices.push_back(
          {"flags", absl::StrCat("runtime flag default changed (", c,
                                 "): 'depends'; every golden of the last 6 months still replays")});
    } else {
      flags.ok = false;
      Block(report, "flags", "FLAG_DEFAULT_CHANGED",
            absl::StrCat("runtime flag default changed (", c, ") and ", report->backward.failed,
                         " golden replay(s) of the last 6 months fail under it"));
    }
  }
  flags.summary = changed.empty() ? "flag defaults unchanged"
                                  : absl::StrCat(changed.size(), " default(s) changed");
  report->checks.push_back(flags);

  // Names every runtime of the backward window resolved must still resolve.
  GateCheck registry{"registry", true, ""};
  std::set<std::string> reported;
  for (const ReleaseSnapshot& r : in_window) {
    // Aliases past their expiry have served their 6 months.
    for (const std::string& name : r.FfiNamesResolvedAt(now)) {
      if (runtime.ResolvesFfiName(name) || !reported.insert(name).second) continue;
      registry.ok = false;
      Block(report, "registry", "FFI_NAME_REMOVED",
            absl::StrCat("custom call / FFI name '", name, "' (registered in release ", r.id,
                         ") no longer resolves: artifacts of the last 6 months may call it"));
    }
  }
  registry.summary = absl::StrCat(in_window.size(), " release(s) of the backward window checked");
  report->checks.push_back(registry);
  return absl::OkStatus();
}

// `current_output`: the compiler's corpus output, compiled on first use.
absl::Status ForwardStep(
    const GateOptions& options,
    const std::function<absl::StatusOr<std::vector<ForwardArtifact>>()>& current_output,
    const std::vector<ReleaseSnapshot>& releases, const Date& now, GateReport* report) {
  ReleaseWindow window = ComputeForwardWindow(releases, now);
  report->forward_window_start = window.start.ToString();
  GateCheck check{"forward", true, ""};
  if (window.releases.empty()) {
    check.ok = false;
    check.summary = "no release";
    Block(report, "forward", "NO_RELEASE",
          absl::StrCat("no release dated on or before ", options.now, " under ", options.golden_dir,
                       "/releases: cut one with `aot-compat release`"));
    report->checks.push_back(check);
    return absl::OkStatus();
  }
  auto artifacts = current_output();
  AOT_RETURN_IF_ERROR(artifacts);
  int errors = 0;
  for (const ReleaseSnapshot& release : window.releases) {
    report->forward_releases.push_back(release.id);
    AOT_ASSIGN_OR_RETURN(auto checker,
                         LoadForwardChecker(options.golden_dir, release, options.head_pool));
    // The same finding in many kernels or artifacts is one blocker or
    // notice with a count and an example (every finding stays in the JSON).
    struct Group {
      const ForwardFinding* first = nullptr;
      int count = 0;
    };
    std::map<std::tuple<std::string, std::string, std::string>, Group> groups;
    std::vector<std::tuple<std::string, std::string, std::string>> order;
    size_t begin = report->forward.size();
    for (const ForwardArtifact& artifact : *artifacts) {
      for (ForwardFinding& f : checker->Check(artifact)) {
        if (f.severity == "error") ++errors;
        report->forward.push_back(std::move(f));
      }
    }
    for (size_t i = begin; i < report->forward.size(); ++i) {
      const ForwardFinding& f = report->forward[i];
      auto key = std::make_tuple(f.severity, f.rule, f.message);
      Group& g = groups[key];
      if (g.first == nullptr) {
        g.first = &f;
        order.push_back(key);
      }
      ++g.count;
    }
    for (const auto& key : order) {
      const Group& g = groups[key];
      const ForwardFinding& f = *g.first;
      std::string text = absl::StrCat(f.rule, ": release ", f.release, ": ", f.message, " (",
                                      g.count, " occurrence(s); e.g. ", f.target, "/", f.test,
                                      f.path.empty() ? "" : absl::StrCat(" at ", f.path), ")");
      if (f.severity == "error") {
        Block(report, "forward", f.rule, text);
      } else {
        report->notices.push_back({"forward", text});
      }
    }
  }
  check.ok = errors == 0;
  check.summary =
      absl::StrCat(artifacts->size(), " artifact(s) x ", window.releases.size(), " release(s) (",
                   absl::StrJoin(report->forward_releases, ", "), "): ", errors, " error(s)");
  report->checks.push_back(check);
  return absl::OkStatus();
}

// The ledger against the real released runtimes (rollout_audit.h): each
// flag's runtime_release runs its flag-on artifacts, and a flag on by
// default, or whose earliest switch day is within the next 14 days, is
// runnable by every release of the forward window on that day. Reads the
// recorded runs only, unless options.build_old makes the missing ones.
absl::Status RolloutStep(const GateOptions& options, const std::vector<EmissionFlag>& flags,
                         const std::vector<ReleaseSnapshot>& releases, const Date& now,
                         GateReport* report) {
  GateCheck check{"rollout", true, ""};
  auto release_named = [&](absl::string_view id) -> const ReleaseSnapshot* {
    for (const ReleaseSnapshot& r : releases) {
      if (r.id == id) return &r;
    }
    return nullptr;
  };
  // The day each flag is checked at (nullopt: not switching soon).
  auto switch_day = [&](const EmissionFlag& f) -> std::optional<Date> {
    if (f.enabled_by_default) return now;
    auto support = Date::Parse(f.runtime_support_since);
    if (!support.ok()) return std::nullopt;
    const Date day = std::max(now, EarliestSwitchDay(*support));
    if (day > now.PlusDays(kForwardWindowDays)) return std::nullopt;
    return day;
  };
  if (options.build_old) {
    std::set<std::string> needed;
    for (const EmissionFlag& f : flags) {
      if (!f.runtime_release.empty()) needed.insert(f.runtime_release);
      if (auto day = switch_day(f)) {
        for (const ReleaseSnapshot& r : ComputeForwardWindow(releases, *day).releases) {
          needed.insert(r.id);
        }
      }
    }
    std::vector<ReleaseSnapshot> to_record;
    for (const ReleaseSnapshot& r : releases) {
      if (needed.count(r.id)) to_record.push_back(r);
    }
    OldBuildOptions build = options.old_build;
    build.progress = options.progress;
    AOT_RETURN_IF_ERROR(RecordMissingRuns(options.golden_dir, flags, to_record, build).status());
  }
  AOT_ASSIGN_OR_RETURN(auto records, LoadReleaseRunRecords(options.golden_dir));
  AOT_ASSIGN_OR_RETURN(report->rollout,
                       AuditEmissionFlags(options.golden_dir, flags, releases, records));
  auto block = [&](std::string rule, std::string message) {
    check.ok = false;
    Block(report, "rollout", std::move(rule), std::move(message));
  };
  auto earliest = [](const FlagAudit& a) {
    return a.earliest_switch.empty()
               ? std::string(
                     "none yet: no release runs them; fix the runtime, cut a release and "
                     "the flag may switch on 14 full days after it")
               : absl::StrCat(a.earliest_switch, " (14 full days after ", a.first_release,
                              ", the first release that runs them)");
  };
  int checked = 0;
  for (size_t i = 0; i < flags.size(); ++i) {
    const EmissionFlag& f = flags[i];
    const FlagAudit& audit = report->rollout[i];
    if (audit.targets.empty()) {
      block("NO_FLAG_ON_TARGET", absl::StrCat(f.name,
                                              ": no golden target is compiled with it on: "
                                              "no released runtime can be run on its artifacts"));
      continue;
    }
    auto cell_of = [&](absl::string_view id) -> const FlagReleaseCell* {
      for (const FlagReleaseCell& c : audit.releases) {
        if (c.release == id) return &c;
      }
      return nullptr;
    };
    const ReleaseSnapshot* claimed = release_named(f.runtime_release);
    if (f.runtime_release.empty() || claimed == nullptr) {
      block("LEDGER_RELEASE_UNKNOWN",
            absl::StrCat(f.name, ": runtime_release '", f.runtime_release,
                         "' is not a release under ", options.golden_dir, "/releases"));
    } else if (claimed->date != f.runtime_support_since) {
      block("LEDGER_RELEASE_DATE",
            absl::StrCat(f.name, ": runtime_support_since ", f.runtime_support_since,
                         " is not the date of its runtime_release ", claimed->id, " (",
                         claimed->date, ")"));
    } else if (const FlagReleaseCell* c = cell_of(claimed->id);
               c != nullptr && c->state == ReleaseRunsFlag::kFails) {
      block(
          "LEDGER_RELEASE_CANNOT_RUN",
          absl::StrCat(f.name, ": the ledger names release ", claimed->id,
                       " as the first whose runtime runs its flag-on artifacts, but it cannot run ",
                       c->example, "; the first release that does: ",
                       audit.first_release.empty() ? "none yet" : audit.first_release));
    } else if (c != nullptr && c->state == ReleaseRunsFlag::kUnrecorded) {
      report->notices.push_back(
          {"rollout", absl::StrCat(f.name, ": release ", claimed->id,
                                   " (its runtime_release) has no recorded run of ", c->example,
                                   ": `aot-compat rollout-audit --build --release=", claimed->id,
                                   "` records it")});
    }
    std::optional<Date> day = switch_day(f);
    if (!day) continue;
    ++checked;
    const std::string when =
        f.enabled_by_default
            ? absl::StrCat("is on by default on ", day->ToString())
            : absl::StrCat("may switch on from ", day->ToString(), " by the ledger");
    for (const ReleaseSnapshot& r : ComputeForwardWindow(releases, *day).releases) {
      const FlagReleaseCell* c = cell_of(r.id);
      if (c == nullptr || c->state == ReleaseRunsFlag::kRuns) continue;
      if (c->state == ReleaseRunsFlag::kFails) {
        block("ROLLOUT_BLOCKED",
              absl::StrCat(f.name, " ", when, ", but release ", r.id,
                           ", in the forward window that day, cannot run its flag-on artifact ",
                           c->example, "; earliest allowed date: ", earliest(audit)));
      } else {
        block("ROLLOUT_UNRECORDED",
              absl::StrCat(f.name, " ", when, ", and release ", r.id,
                           " is in the forward window that day, but no run of its flag-on "
                           "artifact ",
                           c->example, " by that release is recorded"));
      }
    }
  }
  check.summary =
      absl::StrCat(flags.size(), " flag(s) x ", releases.size(), " release(s) from recorded runs; ",
                   checked, " on or switching within 14 days checked against their window");
  report->checks.push_back(check);
  return absl::OkStatus();
}

std::vector<ForwardArtifact> ForwardArtifacts(const std::vector<CompiledTest>& compiled) {
  std::vector<ForwardArtifact> out;
  out.reserve(compiled.size());
  for (const CompiledTest& c : compiled) {
    out.push_back({c.target, c.test, c.executable.SerializeAsString()});
  }
  return out;
}

}  // namespace

bool GateReport::HasBlocker(absl::string_view check, absl::string_view rule) const {
  for (const GateBlocker& b : blockers) {
    if (b.check == check && b.rule == rule) return true;
  }
  return false;
}

nlohmann::ordered_json GateReport::ToJson() const {
  nlohmann::ordered_json j;
  j["verdict"] = ok() ? "pass" : "blocked";
  j["now"] = now;
  j["backward_window_start"] = backward_window_start;
  j["forward_window_start"] = forward_window_start;
  j["forward_releases"] = forward_releases;
  nlohmann::ordered_json checks_json = nlohmann::ordered_json::array();
  for (const GateCheck& c : checks) {
    checks_json.push_back({{"name", c.name}, {"ok", c.ok}, {"summary", c.summary}});
  }
  j["checks"] = checks_json;
  nlohmann::ordered_json blockers_json = nlohmann::ordered_json::array();
  for (const GateBlocker& b : blockers) {
    blockers_json.push_back(
        {{"check", b.check}, {"rule", b.rule}, {"message", b.message}, {"fix", b.fix}});
  }
  j["blockers"] = blockers_json;
  nlohmann::ordered_json notices_json = nlohmann::ordered_json::array();
  for (const GateNotice& n : notices) {
    notices_json.push_back({{"check", n.check}, {"message", n.message}});
  }
  j["notices"] = notices_json;
  ExecutionCoverage coverage = ComputeExecutionCoverage(backward.records);
  j["executed_targets"] = coverage.executed;
  j["validated_only_targets"] = coverage.validated_only;
  j["backward"] = backward.ToJson();
  nlohmann::ordered_json forward_json = nlohmann::ordered_json::array();
  for (const ForwardFinding& f : forward) forward_json.push_back(f.ToJson());
  j["forward"] = forward_json;
  nlohmann::ordered_json rollout_json = nlohmann::ordered_json::array();
  for (const FlagAudit& a : rollout) rollout_json.push_back(a.ToJson());
  j["rollout"] = rollout_json;
  return j;
}

std::string GateReport::Summary() const {
  std::string out = absl::StrCat("gate at ", now, ": ", ok() ? "PASS" : "BLOCKED", " (",
                                 blockers.size(), " blocker(s), ", notices.size(), " notice(s))\n");
  for (const GateCheck& c : checks) {
    absl::StrAppend(&out, "  ", c.ok ? "ok     " : "BLOCKED", " ", c.name, ": ", c.summary, "\n");
  }
  if (!backward.records.empty()) {
    absl::StrAppend(&out, "  targets: ", ComputeExecutionCoverage(backward.records).Describe(),
                    "\n");
  }
  for (const GateBlocker& b : blockers) {
    absl::StrAppend(&out, "blocker [", b.check, "/", b.rule, "] ", b.message, "\n");
    if (!b.fix.empty()) absl::StrAppend(&out, "  fix: ", b.fix, "\n");
  }
  for (const GateNotice& n : notices) {
    absl::StrAppend(&out, "notice [", n.check, "] ", n.message, "\n");
  }
  return out;
}

absl::StatusOr<std::vector<ForwardArtifact>> CompileCorpusArtifacts(
    const std::string& golden_dir, const std::vector<std::string>& targets) {
  AOT_ASSIGN_OR_RETURN(auto compiled, CompileCorpus(golden_dir, SelectGoldenTargets(targets)));
  return ForwardArtifacts(compiled);
}

absl::StatusOr<GateReport> RunGate(const GateOptions& options) {
  AOT_ASSIGN_OR_RETURN(auto now, Date::Parse(options.now));
  GateReport report;
  report.now = options.now;
  std::vector<std::string> targets = SelectGoldenTargets(options.targets);
  AOT_ASSIGN_OR_RETURN(auto releases, LoadReleases(options.golden_dir));
  ReleaseSnapshot runtime = options.runtime ? *options.runtime : CaptureRuntimeCapabilities();

  auto step = [&](absl::string_view what) {
    if (options.progress != nullptr) options.progress->Update(absl::StrCat("gate: ", what));
  };
  step("schema-check");
  AOT_RETURN_IF_ERROR(SchemaCheckStep(options, &report));
  step("backward window (replay)");
  AOT_RETURN_IF_ERROR(BackwardStep(options, targets, releases, runtime, now, &report));
  // The corpus is compiled once, for the forward check and verification.
  std::optional<std::vector<CompiledTest>> compiled;
  auto corpus = [&]() -> absl::StatusOr<const std::vector<CompiledTest>*> {
    if (!compiled) {
      AOT_ASSIGN_OR_RETURN(auto c, CompileCorpus(options.golden_dir, targets, options.progress,
                                                 options.replay_cache_dir));
      compiled = std::move(c);
    }
    return &*compiled;
  };
  const std::vector<EmissionFlag>& flags = options.ledger ? *options.ledger : EmissionLedger();
  // The forward window guards what the compiler emits by default. A target
  // compiled with an emission flag still off by default (the collective
  // targets: emit_collectives) holds the flag-on path, which only releases
  // after the flag's default switches must read (the ledger check holds
  // the switch): its artifacts are left out of the forward check, with a
  // notice. Once the default switches they are checked like any other.
  std::map<std::string, std::string> flag_on_targets;  // target -> the flag
  for (const std::string& name : targets) {
    auto target = TargetAsGenerated(options.golden_dir, name);
    if (!target.ok()) continue;
    for (const std::string& flag : target->emission_flags) {
      auto it = absl::c_find_if(flags, [&](const EmissionFlag& f) { return f.name == flag; });
      if (it != flags.end() && !it->enabled_by_default) flag_on_targets[name] = flag;
    }
  }
  auto current_output = [&]() -> absl::StatusOr<std::vector<ForwardArtifact>> {
    if (options.artifacts) return options.artifacts();
    AOT_ASSIGN_OR_RETURN(auto c, corpus());
    std::vector<CompiledTest> by_default;
    for (const CompiledTest& t : *c) {
      if (!flag_on_targets.count(t.target)) by_default.push_back(t);
    }
    for (const auto& [target, flag] : flag_on_targets) {
      report.notices.push_back(
          {"forward", absl::StrCat(target, ": compiled with ", flag,
                                   ", off by default: the flag-on path, not checked against the "
                                   "forward window until its default switches")});
    }
    return ForwardArtifacts(by_default);
  };
  step("forward window");
  AOT_RETURN_IF_ERROR(ForwardStep(options, current_output, releases, now, &report));

  step("ledger and lint");
  GateCheck ledger{"ledger", true, ""};
  AOT_ASSIGN_OR_RETURN(auto violations, CheckEmissionLedger(flags, options.now));
  for (const LedgerViolation& v : violations) {
    Block(&report, "ledger", v.rule, absl::StrCat(v.flag, ": ", v.message));
  }
  ledger.ok = violations.empty();
  ledger.summary =
      absl::StrCat(flags.size(), " emission flag(s), ", violations.size(), " violation(s)");
  report.checks.push_back(ledger);
  step("rollout (the ledger against the released runtimes' runs)");
  if (options.rollout) AOT_RETURN_IF_ERROR(RolloutStep(options, flags, releases, now, &report));

  GateCheck lint{"lint", true, ""};
  AOT_ASSIGN_OR_RETURN(auto lint_report, LintFallbacks(options.source_root, now));
  LintAliases(now, &lint_report);
  for (const LintFinding& f : lint_report.findings) {
    std::string where =
        absl::StrCat(f.file, f.line > 0 ? absl::StrCat(":", f.line) : "", ": ", f.message);
    if (f.severity == "error") {
      Block(&report, "lint", "FALLBACK_WITHOUT_EXPIRY", where);
    } else {
      report.notices.push_back({"lint", where});
    }
  }
  lint.ok = lint_report.ok();
  lint.summary = absl::StrCat(lint_report.fallbacks, " fallback(s), ", lint_report.findings.size(),
                              " finding(s)");
  report.checks.push_back(lint);

  if (options.verify) {
    GateCheck verify{"verify", true, ""};
    AOT_ASSIGN_OR_RETURN(auto c, corpus());
    AOT_ASSIGN_OR_RETURN(auto results,
                         VerifyCompiled(options.golden_dir, targets, *c, /*strict=*/false));
    for (const VerifyResult& r : results) {
      if (r.ok) continue;
      verify.ok = false;
      Block(&report, "verify", "GOLDEN_DIFFERS",
            absl::StrCat(r.target, " v", r.version,
                         ": the current compiler no longer reproduces it:\n", r.diff));
    }
    verify.summary = absl::StrCat(results.size(), " target(s) compared with their newest golden");
    report.checks.push_back(verify);
  }
  return report;
}

}  // namespace aot
