#ifndef AOT_COMPILER_TOOLING_COMPILE_TOOL_H_
#define AOT_COMPILER_TOOLING_COMPILE_TOOL_H_

// aotc as a library: its flags and its modes (compile to a file, dump a
// stage, run named passes, convert to an HloModuleProto), so the tool's main
// only parses and reports.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler/hlo/hlo_graph_dot.h"
#include "compiler/tooling/flags.h"

namespace aot {

struct CompileToolFlags {
  std::string module_file;
  std::string output_file;
  std::string platform = "host";
  bool platform_set = false;  // --platform given explicitly
  std::string target_config;
  std::string format = "binary";
  std::string stage;
  std::vector<std::string> passes;
  bool verbose = false;
  bool fusion = true;
  bool constant_folding = true;
  bool list_stages = false;
  // --stage=dot: draw less (hlo_graph_dot.h).
  std::string node;
  int64_t radius = DotGraphOptions{}.radius;
  std::string computation;
  bool list_passes = false;
  bool emit_proto = false;
  bool support_table = false;
  bool stablehlo_support_table = false;
  int64_t num_partitions = 0;
  std::vector<std::string> emission_flags;
  // --xla_aot_dump_to=DIR: every stage of the compile written there too.
  std::string dump_to;
};

// Registers aotc's flags on `flags`, bound to `out`.
void AddCompileToolFlags(FlagSet& flags, CompileToolFlags* out);

// --emission_flags=a,b and --xla_aot_<flag>=true|false for every flag of
// the ledger, which aotc, aot-run and aot-compat generate share
// (CompileOptions::emission_flags).
void AddEmissionFlagsFlag(FlagSet& flags, std::vector<std::string>* out);

// The --list-passes text: every pass and the default pipeline's stages.
std::string ListPassesText();

// Runs the mode the flags select; `positional` are the non-flag arguments
// (at most one: the module). Bad usage or input is marked UsageError
// (exit 2); a failed compile or write is not (exit 1).
absl::Status RunCompileTool(CompileToolFlags flags, const std::vector<std::string>& positional);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_COMPILE_TOOL_H_
