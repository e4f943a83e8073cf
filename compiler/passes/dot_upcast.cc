#include "compiler/passes/dot_upcast.h"

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

bool IsHalfFloat(PrimitiveType t) { return t == BF16 || t == F16; }

// Multiply-adds of a dot: the result's elements times the contracted size.
int64_t MultiplyAdds(const HloInstruction& dot) {
  int64_t k = 1;
  for (int64_t d : dot.attrs().dot_dimension_numbers->lhs_contracting_dimensions()) {
    k *= dot.operand(0)->shape().dimensions(d);
  }
  return dot.shape().ElementCount() * k;
}

}  // namespace

absl::StatusOr<bool> DotUpcast::Run(HloModule* module) {
  return ReplaceInTopLevelComputations(
      module,
      [](HloComputation* computation, NameUniquer& names,
         HloInstruction* dot) -> absl::StatusOr<HloInstruction*> {
        if (dot->opcode() != HloOpcode::kDot || dot->shape().IsTuple()) return nullptr;
        const PrimitiveType out = dot->shape().element_type();
        if (!IsHalfFloat(dot->operand(0)->shape().element_type()) ||
            !IsHalfFloat(dot->operand(1)->shape().element_type()) ||
            !(IsHalfFloat(out) || out == F32) || MultiplyAdds(*dot) < DotUpcast::kMinMultiplyAdds) {
          return nullptr;
        }
        std::vector<HloInstruction*> operands;
        for (int i = 0; i < 2; ++i) {
          HloInstruction* x = dot->operand(i);
          Shape f32 = x->shape();
          f32.set_element_type(F32);
          auto convert = HloInstruction::Create(HloOpcode::kConvert, f32, {x});
          convert->set_name(names.GetUniqueName(absl::StrCat(dot->name(), ".f32_", i)));
          operands.push_back(AddWithNewId(computation, std::move(convert)));
        }
        Shape f32_out = dot->shape();
        f32_out.set_element_type(F32);
        auto wide = HloInstruction::Create(HloOpcode::kDot, f32_out, operands);
        *wide->mutable_attrs() = dot->attrs();
        wide->set_name(names.GetUniqueName(absl::StrCat(dot->name(), ".f32")));
        HloInstruction* result = AddWithNewId(computation, std::move(wide));
        if (out != F32) {
          auto back = HloInstruction::Create(HloOpcode::kConvert, dot->shape(), {result});
          back->set_name(names.GetUniqueName(absl::StrCat(dot->name(), ".narrow")));
          result = AddWithNewId(computation, std::move(back));
        }
        return result;
      });
}

}  // namespace aot
