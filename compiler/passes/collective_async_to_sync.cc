#include "compiler/passes/collective_async_to_sync.h"

#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

HloOpcode SyncOpcodeOf(HloOpcode start) {
  switch (start) {
    case HloOpcode::kAllReduceStart:
      return HloOpcode::kAllReduce;
    case HloOpcode::kAllGatherStart:
      return HloOpcode::kAllGather;
    default:
      return HloOpcode::kCollectivePermute;
  }
}

bool HasAsyncStart(const HloModule& module) {
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* i : c->instructions()) {
      if (IsAsyncCollectiveStart(i->opcode())) return true;
    }
  }
  return false;
}

class Rewriter {
 public:
  explicit Rewriter(HloComputation* computation)
      : computation_(computation), names_(NameUniquer::ForInstructions(*computation)) {}

  absl::StatusOr<bool> Run() {
    std::vector<HloInstruction*> starts;
    for (HloInstruction* i : computation_->instructions()) {
      if (IsAsyncCollectiveStart(i->opcode())) starts.push_back(i);
    }
    for (HloInstruction* start : starts) AOT_RETURN_IF_ERROR(Rewrite(start));
    return !starts.empty();
  }

 private:
  HloInstruction* Add(std::unique_ptr<HloInstruction> instruction, absl::string_view base) {
    instruction->set_name(names_.GetUniqueName(base));
    return AddWithNewId(computation_, std::move(instruction));
  }

  absl::Status Rewrite(HloInstruction* start) {
    const HloOpcode opcode = start->opcode();
    const bool is_tuple = opcode != HloOpcode::kAllReduceStart;
    const Shape& start_shape = start->shape();
    if (is_tuple && (!start_shape.IsTuple() || start_shape.tuple_shapes().size() < 2)) {
      return absl::InvalidArgumentError(absl::StrCat(DescribeInstruction(*start), " has shape ",
                                                     start_shape.ToString(), "; expected a tuple"));
    }
    const HloOpcode sync_opcode = SyncOpcodeOf(opcode);
    auto created = HloInstruction::Create(
        sync_opcode, is_tuple ? start_shape.tuple_shapes(1) : start_shape, start->operands());
    *created->mutable_attrs() = start->attrs();
    *created->mutable_called_computations() = start->called_computations();
    HloInstruction* sync = Add(std::move(created), HloOpcodeString(sync_opcode));

    // The value of each element of the start's tuple, made on first use.
    std::vector<HloInstruction*> elements;
    if (is_tuple) elements.assign(start_shape.tuple_shapes().size(), nullptr);
    auto element = [&](int64_t k) -> HloInstruction* {
      if (elements[k] != nullptr) return elements[k];
      if (k == 1) {
        elements[k] = sync;
      } else if (k == 0) {
        if (start->operand_count() == 1) {
          elements[k] = start->operand(0);
        } else {
          elements[k] = Add(HloInstruction::Create(HloOpcode::kTuple, start_shape.tuple_shapes(0),
                                                   start->operands()),
                            "tuple");
        }
      } else {
        Literal zero(start_shape.tuple_shapes(k));
        auto constant = HloInstruction::CreateConstant(std::move(zero));
        *constant->mutable_shape() = start_shape.tuple_shapes(k);
        elements[k] = Add(std::move(constant), "constant");
      }
      return elements[k];
    };
    HloInstruction* whole = nullptr;  // the start's whole value, for other users

    std::vector<HloInstruction*> removed;
    const std::vector<HloInstruction*> users = start->users();
    for (HloInstruction* user : users) {
      if (IsAsyncCollectiveDone(user->opcode())) {
        user->ReplaceAllUsesWith(sync);
        removed.push_back(user);
        continue;
      }
      if (!is_tuple) continue;  // replaced below, with the root
      if (user->opcode() == HloOpcode::kGetTupleElement && user->tuple_index() >= 0 &&
          user->tuple_index() < static_cast<int64_t>(elements.size())) {
        user->ReplaceAllUsesWith(element(user->tuple_index()));
        removed.push_back(user);
        continue;
      }
      if (whole == nullptr) {
        std::vector<HloInstruction*> parts;
        for (size_t k = 0; k < elements.size(); ++k) parts.push_back(element(k));
        whole = Add(HloInstruction::Create(HloOpcode::kTuple, start_shape, parts), "tuple");
      }
      for (int64_t i = 0; i < user->operand_count(); ++i) {
        if (user->operand(i) == start) user->ReplaceOperandWith(i, whole);
      }
    }
    if (!is_tuple) {
      start->ReplaceAllUsesWith(sync);
    } else if (computation_->root_instruction() == start) {
      if (whole == nullptr) {
        std::vector<HloInstruction*> parts;
        for (size_t k = 0; k < elements.size(); ++k) parts.push_back(element(k));
        whole = Add(HloInstruction::Create(HloOpcode::kTuple, start_shape, parts), "tuple");
      }
      computation_->set_root_instruction(whole);
    }
    for (HloInstruction* user : removed) {
      AOT_RETURN_IF_ERROR(RemoveUnused(user));
    }
    return RemoveUnused(start);
  }

  absl::Status RemoveUnused(HloInstruction* instruction) {
    if (instruction->user_count() != 0 || computation_->root_instruction() == instruction) {
      return absl::InternalError(absl::StrCat("collective-async-to-sync: '", instruction->name(),
                                              "' is still used after the rewrite"));
    }
    return computation_->RemoveInstruction(instruction);
  }

  HloComputation* computation_;
  NameUniquer names_;
};

}  // namespace

absl::StatusOr<bool> CollectiveAsyncToSync::Run(HloModule* module) {
  if (!HasAsyncStart(*module)) return false;
  return RewriteUnfusedComputations(module, AfterRewrite::kReorder,
                                    [](HloComputation* c) { return Rewriter(c).Run(); });
}

}  // namespace aot
