// Elementwise kernels of the HLO evaluator: unary and binary arithmetic,
// compare, select, clamp, convert, bitcast-convert, is-finite,
// reduce-precision.

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {

namespace {

enum TypeClass : int {
  kPred = 1,
  kInts = 2,
  kFloats = 4,
  kNumeric = kInts | kFloats,
  kLogical = kPred | kInts,
  kAll = kPred | kInts | kFloats,
};

int ClassOf(PrimitiveType type) {
  if (type == PRED) return kPred;
  if (IsInteger(type)) return kInts;
  if (IsFloatingPoint(type)) return kFloats;
  return 0;
}

int BinaryClasses(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAdd:
    case HloOpcode::kSubtract:
    case HloOpcode::kMultiply:
    case HloOpcode::kDivide:
    case HloOpcode::kRemainder:
    case HloOpcode::kPower:
      return kNumeric;
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
      return kAll;
    case HloOpcode::kAtan2:
      return kFloats;
    case HloOpcode::kAnd:
    case HloOpcode::kOr:
    case HloOpcode::kXor:
      return kLogical;
    case HloOpcode::kShiftLeft:
    case HloOpcode::kShiftRightLogical:
    case HloOpcode::kShiftRightArithmetic:
    case HloOpcode::kMulhi:
      return kInts;
    default:
      return 0;
  }
}

int UnaryClasses(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAbs:
    case HloOpcode::kNegate:
    case HloOpcode::kSign:
      return kNumeric;
    case HloOpcode::kNot:
      return kLogical;
    case HloOpcode::kClz:
    case HloOpcode::kPopulationCount:
      return kInts;
    case HloOpcode::kCopy:
      return kAll;
    case HloOpcode::kAcos:
    case HloOpcode::kAcosh:
    case HloOpcode::kAsin:
    case HloOpcode::kAsinh:
    case HloOpcode::kAtan:
    case HloOpcode::kAtanh:
    case HloOpcode::kCosh:
    case HloOpcode::kSinh:
    case HloOpcode::kCbrt:
    case HloOpcode::kCeil:
    case HloOpcode::kCos:
    case HloOpcode::kErf:
    case HloOpcode::kExp:
    case HloOpcode::kExpm1:
    case HloOpcode::kFloor:
    case HloOpcode::kLog:
    case HloOpcode::kLog1p:
    case HloOpcode::kLogistic:
    case HloOpcode::kRoundNearestAfz:
    case HloOpcode::kRoundNearestEven:
    case HloOpcode::kRsqrt:
    case HloOpcode::kSin:
    case HloOpcode::kSqrt:
    case HloOpcode::kTan:
    case HloOpcode::kTanh:
    case HloOpcode::kReducePrecision:
      return kFloats;
    default:
      return 0;
  }
}

absl::Status TypeError(HloOpcode opcode, PrimitiveType type) {
  return absl::InvalidArgumentError(absl::StrCat(
      HloOpcodeString(opcode), " is not defined for element type ", PrimitiveTypeName(type)));
}

// Result literal of the instruction's array shape, after checking it has
// dims `dims` and element type `type`.
absl::StatusOr<Literal> MakeResult(const HloInstruction& instr, absl::Span<const int64_t> dims,
                                   PrimitiveType type) {
  const Shape& shape = instr.shape();
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("result shape ", shape.ToString(), " is not an array"));
  }
  if (shape.element_type() != type ||
      !std::equal(shape.dimensions().begin(), shape.dimensions().end(), dims.begin(), dims.end())) {
    return absl::InvalidArgumentError(
        absl::StrCat("result shape ", shape.ToString(false), " does not match the operands (",
                     PrimitiveTypeName(type), SpanToString(dims), ")"));
  }
  return Literal(shape);
}

template <typename T>
absl::Status UnaryTyped(const HloInstruction& instr, const Literal& x, Literal& out) {
  const HloOpcode op = instr.opcode();
  const T* in = x.data<T>().data();
  T* o = out.data<T>().data();
  const int64_t n = x.element_count();
  if (op == HloOpcode::kReducePrecision) {
    if constexpr (kIsFloat<T>) {
      const int e = instr.attrs().exponent_bits;
      const int m = instr.attrs().mantissa_bits;
      if (e < 1 || m < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("reduce-precision needs exponent_bits >= 1 and mantissa_bits >= 0, got ",
                         e, " and ", m));
      }
      for (int64_t i = 0; i < n; ++i) o[i] = ReducePrecisionElement(in[i], e, m);
      return absl::OkStatus();
    }
  } else if (VisitUnaryOp<T>(op, [&](auto fn) {
               for (int64_t i = 0; i < n; ++i) o[i] = fn(in[i]);
             })) {
    return absl::OkStatus();
  }
  return TypeError(op, x.shape().element_type());
}

template <typename T>
absl::Status BinaryTyped(HloOpcode op, const Literal& a, const Literal& b, Literal& out) {
  const T* pa = a.data<T>().data();
  const T* pb = b.data<T>().data();
  T* po = out.data<T>().data();
  const int64_t n = out.element_count();
  bool known = VisitBinaryOp<T>(op, [&](auto fn) {
    for (int64_t i = 0; i < n; ++i) po[i] = fn(pa[i], pb[i]);
  });
  if (!known) return TypeError(op, a.shape().element_type());
  return absl::OkStatus();
}

absl::Status ExpectSameType(const Literal& a, const Literal& b, absl::string_view what) {
  if (a.shape().element_type() != b.shape().element_type()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " element types differ: ", PrimitiveTypeName(a.shape().element_type()),
                     " vs ", PrimitiveTypeName(b.shape().element_type())));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckBinaryOpType(HloOpcode opcode, PrimitiveType type) {
  if ((BinaryClasses(opcode) & ClassOf(type)) == 0) {
    return TypeError(opcode, type);
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> UsesTotalOrder(absl::string_view comparison_type, PrimitiveType type) {
  if (comparison_type.empty()) return false;
  if (comparison_type == "TOTALORDER") {
    if (!IsFloatingPoint(type)) {
      return absl::InvalidArgumentError(
          absl::StrCat("comparison type TOTALORDER needs floats, got ", PrimitiveTypeName(type)));
    }
    return true;
  }
  if (comparison_type == "FLOAT") {
    if (!IsFloatingPoint(type)) {
      return absl::InvalidArgumentError(
          absl::StrCat("comparison type FLOAT needs floats, got ", PrimitiveTypeName(type)));
    }
    return false;
  }
  if (comparison_type == "SIGNED" || comparison_type == "UNSIGNED") {
    if (IsFloatingPoint(type)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "comparison type ", comparison_type, " does not apply to ", PrimitiveTypeName(type)));
    }
    return false;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown comparison type '", comparison_type, "'"));
}

absl::StatusOr<Literal> EvalUnary(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
  const PrimitiveType type = x.shape().element_type();
  if ((UnaryClasses(instr.opcode()) & ClassOf(type)) == 0) {
    return TypeError(instr.opcode(), type);
  }
  auto out = MakeResult(instr, x.shape().dimensions(), type);
  AOT_RETURN_IF_ERROR(out);
  if (instr.opcode() == HloOpcode::kCopy) {
    if (!x.raw().empty()) std::memcpy(out->raw_data(), x.raw().data(), x.raw().size());
    return out;
  }
  absl::Status s = ArrayTypeSwitch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return UnaryTyped<T>(instr, x, *out);
  });
  AOT_RETURN_IF_ERROR(s);
  return out;
}

absl::StatusOr<Literal> EvalBinary(const HloInstruction& instr, const Literal& a,
                                   const Literal& b) {
  AOT_RETURN_IF_ERROR(ExpectArray(a, "lhs"));
  AOT_RETURN_IF_ERROR(ExpectArray(b, "rhs"));
  AOT_RETURN_IF_ERROR(ExpectSameType(a, b, "operand"));
  AOT_RETURN_IF_ERROR(ExpectDims(b.shape(), a.shape().dimensions(), "rhs"));
  const PrimitiveType type = a.shape().element_type();
  AOT_RETURN_IF_ERROR(CheckBinaryOpType(instr.opcode(), type));
  auto out = MakeResult(instr, a.shape().dimensions(), type);
  AOT_RETURN_IF_ERROR(out);
  absl::Status s = ArrayTypeSwitch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return BinaryTyped<T>(instr.opcode(), a, b, *out);
  });
  AOT_RETURN_IF_ERROR(s);
  return out;
}

absl::StatusOr<Literal> EvalCompare(const HloInstruction& instr, const Literal& a,
                                    const Literal& b) {
  AOT_RETURN_IF_ERROR(ExpectArray(a, "lhs"));
  AOT_RETURN_IF_ERROR(ExpectArray(b, "rhs"));
  AOT_RETURN_IF_ERROR(ExpectSameType(a, b, "operand"));
  AOT_RETURN_IF_ERROR(ExpectDims(b.shape(), a.shape().dimensions(), "rhs"));
  if (!instr.attrs().comparison_direction.has_value()) {
    return absl::InvalidArgumentError("compare has no direction");
  }
  const ComparisonDirection direction = *instr.attrs().comparison_direction;
  const PrimitiveType type = a.shape().element_type();
  AOT_ASSIGN_OR_RETURN(auto total, UsesTotalOrder(instr.attrs().comparison_type, type));
  auto out = MakeResult(instr, a.shape().dimensions(), PRED);
  AOT_RETURN_IF_ERROR(out);
  const int64_t n = a.element_count();
  bool* po = out->data<bool>().data();
  ArrayTypeSwitch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pa = a.data<T>().data();
    const T* pb = b.data<T>().data();
    for (int64_t i = 0; i < n; ++i) {
      po[i] = CompareValues<T>(direction, total, pa[i], pb[i]);
    }
  });
  return out;
}

absl::StatusOr<Literal> EvalSelect(const HloInstruction& instr, Operands ops) {
  const Literal& pred = *ops[0];
  const Literal& on_true = *ops[1];
  const Literal& on_false = *ops[2];
  AOT_RETURN_IF_ERROR(ExpectArray(pred, "predicate"));
  if (pred.shape().element_type() != PRED) {
    return absl::InvalidArgumentError(
        absl::StrCat("select predicate must be pred, got ", pred.shape().ToString(false)));
  }
  if (!on_true.shape().Compatible(on_false.shape())) {
    return absl::InvalidArgumentError(
        absl::StrCat("select branches differ: ", on_true.shape().ToString(false), " vs ",
                     on_false.shape().ToString(false)));
  }
  if (!on_true.shape().Compatible(instr.shape())) {
    return absl::InvalidArgumentError(absl::StrCat("result shape ", instr.shape().ToString(false),
                                                   " does not match the operands ",
                                                   on_true.shape().ToString(false)));
  }
  if (!on_true.shape().IsArray() || pred.shape().rank() == 0) {
    if (pred.element_count() != 1) {
      return absl::InvalidArgumentError("select of tuples needs a scalar predicate");
    }
    Literal out = pred.Get<bool>(0) ? on_true : on_false;
    return out;
  }
  AOT_RETURN_IF_ERROR(ExpectDims(pred.shape(), on_true.shape().dimensions(), "predicate"));
  Literal out(instr.shape());
  const int64_t n = out.element_count();
  const int64_t w = ByteWidth(out.shape().element_type());
  const bool* p = pred.data<bool>().data();
  for (int64_t i = 0; i < n; ++i) {
    const Literal& src = p[i] ? on_true : on_false;
    std::memcpy(out.raw_data() + i * w, src.raw().data() + i * w, w);
  }
  return out;
}

absl::StatusOr<Literal> EvalClamp(const HloInstruction& instr, Operands ops) {
  const Literal& lo = *ops[0];
  const Literal& x = *ops[1];
  const Literal& hi = *ops[2];
  for (const Literal* l : ops) {
    AOT_RETURN_IF_ERROR(ExpectArray(*l, "operand"));
    AOT_RETURN_IF_ERROR(ExpectSameType(*l, x, "clamp operand"));
  }
  for (const Literal* bound : {&lo, &hi}) {
    if (bound->shape().rank() != 0) {
      AOT_RETURN_IF_ERROR(ExpectDims(bound->shape(), x.shape().dimensions(), "clamp bound"));
    }
  }
  const PrimitiveType type = x.shape().element_type();
  auto out = MakeResult(instr, x.shape().dimensions(), type);
  AOT_RETURN_IF_ERROR(out);
  const int64_t n = x.element_count();
  const bool lo_scalar = lo.shape().rank() == 0;
  const bool hi_scalar = hi.shape().rank() == 0;
  ArrayTypeSwitch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pl = lo.data<T>().data();
    const T* px = x.data<T>().data();
    const T* ph = hi.data<T>().data();
    T* po = out->template data<T>().data();
    for (int64_t i = 0; i < n; ++i) {
      T l = pl[lo_scalar ? 0 : i];
      T h = ph[hi_scalar ? 0 : i];
      po[i] = OpMinimum<T>(OpMaximum<T>(px[i], l), h);
    }
  });
  return out;
}

Literal ConvertLiteral(const Literal& x, PrimitiveType type) {
  Literal out(Shape(type, x.shape().dimensions()));
  const int64_t n = x.element_count();
  const PrimitiveType from = x.shape().element_type();
  if (IsNarrowType(from) || IsNarrowType(type)) {
    // Element by element through the widest carrier of the source kind:
    // one rounding (floats), truncation with saturation (float to
    // integer), wrapping (integer to integer).
    for (int64_t i = 0; i < n; ++i) {
      if (IsFloatingPoint(from)) {
        out.SetFromDouble(i, x.GetAsDouble(i));
      } else if (IsUnsignedInteger(from) || from == PRED) {
        out.SetFromUint64(i, x.GetAsUint64(i));
      } else {
        out.SetFromInt64(i, x.GetAsInt64(i));
      }
    }
    return out;
  }
  ArrayTypeSwitch(x.shape().element_type(), [&](auto from_tag) {
    using From = typename decltype(from_tag)::type;
    ArrayTypeSwitch(type, [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      const From* in = x.data<From>().data();
      To* o = out.data<To>().data();
      for (int64_t i = 0; i < n; ++i) o[i] = ConvertElement<To, From>(in[i]);
    });
  });
  return out;
}

absl::StatusOr<Literal> EvalConvert(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
  if (!instr.shape().IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("result shape ", instr.shape().ToString(), " is not an array"));
  }
  auto out = MakeResult(instr, x.shape().dimensions(), instr.shape().element_type());
  AOT_RETURN_IF_ERROR(out);
  Literal converted = ConvertLiteral(x, instr.shape().element_type());
  if (!converted.raw().empty()) {
    std::memcpy(out->raw_data(), converted.raw().data(), converted.raw().size());
  }
  return out;
}

absl::StatusOr<Literal> EvalBitcastConvert(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
  const Shape& shape = instr.shape();
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("result shape ", shape.ToString(), " is not an array"));
  }
  if (x.shape().element_type() == PRED || shape.element_type() == PRED) {
    return absl::InvalidArgumentError("bitcast-convert from or to pred is not allowed");
  }
  const int64_t in_width = ByteWidth(x.shape().element_type());
  const int64_t out_width = ByteWidth(shape.element_type());
  // XLA: equal widths keep the dims; a narrower result adds a minor
  // dimension of in/out width; a wider result drops one of out/in width.
  std::vector<int64_t> expected = x.shape().dimensions();
  if (out_width < in_width) {
    expected.push_back(in_width / out_width);
  } else if (out_width > in_width) {
    if (expected.empty() || expected.back() != out_width / in_width) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bitcast-convert from ", x.shape().ToString(false), " to ", shape.ToString(false),
          " needs a minor dimension of size ", out_width / in_width));
    }
    expected.pop_back();
  }
  if (shape.dimensions() != expected || shape.ByteSize() != x.shape().ByteSize()) {
    return absl::InvalidArgumentError(absl::StrCat("bitcast-convert from ",
                                                   x.shape().ToString(false), " cannot produce ",
                                                   shape.ToString(false)));
  }
  Literal out(shape);
  if (!x.raw().empty()) std::memcpy(out.raw_data(), x.raw().data(), x.raw().size());
  return out;
}

absl::StatusOr<Literal> EvalIsFinite(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
  const PrimitiveType type = x.shape().element_type();
  if (!IsFloatingPoint(type)) return TypeError(instr.opcode(), type);
  auto out = MakeResult(instr, x.shape().dimensions(), PRED);
  AOT_RETURN_IF_ERROR(out);
  const int64_t n = x.element_count();
  bool* po = out->data<bool>().data();
  ArrayTypeSwitch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      const T* px = x.data<T>().data();
      for (int64_t i = 0; i < n; ++i) po[i] = std::isfinite(Up(px[i]));
    }
  });
  return out;
}

}  // namespace interpreter_internal
}  // namespace aot
