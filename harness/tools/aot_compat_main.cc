// aot-compat: the compatibility harness's command-line entry point.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/report/tool_versions.h"
#include <unistd.h>
#include "absl/strings/str_join.h"
#include "runtime/support/file_io.h"
#include "nlohmann/json.hpp"
#include "proto/schema.h"
#include "runtime/support/cli.h"

namespace aot {
namespace {

constexpr char kProgram[] = "aot-compat";

constexpr char kCommands[] =
    "Commands:\n"
    "  version              Print the versions of the project, its schema\n"
    "                       fingerprint and its dependencies.\n"
    "  schema-fingerprint   Print the schema fingerprint (SHA-256 of the\n"
    "                       descriptor set) alone.\n"
    "  generate             Compile the corpus; write golden v<N+1> for a target\n"
    "                       only when the output differs from v<N>.\n"
    "  replay               Load and run golden versions (boundary versions, or\n"
    "                       all) with the current runtime; compare outputs.\n"
    "  verify               Compile the corpus and compare with the newest golden\n"
    "                       version (structural diff, or bytes with --strict).\n"
    "  prune                Delete golden versions expired at --now (outside the\n"
    "                       6-month backward window).\n"
    "\nRun 'aot-compat COMMAND --help' for a command's flags.\n";

int Version(int argc, char** argv) {
  bool json = false;
  FlagSet flags(absl::StrCat(kProgram, " version"),
                absl::StrCat(kProgram, " version [--json]"),
                "Prints the project's git describe, runtime ABI version, schema "
                "fingerprint\nand the versions of LLVM, protobuf, Abseil, "
                "OpenBLAS and CUDA it was built with.");
  flags.AddBool("json", &json, "Print a JSON object instead of a table.");
  auto positional = flags.Parse(argc, argv, 2);
  if (!positional.ok()) return ReportToolError(kProgram, positional.status(), 2);
  if (flags.help_requested()) {
    std::fputs(flags.Help().c_str(), stdout);
    return 0;
  }
  if (!positional->empty()) {
    return ReportToolError(
        kProgram,
        absl::InvalidArgumentError(absl::StrCat(
            "version takes no arguments, got '", positional->front(), "'")),
        2);
  }
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

std::vector<std::string> TargetsOrAll(const std::vector<std::string>& targets) {
  if (!targets.empty()) return targets;
  std::vector<std::string> all;
  for (const GoldenTarget& t : GoldenTargets()) all.push_back(t.name);
  return all;
}

std::string TargetHelp() {
  std::vector<std::string> names;
  for (const GoldenTarget& t : GoldenTargets()) names.push_back(t.name);
  return absl::StrCat("Golden target (repeatable or comma-separated): ",
                      absl::StrJoin(names, ", "), ". Default: all.");
}

int Generate(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::vector<std::string> targets;
  std::string date = TodayDate();
  FlagSet flags("aot-compat generate",
                "aot-compat generate [--golden_dir=DIR] [--target=T]... [--date=YYYY-MM-DD]",
                "Compiles every module of DIR/modules for each target and writes\n"
                "DIR/executables/<target>/v<N+1> only if the result differs from v<N> under\n"
                "golden verification. Existing versions are never touched; a version is\n"
                "written to a temporary directory and renamed into place.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddString("date", &date, "The 'created' date recorded in MANIFEST.json.");
  auto positional = flags.Parse(argc, argv, 2);
  if (!positional.ok()) return ReportToolError(kProgram, positional.status(), 2);
  if (flags.help_requested()) {
    std::fputs(flags.Help().c_str(), stdout);
    return 0;
  }
  auto results = GenerateGoldens(golden_dir, TargetsOrAll(targets), date);
  if (!results.ok()) return ReportToolError(kProgram, results.status(), 1);
  for (const GenerateResult& r : *results) {
    std::printf("%-16s %s\n", r.target.c_str(), r.message.c_str());
  }
  return 0;
}

int Replay(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::vector<std::string> targets;
  bool all_versions = false;
  std::string json_path;
  FlagSet flags("aot-compat replay",
                "aot-compat replay [--golden_dir=DIR] [--target=T]... [--all_versions] "
                "[--json=OUT.json]",
                "Loads each selected golden version of each target with the current\n"
                "runtime, oldest to newest, runs it on its recorded inputs and compares\n"
                "with the recorded outputs (bitwise unless the test declares a tolerance).\n"
                "Versions are discovered positionally (v<int> directories with artifacts).\n"
                "By default the boundary versions are replayed (the oldest and the second\n"
                "newest; all when there are two or fewer); --all_versions or\n"
                "XLA_AOT_TEST_ALL_VERSIONS=1 replays every version. MANIFEST.json sha256\n"
                "sums are checked first. Exit 1 on any failure.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddBool("all_versions", &all_versions, "Replay every version.");
  flags.AddString("json", &json_path, "Write the per-artifact results and a summary as JSON.");
  std::string now;
  flags.AddString("now", &now,
                  "Backward-window mode (YYYY-MM-DD): replay every version current in the 6 "
                  "months before this date (those created inside the window and the newest one "
                  "before it); older versions are reported expired, never failures.");
  auto positional = flags.Parse(argc, argv, 2);
  if (!positional.ok()) return ReportToolError(kProgram, positional.status(), 2);
  if (flags.help_requested()) {
    std::fputs(flags.Help().c_str(), stdout);
    return 0;
  }
  auto env_all = AllVersionsFromEnvironment();
  if (!env_all.ok()) return ReportToolError(kProgram, env_all.status(), 2);
  ReplayOptions options;
  options.golden_dir = golden_dir;
  options.targets = TargetsOrAll(targets);
  options.all_versions = all_versions || *env_all;
  options.progress = ::isatty(2);
  options.now = now;
  auto report = ReplayGoldens(options);
  if (!report.ok()) return ReportToolError(kProgram, report.status(), 2);
  for (const ReplayRecord& r : report->records) {
    if (r.status != "pass") {
      std::printf("%-8s %s v%d %s: %s\n", r.status.c_str(), r.target.c_str(), r.version,
                  r.test.c_str(), r.reason.c_str());
    }
  }
  std::printf("replay: %d passed, %d failed, %d skipped, %d expired\n", report->passed,
              report->failed, report->skipped, report->expired);
  if (!json_path.empty()) {
    if (absl::Status s = WriteFileAtomically(json_path, report->ToJson().dump(2) + "\n"); !s.ok()) {
      return ReportToolError(kProgram, s, 2);
    }
  }
  return report->ok() ? 0 : 1;
}

int Prune(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::vector<std::string> targets;
  std::string now = TodayDate();
  bool dry_run = false;
  FlagSet flags("aot-compat prune",
                "aot-compat prune [--golden_dir=DIR] [--target=T]... [--now=YYYY-MM-DD] "
                "[--dry_run]",
                "Deletes golden versions that are expired at --now: created before the\n"
                "6-month backward window and superseded by a version also created before\n"
                "it. Versions inside the window (and the newest one before it) are never\n"
                "deleted.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddString("now", &now, "The date the window ends on.");
  flags.AddBool("dry_run", &dry_run, "List what would be deleted, delete nothing.");
  auto positional = flags.Parse(argc, argv, 2);
  if (!positional.ok()) return ReportToolError(kProgram, positional.status(), 2);
  if (flags.help_requested()) {
    std::fputs(flags.Help().c_str(), stdout);
    return 0;
  }
  for (const std::string& target : TargetsOrAll(targets)) {
    auto pruned = PruneExpired(golden_dir, target, now, dry_run);
    if (!pruned.ok()) return ReportToolError(kProgram, pruned.status(), 2);
    std::vector<std::string> names;
    for (int v : *pruned) names.push_back(absl::StrCat("v", v));
    std::printf("%-16s %s %s\n", target.c_str(), dry_run ? "would prune" : "pruned",
                names.empty() ? "nothing" : absl::StrJoin(names, ", ").c_str());
  }
  return 0;
}

int Verify(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::vector<std::string> targets;
  bool strict = false;
  FlagSet flags("aot-compat verify",
                "aot-compat verify [--golden_dir=DIR] [--target=T]... [--strict]",
                "Compiles every module with the current compiler and compares with the\n"
                "newest golden version: a structural, field-order-insensitive diff that\n"
                "ignores kernel binaries, toolchain versions (built_with), the compiler's\n"
                "git describe and debug paths; --strict demands byte identity. A\n"
                "difference prints the diff and says to generate v<N+1>.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddBool("strict", &strict, "Byte-identical artifacts.");
  auto positional = flags.Parse(argc, argv, 2);
  if (!positional.ok()) return ReportToolError(kProgram, positional.status(), 2);
  if (flags.help_requested()) {
    std::fputs(flags.Help().c_str(), stdout);
    return 0;
  }
  auto results = VerifyGoldens(golden_dir, TargetsOrAll(targets), strict);
  if (!results.ok()) return ReportToolError(kProgram, results.status(), 2);
  bool ok = true;
  for (const VerifyResult& r : *results) {
    if (r.ok) {
      std::printf("verify %-16s v%d: ok\n", r.target.c_str(), r.version);
      continue;
    }
    ok = false;
    std::printf("verify %-16s v%d: DIFFERS\n%s", r.target.c_str(), r.version, r.diff.c_str());
    std::printf("The current compiler no longer reproduces %s v%d. If the change is intended,\n"
                "run `aot-compat generate --target=%s` to write v%d.\n",
                r.target.c_str(), r.version, r.target.c_str(), r.version + 1);
  }
  return ok ? 0 : 1;
}

int Main(int argc, char** argv) {
  std::string usage = absl::StrCat(kProgram, " COMMAND [flags]\n\n",
                                    "The compatibility harness of the XLA-style "
                                    "AOT compiler and runtime.\n\n",
                                    kCommands);
  if (argc < 2) {
    std::fputs(absl::StrCat("Usage: ", usage).c_str(), stderr);
    return 2;
  }
  std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(absl::StrCat("Usage: ", usage).c_str(), stdout);
    return 0;
  }
  if (command == "version" || command == "--version") return Version(argc, argv);
  if (command == "generate") return Generate(argc, argv);
  if (command == "replay") return Replay(argc, argv);
  if (command == "verify") return Verify(argc, argv);
  if (command == "prune") return Prune(argc, argv);
  if (command == "schema-fingerprint") {
    std::printf("%s\n", SchemaFingerprint().c_str());
    return 0;
  }
  return ReportToolError(
      kProgram,
      absl::InvalidArgumentError(absl::StrCat(
          "unknown command '", command, "' (see aot-compat --help)")),
      2);
}

}  // namespace
}  // namespace aot

int main(int argc, char** argv) { return aot::Main(argc, argv); }
