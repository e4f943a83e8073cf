#ifndef AOT_HARNESS_CLI_VERB_H_
#define AOT_HARNESS_CLI_VERB_H_

// What the verbs of `aot-compat` (harness/tools/aot_compat_main.cc) share:
// the verb table's entry, the program name their errors carry, and the
// flags and outputs several verbs have in common. Each harness library that
// owns verbs exports them from a *_verbs.h beside it (GoldenVerbs(),
// SchemaVerbs(), ...); the main concatenates them into one table, prints
// its --help from the table and dispatches on argv[1].

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/tooling/flags.h"
#include "nlohmann/json.hpp"

namespace aot {

// One command of aot-compat.
struct Verb {
  // What the user types: `aot-compat <name> [flags]`.
  const char* name;
  // What `aot-compat --help` lists beside the name: one sentence, its lines
  // separated by '\n' (the main indents each continuation line under the
  // first).
  const char* summary;
  // Runs the verb. argv[1] is the verb's name; its flags start at argv[2]
  // (FlagSet::ParseOrExit(argc, argv, /*first=*/2)). Returns the exit code:
  // 0 ok, 1 when the work found a failure, 2 on bad usage or input.
  int (*run)(int argc, char** argv);
};

// The program name every verb's errors and notes start with.
inline constexpr char kProgram[] = "aot-compat";

// Writes `json` (dump(2) and a newline) to `path` atomically when one was
// given (--json=); OK when `path` is empty.
absl::Status WriteJsonFile(const std::string& path, const nlohmann::ordered_json& json);

// WriteJsonFile for a verb: std::nullopt on success (or no path), else the
// exit code (2) after reporting the error.
std::optional<int> WriteJsonOutput(const std::string& path, const nlohmann::ordered_json& json);

// A verb's exit code from its body's result: the code itself, or 2 (bad
// input) after reporting the error, as ReportToolError(kProgram, status, 2).
int ExitCodeOrBadInput(const absl::StatusOr<int>& result);

// The help of --target: the golden targets, repeatable or comma-separated.
std::string TargetHelp();

// --cache_dir and --no_cache (replay, gate, report): the replay cache's
// directory, DefaultReplayCacheDir() unless given, none with --no_cache.
struct ReplayCacheFlags {
  ReplayCacheFlags();
  std::string cache_dir;
  bool no_cache = false;
  void Add(FlagSet& flags);
  std::string Dir() const { return no_cache ? "" : cache_dir; }
};

}  // namespace aot

#endif  // AOT_HARNESS_CLI_VERB_H_
