#ifndef AOT_COMPILER_TOOLING_LITERAL_JSON_H_
#define AOT_COMPILER_TOOLING_LITERAL_JSON_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/hlo/literal.h"
#include "compiler/hlo/shape.h"

namespace aot {

// The JSON form of literals used by every tool of the project:
//
//   {"arguments": [{"shape": "f32[2,3]", "data": [1, 2, 3, 4, 5, 6]},
//                  {"shape": "pred[]", "data": [true]}]}
//   {"results": [...]}   (same entries)
//
// - "shape" is an array shape in HLO syntax (a layout may be given and is
//   kept, but data is always in row-major logical order).
// - "data" is a flat list of element_count values in row-major order (a
//   rank-0 entry may also give the bare value).
// - Floats are JSON numbers, or the strings "nan", "inf", "-inf" ("+inf",
//   "-nan", "infinity" and "-infinity" are accepted too). Printed floats
//   use the shortest digits that read back to the same value; -0 prints
//   as -0.0.
// - A complex (c64, c128) element is a list [real, imag] of two floats.
// - pred is true/false (0 and 1 are accepted).
// - Integers are exact, s64/u64 included (never through a double); a value
//   outside the type's range is an error, not a wrap.
// - A tuple value is flattened depth-first: one entry per array leaf.

// Parses the list under `key` ("arguments" / "results"). Errors name the
// entry and the reason: "arguments[1].data[3]: 300 is out of range for u8".
absl::StatusOr<std::vector<Literal>> ParseLiteralsJson(absl::string_view text,
                                                       absl::string_view key);

// Prints literals (tuples flattened depth-first) under `key`, one entry
// per line.
std::string LiteralsToJson(absl::Span<const Literal> literals, absl::string_view key);

// Regroups flat array leaves (as ParseLiteralsJson returns them) into
// values of `shapes`, consuming leaves depth-first: a tuple shape takes as
// many leaves as it has. Errors when the counts or shapes do not match.
absl::StatusOr<std::vector<Literal>> UnflattenLiterals(absl::Span<const Shape> shapes,
                                                       std::vector<Literal> leaves);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_LITERAL_JSON_H_
