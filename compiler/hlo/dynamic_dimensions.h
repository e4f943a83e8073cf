#ifndef AOT_COMPILER_HLO_DYNAMIC_DIMENSIONS_H_
#define AOT_COMPILER_HLO_DYNAMIC_DIMENSIONS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_instruction.h"

namespace aot {

// XLA's bounded dynamic dimensions, as one rule set that both the reference
// interpreter (with concrete sizes) and the compiler's LowerDynamicDimensions
// (with s32[] size instructions) apply, so the two can only differ in
// arithmetic, never in what they accept.
//
// A value's dimension is dynamic when its size is only known at run time: it
// holds the dimension's bound (the static size in its shape) elements, of
// which the first `size` are valid; the rest is padding whose contents are
// unspecified. Sources of dynamic dimensions:
//  - set-dimension-size(x, size), dimensions={d}: x with dimension d sized
//    `size` (an s32[] value, clamped to [0, bound]);
//  - dynamic-reshape(x, s0, ..., sN-1): x's valid elements in row-major order,
//    laid out row-major over an output whose dimension i is sized s_i
//    (clamped to [0, bound]); output elements past x's valid count are 0.
// Entry parameters carry no sizes: a `<=N` dimension in the text is passed at
// its bound N (the runtime has no dimension-size metadata), so it is static.
// Dynamic sizes flow through elementwise ops, broadcast, transpose and a
// reshape that keeps the valid elements a row-major prefix of one result
// dimension, and through slice, pad, reverse, concatenate, dynamic-slice,
// dynamic-update-slice, sort and reduce-window that leave the dynamic
// dimension itself alone (a full slice, no padding, another dimension).
// They end where get-dimension-size reads them, a reduce folds the dimension
// or a dot contracts it (the padding never reaches a result). A value with a
// dynamic dimension may not be the root of a computation nor reach any other
// op: that is Unimplemented, naming the instruction.

// Per dimension of a value: whether it is dynamic. Empty for a static value
// (also for tuples, tokens and scalars).
using DynamicDims = std::vector<bool>;

// Where one dimension of an instruction's result gets its size from.
struct DynamicSize {
  enum Kind {
    kStatic,     // the bound
    kDimension,  // multiplier * the size of `operand`'s dimension `dimension`
    kValue,      // the s32[] value of `operand`, clamped to [0, bound]
  };
  Kind kind = kStatic;
  int64_t operand = -1;
  int64_t dimension = -1;
  int64_t multiplier = 1;
};

// Padding that must be overwritten before the instruction runs: elements of
// operand `operand` whose index along `dimension` is at or past the size of
// operand `size_operand`'s dimension `size_dimension` become the scalar
// operand `fill_operand` (a reduce's init value), or zero when `fill_operand`
// is -1 (a dot's contraction). Every operand a reduce folds, or a dot
// contracts, along the dimension is masked, dynamic there or not.
struct DynamicMask {
  int64_t operand = -1;
  int64_t dimension = -1;
  int64_t fill_operand = -1;
  int64_t size_operand = -1;
  int64_t size_dimension = -1;
};

struct DynamicPlan {
  std::vector<DynamicSize> result;  // one per result dimension
  std::vector<DynamicMask> masks;
  // The result has a dynamic dimension.
  bool IsDynamic() const;
};

// set-dimension-size and dynamic-reshape: the ops that size dimensions at
// run time.
bool MakesDynamicDimensions(HloOpcode opcode);

// Whether `instr` takes part in dynamic sizes at all: it is set-dimension-size
// or dynamic-reshape, or one of its operands has a dynamic dimension.
bool TouchesDynamicDimensions(const HloInstruction& instr,
                              absl::Span<const DynamicDims> operand_dims);

// The plan for an instruction for which TouchesDynamicDimensions holds,
// given which dimensions of each operand are dynamic. get-dimension-size is
// planned as a static scalar (its value is the operand's size, read by the
// caller). Unimplemented, naming the instruction, the operand and its dynamic
// dimension, for an op outside the rule set above and for a reshape that does
// not keep the valid elements a row-major prefix of a result dimension
// (splitting a dynamic dimension, or merging it under a more major one).
absl::StatusOr<DynamicPlan> PlanDynamicDimensions(const HloInstruction& instr,
                                                  absl::Span<const DynamicDims> operand_dims);

// The dynamic dimensions of a result planned as `plan`.
DynamicDims ResultDynamicDims(const DynamicPlan& plan);

// Unimplemented naming `instr` as the root of `computation_name` holding a
// dynamic dimension (sizes never leave a computation).
absl::Status DynamicRootError(const HloInstruction& instr, absl::string_view computation_name,
                              const DynamicDims& dims);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_DYNAMIC_DIMENSIONS_H_
