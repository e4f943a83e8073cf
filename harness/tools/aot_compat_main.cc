// aot-compat: the compatibility harness's command-line entry point. Parses
// the verb (argv[1]) and dispatches through one verb table; each verb is
// written beside the library that owns it (harness/cli/verb.h):
//   harness/golden/golden_verbs.h    generate, replay, verify, prune, show,
//                                    diff, fsck, repack
//   harness/lint/lint_verbs.h        lint
//   harness/schema/schema_verbs.h    schema-snapshot, schema-check
//   harness/release/release_verbs.h  release, forward-check, rollout-audit
//   harness/gate/gate_verbs.h        gate, report
//   harness/triage/triage_verbs.h    triage
// and version and schema-fingerprint are here.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "compiler/tooling/flags.h"
#include "harness/cli/verb.h"
#include "harness/gate/gate_verbs.h"
#include "harness/golden/golden_verbs.h"
#include "harness/lint/lint_verbs.h"
#include "harness/release/release_verbs.h"
#include "harness/report/tool_versions.h"
#include "harness/schema/schema_verbs.h"
#include "harness/triage/triage_verbs.h"
#include "nlohmann/json.hpp"
#include "proto/schema.h"

namespace aot {
namespace {

int Version(int argc, char** argv) {
  bool json = false;
  FlagSet flags(absl::StrCat(kProgram, " version"), absl::StrCat(kProgram, " version [--json]"),
                "Prints the project's git describe, runtime ABI version, schema "
                "fingerprint\nand the versions of LLVM, protobuf, Abseil, "
                "OpenBLAS and CUDA it was built with.");
  flags.AddBool("json", &json, "Print a JSON object instead of a table.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  auto versions = ToolVersions();
  if (json) {
    nlohmann::ordered_json out;
    for (const auto& [name, value] : versions) out[name] = value;
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  for (const auto& [name, value] : versions) {
    std::printf("%-20s %s\n", name.c_str(), value.c_str());
  }
  return 0;
}

int PrintSchemaFingerprint(int /*argc*/, char** /*argv*/) {
  std::printf("%s\n", SchemaFingerprint().c_str());
  return 0;
}

// Every verb, in the order `aot-compat --help` lists them.
std::vector<Verb> VerbTable() {
  std::vector<Verb> table = {
      {"version",
       "Print the versions of the project, its schema\n"
       "fingerprint and its dependencies.",
       Version},
      {"schema-fingerprint",
       "Print the schema fingerprint (SHA-256 of the\n"
       "descriptor set) alone.",
       PrintSchemaFingerprint},
  };
  auto append = [&](const std::vector<Verb>& verbs) {
    table.insert(table.end(), verbs.begin(), verbs.end());
  };
  append(GoldenVerbs());
  append({LintVerb()});
  append(SchemaVerbs());
  append(ReleaseVerbs());
  append({GateVerb(), RolloutAuditVerb(), ReportVerb()});
  append({TriageVerb()});
  return table;
}

// "Commands:" and each verb's summary, its continuation lines indented
// under the first, then where each command's flags are.
std::string CommandsHelp(const std::vector<Verb>& table) {
  std::string out = "Commands:\n";
  for (const Verb& verb : table) {
    bool first = true;
    for (absl::string_view line : absl::StrSplit(verb.summary, '\n')) {
      absl::StrAppendFormat(&out, "  %-20s %s\n", first ? verb.name : "", line);
      first = false;
    }
  }
  absl::StrAppend(&out, "\nRun '", kProgram, " COMMAND --help' for a command's flags.\n");
  return out;
}

int Main(int argc, char** argv) {
  const std::vector<Verb> table = VerbTable();
  std::string usage = absl::StrCat(kProgram, " COMMAND [flags]\n\n",
                                   "The compatibility harness of the XLA-style "
                                   "AOT compiler and runtime.\n\n",
                                   CommandsHelp(table));
  if (argc < 2) {
    std::fputs(absl::StrCat("Usage: ", usage).c_str(), stderr);
    return 2;
  }
  std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(absl::StrCat("Usage: ", usage).c_str(), stdout);
    return 0;
  }
  if (command == "--version") command = "version";
  for (const Verb& verb : table) {
    if (command == verb.name) return verb.run(argc, argv);
  }
  return ReportToolError(kProgram,
                         absl::InvalidArgumentError(absl::StrCat("unknown command '", command,
                                                                 "' (see aot-compat --help)")),
                         2);
}

}  // namespace
}  // namespace aot

int main(int argc, char** argv) { return aot::Main(argc, argv); }
