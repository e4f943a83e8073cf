#ifndef AOT_COMPILER_HLO_SHUFFLE_H_
#define AOT_COMPILER_HLO_SHUFFLE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/literal.h"
#include "compiler/hlo/shape.h"

namespace aot {

// XLA's shuffle: moves the elements of its one operand along `dimensions`,
// each element of the result taking the value of one element of the operand
// (the result has the operand's shape). Its mode says where from:
//  - mode=rotate, shifts={s0,...}: one shift per shuffled dimension; along
//    dimension d = dimensions[k] of size n, result[.., i, ..] takes
//    operand[.., (i + s_k) mod n, ..] (a shift may be negative or larger
//    than n; it is taken modulo n);
//  - mode=permute, indices=<shape> <values>: for each element of the result,
//    the operand coordinates of the shuffled dimensions it takes its value
//    from (each in [0, n));
//  - mode=multi_rotate, multi_shifts=<shape> <values>: a rotation whose shift
//    is given per element of the result, so each slice along a shuffled
//    dimension rotates by its own amount.
// The indices and multi_shifts are an integer array (the "table") of the
// operand's rank followed by one dimension holding a coordinate per shuffled
// dimension, in the order of `dimensions`; with one shuffled dimension that
// last dimension may be left out. Each of the operand's dimensions of the
// table is either the operand's size or 1 (the entry is shared along it):
// multi_shifts=s32[1,2] {{1, 2}} rotates the two columns of an f32[3,2] by 1
// and by 2 along dimensions={0}.
// A computation over one element, as both the reference interpreter and the
// compiler's expansion (slices and concatenates for rotate, one gather for the
// other modes, as XLA's ShuffleExpander) read it.
enum class ShuffleMode { kRotate, kPermute, kMultiRotate };

struct ShuffleAttributes {
  ShuffleMode mode = ShuffleMode::kRotate;
  std::vector<int64_t> dimensions;
  // rotate: each shift taken modulo its dimension's size, into [0, n).
  std::vector<int64_t> shifts;
  // permute: the indices (as written); multi_rotate: the shifts, each taken
  // modulo its dimension's size into [0, n), as s64 of the written shape.
  Literal table;
};

// "rotate", "permute", "multi_rotate".
absl::string_view ShuffleModeName(ShuffleMode mode);

// Whether attribute `name` of an `opcode` instruction is a literal written
// with its shape (shuffle's indices= and multi_shifts=), which the parser
// reads as one value.
bool IsShuffleLiteralAttribute(HloOpcode opcode, absl::string_view name);

// `shift` modulo `size`, in [0, size) (0 for an empty dimension).
int64_t NormalizeShift(int64_t shift, int64_t size);

// Reads and checks a shuffle's attributes against its operand (also on a
// module the verifier has not seen): one array operand, distinct dimensions
// in range, a known mode with its own attribute and no other mode's, one
// shift per dimension, a table of an integer type and the form above, and
// permute indices in range. InvalidArgument otherwise (the caller names the
// instruction).
absl::StatusOr<ShuffleAttributes> ReadShuffleAttributes(const HloInstruction& shuffle);

// The entry of `a.table` for the result element at `index` (of an operand
// of `operand_dims`) and shuffled dimension number `k`.
int64_t ShuffleTableEntry(const ShuffleAttributes& a, absl::Span<const int64_t> operand_dims,
                          absl::Span<const int64_t> index, int64_t k);

// The operand coordinates the result element at `index` takes its value
// from, written to `source` (the operand's rank).
void ShuffleSource(const ShuffleAttributes& a, absl::Span<const int64_t> operand_dims,
                   absl::Span<const int64_t> index, std::vector<int64_t>& source);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_SHUFFLE_H_
