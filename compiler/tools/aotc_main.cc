// aotc: the ahead-of-time compiler (XLA's xla_compile), with hlo-opt's
// stage dumps, pass runs and HLO text <-> proto conversion. A thin main over
// compiler/tooling/compile_tool.h.
#include <string>
#include <vector>

#include "compiler/tooling/compile_tool.h"
#include "compiler/tooling/flags.h"
#include "compiler/tooling/input_files.h"

namespace {

constexpr char kProgram[] = "aotc";

constexpr char kSynopsis[] =
    "aotc --module_file=M.hlo --output_file=OUT.pb [--platform=host|cuda] "
    "[--target_config=NAME|PATH.txtpb] [--format=binary|text] [--verbose] "
    "[--nofusion]\n"
    "       aotc M.hlo -o OUT.pb\n"
    "       aotc M.hlo --stage=STAGE [-o FILE]       (see --list-stages)\n"
    "       aotc M.hlo --passes=a,b [-o FILE]         (see --list-passes)\n"
    "       aotc M.hlo --emit-proto -o M.pb [--format=text]\n"
    "       aotc --list-stages | --list-passes | --support_table";

constexpr char kDescription[] =
    "Compiles an HLO module ahead of time for a target and writes the\n"
    "serialized executable (an ExecutableProto: binary by default, or text\n"
    "format), which aot-run and the runtime load.\n"
    "\n"
    "The module is HLO text, or an HloModuleProto (binary .pb / text .pbtxt).\n"
    "The target is a shipped spec (a100, h100, host-x86-64-v2/v3/v4) or a\n"
    "target-description .txtpb file; it must be for --platform (without\n"
    "--platform, the target decides). Without --target_config: host compiles\n"
    "for the best x86-64 level of this machine, cuda for h100 (device-less\n"
    "compilation: no GPU needed).\n"
    "\n"
    "--stage=S prints one stage of the compilation instead (hlo-opt style);\n"
    "--passes=a,b runs exactly those HLO passes and prints the result;\n"
    "--emit-proto converts the module to an HloModuleProto.\n"
    "\n"
    "Exit status: 0 success, 1 compilation failed, 2 bad usage or input.";

}  // namespace

int main(int argc, char** argv) {
  aot::SilenceProtobufLogging();
  aot::CompileToolFlags options;
  aot::FlagSet flags(kProgram, kSynopsis, kDescription);
  aot::AddCompileToolFlags(flags, &options);
  std::vector<std::string> positional = flags.ParseOrExit(argc, argv);
  options.platform_set = flags.IsSet("platform");
  return aot::ExitWithStatus(kProgram, aot::RunCompileTool(std::move(options), positional));
}
