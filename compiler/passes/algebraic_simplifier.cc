#include "compiler/passes/algebraic_simplifier.h"

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// The literal whose elements make up `h`'s value: the constant itself, or
// the constant a broadcast spreads (every element of the broadcast is one
// of its elements). nullptr for anything else.
const Literal* ConstantElements(const HloInstruction* h) {
  if (h->opcode() == HloOpcode::kBroadcast) h = h->operand(0);
  if (h->opcode() != HloOpcode::kConstant || !h->attrs().literal) return nullptr;
  const Literal& l = h->literal();
  if (!l.shape().IsArray()) return nullptr;
  return &l;
}

bool AllElements(const HloInstruction* h,
                 const std::function<bool(const Literal&, int64_t)>& pred) {
  const Literal* l = ConstantElements(h);
  if (l == nullptr) return false;
  for (int64_t i = 0; i < l->element_count(); ++i) {
    if (!pred(*l, i)) return false;
  }
  return true;
}

bool IsIntType(PrimitiveType t) { return IsInteger(t); }
bool IsFloatType(PrimitiveType t) { return IsFloatingPoint(t); }

bool IntEquals(const Literal& l, int64_t i, int64_t value) {
  if (IsUnsignedInteger(l.shape().element_type())) {
    return l.GetAsUint64(i) == static_cast<uint64_t>(value);
  }
  return l.GetAsInt64(i) == value;
}

bool IsAllIntZero(const HloInstruction* h) {
  return IsIntType(h->shape().element_type()) &&
         AllElements(h, [](const Literal& l, int64_t i) { return IntEquals(l, i, 0); });
}

bool IsAllNegativeZero(const HloInstruction* h) {
  return IsFloatType(h->shape().element_type()) && AllElements(h, [](const Literal& l, int64_t i) {
           double v = l.GetAsDouble(i);
           return v == 0.0 && std::signbit(v);
         });
}

bool IsAllPositiveZero(const HloInstruction* h) {
  return IsFloatType(h->shape().element_type()) && AllElements(h, [](const Literal& l, int64_t i) {
           double v = l.GetAsDouble(i);
           return v == 0.0 && !std::signbit(v);
         });
}

bool IsAllOne(const HloInstruction* h) {
  PrimitiveType t = h->shape().element_type();
  if (IsIntType(t)) {
    return AllElements(h, [](const Literal& l, int64_t i) { return IntEquals(l, i, 1); });
  }
  if (IsFloatType(t)) {
    return AllElements(h, [](const Literal& l, int64_t i) { return l.GetAsDouble(i) == 1.0; });
  }
  return false;
}

// 1 if every element of a pred constant is true, 0 if every one is false,
// -1 otherwise.
int ConstantPredicate(const HloInstruction* h) {
  if (h->shape().element_type() != PRED) return -1;
  if (AllElements(h, [](const Literal& l, int64_t i) { return l.GetAsInt64(i) != 0; })) {
    return 1;
  }
  if (AllElements(h, [](const Literal& l, int64_t i) { return l.GetAsInt64(i) == 0; })) {
    return 0;
  }
  return -1;
}

bool IsIdentityPermutation(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

class Simplifier {
 public:
  explicit Simplifier(HloComputation* computation)
      : computation_(computation), names_(NameUniquer::ForInstructions(*computation)) {}

  // Simplifies every instruction; returns whether anything changed.
  absl::StatusOr<bool> Run() {
    bool changed = false;
    for (HloInstruction* h : computation_->instructions()) {
      // Unused instructions are removed afterwards; don't bother.
      if (h->user_count() == 0 && h != computation_->root_instruction()) continue;
      HloInstruction* current = h;
      // A rewrite may produce a new instruction that simplifies again.
      for (int round = 0; round < 8 && current != nullptr; ++round) {
        absl::StatusOr<HloInstruction*> replacement = Simplify(current);
        AOT_RETURN_IF_ERROR(replacement);
        if (*replacement == nullptr || *replacement == current) break;
        if (!SameShapeAndLayout((*replacement)->shape(), current->shape())) {
          return absl::InternalError(absl::StrCat(
              "algsimp: replacement for '", current->name(), "' has shape ",
              (*replacement)->shape().ToString(), " instead of ", current->shape().ToString()));
        }
        current->ReplaceAllUsesWith(*replacement);
        changed = true;
        current = created_.count(*replacement) ? *replacement : nullptr;
      }
    }
    return changed;
  }

 private:
  HloInstruction* Add(std::unique_ptr<HloInstruction> h) {
    h->set_name(names_.GetUniqueName(HloOpcodeString(h->opcode())));
    HloInstruction* added = AddWithNewId(computation_, std::move(h));
    created_.insert(added);
    return added;
  }

  // `candidate` if it has exactly `h`'s shape and layout, else nullptr.
  static HloInstruction* IfSameShape(const HloInstruction* h, HloInstruction* candidate) {
    return SameShapeAndLayout(h->shape(), candidate->shape()) ? candidate : nullptr;
  }

  absl::StatusOr<HloInstruction*> Simplify(HloInstruction* h) {
    // Collectives exchange values between participants: never rewritten.
    if (IsCollectiveOpcode(h->opcode()) || h->opcode() == HloOpcode::kReplicaId ||
        h->opcode() == HloOpcode::kPartitionId || DrawsRandomState(*h)) {
      return nullptr;
    }
    if (!h->shape().IsArray()) {
      if (h->opcode() == HloOpcode::kSelect && h->operand_count() == 3) {
        return SimplifySelect(h);
      }
      return nullptr;
    }
    const PrimitiveType type = h->shape().element_type();
    switch (h->opcode()) {
      case HloOpcode::kAdd: {
        HloInstruction* a = h->operand(0);
        HloInstruction* b = h->operand(1);
        if (IsIntType(type)) {
          if (IsAllIntZero(b)) return IfSameShape(h, a);
          if (IsAllIntZero(a)) return IfSameShape(h, b);
        } else if (IsFloatType(type)) {
          if (IsAllNegativeZero(b)) return IfSameShape(h, a);
          if (IsAllNegativeZero(a)) return IfSameShape(h, b);
        }
        return nullptr;
      }
      case HloOpcode::kSubtract: {
        HloInstruction* a = h->operand(0);
        HloInstruction* b = h->operand(1);
        if (IsIntType(type) && IsAllIntZero(b)) return IfSameShape(h, a);
        if (IsFloatType(type) && IsAllPositiveZero(b)) return IfSameShape(h, a);
        return nullptr;
      }
      case HloOpcode::kMultiply: {
        HloInstruction* a = h->operand(0);
        HloInstruction* b = h->operand(1);
        if (!IsIntType(type) && !IsFloatType(type)) return nullptr;
        if (IsAllOne(b)) return IfSameShape(h, a);
        if (IsAllOne(a)) return IfSameShape(h, b);
        if (IsIntType(type)) {
          if (IsAllIntZero(b)) return ZerosLike(h, b);
          if (IsAllIntZero(a)) return ZerosLike(h, a);
        }
        return nullptr;
      }
      case HloOpcode::kDivide: {
        if ((IsIntType(type) || IsFloatType(type)) && IsAllOne(h->operand(1))) {
          return IfSameShape(h, h->operand(0));
        }
        return nullptr;
      }
      case HloOpcode::kNegate: {
        HloInstruction* op = h->operand(0);
        if (op->opcode() == HloOpcode::kNegate) return IfSameShape(h, op->operand(0));
        return nullptr;
      }
      case HloOpcode::kReshape: {
        HloInstruction* op = h->operand(0);
        if (HloInstruction* same = IfSameShape(h, op)) return same;
        if (op->opcode() == HloOpcode::kReshape) {
          HloInstruction* x = op->operand(0);
          if (HloInstruction* same = IfSameShape(h, x)) return same;
          return Add(HloInstruction::Create(HloOpcode::kReshape, h->shape(), {x}));
        }
        return nullptr;
      }
      case HloOpcode::kBitcast:
      case HloOpcode::kConvert:
        return IfSameShape(h, h->operand(0));
      case HloOpcode::kBitcastConvert:
        return IfSameShape(h, h->operand(0));
      case HloOpcode::kCopy: {
        HloInstruction* op = h->operand(0);
        if (HloInstruction* same = IfSameShape(h, op)) return same;
        if (op->opcode() == HloOpcode::kCopy) {
          HloInstruction* x = op->operand(0);
          if (HloInstruction* same = IfSameShape(h, x)) return same;
          return Add(HloInstruction::Create(HloOpcode::kCopy, h->shape(), {x}));
        }
        return nullptr;
      }
      case HloOpcode::kTranspose:
        return SimplifyTranspose(h);
      case HloOpcode::kSlice: {
        HloInstruction* op = h->operand(0);
        const std::vector<SliceSpec>& spec = h->attrs().slice;
        if (static_cast<int64_t>(spec.size()) != op->shape().rank()) return nullptr;
        for (int64_t i = 0; i < op->shape().rank(); ++i) {
          if (spec[i].start != 0 || spec[i].stride != 1 ||
              spec[i].limit != op->shape().dimensions(i)) {
            return nullptr;
          }
        }
        return IfSameShape(h, op);
      }
      case HloOpcode::kPad: {
        if (!h->attrs().padding_config) return nullptr;
        for (const auto& d : h->attrs().padding_config->dimensions()) {
          if (d.edge_padding_low() != 0 || d.edge_padding_high() != 0 ||
              d.interior_padding() != 0) {
            return nullptr;
          }
        }
        return IfSameShape(h, h->operand(0));
      }
      case HloOpcode::kReverse: {
        HloInstruction* op = h->operand(0);
        for (int64_t d : h->dimensions()) {
          if (d < 0 || d >= op->shape().rank()) return nullptr;
          if (op->shape().dimensions(d) > 1) return nullptr;
        }
        return IfSameShape(h, op);
      }
      case HloOpcode::kDynamicSlice: {
        HloInstruction* op = h->operand(0);
        if (!op->shape().IsArray()) return nullptr;
        if (h->attrs().dynamic_slice_sizes != op->shape().dimensions()) return nullptr;
        // Start indices are clamped, so a full-size slice starts at 0.
        return IfSameShape(h, op);
      }
      case HloOpcode::kBroadcast:
        return SimplifyBroadcast(h);
      case HloOpcode::kSelect:
        return SimplifySelect(h);
      case HloOpcode::kConcatenate:
        if (h->operand_count() == 1) return IfSameShape(h, h->operand(0));
        return nullptr;
      default:
        return nullptr;
    }
  }

  absl::StatusOr<HloInstruction*> SimplifyTranspose(HloInstruction* h) {
    HloInstruction* op = h->operand(0);
    const std::vector<int64_t>& perm = h->dimensions();
    if (IsIdentityPermutation(perm)) return IfSameShape(h, op);
    if (op->opcode() != HloOpcode::kTranspose) return nullptr;
    const std::vector<int64_t>& inner = op->dimensions();
    if (inner.size() != perm.size()) return nullptr;
    // result dim i = op dim perm[i] = x dim inner[perm[i]].
    std::vector<int64_t> composed(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) {
      if (perm[i] < 0 || perm[i] >= static_cast<int64_t>(inner.size())) return nullptr;
      composed[i] = inner[perm[i]];
    }
    HloInstruction* x = op->operand(0);
    if (IsIdentityPermutation(composed)) return IfSameShape(h, x);
    auto t = HloInstruction::Create(HloOpcode::kTranspose, h->shape(), {x});
    t->mutable_attrs()->dimensions = composed;
    return Add(std::move(t));
  }

  absl::StatusOr<HloInstruction*> SimplifyBroadcast(HloInstruction* h) {
    HloInstruction* op = h->operand(0);
    const std::vector<int64_t>& dims = h->dimensions();
    if (op->shape().rank() == h->shape().rank() && IsIdentityPermutation(dims) &&
        static_cast<int64_t>(dims.size()) == op->shape().rank()) {
      if (HloInstruction* same = IfSameShape(h, op)) return same;
    }
    if (op->opcode() != HloOpcode::kBroadcast) return nullptr;
    const std::vector<int64_t>& inner = op->dimensions();
    HloInstruction* x = op->operand(0);
    if (static_cast<int64_t>(inner.size()) != x->shape().rank()) return nullptr;
    // x dim i -> op dim inner[i] -> h dim dims[inner[i]].
    std::vector<int64_t> composed(inner.size());
    for (size_t i = 0; i < inner.size(); ++i) {
      if (inner[i] < 0 || inner[i] >= static_cast<int64_t>(dims.size())) return nullptr;
      composed[i] = dims[inner[i]];
    }
    auto b = HloInstruction::Create(HloOpcode::kBroadcast, h->shape(), {x});
    b->mutable_attrs()->dimensions = composed;
    return Add(std::move(b));
  }

  absl::StatusOr<HloInstruction*> SimplifySelect(HloInstruction* h) {
    HloInstruction* on_true = h->operand(1);
    HloInstruction* on_false = h->operand(2);
    if (on_true == on_false) return IfSameShape(h, on_true);
    switch (ConstantPredicate(h->operand(0))) {
      case 1:
        return IfSameShape(h, on_true);
      case 0:
        return IfSameShape(h, on_false);
      default:
        return nullptr;
    }
  }

  // Zeros of `h`'s shape: `zero` itself when it has that shape, else a
  // broadcast of a scalar zero.
  absl::StatusOr<HloInstruction*> ZerosLike(HloInstruction* h, HloInstruction* zero) {
    if (HloInstruction* same = IfSameShape(h, zero)) return same;
    Literal scalar(Shape::Scalar(h->shape().element_type()));
    HloInstruction* c = Add(HloInstruction::CreateConstant(std::move(scalar)));
    auto b = HloInstruction::Create(HloOpcode::kBroadcast, h->shape(), {c});
    return Add(std::move(b));
  }

  HloComputation* computation_;
  NameUniquer names_;
  absl::flat_hash_set<HloInstruction*> created_;
};

}  // namespace

absl::StatusOr<bool> AlgebraicSimplifier::Run(HloModule* module) {
  return RewriteUnfusedComputations(module, AfterRewrite::kRemoveDeadAndReorder,
                                    [](HloComputation* c) { return Simplifier(c).Run(); });
}

}  // namespace aot
