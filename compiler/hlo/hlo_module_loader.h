#ifndef AOT_COMPILER_HLO_HLO_MODULE_LOADER_H_
#define AOT_COMPILER_HLO_HLO_MODULE_LOADER_H_

// Reading an HLO module from a file or bytes in any of the forms the tools
// accept: HLO text as XLA prints it, or an HloModuleProto (binary or text
// format). A serialized executable handed in by mistake is named as such.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/stablehlo/stablehlo_to_hlo.h"
#include "proto/hlo.pb.h"

namespace aot {

// What a file given to a tool holds.
enum class InputKind {
  kHloText,           // HLO text as XLA prints it
  kHloProtoBinary,    // an HloModuleProto, binary
  kHloProtoText,      // an HloModuleProto, text format
  kExecutableBinary,  // a serialized ExecutableProto, binary
  kExecutableText,    // a serialized ExecutableProto, text format
  kStableHloText,     // StableHLO / MHLO / CHLO in MLIR's text form (.mlir)
};
absl::string_view InputKindName(InputKind kind);

// True when the first line of `bytes` that is neither blank nor a comment
// starts with "HloModule".
bool LooksLikeHloText(absl::string_view bytes);

// aotc's --module_file: HLO text, StableHLO (MLIR text: a .mlir file, or
// text that starts with `module` / `func.func`), or an HloModuleProto in
// binary (.pb) or text (.pbtxt) form; other names are HLO text.
InputKind DetectModuleInputKind(absl::string_view path, absl::string_view bytes);

// `status` with "<path>: " in front of its message.
absl::Status WithPath(absl::string_view path, const absl::Status& status);

struct LoadedHloModule {
  std::unique_ptr<HloModule> module;
  // Constants whose values were elided in the text (filled from the seed).
  std::vector<std::string> elided_constants;
  // For StableHLO input: the conversion (its checks, and where each HLO
  // instruction came from, to report errors at the MLIR source).
  std::shared_ptr<const stablehlo::ConvertedProgram> stablehlo;
};

// `status` reported at the MLIR operation an instruction came from, when
// `loaded` was converted from StableHLO; else unchanged.
absl::Status AtSource(const LoadedHloModule& loaded, const absl::Status& status);

// One StableHLO program: `text` (one "// -----" piece starting at
// `first_line`), `function` its entry (empty: main or the only public one).
// `argument_dims`, when given, are the sizes of the entry's actual
// arguments: `?` sizes take them (shape polymorphism).
absl::StatusOr<LoadedHloModule> LoadStableHloProgram(
    absl::string_view text, absl::string_view path, int first_line, const std::string& function,
    const std::vector<std::vector<int64_t>>& argument_dims = {});

// Reads and parses an HLO module (text or HloModuleProto, see
// DetectModuleInputKind). Errors are InvalidArgument naming `path` and, for
// text, the line:column.
absl::StatusOr<LoadedHloModule> LoadHloModuleFile(const std::string& path,
                                                  uint64_t elided_constant_seed = 42);
// The same on bytes already read.
absl::StatusOr<LoadedHloModule> ParseHloModuleBytes(absl::string_view bytes, absl::string_view path,
                                                    InputKind kind,
                                                    uint64_t elided_constant_seed = 42);

// An HloModuleProto as bytes: deterministic binary, or text format.
std::string SerializeHloModuleProto(const HloModuleProto& proto, bool text);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_HLO_MODULE_LOADER_H_
