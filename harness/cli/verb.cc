#include "harness/cli/verb.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/golden/corpus.h"
#include "harness/golden/replay_cache.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {

absl::Status WriteJsonFile(const std::string& path, const nlohmann::ordered_json& json) {
  if (path.empty()) return absl::OkStatus();
  return WriteFileAtomically(path, json.dump(2) + "\n");
}

std::optional<int> WriteJsonOutput(const std::string& path, const nlohmann::ordered_json& json) {
  if (absl::Status s = WriteJsonFile(path, json); !s.ok()) return ReportToolError(kProgram, s, 2);
  return std::nullopt;
}

int ExitCodeOrBadInput(const absl::StatusOr<int>& result) {
  AOT_RETURN_IF_ERROR_AND(result, ReportToolError(kProgram, _, 2));
  return *result;
}

std::string TargetHelp() {
  return absl::StrCat("Golden target (repeatable or comma-separated): ",
                      absl::StrJoin(SelectGoldenTargets({}), ", "), ". Default: all.");
}

ReplayCacheFlags::ReplayCacheFlags() : cache_dir(DefaultReplayCacheDir()) {}

void ReplayCacheFlags::Add(FlagSet& flags) {
  flags.AddString("cache_dir", &cache_dir,
                  "The replay cache: a test whose artifact and I/O blobs this same runtime "
                  "(its runtime fingerprint: its sources, build and shared libraries) already "
                  "passed or skipped takes that verdict without loading; failures are never "
                  "cached. The gate and report also keep the corpus compiled there "
                  "(compile/): a module this same binary compiled for the same target is not "
                  "compiled again. Default: $XLA_AOT_REPLAY_CACHE, else "
                  "~/.cache/xla-aot/replay.");
  flags.AddBool("no_cache", &no_cache,
                "Replay and compile everything: neither read nor write the caches.");
}

}  // namespace aot
