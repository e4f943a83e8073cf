#include "compiler/passes/hlo_cse.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// The attributes as a canonical byte string: the instruction's proto with
// everything that is not an attribute (name, id, operands, called
// computations, shape, metadata) cleared.
std::string AttributeBytes(const HloInstruction& h) {
  HloInstructionProto p = h.ToProto();
  p.clear_name();
  p.clear_id();
  p.clear_operand_ids();
  p.clear_called_computation_ids();
  p.clear_shape();
  p.clear_metadata();
  p.clear_literal();
  std::string bytes;
  p.SerializeToString(&bytes);
  return bytes;
}

bool LiteralsIdentical(const Literal& a, const Literal& b) {
  if (!SameShapeAndLayout(a.shape(), b.shape())) return false;
  if (a.raw() != b.raw()) return false;
  if (a.tuple_elements().size() != b.tuple_elements().size()) return false;
  for (size_t i = 0; i < a.tuple_elements().size(); ++i) {
    if (!LiteralsIdentical(a.tuple_element(i), b.tuple_element(i))) return false;
  }
  return true;
}

bool CanMerge(const HloInstruction& h) {
  return h.opcode() != HloOpcode::kParameter && !HasSideEffect(h) && !DrawsRandomState(h) &&
         h.opcode() != HloOpcode::kCustomCall;
}

// A hash key: cheap, only used to find candidates; equality is decided by
// InstructionsAreIdentical.
std::string Key(const HloInstruction& h) {
  std::string key = absl::StrCat(HloOpcodeString(h.opcode()), "|", h.shape().ToString(true), "|");
  for (const HloInstruction* op : h.operands()) {
    absl::StrAppend(&key, op->unique_id(), ",", op->name(), ";");
  }
  for (const HloComputation* c : h.called_computations()) {
    absl::StrAppend(&key, "@", c->name());
  }
  if (h.opcode() == HloOpcode::kConstant && h.attrs().literal) {
    const std::vector<uint8_t>& raw = h.literal().raw();
    absl::StrAppend(&key, "#", raw.size(), ":");
    for (size_t i = 0; i < raw.size() && i < 64; ++i) {
      absl::StrAppend(&key, static_cast<int>(raw[i]), ".");
    }
  }
  return key;
}

absl::StatusOr<bool> RunOnComputation(HloComputation* computation) {
  bool changed = false;
  absl::flat_hash_map<std::string, std::vector<HloInstruction*>> seen;
  for (HloInstruction* h : computation->instructions()) {
    if (!CanMerge(*h)) continue;
    std::vector<HloInstruction*>& candidates = seen[Key(*h)];
    HloInstruction* match = nullptr;
    for (HloInstruction* c : candidates) {
      if (InstructionsAreIdentical(*c, *h)) {
        match = c;
        break;
      }
    }
    if (match == nullptr) {
      candidates.push_back(h);
      continue;
    }
    h->ReplaceAllUsesWith(match);
    // `h` is later in definition order than `match` and now unused.
    AOT_RETURN_IF_ERROR(computation->RemoveInstruction(h));
    changed = true;
  }
  return changed;
}

}  // namespace

bool InstructionsAreIdentical(const HloInstruction& a, const HloInstruction& b) {
  if (a.opcode() != b.opcode()) return false;
  if (!CanMerge(a) || !CanMerge(b)) return false;
  if (!SameShapeAndLayout(a.shape(), b.shape())) return false;
  if (a.operands() != b.operands()) return false;
  if (a.called_computations() != b.called_computations()) return false;
  if (a.attrs().literal.has_value() != b.attrs().literal.has_value()) return false;
  if (a.attrs().literal && !LiteralsIdentical(*a.attrs().literal, *b.attrs().literal)) {
    return false;
  }
  return AttributeBytes(a) == AttributeBytes(b);
}

absl::StatusOr<bool> HloCse::Run(HloModule* module) {
  return RewriteUnfusedComputations(module, AfterRewrite::kReorder, RunOnComputation);
}

}  // namespace aot
