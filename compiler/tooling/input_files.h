#ifndef AOT_COMPILER_TOOLING_INPUT_FILES_H_
#define AOT_COMPILER_TOOLING_INPUT_FILES_H_

// The files a tool is handed: what each holds and which files a directory
// or glob pattern names.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_module_loader.h"

namespace aot {

// aot-run's files: HLO text (by content or a .hlo name) or a serialized
// executable (.pb binary, .pbtxt text; otherwise by content).
InputKind DetectRunInputKind(absl::string_view path, absl::string_view bytes);

// aot-run's FILE arguments: a file stays as given; a directory becomes every
// *.hlo, *.pb and *.pbtxt below it (recursively), sorted; a glob pattern
// (glob(3)) becomes its matches, sorted, directories among them expanded.
// Errors (InvalidArgument) for a path that does not exist, a pattern without
// matches, and a directory without such files.
absl::StatusOr<std::vector<std::string>> ExpandFileArguments(
    absl::Span<const std::string> arguments);
// Has a name aot-run picks up from a directory (.hlo, .pb, .pbtxt).
bool IsRunnableFileName(absl::string_view path);

// Drops protobuf's own log lines (e.g. "invalid UTF-8" while parsing bad
// bytes): the tools report every failure as their one-line error.
void SilenceProtobufLogging();

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_INPUT_FILES_H_
