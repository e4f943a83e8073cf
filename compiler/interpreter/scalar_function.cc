// ScalarFunction: per-element calls of scalar computations, compiled into a
// register program when the computation is straight-line elementwise code.

#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {

namespace {

using Reg = uint64_t;

struct Step {
  void (*fn)(const Step&, Reg*) = nullptr;
  int32_t out = 0;
  int32_t a = 0;
  int32_t b = 0;
  int32_t c = 0;
  ComparisonDirection direction = ComparisonDirection::kEq;
  bool total_order = false;
  int exponent_bits = 0;
  int mantissa_bits = 0;
};

template <typename T>
inline T Ld(const Reg* r, int32_t i) {
  T v;
  std::memcpy(static_cast<void*>(&v), &r[i], sizeof(T));
  return v;
}
template <typename T>
inline void St(Reg* r, int32_t i, T v) {
  std::memcpy(&r[i], &v, sizeof(T));
}

bool IsScalarOf(const Shape& shape, PrimitiveType type) {
  return shape.IsArray() && shape.rank() == 0 && shape.element_type() == type;
}
bool IsScalar(const Shape& shape) { return shape.IsArray() && shape.rank() == 0; }

}  // namespace

class ScalarFunction::Program {
 public:
  // nullptr when the computation is not straight-line scalar code of the
  // given signature.
  static std::unique_ptr<Program> Compile(const HloComputation& computation,
                                          absl::Span<const PrimitiveType> param_types,
                                          absl::Span<const PrimitiveType> result_types) {
    auto program = std::unique_ptr<Program>(new Program());
    if (!program->Build(computation, param_types, result_types)) return nullptr;
    return program;
  }

  void Run(const void* const* args) {
    std::memcpy(regs_.data(), init_.data(), init_.size() * sizeof(Reg));
    for (size_t i = 0; i < param_regs_.size(); ++i) {
      std::memcpy(&regs_[param_regs_[i]], args[i], param_widths_[i]);
    }
    Reg* r = regs_.data();
    for (const Step& s : steps_) s.fn(s, r);
  }
  const void* result(size_t i) const { return &regs_[result_regs_[i]]; }

 private:
  Program() = default;

  int32_t NewReg() {
    init_.push_back(0);
    return static_cast<int32_t>(init_.size() - 1);
  }

  bool Build(const HloComputation& computation, absl::Span<const PrimitiveType> param_types,
             absl::Span<const PrimitiveType> result_types) {
    const HloInstruction* root = computation.root_instruction();
    if (root == nullptr ||
        computation.num_parameters() != static_cast<int64_t>(param_types.size())) {
      return false;
    }
    param_regs_.assign(param_types.size(), -1);
    for (size_t i = 0; i < param_types.size(); ++i) {
      param_widths_.push_back(ByteWidth(param_types[i]));
    }
    absl::flat_hash_map<const HloInstruction*, int32_t> reg_of;
    auto operand_reg = [&](const HloInstruction& instr, int64_t i, int32_t* reg) {
      const HloInstruction* op = instr.operand(i);
      auto it = op == nullptr ? reg_of.end() : reg_of.find(op);
      if (it == reg_of.end()) return false;
      *reg = it->second;
      return true;
    };
    for (const HloInstruction* instr : computation.MakeInstructionPostOrder()) {
      // Narrow values compute widened, one rounding per instruction
      // (HloEvaluator's EvalWidened): the general path.
      if (HasNarrowLeaf(instr->shape())) return false;
      const HloOpcode op = instr->opcode();
      const int arity = HloOpcodeArity(op);
      if (arity >= 0 && instr->operand_count() != arity) return false;
      if (op == HloOpcode::kTuple) {
        if (instr != root) return false;
        for (int64_t i = 0; i < instr->operand_count(); ++i) {
          int32_t reg;
          if (!operand_reg(*instr, i, &reg) || !IsScalar(instr->operand(i)->shape())) {
            return false;
          }
          result_regs_.push_back(reg);
          result_type_list_.push_back(instr->operand(i)->shape().element_type());
        }
        continue;
      }
      if (!IsScalar(instr->shape())) return false;
      const PrimitiveType type = instr->shape().element_type();
      std::vector<int32_t> in(instr->operand_count());
      for (int64_t i = 0; i < instr->operand_count(); ++i) {
        if (!operand_reg(*instr, i, &in[i]) || !IsScalar(instr->operand(i)->shape())) {
          return false;
        }
      }
      auto operand_type = [&](int64_t i) { return instr->operand(i)->shape().element_type(); };
      Step step;
      switch (op) {
        case HloOpcode::kParameter: {
          const int64_t n = instr->parameter_number();
          if (n < 0 || n >= static_cast<int64_t>(param_types.size()) || param_regs_[n] != -1 ||
              type != param_types[n]) {
            return false;
          }
          reg_of[instr] = param_regs_[n] = NewReg();
          continue;
        }
        case HloOpcode::kConstant: {
          if (!instr->attrs().literal.has_value() || !IsScalarOf(instr->literal().shape(), type)) {
            return false;
          }
          const int32_t reg = NewReg();
          std::memcpy(&init_[reg], instr->literal().raw().data(), ByteWidth(type));
          reg_of[instr] = reg;
          continue;
        }
        case HloOpcode::kCopy:
        case HloOpcode::kReshape:
        case HloOpcode::kBitcast:
        case HloOpcode::kBroadcast:
          if (operand_type(0) != type) return false;
          reg_of[instr] = in[0];
          continue;
        case HloOpcode::kBitcastConvert:
          if (ByteWidth(operand_type(0)) != ByteWidth(type) || type == PRED ||
              operand_type(0) == PRED) {
            return false;
          }
          reg_of[instr] = in[0];
          continue;
        case HloOpcode::kCompare: {
          const PrimitiveType t = operand_type(0);
          if (type != PRED || operand_type(1) != t ||
              !instr->attrs().comparison_direction.has_value()) {
            return false;
          }
          auto total = UsesTotalOrder(instr->attrs().comparison_type, t);
          if (!total.ok()) return false;
          step.direction = *instr->attrs().comparison_direction;
          step.total_order = *total;
          ArrayTypeSwitch(t, [&](auto tag) {
            using T = typename decltype(tag)::type;
            step.fn = [](const Step& s, Reg* r) {
              St<bool>(r, s.out,
                       CompareValues<T>(s.direction, s.total_order, Ld<T>(r, s.a), Ld<T>(r, s.b)));
            };
          });
          break;
        }
        case HloOpcode::kSelect:
          if (operand_type(0) != PRED || operand_type(1) != type || operand_type(2) != type) {
            return false;
          }
          step.fn = [](const Step& s, Reg* r) { r[s.out] = Ld<bool>(r, s.a) ? r[s.b] : r[s.c]; };
          break;
        case HloOpcode::kClamp:
          if (operand_type(0) != type || operand_type(1) != type || operand_type(2) != type) {
            return false;
          }
          ArrayTypeSwitch(type, [&](auto tag) {
            using T = typename decltype(tag)::type;
            step.fn = [](const Step& s, Reg* r) {
              St<T>(r, s.out,
                    OpMinimum<T>(OpMaximum<T>(Ld<T>(r, s.b), Ld<T>(r, s.a)), Ld<T>(r, s.c)));
            };
          });
          break;
        case HloOpcode::kConvert:
          ArrayTypeSwitch(operand_type(0), [&](auto from_tag) {
            using From = typename decltype(from_tag)::type;
            ArrayTypeSwitch(type, [&](auto to_tag) {
              using To = typename decltype(to_tag)::type;
              step.fn = [](const Step& s, Reg* r) {
                St<To>(r, s.out, ConvertElement<To, From>(Ld<From>(r, s.a)));
              };
            });
          });
          break;
        case HloOpcode::kIsFinite:
          if (type != PRED || !IsFloatingPoint(operand_type(0))) return false;
          ArrayTypeSwitch(operand_type(0), [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (kIsFloat<T>) {
              step.fn = [](const Step& s, Reg* r) {
                St<bool>(r, s.out, std::isfinite(Up(Ld<T>(r, s.a))));
              };
            }
          });
          break;
        case HloOpcode::kReducePrecision:
          if (!IsFloatingPoint(type) || operand_type(0) != type ||
              instr->attrs().exponent_bits < 1 || instr->attrs().mantissa_bits < 0) {
            return false;
          }
          step.exponent_bits = instr->attrs().exponent_bits;
          step.mantissa_bits = instr->attrs().mantissa_bits;
          ArrayTypeSwitch(type, [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (kIsFloat<T>) {
              step.fn = [](const Step& s, Reg* r) {
                St<T>(r, s.out,
                      ReducePrecisionElement(Ld<T>(r, s.a), s.exponent_bits, s.mantissa_bits));
              };
            }
          });
          break;
        default:
          if (IsElementwiseUnary(op)) {
            if (operand_type(0) != type) return false;
            ArrayTypeSwitch(type, [&](auto tag) {
              using T = typename decltype(tag)::type;
              VisitUnaryOp<T>(op, [&](auto fn) {
                using Fn = decltype(fn);
                step.fn = [](const Step& s, Reg* r) { St<T>(r, s.out, Fn{}(Ld<T>(r, s.a))); };
              });
            });
          } else if (IsElementwiseBinary(op)) {
            if (operand_type(0) != type || operand_type(1) != type ||
                !CheckBinaryOpType(op, type).ok()) {
              return false;
            }
            ArrayTypeSwitch(type, [&](auto tag) {
              using T = typename decltype(tag)::type;
              VisitBinaryOp<T>(op, [&](auto fn) {
                using Fn = decltype(fn);
                step.fn = [](const Step& s, Reg* r) {
                  St<T>(r, s.out, Fn{}(Ld<T>(r, s.a), Ld<T>(r, s.b)));
                };
              });
            });
          }
          break;
      }
      if (step.fn == nullptr) return false;
      step.a = in.size() > 0 ? in[0] : 0;
      step.b = in.size() > 1 ? in[1] : 0;
      step.c = in.size() > 2 ? in[2] : 0;
      step.out = NewReg();
      reg_of[instr] = step.out;
      steps_.push_back(step);
    }
    for (int32_t r : param_regs_) {
      if (r < 0) return false;
    }
    if (root->opcode() != HloOpcode::kTuple) {
      auto it = reg_of.find(root);
      if (it == reg_of.end()) return false;
      result_regs_.push_back(it->second);
      result_type_list_.push_back(root->shape().element_type());
    }
    if (result_type_list_.size() != result_types.size() ||
        (result_types.size() == 1 && root->opcode() == HloOpcode::kTuple)) {
      return false;
    }
    for (size_t i = 0; i < result_types.size(); ++i) {
      if (result_type_list_[i] != result_types[i]) return false;
    }
    regs_.assign(init_.size(), 0);
    return true;
  }

  std::vector<Step> steps_;
  std::vector<Reg> init_;
  std::vector<Reg> regs_;
  std::vector<int32_t> param_regs_;
  std::vector<int64_t> param_widths_;
  std::vector<int32_t> result_regs_;
  std::vector<PrimitiveType> result_type_list_;
};

ScalarFunction::~ScalarFunction() = default;

absl::StatusOr<std::unique_ptr<ScalarFunction>> ScalarFunction::Create(
    const HloComputation* computation, std::vector<PrimitiveType> param_types,
    std::vector<PrimitiveType> result_types, ComputationCaller& caller, absl::string_view role) {
  if (computation == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("missing ", role, " computation"));
  }
  if (computation->num_parameters() != static_cast<int64_t>(param_types.size())) {
    return absl::InvalidArgumentError(absl::StrCat(role, " '", computation->name(), "' has ",
                                                   computation->num_parameters(),
                                                   " parameters, expected ", param_types.size()));
  }
  auto f = std::unique_ptr<ScalarFunction>(new ScalarFunction());
  f->computation_ = computation;
  f->param_types_ = std::move(param_types);
  f->result_types_ = std::move(result_types);
  f->caller_ = &caller;
  f->program_ = Program::Compile(*computation, f->param_types_, f->result_types_);
  if (f->program_ == nullptr) {
    f->args_ = std::make_unique<ScalarArgs>(f->param_types_);
    f->results_.assign(f->result_types_.size(), nullptr);
  }
  return f;
}

absl::Status ScalarFunction::Call(const void* const* args) {
  if (program_ != nullptr) {
    program_->Run(args);
    return absl::OkStatus();
  }
  for (size_t i = 0; i < param_types_.size(); ++i) {
    std::memcpy(args_->mutable_data(i), args[i], ByteWidth(param_types_[i]));
  }
  AOT_ASSIGN_OR_RETURN(auto value, caller_->Call(*computation_, args_->span()));
  last_ = std::move(value);
  const size_t n = result_types_.size();
  for (size_t i = 0; i < n; ++i) {
    AOT_ASSIGN_OR_RETURN(auto part, ScalarResultPart(last_, i, n, result_types_[i]));
    results_[i] = part->raw().data();
  }
  return absl::OkStatus();
}

const void* ScalarFunction::result(size_t i) const {
  return program_ != nullptr ? program_->result(i) : results_[i];
}

}  // namespace interpreter_internal
}  // namespace aot
