#include "compiler/passes/fusion.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

bool IsLoopFusibleOpcode(const HloInstruction& h) {
  // A kernel never communicates, and the participant ids are runtime values.
  if (IsCollectiveOpcode(h.opcode()) || h.opcode() == HloOpcode::kReplicaId ||
      h.opcode() == HloOpcode::kPartitionId) {
    return false;
  }
  switch (h.opcode()) {
    case HloOpcode::kBroadcast:
    case HloOpcode::kReshape:
    case HloOpcode::kTranspose:
    case HloOpcode::kSlice:
    case HloOpcode::kConcatenate:
    case HloOpcode::kPad:
    case HloOpcode::kIota:
    case HloOpcode::kReverse:
    case HloOpcode::kConstant:
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kCopy:
      return true;
    case HloOpcode::kBitcast:
      // A pure reshape; a bitcast that reinterprets bytes as another type
      // (and possibly another shape) stays alone.
      return h.operand_count() == 1 &&
             h.operand(0)->shape().element_type() == h.shape().element_type();
    case HloOpcode::kBitcastConvert: {
      if (h.operand_count() != 1) return false;
      const PrimitiveType from = h.operand(0)->shape().element_type();
      const PrimitiveType to = h.shape().element_type();
      // Same width; or a complex value read as / made from its (real,
      // imaginary) pairs, as ExpandComplexArithmetic writes it.
      return ByteWidth(from) == ByteWidth(to) ||
             (IsComplex(from) && to == ComplexComponentType(from)) ||
             (IsComplex(to) && from == ComplexComponentType(to));
    }
    default:
      return IsElementwise(h.opcode());
  }
}

namespace {

constexpr absl::string_view kLoopKind = "kLoop";
constexpr absl::string_view kInputKind = "kInput";

// Cheap enough to compute more than once: duplicated into every fusion
// that reads it.
// A complex value read as its (real, imaginary) pairs, the way
// ExpandComplexArithmetic reads every complex operand.
bool ReadsComplexPairs(const HloInstruction& h) {
  return h.opcode() == HloOpcode::kBitcastConvert && h.operand_count() == 1 &&
         IsComplex(h.operand(0)->shape().element_type()) && h.shape().IsArray() &&
         h.shape().element_type() == ComplexComponentType(h.operand(0)->shape().element_type());
}

bool IsCheap(const HloInstruction& h) {
  switch (h.opcode()) {
    case HloOpcode::kBroadcast:
    case HloOpcode::kIota:
    case HloOpcode::kConstant:
    case HloOpcode::kReshape:
    case HloOpcode::kBitcast:
      return true;
    case HloOpcode::kBitcastConvert:
      return ReadsComplexPairs(h);
    case HloOpcode::kSlice:
      // The real or imaginary part of a complex value: one load per element
      // in each consumer, like the value itself.
      return h.operand_count() == 1 && ReadsComplexPairs(*h.operand(0));
    default:
      return false;
  }
}

bool ArrayWithDefaultLayout(const Shape& shape) {
  return shape.IsArray() && shape.HasDefaultLayout();
}

struct Group {
  HloInstruction* root = nullptr;
  HloInstruction* hero = nullptr;  // the reduce of a kInput fusion
  // Insertion order; the root first. Owned and duplicated members.
  std::vector<HloInstruction*> members;
  absl::flat_hash_set<const HloInstruction*> member_set;
};

class ComputationFuser {
 public:
  ComputationFuser(HloComputation* computation, const FusionOptions& options)
      : computation_(computation), options_(options) {
    post_order_ = computation_->MakeInstructionPostOrder();
    for (size_t i = 0; i < post_order_.size(); ++i) position_[post_order_[i]] = i;
    // Reachable from the root.
    std::vector<const HloInstruction*> stack;
    if (computation_->root_instruction() != nullptr) {
      stack.push_back(computation_->root_instruction());
      reachable_.insert(computation_->root_instruction());
    }
    while (!stack.empty()) {
      const HloInstruction* h = stack.back();
      stack.pop_back();
      for (const HloInstruction* op : h->operands()) {
        if (reachable_.insert(op).second) stack.push_back(op);
      }
    }
  }

  // Decides the fusions (nothing changes yet). Returns how many.
  size_t FormGroups() {
    for (auto it = post_order_.rbegin(); it != post_order_.rend(); ++it) {
      HloInstruction* x = *it;
      if (!reachable_.contains(x) || owner_.contains(x)) continue;
      const bool hero = IsHeroCandidate(x);
      if (!hero && (!IsFusible(x) || x->opcode() == HloOpcode::kConstant)) continue;
      if (!Needed(x)) {
        dead_.insert(x);
        continue;
      }
      const int g = static_cast<int>(groups_.size());
      groups_.emplace_back();
      groups_[g].root = x;
      AddMember(g, x, /*owned=*/true);
      if (hero) groups_[g].hero = x;
      Grow(g);
    }
    return groups_.size();
  }

  // Builds the fusions. `next_number` numbers them; `computation_names`
  // holds the module's computation names.
  absl::Status Materialize(HloModule* module, int64_t* next_number,
                           NameUniquer* computation_names) {
    NameUniquer instruction_names = NameUniquer::ForInstructions(*computation_);
    std::vector<int> order(groups_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      return position_.at(groups_[a].root) < position_.at(groups_[b].root);
    });
    // Phase 1: fused computations and fusion instructions, reading the
    // original instructions only.
    std::vector<HloInstruction*> fusions(groups_.size(), nullptr);
    for (int g : order) {
      int64_t n = *next_number;
      while (computation_names->Contains(absl::StrCat("fused_computation.", n)) ||
             instruction_names.Contains(absl::StrCat("fusion.", n))) {
        ++n;
      }
      *next_number = n + 1;
      const std::string computation_name = absl::StrCat("fused_computation.", n);
      const std::string fusion_name = absl::StrCat("fusion.", n);
      computation_names->Add(computation_name);
      instruction_names.Add(fusion_name);
      AOT_ASSIGN_OR_RETURN(HloInstruction * fusion,
                           BuildFusion(module, groups_[g], computation_name, fusion_name));
      fusions[g] = fusion;
    }
    // Phase 2: the fusions take over their roots' uses (including uses by
    // other fusions, whose operands are original instructions so far).
    for (int g : order) groups_[g].root->ReplaceAllUsesWith(fusions[g]);
    // Phase 3: fused instructions leave the computation, users first.
    std::vector<HloInstruction*> instructions = computation_->instructions();
    for (auto it = instructions.rbegin(); it != instructions.rend(); ++it) {
      HloInstruction* h = *it;
      if (!owner_.contains(h)) continue;
      if (absl::Status s = computation_->RemoveInstruction(h); !s.ok()) {
        return absl::InternalError(absl::StrCat("fusion: cannot remove fused instruction '",
                                                h->name(), "' from computation '",
                                                computation_->name(), "': ", s.message()));
      }
    }
    // Duplicated cheap instructions nobody reads any more.
    instructions = computation_->instructions();
    for (auto it = instructions.rbegin(); it != instructions.rend(); ++it) {
      HloInstruction* h = *it;
      if (!duplicated_.contains(h) || h->user_count() != 0 ||
          h == computation_->root_instruction()) {
        continue;
      }
      AOT_RETURN_IF_ERROR(computation_->RemoveInstruction(h));
    }
    absl::StatusOr<bool> reordered = EnsureDefinitionOrder(computation_);
    return reordered.status();
  }

 private:
  bool IsFusible(const HloInstruction* h) const {
    if (!ArrayWithDefaultLayout(h->shape())) return false;
    for (const HloInstruction* op : h->operands()) {
      if (!ArrayWithDefaultLayout(op->shape())) return false;
    }
    if (!IsLoopFusibleOpcode(*h)) return false;
    if (h->opcode() == HloOpcode::kConstant &&
        (!h->attrs().literal || h->shape().ElementCount() > options_.max_fused_constant_elements)) {
      return false;
    }
    return true;
  }

  bool IsHeroCandidate(const HloInstruction* h) const {
    if (h->opcode() != HloOpcode::kReduce || h->operand_count() != 2 ||
        h->called_computations().size() != 1) {
      return false;
    }
    if (!ArrayWithDefaultLayout(h->shape())) return false;
    for (const HloInstruction* op : h->operands()) {
      if (!ArrayWithDefaultLayout(op->shape())) return false;
    }
    return true;
  }

  // Whether `x` (unfused so far, all its users visited) must exist as a
  // value of its own after fusion.
  bool Needed(const HloInstruction* x) const {
    if (x == computation_->root_instruction()) return true;
    if (dup_external_refs_.contains(x)) return true;
    for (const HloInstruction* u : x->users()) {
      if (!reachable_.contains(u) || dead_.contains(u)) continue;
      auto it = owner_.find(u);
      if (it != owner_.end() && groups_[it->second].member_set.contains(x)) continue;
      return true;
    }
    return false;
  }

  void AddMember(int g, HloInstruction* h, bool owned) {
    Group& group = groups_[g];
    group.members.push_back(h);
    group.member_set.insert(h);
    if (owned) {
      owner_[h] = g;
    } else {
      duplicated_.insert(h);
      for (HloInstruction* op : h->operands()) {
        if (group.member_set.contains(op)) continue;
        std::vector<int>& refs = dup_external_refs_[op];
        if (std::find(refs.begin(), refs.end(), g) == refs.end()) refs.push_back(g);
      }
    }
    // A value this group read from outside through a duplicate is now
    // inside it.
    auto it = dup_external_refs_.find(h);
    if (it != dup_external_refs_.end()) {
      std::vector<int>& refs = it->second;
      refs.erase(std::remove(refs.begin(), refs.end(), g), refs.end());
      if (refs.empty()) dup_external_refs_.erase(it);
    }
  }

  // `p` can move into group g: unfused, not the computation's root, every
  // user already owned by g, and no other fusion reads it from outside.
  bool CanOwn(int g, const HloInstruction* p) const {
    if (owner_.contains(p) || p == computation_->root_instruction()) return false;
    if (p->user_count() == 0) return false;
    for (const HloInstruction* u : p->users()) {
      auto it = owner_.find(u);
      if (it == owner_.end() || it->second != g) return false;
    }
    auto refs = dup_external_refs_.find(p);
    if (refs != dup_external_refs_.end()) {
      for (int other : refs->second) {
        if (other != g) return false;
      }
    }
    return true;
  }

  // The cheap instructions to copy into group g so that it can read `p`:
  // `p` and, recursively, operands of it that sit inside another fusion.
  bool PlanDuplicate(int g, HloInstruction* p, std::vector<HloInstruction*>* plan) const {
    if (!IsCheap(*p) || !IsFusible(p)) return false;
    if (std::find(plan->begin(), plan->end(), p) != plan->end()) return true;
    for (HloInstruction* op : p->operands()) {
      if (groups_[g].member_set.contains(op)) continue;
      if (std::find(plan->begin(), plan->end(), op) != plan->end()) continue;
      auto it = owner_.find(op);
      if (it != owner_.end() && groups_[it->second].root != op) {
        if (!PlanDuplicate(g, op, plan)) return false;
      }
    }
    plan->push_back(p);
    return true;
  }

  // Whether group g (no hero yet) is an epilogue the reduce `r` can take.
  bool EpilogueOk(int g, const HloInstruction* r) const {
    if (!options_.fuse_reduction_epilogue) return false;
    const Group& group = groups_[g];
    const std::vector<int64_t>& in = r->operand(0)->shape().dimensions();
    const std::vector<int64_t>& out = r->shape().dimensions();
    std::vector<int64_t> kept;
    for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d) {
      if (std::find(r->dimensions().begin(), r->dimensions().end(), d) == r->dimensions().end()) {
        kept.push_back(d);
      }
    }
    const std::vector<int64_t>& root_dims = group.root->shape().dimensions();
    const bool row_root = root_dims == in && in != out;
    if (root_dims != out && !row_root) return false;
    if (row_root) {
      if (!options_.fuse_row_broadcast_epilogue) return false;
      // A row reduction: the kept dimensions are the leading ones (at least
      // one), so that each row is a contiguous run of the input.
      if (kept.empty() || kept.size() == in.size()) return false;
      for (size_t i = 0; i < kept.size(); ++i) {
        if (kept[i] != static_cast<int64_t>(i)) return false;
      }
    }
    std::vector<HloInstruction*> members = group.members;
    std::sort(members.begin(), members.end(),
              [&](const HloInstruction* a, const HloInstruction* b) {
                return position_.at(a) < position_.at(b);
              });
    absl::flat_hash_set<const HloInstruction*> dependent = {r};
    for (const HloInstruction* m : members) {
      const bool allowed = IsElementwise(m->opcode()) || m->opcode() == HloOpcode::kBroadcast ||
                           m->opcode() == HloOpcode::kConstant || m->opcode() == HloOpcode::kIota;
      if (!allowed) return false;
      bool depends = false;
      for (const HloInstruction* op : m->operands()) depends |= dependent.contains(op);
      if (!depends) continue;
      dependent.insert(m);
      const std::vector<int64_t>& dims = m->shape().dimensions();
      if (IsElementwise(m->opcode())) {
        if (dims != out && !(row_root && dims == in)) return false;
        for (const HloInstruction* op : m->operands()) {
          if (dependent.contains(op) && op->shape().dimensions() != dims) return false;
        }
      } else if (m->opcode() == HloOpcode::kBroadcast) {
        if (!row_root || dims != in || m->dimensions() != kept ||
            m->operand(0)->shape().dimensions() != out) {
          return false;
        }
      } else {
        return false;
      }
    }
    return true;
  }

  bool TryAdd(int g, HloInstruction* p) {
    if (IsHeroCandidate(p)) {
      if (groups_[g].hero != nullptr || !CanOwn(g, p) || !EpilogueOk(g, p)) {
        return false;
      }
      AddMember(g, p, /*owned=*/true);
      groups_[g].hero = p;
      return true;
    }
    if (!IsFusible(p)) return false;
    if (CanOwn(g, p)) {
      AddMember(g, p, /*owned=*/true);
      return true;
    }
    std::vector<HloInstruction*> plan;
    if (!PlanDuplicate(g, p, &plan)) return false;
    for (HloInstruction* d : plan) AddMember(g, d, /*owned=*/false);
    return true;
  }

  // Absorbs producers of group g's members until nothing more fits.
  void Grow(int g) {
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t i = 0; i < groups_[g].members.size(); ++i) {
        HloInstruction* m = groups_[g].members[i];
        for (HloInstruction* p : m->operands()) {
          if (groups_[g].member_set.contains(p)) continue;
          if (TryAdd(g, p)) changed = true;
        }
      }
    }
  }

  absl::StatusOr<HloInstruction*> BuildFusion(HloModule* module, const Group& group,
                                              const std::string& computation_name,
                                              const std::string& fusion_name) {
    // Members in the fused computation's own post order (depth first from
    // the root, operands in order), and the values read from outside in
    // the order that walk meets them: parameters are numbered the way the
    // fused computation prints.
    std::vector<HloInstruction*> members;
    std::vector<HloInstruction*> externals;
    absl::flat_hash_set<const HloInstruction*> visited = {group.root};
    std::vector<std::pair<HloInstruction*, int64_t>> stack = {{group.root, 0}};
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->operand_count()) {
        HloInstruction* op = node->operand(next++);
        if (!visited.insert(op).second) continue;
        if (group.member_set.contains(op)) {
          stack.push_back({op, 0});
        } else {
          externals.push_back(op);
        }
      } else {
        members.push_back(node);
        stack.pop_back();
      }
    }
    if (members.size() != group.members.size()) {
      return absl::InternalError(absl::StrCat("fusion: the group rooted at '", group.root->name(),
                                              "' has members that do not reach its root"));
    }
    auto owned_computation = std::make_unique<HloComputation>(computation_name);
    owned_computation->set_is_fusion_computation(true);
    HloComputation* fused = module->AddComputation(std::move(owned_computation));
    fused->set_unique_id(module->NewUniqueId());
    NameUniquer names;
    for (const HloInstruction* m : members) names.Add(m->name());
    absl::flat_hash_map<const HloInstruction*, HloInstruction*> clone_of;
    for (size_t i = 0; i < externals.size(); ++i) {
      auto param = HloInstruction::CreateParameter(static_cast<int64_t>(i), externals[i]->shape(),
                                                   names.GetUniqueName(absl::StrCat("param_", i)));
      clone_of[externals[i]] = AddWithNewId(fused, std::move(param));
    }
    for (const HloInstruction* m : members) {
      std::vector<HloInstruction*> operands;
      for (const HloInstruction* op : m->operands()) operands.push_back(clone_of.at(op));
      clone_of[m] = AddWithNewId(fused, CloneWithOperands(*m, operands));
    }
    fused->set_root_instruction(clone_of.at(group.root));
    // Canonical order (cannot fail: nothing is in use outside).
    (void)EnsureDefinitionOrder(fused);

    auto fusion = HloInstruction::Create(HloOpcode::kFusion, group.root->shape(), externals);
    fusion->mutable_attrs()->fusion_kind =
        std::string(group.hero != nullptr ? kInputKind : kLoopKind);
    fusion->mutable_called_computations()->push_back(fused);
    fusion->set_name(fusion_name);
    return AddWithNewId(computation_, std::move(fusion));
  }

  HloComputation* computation_;
  FusionOptions options_;
  std::vector<HloInstruction*> post_order_;
  absl::flat_hash_map<const HloInstruction*, size_t> position_;
  absl::flat_hash_set<const HloInstruction*> reachable_;
  std::vector<Group> groups_;
  // Owned members -> their group (each instruction has at most one owner).
  absl::flat_hash_map<const HloInstruction*, int> owner_;
  // Values groups read from outside through a duplicated member.
  absl::flat_hash_map<const HloInstruction*, std::vector<int>> dup_external_refs_;
  // Unfused fusible instructions whose every reader has a copy.
  absl::flat_hash_set<const HloInstruction*> dead_;
  // Instructions copied into at least one fusion.
  absl::flat_hash_set<const HloInstruction*> duplicated_;
};

}  // namespace

absl::StatusOr<bool> InstructionFusion::Run(HloModule* module) {
  const std::vector<HloComputation*> computations = module->computations();
  const absl::flat_hash_set<const HloComputation*> embedded = EmbeddedComputations(*module);
  NameUniquer computation_names = NameUniquer::ForComputations(*module);
  int64_t next_number = 1;
  bool changed = false;
  for (HloComputation* c : computations) {
    if (embedded.contains(c) || c->is_fusion_computation()) continue;
    AOT_RETURN_IF_ERROR(EnsureValidDefinitionOrder(c));
    ComputationFuser fuser(c, options_);
    if (fuser.FormGroups() == 0) continue;
    if (absl::Status s = fuser.Materialize(module, &next_number, &computation_names); !s.ok()) {
      return s;
    }
    changed = true;
  }
  return changed;
}

}  // namespace aot
