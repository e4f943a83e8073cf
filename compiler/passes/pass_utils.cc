#include "compiler/passes/pass_utils.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/collective_ops.h"
#include "support/status_macros.h"

namespace aot {

std::unique_ptr<HloInstruction> CloneWithOperands(const HloInstruction& instruction,
                                                  absl::Span<HloInstruction* const> operands) {
  std::unique_ptr<HloInstruction> clone;
  if (instruction.opcode() == HloOpcode::kParameter) {
    clone = HloInstruction::CreateParameter(instruction.parameter_number(), instruction.shape(),
                                            instruction.name());
  } else {
    clone = HloInstruction::Create(instruction.opcode(), instruction.shape(),
                                   std::vector<HloInstruction*>(operands.begin(), operands.end()));
  }
  *clone->mutable_attrs() = instruction.attrs();
  *clone->mutable_called_computations() = instruction.called_computations();
  clone->set_name(instruction.name());
  return clone;
}

HloInstruction* AddWithNewId(HloComputation* computation,
                             std::unique_ptr<HloInstruction> instruction) {
  if (computation->parent() != nullptr) {
    instruction->set_unique_id(computation->parent()->NewUniqueId());
  }
  return computation->AddInstruction(std::move(instruction));
}

bool HasSideEffect(const HloInstruction& instruction) {
  if (IsCollectiveOpcode(instruction.opcode())) return true;
  if (instruction.opcode() != HloOpcode::kCustomCall) return false;
  for (const auto& [key, value] : instruction.attrs().unknown_attributes) {
    if (key == "custom_call_has_side_effect" && value == "true") return true;
  }
  return false;
}

bool DrawsRandomState(const HloInstruction& instruction) {
  return instruction.opcode() == HloOpcode::kRng ||
         instruction.opcode() == HloOpcode::kRngGetAndUpdateState;
}

absl::StatusOr<bool> RemoveIfDead(HloInstruction* instruction) {
  HloComputation* computation = instruction->parent();
  if (computation == nullptr) return false;
  bool removed_any = false;
  std::vector<HloInstruction*> worklist = {instruction};
  while (!worklist.empty()) {
    HloInstruction* h = worklist.back();
    worklist.pop_back();
    if (h->user_count() != 0 || h == computation->root_instruction() ||
        h->opcode() == HloOpcode::kParameter || HasSideEffect(*h)) {
      continue;
    }
    std::vector<HloInstruction*> operands = h->operands();
    AOT_RETURN_IF_ERROR(computation->RemoveInstruction(h));
    removed_any = true;
    // Distinct operands, in reverse so that the first operand is handled
    // first (the order does not change the result, only the work).
    std::vector<HloInstruction*> distinct;
    for (HloInstruction* op : operands) {
      if (std::find(distinct.begin(), distinct.end(), op) == distinct.end()) {
        distinct.push_back(op);
      }
    }
    for (auto it = distinct.rbegin(); it != distinct.rend(); ++it) {
      worklist.push_back(*it);
    }
  }
  return removed_any;
}

absl::Status ReplaceAndRemove(HloInstruction* old_instruction, HloInstruction* replacement) {
  if (old_instruction == replacement) return absl::OkStatus();
  old_instruction->ReplaceAllUsesWith(replacement);
  absl::StatusOr<bool> removed = RemoveIfDead(old_instruction);
  return removed.status();
}

namespace {

// Depth-first post order over operands, starting from each instruction of
// `starts` in turn: a valid definition order, equal to `starts` when that
// already is one.
std::vector<HloInstruction*> OperandsFirst(const std::vector<HloInstruction*>& starts) {
  std::vector<HloInstruction*> order;
  order.reserve(starts.size());
  absl::flat_hash_set<const HloInstruction*> visited;
  for (HloInstruction* start : starts) {
    if (!visited.insert(start).second) continue;
    std::vector<std::pair<HloInstruction*, int64_t>> stack = {{start, 0}};
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->operand_count()) {
        HloInstruction* op = node->operand(next++);
        if (visited.insert(op).second) stack.push_back({op, 0});
      } else {
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
  return order;
}

std::vector<HloInstruction*> WithoutParameters(const std::vector<HloInstruction*>& instructions) {
  std::vector<HloInstruction*> out;
  out.reserve(instructions.size());
  for (HloInstruction* h : instructions) {
    if (h->opcode() != HloOpcode::kParameter) out.push_back(h);
  }
  return out;
}

}  // namespace

bool IsInDefinitionOrder(const HloComputation& computation) {
  absl::flat_hash_set<const HloInstruction*> defined;
  for (const HloInstruction* h : computation.instructions()) {
    for (const HloInstruction* op : h->operands()) {
      if (!defined.contains(op)) return false;
    }
    defined.insert(h);
  }
  return true;
}

absl::StatusOr<bool> EnsureDefinitionOrder(HloComputation* computation) {
  const std::vector<HloInstruction*> current = WithoutParameters(computation->instructions());
  const std::vector<HloInstruction*> order =
      WithoutParameters(OperandsFirst(computation->MakeInstructionPostOrder()));
  if (current == order) return false;
  // Keep the longest prefix that is already in place.
  size_t first_moved = 0;
  while (first_moved < order.size() && order[first_moved] == current[first_moved]) {
    ++first_moved;
  }
  // Re-add everything from there on in the new order: a clone goes to the
  // end, takes over the uses, and the original is removed.
  for (size_t i = first_moved; i < order.size(); ++i) {
    AOT_RETURN_IF_ERROR(MoveToEnd(computation, order[i]).status());
  }
  return true;
}

absl::StatusOr<HloInstruction*> MoveToEnd(HloComputation* computation, HloInstruction* h) {
  std::unique_ptr<HloInstruction> clone = CloneWithOperands(*h, h->operands());
  clone->set_unique_id(h->unique_id());
  HloInstruction* added = computation->AddInstruction(std::move(clone));
  h->ReplaceAllUsesWith(added);
  if (absl::Status s = computation->RemoveInstruction(h); !s.ok()) {
    return absl::InternalError(
        absl::StrCat("reordering computation '", computation->name(), "': ", s.message()));
  }
  return added;
}

absl::StatusOr<bool> EnsureDefinitionOrder(HloModule* module) {
  bool changed = false;
  for (HloComputation* c : module->computations()) {
    AOT_ASSIGN_OR_RETURN(bool moved, EnsureDefinitionOrder(c));
    changed |= moved;
  }
  return changed;
}

absl::Status EnsureValidDefinitionOrder(HloComputation* computation) {
  if (IsInDefinitionOrder(*computation)) return absl::OkStatus();
  return EnsureDefinitionOrder(computation).status();
}

absl::StatusOr<bool> RemoveDeadCode(HloComputation* computation) {
  bool changed = false;
  bool progress = true;
  while (progress) {
    progress = false;
    std::vector<HloInstruction*> instructions = computation->instructions();
    for (auto it = instructions.rbegin(); it != instructions.rend(); ++it) {
      HloInstruction* h = *it;
      if (h->user_count() != 0 || h == computation->root_instruction() ||
          h->opcode() == HloOpcode::kParameter || HasSideEffect(*h)) {
        continue;
      }
      AOT_RETURN_IF_ERROR(computation->RemoveInstruction(h));
      changed = progress = true;
    }
  }
  return changed;
}

Shape WithDefaultLayout(const Shape& shape) {
  Shape out = shape;
  if (out.IsTuple()) {
    for (Shape& element : *out.mutable_tuple_shapes()) {
      element = WithDefaultLayout(element);
    }
    return out;
  }
  if (out.IsArray() && out.rank() > 0) {
    std::vector<int64_t> m2m(out.rank());
    for (int64_t i = 0; i < out.rank(); ++i) m2m[i] = out.rank() - 1 - i;
    out.set_minor_to_major(std::move(m2m));
  }
  out.set_element_size_in_bits(0);
  return out;
}

bool HasDefaultLayoutEverywhere(const Shape& shape) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      if (!HasDefaultLayoutEverywhere(element)) return false;
    }
    return true;
  }
  return shape.HasDefaultLayout();
}

bool SameShapeAndLayout(const Shape& a, const Shape& b) {
  if (a.IsTuple() || b.IsTuple()) {
    if (!a.IsTuple() || !b.IsTuple()) return false;
    if (a.tuple_shapes().size() != b.tuple_shapes().size()) return false;
    for (size_t i = 0; i < a.tuple_shapes().size(); ++i) {
      if (!SameShapeAndLayout(a.tuple_shapes(i), b.tuple_shapes(i))) {
        return false;
      }
    }
    return true;
  }
  return a == b;
}

NameUniquer NameUniquer::ForInstructions(const HloComputation& computation) {
  NameUniquer u;
  for (const HloInstruction* h : computation.instructions()) u.Add(h->name());
  return u;
}

NameUniquer NameUniquer::ForComputations(const HloModule& module) {
  NameUniquer u;
  for (const HloComputation* c : module.computations()) u.Add(c->name());
  return u;
}

bool NameUniquer::Contains(absl::string_view name) const {
  return used_.contains(std::string(name));
}

void NameUniquer::Add(absl::string_view name) { used_.insert(std::string(name)); }

std::string NameUniquer::GetUniqueName(absl::string_view base) {
  std::string name(base);
  for (int64_t n = 1; used_.contains(name); ++n) {
    name = absl::StrCat(base, ".", n);
  }
  used_.insert(name);
  return name;
}

absl::flat_hash_set<const HloComputation*> EmbeddedComputations(const HloModule& module) {
  absl::flat_hash_set<const HloComputation*> embedded;
  for (const HloComputation* c : module.computations()) {
    if (c->is_fusion_computation()) embedded.insert(c);
    for (const HloInstruction* h : c->instructions()) {
      switch (h->opcode()) {
        case HloOpcode::kWhile:
        case HloOpcode::kConditional:
        case HloOpcode::kCall:
          break;  // Control flow: the callee's instructions are kernels.
        default:  // Fusion, reduce, sort, ...: the callee is a body.
          for (const HloComputation* callee : h->called_computations()) {
            embedded.insert(callee);
          }
          break;
      }
    }
  }
  // Whatever an embedded computation calls is embedded as well.
  bool changed = true;
  while (changed) {
    changed = false;
    for (const HloComputation* c : module.computations()) {
      if (!embedded.contains(c)) continue;
      for (const HloInstruction* h : c->instructions()) {
        for (const HloComputation* callee : h->called_computations()) {
          if (embedded.insert(callee).second) changed = true;
        }
      }
    }
  }
  return embedded;
}

absl::flat_hash_set<const HloComputation*> FusionComputations(const HloModule& module) {
  absl::flat_hash_set<const HloComputation*> fused;
  for (const HloComputation* c : module.computations()) {
    if (c->is_fusion_computation()) fused.insert(c);
    for (const HloInstruction* h : c->instructions()) {
      if (h->opcode() != HloOpcode::kFusion) continue;
      for (const HloComputation* callee : h->called_computations()) fused.insert(callee);
    }
  }
  return fused;
}

absl::StatusOr<bool> RewriteUnfusedComputations(
    HloModule* module, AfterRewrite after,
    const std::function<absl::StatusOr<bool>(HloComputation*)>& rewrite) {
  bool changed = false;
  const absl::flat_hash_set<const HloComputation*> fused = FusionComputations(*module);
  for (HloComputation* c : module->computations()) {
    if (fused.contains(c)) continue;
    AOT_RETURN_IF_ERROR(EnsureValidDefinitionOrder(c));
    AOT_ASSIGN_OR_RETURN(bool c_changed, rewrite(c));
    if (!c_changed) continue;
    changed = true;
    if (after == AfterRewrite::kRemoveDeadAndReorder) AOT_RETURN_IF_ERROR(RemoveDeadCode(c));
    AOT_RETURN_IF_ERROR(EnsureDefinitionOrder(c));
  }
  return changed;
}

absl::StatusOr<bool> ReplaceInTopLevelComputations(
    HloModule* module,
    const std::function<absl::StatusOr<HloInstruction*>(HloComputation*, NameUniquer&,
                                                        HloInstruction*)>& rewrite) {
  bool changed = false;
  const auto embedded = EmbeddedComputations(*module);
  for (HloComputation* computation : module->computations()) {
    if (embedded.count(computation)) continue;
    NameUniquer names = NameUniquer::ForInstructions(*computation);
    bool changed_here = false;
    for (HloInstruction* instruction : computation->MakeInstructionPostOrder()) {
      AOT_ASSIGN_OR_RETURN(HloInstruction * replacement, rewrite(computation, names, instruction));
      if (replacement == nullptr) continue;
      AOT_RETURN_IF_ERROR(ReplaceAndRemove(instruction, replacement));
      changed_here = true;
    }
    if (changed_here) AOT_RETURN_IF_ERROR(EnsureDefinitionOrder(computation).status());
    changed = changed || changed_here;
  }
  return changed;
}

HloInstruction* InstructionBuilder::Add(std::unique_ptr<HloInstruction> instruction) {
  instruction->set_name(names_->GetUniqueName(base_));
  return AddWithNewId(computation_, std::move(instruction));
}

HloInstruction* InstructionBuilder::Op(HloOpcode opcode, Shape shape,
                                       std::vector<HloInstruction*> operands) {
  return Add(HloInstruction::Create(opcode, std::move(shape), std::move(operands)));
}

HloInstruction* InstructionBuilder::Constant(PrimitiveType type, double value) {
  Literal literal(Shape::Scalar(type));
  literal.SetFromDouble(0, value);
  return Constant(std::move(literal));
}

HloInstruction* InstructionBuilder::Constant(Literal literal) {
  return Add(HloInstruction::CreateConstant(std::move(literal)));
}

HloInstruction* InstructionBuilder::Broadcast(HloInstruction* x, const Shape& shape,
                                              std::vector<int64_t> dims) {
  HloInstruction* b = Op(HloOpcode::kBroadcast, shape, {x});
  b->mutable_attrs()->dimensions = std::move(dims);
  return b;
}

HloInstruction* InstructionBuilder::Splat(PrimitiveType type, double value,
                                          absl::Span<const int64_t> dims) {
  HloInstruction* scalar = Constant(type, value);
  if (dims.empty()) return scalar;
  return Broadcast(scalar, Shape(type, std::vector<int64_t>(dims.begin(), dims.end())), {});
}

HloInstruction* InstructionBuilder::Convert(HloInstruction* x, PrimitiveType type) {
  if (x->shape().element_type() == type) return x;
  Shape shape(type, x->shape().dimensions());
  return Op(HloOpcode::kConvert, std::move(shape), {x});
}

HloInstruction* InstructionBuilder::Unary(HloOpcode opcode, HloInstruction* a) {
  return Op(opcode, Shape(a->shape().element_type(), a->shape().dimensions()), {a});
}

HloInstruction* InstructionBuilder::Binary(HloOpcode opcode, HloInstruction* a, HloInstruction* b) {
  return Op(opcode, Shape(a->shape().element_type(), a->shape().dimensions()), {a, b});
}

HloInstruction* InstructionBuilder::Compare(HloInstruction* a, HloInstruction* b,
                                            ComparisonDirection direction) {
  HloInstruction* c = Op(HloOpcode::kCompare, Shape(PRED, a->shape().dimensions()), {a, b});
  c->mutable_attrs()->comparison_direction = direction;
  return c;
}

HloInstruction* InstructionBuilder::Select(HloInstruction* predicate, HloInstruction* on_true,
                                           HloInstruction* on_false) {
  return Op(HloOpcode::kSelect,
            Shape(on_true->shape().element_type(), on_true->shape().dimensions()),
            {predicate, on_true, on_false});
}

HloInstruction* InstructionBuilder::Reshape(HloInstruction* x, std::vector<int64_t> dims) {
  return Op(HloOpcode::kReshape, Shape(x->shape().element_type(), std::move(dims)), {x});
}

HloInstruction* InstructionBuilder::GetTupleElement(HloInstruction* tuple, int64_t index) {
  HloInstruction* g = Op(HloOpcode::kGetTupleElement,
                         WithDefaultLayout(tuple->shape().tuple_shapes(index)), {tuple});
  g->mutable_attrs()->tuple_index = index;
  return g;
}

HloInstruction* InstructionBuilder::WithLayoutOf(HloInstruction* value, const Shape& want) {
  if (!want.has_layout() || want.HasDefaultLayout()) return value;
  return Op(HloOpcode::kCopy, want, {value});
}

HloInstruction* InstructionBuilder::Tuple(std::vector<HloInstruction*> elements) {
  std::vector<Shape> shapes;
  for (HloInstruction* e : elements) shapes.push_back(e->shape());
  return Op(HloOpcode::kTuple, Shape::Tuple(std::move(shapes)), std::move(elements));
}

HloComputation* AddEmptyComputation(HloModule* module, absl::string_view base) {
  NameUniquer computation_names = NameUniquer::ForComputations(*module);
  HloComputation* c = module->AddComputation(
      std::make_unique<HloComputation>(computation_names.GetUniqueName(base)));
  c->set_unique_id(module->NewUniqueId());
  return c;
}

HloComputation* AddScalarComputation(
    HloModule* module, absl::string_view base, std::vector<PrimitiveType> parameter_types,
    const std::function<std::unique_ptr<HloInstruction>(std::vector<HloInstruction*>)>& body) {
  HloComputation* c = AddEmptyComputation(module, base);
  std::vector<HloInstruction*> parameters;
  for (size_t i = 0; i < parameter_types.size(); ++i) {
    parameters.push_back(AddWithNewId(
        c, HloInstruction::CreateParameter(
               static_cast<int64_t>(i), Shape::Scalar(parameter_types[i]), absl::StrCat("p", i))));
  }
  std::unique_ptr<HloInstruction> root = body(parameters);
  root->set_name("r");
  c->set_root_instruction(AddWithNewId(c, std::move(root)));
  return c;
}

HloComputation* AddComputationFor(HloModule* module, PrimitiveType type) {
  return AddScalarComputation(
      module, absl::StrCat("add_", PrimitiveTypeName(type)), {type, type},
      [&](std::vector<HloInstruction*> p) {
        return HloInstruction::Create(HloOpcode::kAdd, Shape::Scalar(type), {p[0], p[1]});
      });
}

absl::StatusOr<HloComputation*> RewriteScalarComputation(
    HloModule* module, const HloComputation& callee, absl::string_view suffix,
    const std::vector<std::pair<PrimitiveType, std::string>>& params, const ScalarRebuild& rebuild,
    const ScalarSplit& split) {
  for (int64_t i = 0; i < callee.num_parameters(); ++i) {
    const Shape& shape = callee.parameter_instruction(i)->shape();
    if (!shape.IsArray() || shape.rank() != 0) {
      return absl::UnimplementedError(absl::StrCat("its computation '", callee.name(),
                                                   "' takes a parameter that is not a scalar"));
    }
  }
  const HloInstruction* root = callee.root_instruction();
  if (root->opcode() != HloOpcode::kTuple && !root->shape().IsArray()) {
    return absl::UnimplementedError(absl::StrCat("the root of its computation '", callee.name(),
                                                 "' is neither a value nor a tuple"));
  }
  HloComputation* c = AddEmptyComputation(module, absl::StrCat(callee.name(), suffix));
  std::vector<HloInstruction*> parameters;
  for (size_t j = 0; j < params.size(); ++j) {
    parameters.push_back(AddWithNewId(
        c, HloInstruction::CreateParameter(static_cast<int64_t>(j), Shape::Scalar(params[j].first),
                                           params[j].second)));
  }
  // The clones keep the callee's names; what `rebuild` makes avoids them
  // (and the value standing for a parameter takes the parameter's name).
  NameUniquer rebuild_names = NameUniquer::ForInstructions(*c);
  for (const HloInstruction* i : callee.instructions()) rebuild_names.Add(i->name());
  InstructionBuilder rb(c, &rebuild_names, *root);
  std::map<const HloInstruction*, HloInstruction*> mapped;
  for (int64_t i = 0; i < callee.num_parameters(); ++i) {
    const HloInstruction* old = callee.parameter_instruction(i);
    HloInstruction* value = rebuild(i, parameters, rb);
    if (value->opcode() != HloOpcode::kParameter) value->set_name(old->name());
    mapped[old] = value;
  }
  for (const HloInstruction* instr : callee.MakeInstructionPostOrder()) {
    if (instr->opcode() == HloOpcode::kParameter) continue;
    std::vector<HloInstruction*> operands;
    for (const HloInstruction* op : instr->operands()) operands.push_back(mapped.at(op));
    mapped[instr] = AddWithNewId(c, CloneWithOperands(*instr, operands));
  }
  std::vector<HloInstruction*> outputs;
  if (root->opcode() == HloOpcode::kTuple) {
    for (const HloInstruction* op : root->operands()) outputs.push_back(mapped.at(op));
  } else {
    outputs.push_back(mapped.at(root));
  }
  NameUniquer names = NameUniquer::ForInstructions(*c);
  InstructionBuilder b(c, &names, *root);
  std::vector<HloInstruction*> split_outputs;
  for (HloInstruction* out : outputs) {
    for (HloInstruction* part : split(out, b)) split_outputs.push_back(part);
  }
  c->set_root_instruction(root->opcode() == HloOpcode::kTuple || split_outputs.size() > 1
                              ? b.Tuple(split_outputs)
                              : split_outputs[0]);
  return c;
}

std::vector<HloInstruction*> CountedLoop(HloModule* module, InstructionBuilder& outer,
                                         const HloInstruction& base, int64_t trip_count,
                                         std::vector<HloInstruction*> init, const LoopStep& step) {
  std::vector<HloInstruction*> state_values = {outer.Constant(S32, 0)};
  state_values.insert(state_values.end(), init.begin(), init.end());
  HloInstruction* state = outer.Tuple(state_values);
  const Shape& state_shape = state->shape();

  HloComputation* cond = AddEmptyComputation(module, absl::StrCat(base.name(), "_cond"));
  HloInstruction* cond_param =
      AddWithNewId(cond, HloInstruction::CreateParameter(0, state_shape, "state"));
  NameUniquer cond_names = NameUniquer::ForInstructions(*cond);
  InstructionBuilder c(cond, &cond_names, base);
  HloInstruction* i = c.GetTupleElement(cond_param, 0);
  cond->set_root_instruction(
      c.Compare(i, c.Constant(S32, static_cast<double>(trip_count)), ComparisonDirection::kLt));

  HloComputation* body = AddEmptyComputation(module, absl::StrCat(base.name(), "_body"));
  HloInstruction* body_param =
      AddWithNewId(body, HloInstruction::CreateParameter(0, state_shape, "state"));
  NameUniquer body_names = NameUniquer::ForInstructions(*body);
  InstructionBuilder bb(body, &body_names, base);
  HloInstruction* j = bb.GetTupleElement(body_param, 0);
  std::vector<HloInstruction*> values;
  for (size_t k = 0; k < init.size(); ++k) {
    values.push_back(bb.GetTupleElement(body_param, static_cast<int64_t>(k) + 1));
  }
  std::vector<HloInstruction*> next = step(bb, j, values);
  std::vector<HloInstruction*> next_state = {bb.Binary(HloOpcode::kAdd, j, bb.Constant(S32, 1))};
  next_state.insert(next_state.end(), next.begin(), next.end());
  body->set_root_instruction(bb.Tuple(next_state));

  HloInstruction* loop = outer.Op(HloOpcode::kWhile, state_shape, {state});
  *loop->mutable_called_computations() = {cond, body};
  std::vector<HloInstruction*> out;
  for (size_t k = 0; k < init.size(); ++k) {
    out.push_back(outer.GetTupleElement(loop, static_cast<int64_t>(k) + 1));
  }
  return out;
}

}  // namespace aot
