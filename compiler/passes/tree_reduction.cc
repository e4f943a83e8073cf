#include "compiler/passes/tree_reduction.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// The number of rows for N elements (0: none fits).
int64_t RowCount(int64_t n) {
  for (int64_t k = std::min(TreeReduction::kMaxRows, n / TreeReduction::kMinRowLength);
       k >= TreeReduction::kMinRows; --k) {
    if (n % k == 0) return k;
  }
  return 0;
}

}  // namespace

absl::StatusOr<bool> TreeReduction::Run(HloModule* module) {
  return ReplaceInTopLevelComputations(
      module,
      [](HloComputation* computation, NameUniquer& names,
         HloInstruction* h) -> absl::StatusOr<HloInstruction*> {
        if (h->opcode() != HloOpcode::kReduce || h->operand_count() != 2) return nullptr;
        HloInstruction* x = h->operand(0);
        const Shape& in = x->shape();
        if (in.IsTuple() || in.rank() == 0 ||
            static_cast<int64_t>(h->dimensions().size()) != in.rank() ||
            in.ElementCount() < TreeReduction::kMinElements) {
          return nullptr;
        }
        const int64_t n = in.ElementCount();
        const int64_t rows = RowCount(n);
        if (rows == 0) return nullptr;
        HloInstruction* init = h->operand(1);
        auto reshape = HloInstruction::Create(
            HloOpcode::kReshape, WithDefaultLayout(Shape(in.element_type(), {rows, n / rows})),
            {x});
        reshape->set_name(names.GetUniqueName(absl::StrCat(h->name(), ".rows")));
        HloInstruction* r = AddWithNewId(computation, std::move(reshape));
        auto partial = HloInstruction::Create(
            HloOpcode::kReduce, WithDefaultLayout(Shape(h->shape().element_type(), {rows})),
            {r, init});
        partial->set_name(names.GetUniqueName(absl::StrCat(h->name(), ".partial")));
        partial->mutable_attrs()->dimensions = {1};
        *partial->mutable_called_computations() = h->called_computations();
        HloInstruction* p = AddWithNewId(computation, std::move(partial));
        auto total = HloInstruction::Create(HloOpcode::kReduce, h->shape(), {p, init});
        total->set_name(names.GetUniqueName(absl::StrCat(h->name(), ".total")));
        total->mutable_attrs()->dimensions = {0};
        *total->mutable_called_computations() = h->called_computations();
        return AddWithNewId(computation, std::move(total));
      });
}

}  // namespace aot
