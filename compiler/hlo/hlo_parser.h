#ifndef AOT_COMPILER_HLO_HLO_PARSER_H_
#define AOT_COMPILER_HLO_HLO_PARSER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/literal.h"
#include "compiler/hlo/shape.h"

namespace aot {

struct HloParserOptions {
  // Seed for the values of elided constants (`constant({...})`); the
  // parser reports which constants it filled in `elided_constants`.
  uint64_t elided_constant_seed = 42;
};

struct HloParseResult {
  std::unique_ptr<HloModule> module;
  // Names of constants whose data was elided in the text and filled with
  // seeded random values.
  std::vector<std::string> elided_constants;
};

// The name of a module whose text has no `HloModule` header.
inline constexpr char kDefaultHloModuleName[] = "module";

// Parses HLO text as XLA's tools print it (an optional `HloModule name, ...`
// header, computations, `ENTRY` (without it the last computation is the
// entry), `ROOT`, attributes, comments). Errors are InvalidArgument with
// "line:column: message" naming the instruction.
absl::StatusOr<HloParseResult> ParseHloModuleWithDetails(absl::string_view text,
                                                         const HloParserOptions& options = {});
absl::StatusOr<std::unique_ptr<HloModule>> ParseHloModule(absl::string_view text,
                                                          const HloParserOptions& options = {});

// Parses a shape: "f32[2,3]{1,0}", "(f32[], pred[])", "f32[2]{0:T(128)}"
// (tiling accepted and ignored).
absl::StatusOr<Shape> ParseShape(absl::string_view text);

// Parses an array literal written with its shape, "s32[3]{0} {2, 0, 1}" (the
// form of shuffle's indices= and multi_shifts=); elided values are refused.
absl::StatusOr<Literal> ParseShapedLiteral(absl::string_view text);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_HLO_PARSER_H_
