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
  return absl::UnimplementedError(
      absl::StrCat(DescribeInstruction(h), " on ", h.shape().ToString(false), ": ", why));
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

// `h` on its operands widened (each narrow array converted to its compute
// type), with the result shape `shape`; not yet added.
std::unique_ptr<HloInstruction> CloneOnWidenedOperands(const HloInstruction& h, Shape shape,
                                                       InstructionBuilder& b) {
  std::vector<HloInstruction*> operands;
  for (HloInstruction* op : h.operands()) {
    const bool narrow = op->shape().IsArray() && IsNarrowType(op->shape().element_type());
    operands.push_back(narrow ? b.Op(HloOpcode::kConvert, Widened(op->shape()), {op}) : op);
  }
  std::unique_ptr<HloInstruction> wide = CloneWithOperands(h, operands);
  *wide->mutable_shape() = std::move(shape);
  return wide;
}

// `widened_calls`, when given, is set when an op's computation was widened
// (its old computation is then left uncalled).
absl::StatusOr<bool> WidenComputation(HloComputation* computation, bool* widened_calls = nullptr);

// The ops whose computation runs on their operands' elements, which widen
// with it.
bool CallsPerElement(HloOpcode opcode) {
  return opcode == HloOpcode::kReduce || opcode == HloOpcode::kReduceWindow ||
         opcode == HloOpcode::kScatter || opcode == HloOpcode::kSort;
}

Shape WidenedLeaves(const Shape& shape) {
  if (!shape.IsTuple()) {
    return shape.IsArray() && IsNarrowType(shape.element_type()) ? Widened(shape) : shape;
  }
  std::vector<Shape> leaves;
  for (const Shape& s : shape.tuple_shapes()) leaves.push_back(WidenedLeaves(s));
  return Shape::Tuple(std::move(leaves));
}

// reduce, reduce-window, scatter or sort of narrow values as the same op on
// their widened values, with a computation that converts its parameters
// back to the narrow types, runs the callee's body (widened per
// instruction, one rounding each, as the interpreter) and widens its
// results: every value it carries is one the narrow type holds, so the op
// computes what it computes in the narrow types.
absl::StatusOr<HloInstruction*> WidenCall(HloInstruction* h, InstructionBuilder& b) {
  const HloComputation& callee = *h->to_apply();
  std::vector<std::pair<PrimitiveType, std::string>> params;
  for (int64_t i = 0; i < callee.num_parameters(); ++i) {
    const HloInstruction* p = callee.parameter_instruction(i);
    const PrimitiveType type = p->shape().IsArray() ? p->shape().element_type() : TUPLE;
    const bool narrow = IsNarrowType(type);
    params.push_back({narrow ? WideComputeType(type) : type,
                      narrow ? absl::StrCat(p->name(), ".wide") : p->name()});
  }
  absl::StatusOr<HloComputation*> wide = RewriteScalarComputation(
      h->parent()->parent(), callee, "_widened", params,
      [&](int64_t i, absl::Span<HloInstruction* const> parameters, InstructionBuilder& cb) {
        const Shape& shape = callee.parameter_instruction(i)->shape();
        if (!IsNarrowType(shape.element_type())) return parameters[i];
        return cb.Op(HloOpcode::kConvert, shape, {parameters[i]});
      },
      [](HloInstruction* out, InstructionBuilder& cb) {
        if (!IsNarrowType(out->shape().element_type())) return std::vector<HloInstruction*>{out};
        return std::vector<HloInstruction*>{
            cb.Op(HloOpcode::kConvert, Widened(out->shape()), {out})};
      });
  AOT_RETURN_IF_ERROR_AND(wide, Refuse(*h, _.message()));
  AOT_RETURN_IF_ERROR(WidenComputation(*wide).status());
  AOT_RETURN_IF_ERROR(RemoveDeadCode(*wide).status());
  AOT_RETURN_IF_ERROR(EnsureDefinitionOrder(*wide).status());
  std::unique_ptr<HloInstruction> clone = CloneOnWidenedOperands(*h, WidenedLeaves(h->shape()), b);
  *clone->mutable_called_computations() = {*wide};
  HloInstruction* result = b.Add(std::move(clone));
  auto narrowed = [&](HloInstruction* value, const Shape& shape) {
    return IsNarrowType(shape.element_type()) ? b.Op(HloOpcode::kConvert, shape, {value}) : value;
  };
  if (!h->shape().IsTuple()) return narrowed(result, h->shape());
  std::vector<HloInstruction*> elements;
  for (int64_t k = 0; k < static_cast<int64_t>(h->shape().tuple_shapes().size()); ++k) {
    elements.push_back(narrowed(b.GetTupleElement(result, k), h->shape().tuple_shapes(k)));
  }
  return b.Tuple(elements);
}

// One computation: each instruction on narrow values that computes is
// replaced by convert(op(convert(operands))).
absl::StatusOr<bool> WidenComputation(HloComputation* computation, bool* widened_calls) {
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
    InstructionBuilder b(computation, &names, *h);
    if (CallsPerElement(h->opcode())) {
      AOT_ASSIGN_OR_RETURN(HloInstruction * widened, WidenCall(h, b));
      h->ReplaceAllUsesWith(widened);
      changed = true;
      if (widened_calls != nullptr) *widened_calls = true;
      continue;
    }
    AOT_RETURN_IF_ERROR(CheckWidenable(*h));
    HloInstruction* result = b.Add(CloneOnWidenedOperands(*h, Widened(h->shape()), b));
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
  // embedded ones (reducers, comparators) are widened with the instruction
  // that calls them (WidenCall) or refused with it.
  const absl::flat_hash_set<const HloComputation*> embedded = EmbeddedComputations(*module);
  bool widened_calls = false;
  AOT_ASSIGN_OR_RETURN(bool changed,
                       RewriteUnfusedComputations(module, AfterRewrite::kRemoveDeadAndReorder,
                                                  [&](HloComputation* c) -> absl::StatusOr<bool> {
                                                    if (embedded.contains(c)) return false;
                                                    return WidenComputation(c, &widened_calls);
                                                  }));
  // The computations the widened ops called are no longer run (nor
  // rewritten on a second run).
  if (widened_calls) module->RemoveUnreachableComputations();
  return changed;
}

}  // namespace aot
