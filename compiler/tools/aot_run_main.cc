// aot-run: compiles or loads HLO modules and serialized executables, runs
// them on a platform and compares with the reference interpreter (XLA's
// run_hlo_module). A thin main over compiler/tooling/run_tool.h.
#include <string>
#include <vector>

#include "compiler/tooling/flags.h"
#include "compiler/tooling/input_files.h"
#include "compiler/tooling/run_tool.h"

namespace {

constexpr char kProgram[] = "aot-run";

constexpr char kSynopsis[] =
    "aot-run [--platform=host|cuda|interpreter] "
    "[--reference_platform=interpreter|none] [--target_config=NAME|PATH] "
    "[--inputs=IN.json] [--outputs=OUT.json] [--iterations=N] [--seed=N] "
    "[--print] [--require_execution] FILE|DIR|PATTERN...";

constexpr char kDescription[] =
    "Runs each FILE and prints one line per file:\n"
    "  <file>: <shape> load X ms, first Y ms, steady Z ms, reference: match\n"
    "\n"
    "FILE is HLO text (compiled for the platform, then loaded from its\n"
    "serialized bytes), a serialized executable (.pb binary, .pbtxt text, as\n"
    "aotc writes them; loaded directly) or an HloModuleProto (as aotc\n"
    "--emit-proto writes them). A directory stands for every *.hlo, *.pb and\n"
    "*.pbtxt below it, a quoted glob pattern for its matches, sorted.\n"
    "\n"
    "Platforms: host (default), cuda (without a GPU the executable is loaded\n"
    "and validated, and execution is reported as skipped), interpreter (the\n"
    "reference interpreter alone; prints '<module>: <shape> in X ms'). A\n"
    "serialized executable compiled for cuda runs on cuda unless --platform\n"
    "says otherwise.\n"
    "\n"
    "The reference is the interpreter evaluating the HLO module (for a\n"
    "serialized executable: the optimized module embedded in it). Results are\n"
    "compared with the default tolerance of each element type (bitwise for\n"
    "integers). Timing: load (deserialize and load), the first run, and the\n"
    "median of --iterations further runs.\n"
    "\n"
    "Arguments come from --inputs (JSON: {\"arguments\": [{\"shape\":\n"
    "\"f32[2]\", \"data\": [1, 2]}, ...]}, tuple parameters flattened\n"
    "depth-first) or, without it, are random values from --seed (argument i\n"
    "uses seed + i). --outputs writes {\"results\": [...]} in the same form;\n"
    "with several files, file i goes to OUT.i.json (OUT is the path without\n"
    "its .json suffix).\n"
    "\n"
    "Exit status: 0 success, 1 a file failed to compile, load or run, or did\n"
    "not match the reference, 2 bad usage or input.";

}  // namespace

int main(int argc, char** argv) {
  aot::SilenceProtobufLogging();
  aot::RunToolFlags options;
  aot::FlagSet flags(kProgram, kSynopsis, kDescription);
  aot::AddRunToolFlags(flags, &options);
  std::vector<std::string> positional = flags.ParseOrExit(argc, argv);
  return aot::RunTool(options, positional);
}
