// aot-compat: the compatibility harness's command-line entry point.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/report/tool_versions.h"
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
