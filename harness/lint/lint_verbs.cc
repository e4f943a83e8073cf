#include "harness/lint/lint_verbs.h"

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/rollout/emission_ledger.h"
#include "compiler/tooling/flags.h"
#include "harness/cli/verb.h"
#include "harness/golden/golden_ops.h"
#include "harness/lint/fallback_lint.h"
#include "nlohmann/json.hpp"
#include "support/date.h"
#include "support/status_macros.h"

namespace aot {
namespace {

int Lint(int argc, char** argv) {
  std::string root = ".";
  std::string now = TodayDate();
  bool json = false;
  FlagSet flags("aot-compat lint", "aot-compat lint [--root=DIR] [--now=YYYY-MM-DD] [--json]",
                "Lists runtime compatibility fallbacks without an expiry comment (error),\n"
                "expired fallbacks and FFI aliases past their expiry (notice), and checks\n"
                "the staged-rollout ledger of compiler emission flags (error when a flag\n"
                "is on by default less than 14 days after runtime support, or a fallback\n"
                "was removed less than 6 months after the switch). Exit 1 on an error.");
  flags.AddString("root", &root, "The repository root (runtime/ is scanned).");
  flags.AddString("now", &now, "The date to judge expiry and windows at.");
  flags.AddBool("json", &json, "Print JSON.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  auto date = Date::Parse(now);
  AOT_RETURN_IF_ERROR_AND(date, ReportToolError(kProgram, _, 2));
  auto report = LintFallbacks(root, *date);
  AOT_RETURN_IF_ERROR_AND(report, ReportToolError(kProgram, _, 2));
  auto ledger = CheckEmissionLedger(EmissionLedger(), now);
  AOT_RETURN_IF_ERROR_AND(ledger, ReportToolError(kProgram, _, 2));
  for (const LedgerViolation& v : *ledger) {
    report->findings.push_back(
        {"error", "compiler/rollout", 0, absl::StrCat("[", v.rule, "] ", v.flag, ": ", v.message)});
  }
  if (json) {
    nlohmann::ordered_json out;
    out["fallbacks"] = report->fallbacks;
    out["ledger_flags"] = static_cast<int>(EmissionLedger().size());
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const LintFinding& f : report->findings) {
      list.push_back(
          {{"severity", f.severity}, {"file", f.file}, {"line", f.line}, {"message", f.message}});
    }
    out["findings"] = list;
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    for (const LintFinding& f : report->findings) {
      std::printf("%s: %s:%d: %s\n", f.severity.c_str(), f.file.c_str(), f.line, f.message.c_str());
    }
    std::printf("lint: %d fallbacks, %zu ledger flags, %s\n", report->fallbacks,
                EmissionLedger().size(), report->ok() ? "ok" : "errors");
  }
  return report->ok() ? 0 : 1;
}

}  // namespace

Verb LintVerb() {
  return {"lint",
          "Fallback expiry lint of runtime/ and the emission-flag\n"
          "ledger check (staged rollout) at --now.",
          Lint};
}

}  // namespace aot
