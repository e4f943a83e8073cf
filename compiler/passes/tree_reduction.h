#ifndef AOT_COMPILER_PASSES_TREE_REDUCTION_H_
#define AOT_COMPILER_PASSES_TREE_REDUCTION_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/passes/hlo_pass.h"

namespace aot {

// Rewrites a reduce of every dimension of a large operand (N >=
// kMinElements elements, one operand) into two: the operand reshaped to
// [K, N/K] and reduced over its rows (a row reduction: K rows the workers
// share, each vectorized), then the K partial values reduced to the result
// (XLA's tree reduction). K is the largest divisor of N in
// [kMinRows, kMaxRows] leaving rows of at least kMinRowLength elements; an
// N with none is left alone. The init value is applied once per stage
// (it is the combiner's identity, as HLO assumes), and the combiner is
// reassociated, so float results differ from the serial order by rounding.
class TreeReduction : public HloPass {
 public:
  static constexpr absl::string_view kName = "tree-reduction";
  static constexpr int64_t kMinElements = 64 * 1024;
  static constexpr int64_t kMinRows = 16, kMaxRows = 4096, kMinRowLength = 1024;
  absl::string_view name() const override { return kName; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_TREE_REDUCTION_H_
