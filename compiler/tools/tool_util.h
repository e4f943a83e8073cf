#ifndef AOT_COMPILER_TOOLS_TOOL_UTIL_H_
#define AOT_COMPILER_TOOLS_TOOL_UTIL_H_

// What the command-line tools (aotc, aot-run) share, kept out of their mains
// so it can be unit-tested: input detection and loading, target selection,
// the stage table, timing and the per-file summary line.

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/literal.h"
#include "compiler/hlo/shape.h"
#include "proto/hlo.pb.h"
#include "proto/target.pb.h"

namespace aot {

// ---------------------------------------------------------------------------
// Inputs.

enum class InputKind {
  kHloText,           // HLO text as XLA prints it
  kHloProtoBinary,    // an HloModuleProto, binary
  kHloProtoText,      // an HloModuleProto, text format
  kExecutableBinary,  // a serialized ExecutableProto, binary
  kExecutableText,    // a serialized ExecutableProto, text format
};
absl::string_view InputKindName(InputKind kind);

// True when the first line of `bytes` that is neither blank nor a comment
// starts with "HloModule".
bool LooksLikeHloText(absl::string_view bytes);

// aot-run's files: HLO text (by content or a .hlo name) or a serialized
// executable (.pb binary, .pbtxt text; otherwise by content).
InputKind DetectRunInputKind(absl::string_view path, absl::string_view bytes);

// aotc's --module_file: HLO text, or an HloModuleProto in binary (.pb) or
// text (.pbtxt) form; other names are HLO text.
InputKind DetectModuleInputKind(absl::string_view path,
                                absl::string_view bytes);

// `status` with "<path>: " in front of its message.
absl::Status WithPath(absl::string_view path, const absl::Status& status);

struct LoadedHloModule {
  std::unique_ptr<HloModule> module;
  // Constants whose values were elided in the text (filled from the seed).
  std::vector<std::string> elided_constants;
};

// Reads and parses an HLO module (text or HloModuleProto, see
// DetectModuleInputKind). Errors are InvalidArgument naming `path` and, for
// text, the line:column.
absl::StatusOr<LoadedHloModule> LoadHloModuleFile(
    const std::string& path, uint64_t elided_constant_seed = 42);
// The same on bytes already read.
absl::StatusOr<LoadedHloModule> ParseHloModuleBytes(
    absl::string_view bytes, absl::string_view path, InputKind kind,
    uint64_t elided_constant_seed = 42);

// Drops protobuf's own log lines (e.g. "invalid UTF-8" while parsing bad
// bytes): the tools report every failure as their one-line error.
void SilenceProtobufLogging();

// An HloModuleProto as bytes: deterministic binary, or text format.
std::string SerializeHloModuleProto(const HloModuleProto& proto, bool text);

// aot-run's FILE arguments: a file stays as given; a directory becomes every
// *.hlo, *.pb and *.pbtxt below it (recursively), sorted; a glob pattern
// (glob(3)) becomes its matches, sorted, directories among them expanded.
// Errors (InvalidArgument) for a path that does not exist, a pattern without
// matches, and a directory without such files.
absl::StatusOr<std::vector<std::string>> ExpandFileArguments(
    absl::Span<const std::string> arguments);
// Has a name aot-run picks up from a directory (.hlo, .pb, .pbtxt).
bool IsRunnableFileName(absl::string_view path);

// ---------------------------------------------------------------------------
// Targets.

// "host" -> PLATFORM_HOST, "cuda" (or "gpu") -> PLATFORM_CUDA.
absl::StatusOr<PlatformKind> ParsePlatformName(absl::string_view name);
absl::string_view PlatformName(PlatformKind platform);

// The shipped spec used when no --target_config is given: for the host,
// "host-x86-64-vN" for the best level `host_features` support (v2 when they
// support none); for cuda, "h100".
std::string DefaultTargetName(PlatformKind platform,
                              const std::set<std::string>& host_features);

// The target of a compile: `target_config` (a shipped name or a .txtpb path)
// or the default for `platform`. InvalidArgument when the config's platform
// is not `platform`.
absl::StatusOr<TargetConfigProto> SelectTarget(PlatformKind platform,
                                               absl::string_view target_config);

// ---------------------------------------------------------------------------
// aotc's --stage dumps.

struct StageInfo {
  const char* name;
  const char* description;
};
// hlo, hlo-optimized, hlo-fused, buffer-assignment, thunks, llvm, ptx.
absl::Span<const StageInfo> CompilerStages();
const StageInfo* FindCompilerStage(absl::string_view name);
// One stage per line: "  name  description".
std::string ListCompilerStages();

// ---------------------------------------------------------------------------
// Runs: timing, reference comparison, summary.

// The median of `samples_ms` (mean of the middle two for an even count); 0
// for none.
double MedianMs(std::vector<double> samples_ms);

struct RunTiming {
  double load_ms = 0;
  double first_ms = 0;
  double steady_ms = 0;  // median of the steady-state runs
};

enum class ReferenceResult { kMatch, kMismatch, kSkipped };
struct ReferenceOutcome {
  ReferenceResult result = ReferenceResult::kSkipped;
  // Mismatch: first differing element and count; skipped: why.
  std::string detail;
  // The tolerance used ("f32: atol=1e-05 rtol=0.0001"), for a comparison.
  std::string tolerance;
};

// The tolerance CompareLiteralsWithDefaultTolerance uses for each distinct
// leaf element type of `shape`, in first-use order: "f32: atol=1e-05
// rtol=0.0001; s32: bitwise".
std::string DescribeDefaultTolerance(const Shape& shape);

// Compares a result with the reference (expected) value.
ReferenceOutcome CompareWithReference(const Literal& expected,
                                      const Literal& actual);
ReferenceOutcome SkippedReference(absl::string_view why);

// True for the runtime's "this platform cannot execute here" error
// (FailedPrecondition from Executable::Execute on a machine without the
// device): the executable loaded, but running it is not possible.
bool IsCannotExecute(const absl::Status& status);

// One line (no newline) per file:
//   "<file>: <shape> load X ms, first Y ms, steady Z ms, reference: match
//   (...)"
// or, when execution was skipped,
//   "<file>: <shape> load X ms, execution skipped (<why>), reference: skipped"
std::string FormatRunSummary(absl::string_view file, const Shape& result_shape,
                             const RunTiming& timing,
                             const ReferenceOutcome& reference);
std::string FormatSkippedRunSummary(absl::string_view file,
                                    const Shape& result_shape, double load_ms,
                                    absl::string_view why);

// With several output files, file i of OUT.json goes to OUT.i.json.
std::string OutputPathFor(const std::string& outputs, size_t index,
                          size_t count);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLS_TOOL_UTIL_H_
