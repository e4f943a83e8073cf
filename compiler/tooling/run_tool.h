#ifndef AOT_COMPILER_TOOLING_RUN_TOOL_H_
#define AOT_COMPILER_TOOLING_RUN_TOOL_H_

// aot-run as a library: compile or load each file, run it on a platform,
// compare with the reference interpreter and print one summary line per
// file, so the tool's main only parses flags.

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/tooling/flags.h"

namespace aot {

struct RunToolFlags {
  std::string platform;            // host, cuda, interpreter; "" = host or the artifact's
  std::string reference_platform;  // interpreter, none; "" = by platform
  std::string target_config;
  std::string inputs_path;
  std::string outputs_path;
  int64_t iterations = 3;
  int64_t seed = 42;
  bool print = false;
  bool require_execution = false;
  int64_t num_replicas = 0;    // 0: the module's replica_count
  int64_t num_partitions = 0;  // > 0: partition the sharded module (SPMD) for this many
  int64_t collective_timeout_ms = 60000;
  std::vector<std::string> emission_flags;
};

// Registers aot-run's flags on `flags`, bound to `out`.
void AddRunToolFlags(FlagSet& flags, RunToolFlags* out);

// Runs every file `positional` names (files, directories, glob patterns).
// Each failure is reported on stderr as it happens and the other files
// still run. Returns the exit code: 0, or that of the first failure (1 a
// file failed to compile, load, run or match; 2 bad usage or input).
int RunTool(const RunToolFlags& flags, const std::vector<std::string>& positional);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_RUN_TOOL_H_
