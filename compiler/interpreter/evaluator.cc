#include "compiler/interpreter/evaluator.h"

#include <algorithm>
#include <complex>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {

using interpreter_internal::ComputationCaller;
using interpreter_internal::Operands;

namespace interpreter_internal {

std::optional<ScalarBinaryMatch> MatchScalarBinary(const HloComputation& computation) {
  const HloInstruction* root = computation.root_instruction();
  if (root == nullptr || computation.num_parameters() < 2) return std::nullopt;
  const bool is_compare = root->opcode() == HloOpcode::kCompare;
  if (!is_compare && !IsElementwiseBinary(root->opcode())) return std::nullopt;
  if (root->operand_count() != 2) return std::nullopt;
  PrimitiveType type = PRIMITIVE_TYPE_INVALID;
  for (const HloInstruction* p : computation.parameter_instructions()) {
    if (p == nullptr || !p->shape().IsArray() || p->shape().rank() != 0) {
      return std::nullopt;
    }
    if (type == PRIMITIVE_TYPE_INVALID) type = p->shape().element_type();
  }
  const HloInstruction* a = root->operand(0);
  const HloInstruction* b = root->operand(1);
  if (a == nullptr || b == nullptr || a->opcode() != HloOpcode::kParameter ||
      b->opcode() != HloOpcode::kParameter || a->parent() != &computation ||
      b->parent() != &computation) {
    return std::nullopt;
  }
  ScalarBinaryMatch match;
  match.opcode = root->opcode();
  match.lhs_param = a->parameter_number();
  match.rhs_param = b->parameter_number();
  match.type = a->shape().element_type();
  // Narrow values compute widened (EvalWidened), not on their carrier.
  if (IsNarrowType(match.type)) return std::nullopt;
  if (b->shape().element_type() != match.type || !root->shape().IsArray() ||
      root->shape().rank() != 0) {
    return std::nullopt;
  }
  if (is_compare) {
    if (root->shape().element_type() != PRED || !root->attrs().comparison_direction.has_value()) {
      return std::nullopt;
    }
    auto total = UsesTotalOrder(root->attrs().comparison_type, match.type);
    if (!total.ok()) return std::nullopt;
    match.direction = *root->attrs().comparison_direction;
    match.total_order = *total;
  } else if (root->shape().element_type() != match.type) {
    return std::nullopt;
  }
  return match;
}

}  // namespace interpreter_internal

namespace {

constexpr int kMaxCallDepth = 256;

absl::Status Annotate(const HloInstruction& instr, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat(DescribeInstruction(instr), ": ", status.message()));
}

// A value during evaluation: a literal owned here (possibly shared with the
// tuple elements taken from it) or borrowed (arguments, constants).
struct Value {
  std::shared_ptr<Literal> owner;
  const Literal* literal = nullptr;
  // The dimensions sized at run time and their sizes (compiler/hlo/
  // dynamic_dimensions.h); both empty for a static value.
  DynamicDims dynamic;
  std::vector<int64_t> sizes;
};

// Post order of the instructions reachable from the root, with operand
// slots and use counts.
struct Plan {
  // The computation's rng draws: one take of the state for all of them.
  RngTake rng;
  std::vector<const HloInstruction*> order;
  std::vector<std::vector<int32_t>> operands;
  std::vector<int32_t> uses;
  int32_t root = -1;
  std::string computation_name;
};

// Instruction shapes come from unverified input: refuse negative
// dimensions and sizes that cannot be allocated before any kernel does.
absl::Status CheckAllocatable(const Shape& shape) {
  constexpr int64_t kMaxBytes = int64_t{1} << 40;
  int64_t total = 0;
  for (const Shape& leaf : shape.FlattenLeaves()) {
    if (!leaf.IsArray()) {
      if (leaf.IsToken() || leaf.IsTuple()) continue;  // empty tuple
      return absl::InvalidArgumentError(
          absl::StrCat("shape ", shape.ToString(false), " has an invalid element type"));
    }
    int64_t count = 1;
    for (int64_t d : leaf.dimensions()) {
      if (d < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("shape ", shape.ToString(false), " has a negative dimension"));
      }
      if (d > 0 && count > kMaxBytes / d) {
        return absl::ResourceExhaustedError(
            absl::StrCat("shape ", shape.ToString(false), " is too large to evaluate"));
      }
      count *= d;
    }
    total += count * ByteWidth(leaf.element_type());
    if (total > kMaxBytes) {
      return absl::ResourceExhaustedError(
          absl::StrCat("shape ", shape.ToString(false), " is too large to evaluate"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckArguments(const HloComputation& computation,
                            absl::Span<const Literal* const> arguments, absl::string_view what) {
  if (static_cast<int64_t>(arguments.size()) != computation.num_parameters()) {
    return absl::InvalidArgumentError(absl::StrCat(what, " '", computation.name(), "' takes ",
                                                   computation.num_parameters(),
                                                   " argument(s), got ", arguments.size()));
  }
  for (int64_t i = 0; i < computation.num_parameters(); ++i) {
    const HloInstruction* p = computation.parameter_instruction(i);
    if (p == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " '", computation.name(), "' has no parameter ", i));
    }
    if (!arguments[i]->shape().Compatible(p->shape())) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument ", i, " does not match parameter '", p->name(), "' of ", what,
                       " '", computation.name(), "': expected ", p->shape().ToString(false),
                       ", got ", arguments[i]->shape().ToString(false)));
    }
  }
  return absl::OkStatus();
}

}  // namespace

class HloEvaluator::Impl : public ComputationCaller {
 public:
  explicit Impl(const CustomCallRegistry* registry) : registry_(registry) {}

  void ClearCache() {
    plans_.clear();
    groups_.clear();
    collective_calls_ = 0;
  }

  void set_participant(const CollectiveParticipant& participant) { participant_ = participant; }
  const CollectiveParticipant& participant() const { return participant_; }

  // A called computation: arguments are checked, errors say where.
  absl::StatusOr<Literal> Call(const HloComputation& computation,
                               absl::Span<const Literal* const> arguments) override {
    AOT_RETURN_IF_ERROR(CheckArguments(computation, arguments, "computation"));
    auto result = Run(computation, arguments);
    if (!result.ok()) {
      return absl::Status(
          result.status().code(),
          absl::StrCat("in computation '", computation.name(), "': ", result.status().message()));
    }
    return result;
  }

  absl::StatusOr<Literal> Run(const HloComputation& computation,
                              absl::Span<const Literal* const> arguments) {
    if (depth_ >= kMaxCallDepth) {
      return absl::ResourceExhaustedError(
          absl::StrCat("computations nest deeper than ", kMaxCallDepth,
                       " calls (is a computation calling itself?)"));
    }
    AOT_ASSIGN_OR_RETURN(auto plan_or, GetPlan(computation));
    const Plan& plan = *plan_or;
    ++depth_;
    const bool draws = !plan.rng.offsets.empty();
    if (draws) {
      rng_draws_.push_back({&plan, interpreter_internal::TakeRngState(
                                       &rng_state_, static_cast<uint64_t>(plan.rng.advance))});
    }
    auto result = RunPlan(plan, arguments);
    if (draws) rng_draws_.pop_back();
    --depth_;
    return result;
  }

 private:
  absl::StatusOr<const Plan*> GetPlan(const HloComputation& computation) {
    auto it = plans_.find(&computation);
    if (it != plans_.end()) return it->second.get();
    const HloInstruction* root = computation.root_instruction();
    if (root == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("computation '", computation.name(), "' has no root instruction"));
    }
    auto plan = std::make_unique<Plan>();
    // What the root reaches, evaluated in the compiler's order: a
    // depth-first post order started from each instruction in definition
    // order (HloComputation::MakeInstructionPostOrder), so instructions
    // that take the random state do so in the order a compiled program runs
    // them.
    absl::flat_hash_set<const HloInstruction*> reached = {root};
    for (std::vector<const HloInstruction*> todo = {root}; !todo.empty();) {
      const HloInstruction* h = todo.back();
      todo.pop_back();
      for (const HloInstruction* op : h->operands()) {
        if (op != nullptr && reached.insert(op).second) todo.push_back(op);
      }
    }
    absl::flat_hash_map<const HloInstruction*, int32_t> slot;
    absl::flat_hash_map<const HloInstruction*, int> state;  // 1 open, 2 done
    std::vector<std::pair<const HloInstruction*, size_t>> stack;
    std::vector<const HloInstruction*> starts;
    for (const HloInstruction* h : computation.instructions()) {
      if (reached.contains(h)) starts.push_back(h);
    }
    if (std::find(starts.begin(), starts.end(), root) == starts.end()) starts.push_back(root);
    for (const HloInstruction* start : starts) {
      if (state[start] != 0) continue;
      state[start] = 1;
      stack.push_back({start, 0});
      while (!stack.empty()) {
        auto& [node, next] = stack.back();
        if (next < static_cast<size_t>(node->operand_count())) {
          const HloInstruction* op = node->operand(static_cast<int64_t>(next++));
          if (op == nullptr) {
            return absl::InvalidArgumentError(
                absl::StrCat(DescribeInstruction(*node), ": operand ", next - 1, " is missing"));
          }
          int& s = state[op];
          if (s == 1) {
            return absl::InvalidArgumentError(absl::StrCat(
                DescribeInstruction(*node), ": operand '", op->name(), "' forms a cycle"));
          }
          if (s == 0) {
            s = 1;
            stack.push_back({op, 0});
          }
          continue;
        }
        const HloInstruction* done = node;
        stack.pop_back();
        if (absl::Status s = CheckAllocatable(done->shape()); !s.ok()) {
          return Annotate(*done, s);
        }
        state[done] = 2;
        int32_t index = static_cast<int32_t>(plan->order.size());
        slot[done] = index;
        plan->order.push_back(done);
        std::vector<int32_t> operand_slots;
        for (const HloInstruction* op : done->operands()) operand_slots.push_back(slot.at(op));
        plan->operands.push_back(std::move(operand_slots));
      }
    }
    // rng takes the state once per evaluation of the computation, before
    // anything else, for all its draws (EvalRng).
    AOT_ASSIGN_OR_RETURN(plan->rng, RngTakeOf(computation.instructions()));
    plan->uses.assign(plan->order.size(), 0);
    for (const auto& ops : plan->operands) {
      for (int32_t s : ops) ++plan->uses[s];
    }
    plan->root = slot.at(root);
    plan->computation_name = computation.name();
    const Plan* result = plan.get();
    plans_[&computation] = std::move(plan);
    return result;
  }

  absl::StatusOr<Literal> RunPlan(const Plan& plan, absl::Span<const Literal* const> arguments) {
    std::vector<Value> values(plan.order.size());
    std::vector<int32_t> remaining = plan.uses;
    std::vector<const Literal*> operands;
    for (size_t i = 0; i < plan.order.size(); ++i) {
      const HloInstruction& instr = *plan.order[i];
      Value& value = values[i];
      operands.clear();
      for (int32_t s : plan.operands[i]) operands.push_back(values[s].literal);
      switch (instr.opcode()) {
        case HloOpcode::kParameter: {
          const int64_t number = instr.parameter_number();
          if (number < 0 || number >= static_cast<int64_t>(arguments.size())) {
            return absl::InvalidArgumentError(
                absl::StrCat(DescribeInstruction(instr), ": parameter number ", number,
                             " is out of range (", arguments.size(), " arguments)"));
          }
          value.literal = arguments[number];
          break;
        }
        case HloOpcode::kConstant:
          if (!instr.attrs().literal.has_value()) {
            return absl::InvalidArgumentError(
                absl::StrCat(DescribeInstruction(instr), ": constant has no value"));
          }
          if (!instr.literal().shape().Compatible(instr.shape())) {
            return absl::InvalidArgumentError(
                absl::StrCat(DescribeInstruction(instr), ": value of shape ",
                             instr.literal().shape().ToString(false), " does not match ",
                             instr.shape().ToString(false)));
          }
          value.literal = &instr.literal();
          break;
        case HloOpcode::kGetTupleElement: {
          if (operands.size() != 1) {
            return absl::InvalidArgumentError(absl::StrCat(
                DescribeInstruction(instr), ": expected 1 operand, got ", operands.size()));
          }
          const Literal& tuple = *operands[0];
          const int64_t index = instr.tuple_index();
          if (!tuple.shape().IsTuple() || index < 0 ||
              index >= static_cast<int64_t>(tuple.tuple_elements().size())) {
            return absl::InvalidArgumentError(absl::StrCat(DescribeInstruction(instr), ": index ",
                                                           index, " is out of range for ",
                                                           tuple.shape().ToString(false)));
          }
          value.owner = values[plan.operands[i][0]].owner;
          value.literal = &tuple.tuple_element(index);
          break;
        }
        default: {
          absl::StatusOr<Literal> result;
          // TouchesDynamicDimensions without building its operand list: a
          // value's dynamic list is non-empty only when it is dynamic, and
          // this runs for every instruction evaluated.
          bool dynamic = MakesDynamicDimensions(instr.opcode());
          for (int32_t s : plan.operands[i]) dynamic = dynamic || !values[s].dynamic.empty();
          auto eval = [&](Operands ops) -> absl::StatusOr<Literal> {
            absl::StatusOr<Literal> r;
            try {
              r = EvalInstruction(instr, ops);
            } catch (const std::bad_alloc&) {
              r = absl::ResourceExhaustedError("out of memory");
            } catch (const std::length_error&) {
              r = absl::ResourceExhaustedError("value too large");
            }
            AOT_RETURN_IF_ERROR_AND(r, Annotate(instr, _));
            return r;
          };
          if (dynamic) {
            std::vector<interpreter_internal::DynamicOperand> dynamic_operands;
            for (int32_t s : plan.operands[i]) {
              dynamic_operands.push_back({values[s].literal, &values[s].dynamic, &values[s].sizes});
            }
            result = interpreter_internal::EvalWithDynamicSizes(instr, dynamic_operands, eval,
                                                                &value.dynamic, &value.sizes);
          } else {
            result = eval(operands);
          }
          AOT_RETURN_IF_ERROR(result);
          if (!result->shape().Compatible(instr.shape())) {
            return absl::InternalError(
                absl::StrCat(DescribeInstruction(instr), ": produced a value of shape ",
                             result->shape().ToString(false), ", the instruction's shape is ",
                             instr.shape().ToString(false)));
          }
          value.owner = std::make_shared<Literal>(*std::move(result));
          value.literal = value.owner.get();
          break;
        }
      }
      for (int32_t s : plan.operands[i]) {
        if (--remaining[s] == 0 && s != plan.root) values[s] = Value();
      }
    }
    Value& root = values[plan.root];
    if (!root.dynamic.empty()) {
      return DynamicRootError(*plan.order[plan.root], plan.computation_name, root.dynamic);
    }
    if (root.owner != nullptr && root.owner.get() == root.literal && root.owner.use_count() == 1) {
      return std::move(*root.owner);
    }
    return *root.literal;
  }

  absl::StatusOr<Literal> EvalInstruction(const HloInstruction& instr, Operands ops) {
    using namespace interpreter_internal;  // NOLINT: kernels
    const HloOpcode opcode = instr.opcode();
    const int arity = HloOpcodeArity(opcode);
    if (arity >= 0 && static_cast<int>(ops.size()) != arity) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected ", arity, " operand(s), got ", ops.size()));
    }
    if (TouchesNarrowTypes(instr, ops)) return EvalWidened(instr, ops);
    if (TouchesComplex(instr, ops) && !ReferenceTakesComplex(instr)) return EvalComplex(instr, ops);
    if (opcode == HloOpcode::kIsFinite) return EvalIsFinite(instr, *ops[0]);
    if (opcode == HloOpcode::kCopy && !ops[0]->shape().IsArray()) {
      return Literal(*ops[0]);  // a tuple (or token) copy
    }
    if (IsElementwiseUnary(opcode)) return EvalUnary(instr, *ops[0]);
    if (IsElementwiseBinary(opcode)) return EvalBinary(instr, *ops[0], *ops[1]);
    switch (opcode) {
      case HloOpcode::kCompare:
        return EvalCompare(instr, *ops[0], *ops[1]);
      case HloOpcode::kReal:  // of real values: the value itself / zero
      case HloOpcode::kImag:
        return EvalComplexElementwise(instr, ops);
      case HloOpcode::kSelect:
        return EvalSelect(instr, ops);
      case HloOpcode::kClamp:
        return EvalClamp(instr, ops);
      case HloOpcode::kConvert:
        return EvalConvert(instr, *ops[0]);
      case HloOpcode::kBitcastConvert:
        return EvalBitcastConvert(instr, *ops[0]);
      case HloOpcode::kBroadcast:
        return EvalBroadcast(instr, *ops[0]);
      case HloOpcode::kReshape:
      case HloOpcode::kBitcast:
        return EvalReshape(instr, *ops[0]);
      case HloOpcode::kTranspose:
        return EvalTranspose(instr, *ops[0]);
      case HloOpcode::kSlice:
        return EvalSlice(instr, *ops[0]);
      case HloOpcode::kDynamicSlice:
        return EvalDynamicSlice(instr, ops);
      case HloOpcode::kDynamicUpdateSlice:
        return EvalDynamicUpdateSlice(instr, ops);
      case HloOpcode::kConcatenate:
        return EvalConcatenate(instr, ops);
      case HloOpcode::kPad:
        return EvalPad(instr, *ops[0], *ops[1]);
      case HloOpcode::kReverse:
        return EvalReverse(instr, *ops[0]);
      case HloOpcode::kShuffle:
        return EvalShuffle(instr, *ops[0]);
      case HloOpcode::kOptimizationBarrier:
        return *ops[0];
      case HloOpcode::kGetDimensionSize: {
        const Shape& shape = ops[0]->shape();
        if (!shape.IsArray() || instr.attrs().dimensions.size() != 1 ||
            instr.attrs().dimensions[0] < 0 || instr.attrs().dimensions[0] >= shape.rank()) {
          return absl::InvalidArgumentError("get-dimension-size needs an array and one dimension");
        }
        Literal size(Shape::Scalar(S32));
        size.SetFromInt64(0, shape.dimensions(instr.attrs().dimensions[0]));
        return size;
      }
      // Wrappers whose meaning on one device is their operand's value (or
      // a call, for async-start) and the token ops.
      case HloOpcode::kAfterAll:
        return Literal(Shape::Token());
      case HloOpcode::kAddDependency:
      case HloOpcode::kDomain:
      case HloOpcode::kAsyncUpdate:
        return *ops[0];
      case HloOpcode::kCopyStart: {
        std::vector<Literal> elements = {*ops[0], *ops[0], Literal(Shape::Scalar(U32))};
        return Literal::Tuple(std::move(elements));
      }
      case HloOpcode::kCopyDone:
      case HloOpcode::kAsyncDone: {
        const int64_t element = opcode == HloOpcode::kCopyDone ? 0 : 1;
        if (!ops[0]->shape().IsTuple() ||
            static_cast<int64_t>(ops[0]->tuple_elements().size()) <= element) {
          return absl::InvalidArgumentError(absl::StrCat(
              "operand has shape ", ops[0]->shape().ToString(false), "; expected a tuple"));
        }
        return ops[0]->tuple_element(element);
      }
      case HloOpcode::kAsyncStart:
        return EvalAsyncStart(instr, ops);
      case HloOpcode::kTopK:
        return EvalTopK(instr, *ops[0]);
      case HloOpcode::kBatchNormTraining:
      case HloOpcode::kBatchNormInference:
      case HloOpcode::kBatchNormGrad:
        return EvalBatchNorm(instr, ops);
      case HloOpcode::kIota:
        return EvalIota(instr);
      case HloOpcode::kGather:
        return EvalGather(instr, *ops[0], *ops[1]);
      case HloOpcode::kScatter:
      case HloOpcode::kReduce:
      case HloOpcode::kReduceWindow:
      case HloOpcode::kSort:
      case HloOpcode::kMap:
        return EvalPerElementCall(instr, ops);
      case HloOpcode::kSelectAndScatter:
        return EvalSelectAndScatter(instr, ops, *this);
      case HloOpcode::kDot:
        return EvalDot(instr, *ops[0], *ops[1]);
      case HloOpcode::kCholesky:
        return EvalCholesky(instr, *ops[0]);
      case HloOpcode::kTriangularSolve:
        return EvalTriangularSolve(instr, *ops[0], *ops[1]);
      case HloOpcode::kRngBitGenerator:
        return EvalRngBitGenerator(instr, *ops[0]);
      case HloOpcode::kRng: {
        // The state its computation took, advanced by the draws before it.
        if (rng_draws_.empty() || !rng_draws_.back().plan->rng.offsets.contains(&instr)) {
          return absl::InternalError("rng evaluated outside its computation's evaluation");
        }
        const RngDraws& draws = rng_draws_.back();
        const int64_t offset = draws.plan->rng.offsets.at(&instr);
        return EvalRng(instr, *ops[0], *ops[1],
                       RngCounterPlus(draws.taken, static_cast<uint64_t>(offset)));
      }
      case HloOpcode::kRngGetAndUpdateState:
        return EvalRngGetAndUpdateState(instr, &rng_state_);
      case HloOpcode::kStochasticConvert:
        return EvalStochasticConvert(instr, *ops[0], *ops[1]);
      case HloOpcode::kRaggedDot:
        return EvalRaggedDot(instr, *ops[0], *ops[1], *ops[2]);
      case HloOpcode::kScaledDot:
        return EvalScaledDot(instr, ops);
      case HloOpcode::kScan:
        return EvalScan(instr, ops, *this);
      case HloOpcode::kConvolution:
        return EvalConvolution(instr, *ops[0], *ops[1]);
      case HloOpcode::kTuple: {
        std::vector<Literal> elements;
        elements.reserve(ops.size());
        for (const Literal* op : ops) elements.push_back(*op);
        return Literal::Tuple(std::move(elements));
      }
      case HloOpcode::kCall:
      case HloOpcode::kFusion: {
        if (instr.called_computations().size() != 1 || instr.called_computations()[0] == nullptr) {
          return absl::InvalidArgumentError("expected exactly one called computation");
        }
        return Call(*instr.called_computations()[0], ops);
      }
      case HloOpcode::kWhile:
        return EvalWhile(instr, *ops[0]);
      case HloOpcode::kConditional:
        return EvalConditional(instr, ops);
      case HloOpcode::kCustomCall:
        return EvalCustomCall(instr, ops);
      case HloOpcode::kReplicaId:
      case HloOpcode::kPartitionId: {
        if (!instr.shape().IsArray() || instr.shape().rank() != 0 ||
            !IsInteger(instr.shape().element_type())) {
          return absl::InvalidArgumentError(absl::StrCat("result must be an integer scalar, got ",
                                                         instr.shape().ToString(false)));
        }
        Literal id(instr.shape());
        id.SetFromInt64(0, opcode == HloOpcode::kReplicaId ? participant_.replica_id
                                                           : participant_.partition_id);
        return id;
      }
      default:
        if (IsCollectiveOpcode(opcode)) return EvalCollective(instr, ops);
        break;
    }
    return absl::UnimplementedError(
        absl::StrCat("opcode '", HloOpcodeString(opcode), "' is not supported by the interpreter"));
  }

  // The narrow element types (IsNarrowType) have no native type in the
  // kernels: an instruction that reads or produces one is evaluated on
  // operands converted to WideComputeType, its result rounded back (as
  // XLA's float normalization computes f8 in a wider type). convert and
  // bitcast-convert read them directly; control flow and tuples only pass
  // values on.
  static bool TouchesNarrowTypes(const HloInstruction& instr, Operands ops) {
    switch (instr.opcode()) {
      case HloOpcode::kConvert:
      case HloOpcode::kTuple:
      case HloOpcode::kCall:
      case HloOpcode::kFusion:
      case HloOpcode::kWhile:
      case HloOpcode::kConditional:
      case HloOpcode::kAfterAll:
        return false;
      default:
        break;
    }
    return AnyLeaf(instr, ops, HasNarrowLeaf);
  }

  // Whether the result or an operand has a leaf `has` holds for.
  static bool AnyLeaf(const HloInstruction& instr, Operands ops, bool (*has)(const Shape&)) {
    if (has(instr.shape())) return true;
    for (const Literal* op : ops) {
      if (has(op->shape())) return true;
    }
    return false;
  }

  static Literal ConvertLeaves(const Literal& value, const Shape& like, bool widen) {
    if (value.shape().IsTuple()) {
      std::vector<Literal> elements;
      for (size_t i = 0; i < value.tuple_elements().size(); ++i) {
        elements.push_back(ConvertLeaves(value.tuple_element(i),
                                         like.IsTuple() ? like.tuple_shapes(i) : like, widen));
      }
      return Literal::Tuple(std::move(elements));
    }
    const PrimitiveType narrow = widen ? value.shape().element_type() : like.element_type();
    if (!IsNarrowType(narrow) || !value.shape().IsArray()) return value;
    return interpreter_internal::ConvertLiteral(value, widen ? WideComputeType(narrow) : narrow);
  }

  static Shape WidenShape(const Shape& shape) {
    if (shape.IsTuple()) {
      std::vector<Shape> elements;
      for (const Shape& s : shape.tuple_shapes()) elements.push_back(WidenShape(s));
      return Shape::Tuple(std::move(elements));
    }
    Shape wide = shape;
    wide.set_element_type(WideComputeType(shape.element_type()));
    return wide;
  }

  // reduce, reduce-window, scatter, sort and map: their computation called
  // element by element, on whatever scalars the operands hold (narrow and
  // complex ones too: the computation's own instructions widen or split).
  static bool CallsPerElement(HloOpcode opcode) {
    return opcode == HloOpcode::kReduce || opcode == HloOpcode::kReduceWindow ||
           opcode == HloOpcode::kScatter || opcode == HloOpcode::kSort || opcode == HloOpcode::kMap;
  }
  absl::StatusOr<Literal> EvalPerElementCall(const HloInstruction& instr, Operands ops) {
    using namespace interpreter_internal;  // NOLINT: kernels
    switch (instr.opcode()) {
      case HloOpcode::kReduce:
        return EvalReduce(instr, ops, *this);
      case HloOpcode::kReduceWindow:
        return EvalReduceWindow(instr, ops, *this);
      case HloOpcode::kScatter:
        return EvalScatter(instr, ops, *this);
      case HloOpcode::kSort:
        return EvalSort(instr, ops, *this);
      case HloOpcode::kMap:
        return EvalMap(instr, ops, *this);
      default:
        return absl::InternalError(absl::StrCat("'", HloOpcodeString(instr.opcode()),
                                                "' does not call a computation per element"));
    }
  }

  absl::StatusOr<Literal> EvalWidened(const HloInstruction& instr, Operands ops) {
    const HloOpcode opcode = instr.opcode();
    auto refused = [&] {
      return absl::UnimplementedError(absl::StrCat(
          "opcode '", HloOpcodeString(opcode), "' on ", instr.shape().ToString(false),
          " or its operands is not supported by the interpreter for the narrow element types"));
    };
    bool narrow_integer = IsNarrowInteger(instr.shape().element_type());
    for (const Literal* op : ops) narrow_integer |= IsNarrowInteger(op->shape().element_type());
    // A computation called per element runs on the narrow scalars (its
    // instructions widened one by one).
    if (CallsPerElement(opcode)) return EvalPerElementCall(instr, ops);
    // Bit-level ops and mulhi (a high half) would see the carrier's width;
    // bit-level reinterpretation of sub-byte types is by bits, not bytes;
    // called computations would run on the narrow types themselves.
    if ((narrow_integer &&
         (opcode == HloOpcode::kShiftRightLogical || opcode == HloOpcode::kClz ||
          opcode == HloOpcode::kPopulationCount || opcode == HloOpcode::kMulhi)) ||
        !instr.called_computations().empty()) {
      return refused();
    }
    if (opcode == HloOpcode::kBitcastConvert) {
      const PrimitiveType in = ops[0]->shape().element_type();
      const PrimitiveType out = instr.shape().element_type();
      if (IsNarrowInteger(in) || IsNarrowInteger(out) || in == F4E2M1FN || out == F4E2M1FN) {
        return refused();
      }
      return interpreter_internal::EvalBitcastConvert(instr, *ops[0]);  // whole bytes
    }
    std::vector<Literal> wide;
    wide.reserve(ops.size());
    for (const Literal* op : ops) wide.push_back(ConvertLeaves(*op, op->shape(), /*widen=*/true));
    std::vector<const Literal*> wide_ops;
    for (const Literal& w : wide) wide_ops.push_back(&w);
    AOT_ASSIGN_OR_RETURN(Literal result,
                         EvalWithShape(instr, WidenShape(instr.shape()), std::move(wide_ops)));
    return ConvertLeaves(result, instr.shape(), /*widen=*/false);
  }

  // `instr` (its opcode, name and attributes) evaluated as if its shape
  // were `shape`, on `ops`: the widened and the per-part evaluations.
  absl::StatusOr<Literal> EvalWithShape(const HloInstruction& instr, Shape shape,
                                        std::vector<const Literal*> ops) {
    std::unique_ptr<HloInstruction> like = HloInstruction::Create(instr.opcode(), shape, {});
    like->set_name(instr.name());
    *like->mutable_attrs() = instr.attrs();
    return EvalInstruction(*like, ops);
  }

  // c64 / c128 values. The ops that need complex arithmetic have kernels
  // (complex_ops.cc); ops that only move values act on the real and the
  // imaginary parts alike, and dot and convolution are bilinear, so these
  // are evaluated on the parts by the real kernels. Control flow, tuples
  // and bitcast-convert only pass values on.
  static bool TouchesComplex(const HloInstruction& instr, Operands ops) {
    switch (instr.opcode()) {
      case HloOpcode::kTuple:
      case HloOpcode::kCall:
      case HloOpcode::kFusion:
      case HloOpcode::kWhile:
      case HloOpcode::kConditional:
      case HloOpcode::kAfterAll:
      case HloOpcode::kAddDependency:
      case HloOpcode::kDomain:
      case HloOpcode::kAsyncStart:
      case HloOpcode::kAsyncUpdate:
      case HloOpcode::kAsyncDone:
      case HloOpcode::kCopyStart:
      case HloOpcode::kCopyDone:
      case HloOpcode::kOptimizationBarrier:
      case HloOpcode::kBitcastConvert:
      case HloOpcode::kGetDimensionSize:
        return false;
      case HloOpcode::kCopy:
        return ops[0]->shape().IsArray() && IsComplex(ops[0]->shape().element_type());
      default:
        break;
    }
    return AnyLeaf(instr, ops, HasComplexLeaf);
  }

  // The real (imag=false) or imaginary part of a complex array; any other
  // value is returned as it is.
  static Literal ComplexPart(const Literal& x, bool imag) {
    if (!x.shape().IsArray() || !IsComplex(x.shape().element_type())) return x;
    Shape shape = x.shape();
    shape.set_element_type(ComplexComponentType(shape.element_type()));
    Literal part(shape);
    for (int64_t i = 0; i < x.element_count(); ++i) {
      const std::complex<double> z = x.GetAsComplex(i);
      part.SetFromDouble(i, imag ? z.imag() : z.real());
    }
    return part;
  }

  // `instr` evaluated with the given operands and the component type of
  // its complex result.
  absl::StatusOr<Literal> EvalAsComponent(const HloInstruction& instr,
                                          std::vector<const Literal*> ops) {
    Shape shape = instr.shape();
    shape.set_element_type(ComplexComponentType(shape.element_type()));
    return EvalWithShape(instr, std::move(shape), std::move(ops));
  }

  absl::StatusOr<Literal> JoinComplex(const HloInstruction& instr, const Literal& re,
                                      const Literal& im) {
    Literal out(instr.shape());
    if (re.element_count() != out.element_count() || im.element_count() != out.element_count()) {
      return absl::InternalError("complex parts do not match the result");
    }
    for (int64_t i = 0; i < out.element_count(); ++i) {
      out.SetFromComplex(i, std::complex<double>(re.GetAsDouble(i), im.GetAsDouble(i)));
    }
    return out;
  }

  absl::StatusOr<Literal> EvalComplex(const HloInstruction& instr, Operands ops) {
    using namespace interpreter_internal;  // NOLINT: kernels
    const HloOpcode opcode = instr.opcode();
    if (opcode == HloOpcode::kFft) return EvalFft(instr, *ops[0]);
    if (IsComplexKernelOpcode(opcode)) return EvalComplexElementwise(instr, ops);
    if (opcode == HloOpcode::kCholesky) return EvalCholesky(instr, *ops[0]);
    if (opcode == HloOpcode::kTriangularSolve) return EvalTriangularSolve(instr, *ops[0], *ops[1]);
    const bool complex_result = instr.shape().IsArray() && IsComplex(instr.shape().element_type());
    if (complex_result && RearrangesElementsOnly(opcode)) {
      std::vector<Literal> re, im;
      for (const Literal* op : ops) {
        re.push_back(ComplexPart(*op, false));
        im.push_back(ComplexPart(*op, true));
      }
      std::vector<const Literal*> re_ops, im_ops;
      for (size_t i = 0; i < ops.size(); ++i) {
        re_ops.push_back(&re[i]);
        im_ops.push_back(&im[i]);
      }
      AOT_ASSIGN_OR_RETURN(Literal re_out, EvalAsComponent(instr, re_ops));
      AOT_ASSIGN_OR_RETURN(Literal im_out, EvalAsComponent(instr, im_ops));
      return JoinComplex(instr, re_out, im_out);
    }
    switch (opcode) {
      case HloOpcode::kDot:
      case HloOpcode::kConvolution: {
        // (a + bi)(c + di) = (ac - bd) + (ad + bc)i, term by term.
        if (!complex_result || !IsComplex(ops[0]->shape().element_type()) ||
            !IsComplex(ops[1]->shape().element_type())) {
          break;
        }
        const Literal a = ComplexPart(*ops[0], false), b = ComplexPart(*ops[0], true);
        const Literal c = ComplexPart(*ops[1], false), d = ComplexPart(*ops[1], true);
        AOT_ASSIGN_OR_RETURN(Literal ac, EvalAsComponent(instr, {&a, &c}));
        AOT_ASSIGN_OR_RETURN(Literal bd, EvalAsComponent(instr, {&b, &d}));
        AOT_ASSIGN_OR_RETURN(Literal ad, EvalAsComponent(instr, {&a, &d}));
        AOT_ASSIGN_OR_RETURN(Literal bc, EvalAsComponent(instr, {&b, &c}));
        Literal out(instr.shape());
        for (int64_t i = 0; i < out.element_count(); ++i) {
          out.SetFromComplex(i, std::complex<double>(ac.GetAsDouble(i) - bd.GetAsDouble(i),
                                                     ad.GetAsDouble(i) + bc.GetAsDouble(i)));
        }
        return out;
      }
      case HloOpcode::kIota:
        // The real iota, imaginary parts 0 (JAX builds complex identity
        // masks from one).
        if (complex_result) {
          AOT_ASSIGN_OR_RETURN(Literal re_out, EvalAsComponent(instr, {}));
          return JoinComplex(instr, re_out, Literal(re_out.shape()));
        }
        break;
      case HloOpcode::kReduce:
        if (ops.size() == 2 && instr.called_computations().size() == 1 &&
            AddsItsTwoParameters(instr.called_computations()[0])) {
          return EvalComplexAddReduce(instr, *ops[0], *ops[1]);
        }
        break;
      case HloOpcode::kScatter:
        if (complex_result && ops.size() == 3 && instr.called_computations().size() == 1 &&
            AddsItsTwoParameters(instr.called_computations()[0])) {
          return EvalComplexScatterAdd(instr, ops);
        }
        break;
      default:
        break;
    }
    // Any other computation is called element by element on complex
    // scalars (its complex arithmetic evaluated by EvalComplex).
    if (CallsPerElement(opcode)) return EvalPerElementCall(instr, ops);
    return absl::UnimplementedError(absl::StrCat("opcode '", HloOpcodeString(opcode), "' on ",
                                                 instr.shape().ToString(false),
                                                 " or its operands is not supported by the "
                                                 "interpreter for complex element types"));
  }

  // A scatter that adds complex values: the same scatter of each part with
  // a real add (a sum of complex values is the sums of their parts).
  absl::StatusOr<Literal> EvalComplexScatterAdd(const HloInstruction& instr, Operands ops) {
    const PrimitiveType part = ComplexComponentType(instr.shape().element_type());
    // Kept as long as the evaluator (plans are cached by computation).
    std::unique_ptr<HloComputation>& add = part_adds_[part];
    if (add == nullptr) {
      add = std::make_unique<HloComputation>(absl::StrCat("add_", PrimitiveTypeName(part)));
      HloInstruction* a =
          add->AddInstruction(HloInstruction::CreateParameter(0, Shape::Scalar(part), "a"));
      HloInstruction* b =
          add->AddInstruction(HloInstruction::CreateParameter(1, Shape::Scalar(part), "b"));
      add->set_root_instruction(add->AddInstruction(
          HloInstruction::Create(HloOpcode::kAdd, Shape::Scalar(part), {a, b})));
    }
    Shape shape = instr.shape();
    shape.set_element_type(part);
    std::unique_ptr<HloInstruction> like = HloInstruction::Create(instr.opcode(), shape, {});
    like->set_name(instr.name());
    *like->mutable_attrs() = instr.attrs();
    *like->mutable_called_computations() = {add.get()};
    std::vector<Literal> parts;
    for (bool imag : {false, true}) {
      const Literal operand = ComplexPart(*ops[0], imag);
      const Literal updates = ComplexPart(*ops[2], imag);
      AOT_ASSIGN_OR_RETURN(Literal p, EvalInstruction(*like, {&operand, ops[1], &updates}));
      parts.push_back(std::move(p));
    }
    return JoinComplex(instr, parts[0], parts[1]);
  }

  // async-start: ((operands), the wrapped computation's result, context),
  // the context zero (nothing is in flight in the interpreter).
  absl::StatusOr<Literal> EvalAsyncStart(const HloInstruction& instr, Operands ops) {
    const Shape& shape = instr.shape();
    if (instr.called_computations().size() != 1 || instr.called_computations()[0] == nullptr ||
        !shape.IsTuple() || shape.tuple_shapes().size() < 2) {
      return absl::InvalidArgumentError(
          "async-start needs a wrapped computation and a ((operands), result, ...) shape");
    }
    AOT_ASSIGN_OR_RETURN(Literal result, Call(*instr.called_computations()[0], ops));
    std::vector<Literal> operands;
    for (const Literal* op : ops) operands.push_back(*op);
    std::vector<Literal> elements;
    elements.push_back(Literal::Tuple(std::move(operands)));
    elements.push_back(std::move(result));
    for (size_t i = 2; i < shape.tuple_shapes().size(); ++i) {
      elements.emplace_back(shape.tuple_shapes(i));
    }
    return Literal::Tuple(std::move(elements));
  }

  absl::StatusOr<Literal> EvalWhile(const HloInstruction& instr, const Literal& init) {
    if (instr.called_computations().size() != 2 || instr.while_condition() == nullptr ||
        instr.while_body() == nullptr) {
      return absl::InvalidArgumentError("while needs a condition and a body");
    }
    const HloComputation& condition = *instr.while_condition();
    const HloComputation& body = *instr.while_body();
    Literal state = init;
    for (int64_t iteration = 0;; ++iteration) {
      const Literal* arg = &state;
      AOT_ASSIGN_OR_RETURN(auto keep_going, Call(condition, absl::MakeConstSpan(&arg, 1)));
      if (!keep_going.shape().IsArray() || keep_going.shape().element_type() != PRED ||
          keep_going.element_count() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("condition '", condition.name(), "' returned ",
                         keep_going.shape().ToString(false), ", expected pred[]"));
      }
      if (!keep_going.Get<bool>(0)) break;
      auto next = Call(body, absl::MakeConstSpan(&arg, 1));
      if (!next.ok()) {
        return absl::Status(next.status().code(),
                            absl::StrCat("iteration ", iteration, ": ", next.status().message()));
      }
      state = *std::move(next);
    }
    return state;
  }

  absl::StatusOr<Literal> EvalConditional(const HloInstruction& instr, Operands ops) {
    const auto& branches = instr.called_computations();
    if (branches.empty() || ops.size() != branches.size() + 1) {
      return absl::InvalidArgumentError(absl::StrCat("conditional with ", branches.size(),
                                                     " branches needs ", branches.size() + 1,
                                                     " operands, got ", ops.size()));
    }
    const Literal& selector = *ops[0];
    if (!selector.shape().IsArray() || selector.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("branch selector must be a scalar, got ", selector.shape().ToString(false)));
    }
    int64_t branch;
    if (selector.shape().element_type() == PRED) {
      if (branches.size() != 2) {
        return absl::InvalidArgumentError("a pred-selected conditional needs exactly 2 branches");
      }
      branch = selector.Get<bool>(0) ? 0 : 1;
    } else if (IsInteger(selector.shape().element_type())) {
      int64_t index = interpreter_internal::ReadIndex(selector, 0);
      const int64_t n = static_cast<int64_t>(branches.size());
      branch = (index < 0 || index >= n) ? n - 1 : index;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "branch selector must be pred or an integer, got ", selector.shape().ToString(false)));
    }
    if (branches[branch] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("branch ", branch, " is missing"));
    }
    return Call(*branches[branch], ops.subspan(branch + 1, 1));
  }

  // A custom call whose reference computes complex values itself.
  bool ReferenceTakesComplex(const HloInstruction& instr) const {
    return instr.opcode() == HloOpcode::kCustomCall && registry_ != nullptr &&
           registry_->TakesComplex(instr.attrs().custom_call_target);
  }

  absl::StatusOr<Literal> EvalCustomCall(const HloInstruction& instr, Operands ops) {
    if (registry_ == nullptr) {
      return absl::FailedPreconditionError("no custom-call registry");
    }
    AOT_ASSIGN_OR_RETURN(auto handler, registry_->Lookup(instr.attrs().custom_call_target));
    auto result = handler(ops, instr);
    AOT_RETURN_IF_ERROR(result);
    if (!result->shape().Compatible(instr.shape())) {
      return absl::InvalidArgumentError(
          absl::StrCat("custom-call target '", instr.attrs().custom_call_target, "' returned ",
                       result->shape().ToString(false), ", the instruction's shape is ",
                       instr.shape().ToString(false)));
    }
    return result;
  }

  int64_t me() const {
    return participant_.replica_id * participant_.num_partitions + participant_.partition_id;
  }

  // The group of `instr` this participant belongs to (cached).
  absl::StatusOr<const std::vector<int64_t>*> MyGroup(const HloInstruction& instr) {
    auto it = groups_.find(&instr);
    if (it != groups_.end()) return &it->second;
    AOT_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> groups,
                         CollectiveParticipantGroups(instr, participant_.replica_count,
                                                     participant_.num_partitions));
    for (std::vector<int64_t>& group : groups) {
      if (std::find(group.begin(), group.end(), me()) != group.end()) {
        return &groups_.emplace(&instr, std::move(group)).first->second;
      }
    }
    return absl::InternalError(absl::StrCat("participant ", me(), " is in no group"));
  }

  // Brings the operands to the group's meeting; every member's operands in
  // group order.
  absl::StatusOr<std::vector<CollectiveValues>> Exchange(const std::vector<int64_t>& group,
                                                         int64_t call, Operands ops) {
    auto mine = std::make_shared<std::vector<Literal>>();
    mine->reserve(ops.size());
    for (const Literal* op : ops) mine->push_back(*op);
    if (group.size() == 1) return std::vector<CollectiveValues>{std::move(mine)};
    if (participant_.rendezvous == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("a group of ", group.size(),
                       " participants, but this evaluation has one participant (use "
                       "EvaluateReplicated)"));
    }
    return participant_.rendezvous->Exchange(absl::StrCat(call, ":", group[0]), group, me(),
                                             CollectiveValues(std::move(mine)),
                                             absl::StrCat("collective call #", call));
  }

  absl::StatusOr<Literal> EvalCollective(const HloInstruction& instr, Operands ops) {
    using namespace interpreter_internal;  // NOLINT: kernels
    const HloOpcode opcode = instr.opcode();
    if (IsAsyncCollectiveDone(opcode)) {
      if (ops.size() != 1) return absl::InvalidArgumentError("expected 1 operand");
      if (opcode == HloOpcode::kAllReduceDone) return *ops[0];
      if (!ops[0]->shape().IsTuple() || ops[0]->tuple_elements().size() < 2) {
        return absl::InvalidArgumentError(absl::StrCat(
            "operand has shape ", ops[0]->shape().ToString(false), "; expected a -start tuple"));
      }
      return ops[0]->tuple_element(1);
    }
    if (ops.empty()) return absl::InvalidArgumentError("expected at least one operand");
    const int64_t call = collective_calls_++;
    AOT_ASSIGN_OR_RETURN(const std::vector<int64_t>* group, MyGroup(instr));
    AOT_ASSIGN_OR_RETURN(std::vector<CollectiveValues> values, Exchange(*group, call, ops));
    std::vector<const std::vector<Literal>*> members;
    for (const CollectiveValues& v : values) members.push_back(v.get());
    const int64_t rank = std::find(group->begin(), group->end(), me()) - group->begin();
    if (opcode == HloOpcode::kCollectivePermute || opcode == HloOpcode::kCollectivePermuteStart) {
      AOT_ASSIGN_OR_RETURN(auto pairs, CollectivePermutePairs(instr, participant_.replica_count,
                                                              participant_.num_partitions));
      std::optional<int64_t> source_rank;
      for (const auto& [source, target] : pairs) {
        if (target != me()) continue;
        auto it = std::find(group->begin(), group->end(), source);
        if (it == group->end()) {
          return absl::InternalError(absl::StrCat("source ", source, " is not in the group"));
        }
        source_rank = it - group->begin();
      }
      AOT_ASSIGN_OR_RETURN(Literal received, EvalCollectivePermute(members, rank, source_rank));
      if (opcode == HloOpcode::kCollectivePermute) return received;
      std::vector<Literal> parts;
      parts.push_back(*ops[0]);
      parts.push_back(std::move(received));
      parts.push_back(Literal(Shape::Scalar(U32)));
      parts.push_back(Literal(Shape::Scalar(U32)));
      return Literal::Tuple(std::move(parts));
    }
    AOT_ASSIGN_OR_RETURN(Literal result, EvalGroupCollective(instr, members, rank, *this));
    if (opcode != HloOpcode::kAllGatherStart) return result;
    std::vector<Literal> operands;
    for (const Literal* op : ops) operands.push_back(*op);
    std::vector<Literal> parts;
    parts.push_back(operands.size() == 1 ? std::move(operands[0])
                                         : Literal::Tuple(std::move(operands)));
    parts.push_back(std::move(result));
    return Literal::Tuple(std::move(parts));
  }

  const CustomCallRegistry* registry_;
  absl::flat_hash_map<const HloComputation*, std::unique_ptr<Plan>> plans_;
  // Real add computations for complex scatter-adds, by component type.
  absl::flat_hash_map<PrimitiveType, std::unique_ptr<HloComputation>> part_adds_;
  // rng's and rng-get-and-update-state's state: kept across evaluations,
  // as a loaded executable keeps it across runs.
  interpreter_internal::RngState rng_state_ = {0, 0};
  // The state each computation under evaluation took for its rng draws.
  struct RngDraws {
    const Plan* plan;
    interpreter_internal::RngState taken;
  };
  std::vector<RngDraws> rng_draws_;
  int depth_ = 0;
  CollectiveParticipant participant_;
  // Collective calls made since the evaluation started (the rendezvous key).
  int64_t collective_calls_ = 0;
  absl::flat_hash_map<const HloInstruction*, std::vector<int64_t>> groups_;
};

HloEvaluator::HloEvaluator(const CustomCallRegistry* registry)
    : impl_(std::make_unique<Impl>(registry)) {}

HloEvaluator::~HloEvaluator() = default;

absl::StatusOr<Literal> HloEvaluator::Evaluate(const HloModule& module,
                                               absl::Span<const Literal> arguments) {
  const HloComputation* entry = module.entry_computation();
  if (entry == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("module '", module.name(), "' has no entry computation"));
  }
  const CollectiveParticipant& participant = impl_->participant();
  const int64_t participants = module.config().replica_count * module.config().num_partitions;
  if (participant.rendezvous == nullptr && participants > 1) {
    return absl::FailedPreconditionError(
        absl::StrCat("module '", module.name(), "' runs on ", module.config().replica_count,
                     " replica(s) x ", module.config().num_partitions,
                     " partition(s); evaluate it with EvaluateReplicated (compiler/interpreter/"
                     "replicated_evaluator.h), one argument list per participant"));
  }
  std::vector<const Literal*> pointers;
  for (const Literal& a : arguments) pointers.push_back(&a);
  impl_->ClearCache();
  AOT_RETURN_IF_ERROR(CheckArguments(*entry, pointers, "entry computation"));
  return impl_->Run(*entry, pointers);
}

void HloEvaluator::set_participant(const CollectiveParticipant& participant) {
  impl_->set_participant(participant);
}

absl::StatusOr<Literal> HloEvaluator::EvaluateComputation(
    const HloComputation& computation, absl::Span<const Literal* const> arguments) {
  impl_->ClearCache();
  for (const Literal* a : arguments) {
    if (a == nullptr) return absl::InvalidArgumentError("null argument");
  }
  AOT_RETURN_IF_ERROR(CheckArguments(computation, arguments, "computation"));
  return impl_->Run(computation, arguments);
}

}  // namespace aot
