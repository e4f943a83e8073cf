#include "compiler/passes/layout_normalization.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// `shape` with the layouts of `layout` where `layout` is a compatible
// shape; unset layouts in `layout` mean the default.
Shape WithLayoutOf(const Shape& shape, const Shape& layout) {
  if (!shape.Compatible(layout)) return shape;
  if (shape.IsTuple()) {
    Shape out = shape;
    for (size_t i = 0; i < shape.tuple_shapes().size(); ++i) {
      (*out.mutable_tuple_shapes())[i] =
          WithLayoutOf(shape.tuple_shapes(i), layout.tuple_shapes(i));
    }
    return out;
  }
  Shape out = shape;
  if (out.IsArray() && out.rank() > 0) out.set_minor_to_major(layout.LayoutOrDefault());
  if (out.IsArray()) out.set_element_size_in_bits(layout.element_size_in_bits());
  return out;
}

class Builder {
 public:
  explicit Builder(HloComputation* computation)
      : computation_(computation), names_(NameUniquer::ForInstructions(*computation)) {}

  // A value equal to `value` laid out as `target` (a compatible shape):
  // `value` itself if it already is, else copies (through the leaves of a
  // tuple). `base` names new instructions.
  HloInstruction* WithLayout(HloInstruction* value, const Shape& target, const std::string& base) {
    if (SameShapeAndLayout(value->shape(), target)) return value;
    if (value->shape().IsTuple()) {
      std::vector<HloInstruction*> elements;
      bool any_changed = false;
      for (int64_t i = 0; i < static_cast<int64_t>(target.tuple_shapes().size()); ++i) {
        auto gte = HloInstruction::Create(HloOpcode::kGetTupleElement,
                                          value->shape().tuple_shapes(i), {value});
        gte->mutable_attrs()->tuple_index = i;
        HloInstruction* element = Add(std::move(gte), absl::StrCat(base, ".element", i));
        HloInstruction* converted =
            WithLayout(element, target.tuple_shapes(i), absl::StrCat(base, ".", i));
        any_changed |= converted != element;
        elements.push_back(converted);
      }
      if (!any_changed) return value;
      return Add(HloInstruction::Create(HloOpcode::kTuple, target, elements),
                 absl::StrCat(base, ".tuple"));
    }
    return Add(HloInstruction::Create(HloOpcode::kCopy, target, {value}),
               absl::StrCat(base, ".copy"));
  }

 private:
  HloInstruction* Add(std::unique_ptr<HloInstruction> h, const std::string& name) {
    h->set_name(names_.GetUniqueName(name));
    return AddWithNewId(computation_, std::move(h));
  }

  HloComputation* computation_;
  NameUniquer names_;
};

}  // namespace

absl::StatusOr<bool> LayoutNormalization::Run(HloModule* module) {
  HloComputation* entry = module->entry_computation();
  if (entry == nullptr || entry->root_instruction() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("module '", module->name(), "' has no entry computation"));
  }
  // The ABI, captured before anything changes.
  const ProgramShape abi =
      module->config().entry_computation_layout.value_or(module->EntryProgramShape());
  const Shape result_layout = WithLayoutOf(entry->root_instruction()->shape(), abi.result);

  bool changed = false;
  // Entry parameters take the ABI layouts.
  for (HloInstruction* p : entry->parameter_instructions()) {
    if (p == nullptr) continue;
    const int64_t n = p->parameter_number();
    if (n < 0 || n >= static_cast<int64_t>(abi.parameters.size())) continue;
    Shape want = WithLayoutOf(p->shape(), abi.parameters[n]);
    if (!SameShapeAndLayout(want, p->shape())) changed = true;
    *p->mutable_shape() = want;
  }
  // Everything else gets the default layout.
  for (HloComputation* c : module->computations()) {
    for (HloInstruction* h : c->instructions()) {
      if (c == entry && h->opcode() == HloOpcode::kParameter) continue;
      Shape want = WithDefaultLayout(h->shape());
      if (!SameShapeAndLayout(want, h->shape())) changed = true;
      *h->mutable_shape() = want;
      if (h->opcode() == HloOpcode::kConstant && h->attrs().literal &&
          h->attrs().literal->shape().IsArray()) {
        h->mutable_attrs()->literal->set_layout(want.LayoutOrDefault());
      }
    }
  }
  Builder builder(entry);
  // Entry parameters with a non-default layout: their users read a copy.
  for (HloInstruction* p : entry->parameter_instructions()) {
    if (p == nullptr || HasDefaultLayoutEverywhere(p->shape())) continue;
    std::vector<HloInstruction*> users = p->users();
    const bool was_root = entry->root_instruction() == p;
    HloInstruction* normalized = builder.WithLayout(p, WithDefaultLayout(p->shape()), p->name());
    if (normalized == p) continue;
    changed = true;
    for (HloInstruction* user : users) {
      for (int64_t i = 0; i < user->operand_count(); ++i) {
        if (user->operand(i) == p) user->ReplaceOperandWith(i, normalized);
      }
    }
    if (was_root) entry->set_root_instruction(normalized);
  }
  // The result's declared layout.
  HloInstruction* root = entry->root_instruction();
  HloInstruction* new_root = builder.WithLayout(root, result_layout, root->name());
  if (new_root != root) {
    entry->set_root_instruction(new_root);
    changed = true;
  }
  AOT_RETURN_IF_ERROR(EnsureDefinitionOrder(entry));
  return changed;
}

}  // namespace aot
