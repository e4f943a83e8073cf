#include "compiler/passes/narrow_type_expansion.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

bool TouchesNarrowTypes(const HloInstruction& h) {
  if (HasNarrowLeaf(h.shape())) return true;
  for (const HloInstruction* op : h.operands()) {
    if (HasNarrowLeaf(op->shape())) return true;
  }
  return false;
}

// A type narrower than a byte, whose bits a bitcast-convert would have to
// pack.
bool IsSubByte(PrimitiveType type) { return IsNarrowInteger(type) || type == F4E2M1FN; }

Shape Widened(const Shape& shape) {
  Shape wide = shape;
  wide.set_element_type(WideComputeType(shape.element_type()));
  return wide;
}

absl::Status Refuse(const HloInstruction& h, absl::string_view why) {
  return absl::UnimplementedError(absl::StrCat("instruction '", h.name(), "' (",
                                               HloOpcodeString(h.opcode()), ") on ",
                                               h.shape().ToString(false), ": ", why));
}

absl::Status CheckWidenable(const HloInstruction& h) {
  const HloOpcode opcode = h.opcode();
  if (!h.called_computations().empty()) {
    return Refuse(h,
                  "an op with a called computation over the narrow element types (it would "
                  "compute in them); convert its operands to a wider type first");
  }
  bool narrow_integer = IsNarrowInteger(h.shape().element_type());
  for (const HloInstruction* op : h.operands()) {
    if (op->shape().IsTuple() && HasNarrowLeaf(op->shape())) {
      return Refuse(h, "a tuple operand holding narrow element types");
    }
    narrow_integer |= IsNarrowInteger(op->shape().element_type());
  }
  if (narrow_integer && (opcode == HloOpcode::kShiftRightLogical || opcode == HloOpcode::kClz ||
                         opcode == HloOpcode::kPopulationCount)) {
    return Refuse(h, "a bit-level op on an integer narrower than a byte");
  }
  if (h.shape().IsTuple()) return Refuse(h, "a tuple result holding narrow element types");
  return absl::OkStatus();
}

// One computation: each instruction on narrow values that computes is
// replaced by convert(op(convert(operands))).
absl::StatusOr<bool> WidenComputation(HloComputation* computation) {
  NameUniquer names = NameUniquer::ForInstructions(*computation);
  bool changed = false;
  for (HloInstruction* h : computation->MakeInstructionPostOrder()) {
    if (!TouchesNarrowTypes(*h) || PassesValuesOn(h->opcode()) ||
        h->opcode() == HloOpcode::kConvert) {
      continue;
    }
    if (h->opcode() == HloOpcode::kBitcastConvert) {
      if (IsSubByte(h->shape().element_type()) ||
          IsSubByte(h->operand(0)->shape().element_type())) {
        return Refuse(*h, "bitcast-convert from or to a type narrower than a byte");
      }
      continue;  // whole bytes
    }
    AOT_RETURN_IF_ERROR(CheckWidenable(*h));
    InstructionBuilder b(computation, &names, *h);
    std::vector<HloInstruction*> operands;
    for (HloInstruction* op : h->operands()) {
      const bool narrow = op->shape().IsArray() && IsNarrowType(op->shape().element_type());
      operands.push_back(narrow ? b.Op(HloOpcode::kConvert, Widened(op->shape()), {op}) : op);
    }
    std::unique_ptr<HloInstruction> wide = CloneWithOperands(*h, operands);
    *wide->mutable_shape() = Widened(h->shape());
    HloInstruction* result = b.Add(std::move(wide));
    if (IsNarrowType(h->shape().element_type())) {
      result = b.Op(HloOpcode::kConvert, h->shape(), {result});
    }
    h->ReplaceAllUsesWith(result);
    changed = true;
  }
  return changed;
}

}  // namespace

absl::StatusOr<bool> ExpandNarrowTypes(HloModule* module) {
  // The computations the program runs, as in ExpandComplexArithmetic: the
  // embedded ones (reducers, comparators) belong to an instruction that is
  // refused when it computes on narrow values.
  const absl::flat_hash_set<const HloComputation*> embedded = EmbeddedComputations(*module);
  return RewriteUnfusedComputations(module, AfterRewrite::kRemoveDeadAndReorder,
                                    [&](HloComputation* c) -> absl::StatusOr<bool> {
                                      if (embedded.contains(c)) return false;
                                      return WidenComputation(c);
                                    });
}

}  // namespace aot
