#include "compiler/verifier/shape_inference.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_opcode.h"
#include "compiler/hlo/shuffle.h"
#include "compiler/verifier/diagnostics.h"
#include "support/status_macros.h"

namespace aot {
namespace {

using verifier_internal::Invalid;
using verifier_internal::Str;

template <typename Container>
std::string Dims(const Container& dims) {
  return absl::StrCat("{", absl::StrJoin(dims, ","), "}");
}

std::vector<int64_t> ToVector(const google::protobuf::RepeatedField<int64_t>& field) {
  return std::vector<int64_t>(field.begin(), field.end());
}

// A dot's result dimensions: the batch dimensions (lhs order), then lhs's
// and rhs's free dimensions (neither batch nor contracting), each in order.
std::vector<int64_t> DotResultDimensions(const std::vector<int64_t>& lhs,
                                         const std::vector<int64_t>& rhs,
                                         const std::vector<int64_t>& lhs_batch,
                                         const std::vector<int64_t>& lhs_contracting,
                                         const std::vector<int64_t>& rhs_batch,
                                         const std::vector<int64_t>& rhs_contracting) {
  std::vector<int64_t> dims;
  for (int64_t b : lhs_batch) dims.push_back(lhs[b]);
  for (int64_t i = 0; i < static_cast<int64_t>(lhs.size()); ++i) {
    if (!absl::c_linear_search(lhs_batch, i) && !absl::c_linear_search(lhs_contracting, i)) {
      dims.push_back(lhs[i]);
    }
  }
  for (int64_t i = 0; i < static_cast<int64_t>(rhs.size()); ++i) {
    if (!absl::c_linear_search(rhs_batch, i) && !absl::c_linear_search(rhs_contracting, i)) {
      dims.push_back(rhs[i]);
    }
  }
  return dims;
}

Shape WithoutLayout(Shape shape) {
  shape.ClearLayout();
  return shape;
}

bool Contains(absl::Span<const int64_t> values, int64_t v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// Size arithmetic is done in 128 bits so that absurd attributes cannot
// overflow; results must fit in int64.
using Wide = __int128;

bool FitsInt64(Wide v) {
  return v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max();
}

std::string WideStr(Wide v) {
  return FitsInt64(v) ? absl::StrCat(static_cast<int64_t>(v)) : std::string("(out of range)");
}

// Elements of an array shape, or nullopt when the count overflows int64.
std::optional<int64_t> CheckedElementCount(const Shape& shape) {
  Wide n = 1;
  for (int64_t d : shape.dimensions()) {
    n *= d;
    if (!FitsInt64(n)) return std::nullopt;
  }
  return static_cast<int64_t>(n);
}

// Bits of one element as stored (pred counts as a byte).
int64_t BitWidth(PrimitiveType type) { return ByteWidth(type) * 8; }

// XLA's notion of a "higher precision" type between two types of the same
// class (both floating point or both integer).
PrimitiveType HigherPrecisionType(PrimitiveType a, PrimitiveType b) {
  if (BitWidth(a) != BitWidth(b)) return BitWidth(a) > BitWidth(b) ? a : b;
  // f16 has more significand bits than bf16; equal widths otherwise keep a.
  if ((a == BF16 && b == F16) || (a == F16 && b == BF16)) return F16;
  return a;
}

// The result element type of a dot or convolution: XLA's
// MaybeUpcast(HigherPrecisionElementType(lhs, rhs), declared type).
// A declared type that does not qualify is ignored (the inferred `from` is
// returned, so the verifier reports the mismatch).
PrimitiveType UpcastToDeclared(PrimitiveType from, PrimitiveType declared) {
  if (!IsArrayType(declared) || declared == from) return from;
  if (IsFloatingPoint(from)) return IsFloatingPoint(declared) ? declared : from;
  if (IsInteger(from)) {
    if (IsFloatingPoint(declared)) return declared;
    if (IsInteger(declared) && BitWidth(declared) >= BitWidth(from)) {
      return declared;
    }
  }
  return from;
}

// Checks that `dims` are distinct and within [0, rank).
absl::Status CheckDimensionList(absl::string_view what, absl::Span<const int64_t> dims,
                                int64_t rank, absl::string_view rank_of, bool must_be_sorted) {
  absl::flat_hash_set<int64_t> seen;
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = dims[i];
    if (d < 0 || d >= rank) {
      return Invalid(what, " ", Dims(dims), " has dimension ", d, " out of range [0, ", rank,
                     ") for ", rank_of);
    }
    if (!seen.insert(d).second) {
      return Invalid(what, " ", Dims(dims), " repeats dimension ", d);
    }
    if (must_be_sorted && i > 0 && dims[i - 1] > d) {
      return Invalid(what, " ", Dims(dims), " must be sorted");
    }
  }
  return absl::OkStatus();
}

// The batching dimensions of gather and scatter: `indices_batching` (of
// the indices, expanded with the index vector dimension) pairs one to one
// with `batching` (of the operand), never names the index vector dimension,
// and paired dimensions have equal sizes. `operand_kind` / `indices_kind`
// name both sides in messages ("operand" / "start indices" for gather,
// "input" / "scatter indices" for scatter).
absl::Status CheckBatchingDimensions(absl::string_view batching_field,
                                     absl::string_view indices_batching_field,
                                     absl::string_view operand_kind, absl::string_view indices_kind,
                                     const std::vector<int64_t>& batching,
                                     const std::vector<int64_t>& indices_batching,
                                     const Shape& operand, const Shape& indices,
                                     const std::vector<int64_t>& expanded, int64_t ivd) {
  AOT_RETURN_IF_ERROR(CheckDimensionList(
      indices_batching_field, indices_batching, static_cast<int64_t>(expanded.size()),
      absl::StrCat("the ", indices_kind, " ", Str(indices)), false));
  if (indices_batching.size() != batching.size()) {
    return Invalid(batching_field, "=", Dims(batching), " and ", indices_batching_field, "=",
                   Dims(indices_batching), " must have the same number of entries");
  }
  for (size_t i = 0; i < batching.size(); ++i) {
    if (indices_batching[i] == ivd) {
      return Invalid(indices_batching_field, "=", Dims(indices_batching),
                     " must not contain index_vector_dim ", ivd);
    }
    if (operand.dimensions(batching[i]) != expanded[indices_batching[i]]) {
      return Invalid(operand_kind, " batching dimension ", batching[i], " has size ",
                     operand.dimensions(batching[i]), " but ", indices_kind, " batching dimension ",
                     indices_batching[i], " has size ", expanded[indices_batching[i]]);
    }
  }
  return absl::OkStatus();
}

// The shapes a called computation takes and returns.
struct Signature {
  std::string description;  // "to_apply computation 'add'"
  std::vector<Shape> parameters;
  Shape result;
};

enum class TypeClass {
  kFloat,
  kInteger,
  kPredOrInteger,
  kSignedOrFloat,
  kIntegerOrFloat,
  kFloatOrComplex,
  kSignedFloatOrComplex,
  kNumeric,  // integer, floating point or complex
};

bool InClass(TypeClass c, PrimitiveType t) {
  switch (c) {
    case TypeClass::kFloat:
      return IsFloatingPoint(t);
    case TypeClass::kInteger:
      return IsInteger(t);
    case TypeClass::kPredOrInteger:
      return t == PRED || IsInteger(t);
    case TypeClass::kSignedOrFloat:
      return IsSignedInteger(t) || IsFloatingPoint(t);
    case TypeClass::kIntegerOrFloat:
      return IsInteger(t) || IsFloatingPoint(t);
    case TypeClass::kFloatOrComplex:
      return IsFloatingPoint(t) || IsComplex(t);
    case TypeClass::kSignedFloatOrComplex:
      return IsSignedInteger(t) || IsFloatingPoint(t) || IsComplex(t);
    case TypeClass::kNumeric:
      return IsInteger(t) || IsFloatingPoint(t) || IsComplex(t);
  }
  return false;
}

absl::string_view ClassName(TypeClass c) {
  switch (c) {
    case TypeClass::kFloat:
      return "a floating-point type";
    case TypeClass::kInteger:
      return "an integer type";
    case TypeClass::kPredOrInteger:
      return "pred or an integer type";
    case TypeClass::kSignedOrFloat:
      return "a signed integer or floating-point type";
    case TypeClass::kIntegerOrFloat:
      return "an integer or floating-point type";
    case TypeClass::kFloatOrComplex:
      return "a floating-point or complex type";
    case TypeClass::kSignedFloatOrComplex:
      return "a signed integer, floating-point or complex type";
    case TypeClass::kNumeric:
      return "an integer, floating-point or complex type";
  }
  return "";
}

// Output size of a window dimension over a base of size `base`.
absl::StatusOr<std::vector<int64_t>> WindowOutputDimensions(absl::Span<const int64_t> base,
                                                            const WindowProto& window,
                                                            absl::string_view base_description) {
  if (window.dimensions_size() != static_cast<int>(base.size())) {
    return Invalid("window has ", window.dimensions_size(), " dimensions but ", base_description,
                   " has rank ", base.size());
  }
  std::vector<int64_t> out(base.size());
  for (size_t i = 0; i < base.size(); ++i) {
    const WindowDimensionProto& d = window.dimensions(static_cast<int>(i));
    if (d.size() <= 0) {
      return Invalid("window dimension ", i, " has non-positive size ", d.size());
    }
    if (d.stride() <= 0) {
      return Invalid("window dimension ", i, " has non-positive stride ", d.stride());
    }
    if (d.base_dilation() < 1) {
      return Invalid("window dimension ", i, " has base (lhs) dilation ", d.base_dilation(),
                     "; must be >= 1");
    }
    if (d.window_dilation() < 1) {
      return Invalid("window dimension ", i, " has window (rhs) dilation ", d.window_dilation(),
                     "; must be >= 1");
    }
    const Wide dilated_base = base[i] == 0 ? 0 : (Wide{base[i]} - 1) * d.base_dilation() + 1;
    const Wide padded = Wide{d.padding_low()} + dilated_base + d.padding_high();
    if (padded < 0) {
      return Invalid("window dimension ", i, ": padding ", d.padding_low(), "_", d.padding_high(),
                     " of a (dilated) base of size ", WideStr(dilated_base),
                     " gives negative size ", WideStr(padded));
    }
    const Wide dilated_window = Wide{d.size() - 1} * d.window_dilation() + 1;
    const Wide size = dilated_window > padded ? 0 : (padded - dilated_window) / d.stride() + 1;
    if (!FitsInt64(size)) {
      return Invalid("window dimension ", i,
                     " gives an output size that "
                     "overflows int64");
    }
    out[i] = static_cast<int64_t>(size);
  }
  return out;
}

class Inferrer {
 public:
  explicit Inferrer(const HloInstruction& hlo)
      : hlo_(hlo), attrs_(hlo.attrs()), opcode_(hlo.opcode()) {}

  absl::StatusOr<Shape> Run() {
    for (int64_t i = 0; i < n(); ++i) {
      if (hlo_.operand(i) == nullptr) return Invalid("operand ", i, " is null");
    }
    AOT_RETURN_IF_ERROR(CheckCalledComputationCount());
    const int arity = HloOpcodeArity(opcode_);
    if (arity >= 0 && n() != arity) {
      return Invalid("expects ", arity, " operand", arity == 1 ? "" : "s", " but has ", n());
    }
    if (IsElementwiseUnary(opcode_)) return Unary();
    if (IsElementwiseBinary(opcode_)) return Binary();
    switch (opcode_) {
      case HloOpcode::kParameter:
        return Parameter();
      case HloOpcode::kConstant:
        return Constant();
      case HloOpcode::kIota:
        return Iota();
      case HloOpcode::kCustomCall:
        return Declared();
      case HloOpcode::kReplicaId:
      case HloOpcode::kPartitionId:
        return Shape::Scalar(U32);
      case HloOpcode::kFusion:
        return CallLike("fused computation");
      case HloOpcode::kCall:
        return CallLike("to_apply computation");
      case HloOpcode::kTuple:
        return Tuple();
      case HloOpcode::kGetTupleElement:
        return GetTupleElement();
      case HloOpcode::kIsFinite:
        return IsFinite();
      case HloOpcode::kReal:
      case HloOpcode::kImag:
        return RealOrImag();
      case HloOpcode::kComplex:
        return Complex();
      case HloOpcode::kFft:
        return Fft();
      case HloOpcode::kCholesky:
        return Cholesky();
      case HloOpcode::kRngBitGenerator:
        return RngBitGenerator();
      case HloOpcode::kRng:
        return Rng();
      case HloOpcode::kRngGetAndUpdateState:
        return RngGetAndUpdateState();
      case HloOpcode::kStochasticConvert:
        return StochasticConvert();
      case HloOpcode::kRaggedDot:
        return RaggedDot();
      case HloOpcode::kScaledDot:
        return ScaledDot();
      case HloOpcode::kScan:
        return Scan();
      case HloOpcode::kTriangularSolve:
        return TriangularSolve();
      case HloOpcode::kCompare:
        return Compare();
      case HloOpcode::kSelect:
        return Select();
      case HloOpcode::kClamp:
        return Clamp();
      case HloOpcode::kConvert:
        return Convert();
      case HloOpcode::kBitcastConvert:
        return BitcastConvert();
      case HloOpcode::kBroadcast:
        return Broadcast();
      case HloOpcode::kReshape:
        return Reshape();
      case HloOpcode::kBitcast:
        return Bitcast();
      case HloOpcode::kTranspose:
        return Transpose();
      case HloOpcode::kSlice:
        return Slice();
      case HloOpcode::kDynamicSlice:
        return DynamicSlice();
      case HloOpcode::kDynamicUpdateSlice:
        return DynamicUpdateSlice();
      case HloOpcode::kConcatenate:
        return Concatenate();
      case HloOpcode::kPad:
        return Pad();
      case HloOpcode::kReverse:
        return Reverse();
      case HloOpcode::kOptimizationBarrier:
        return WithoutLayout(Op(0));
      case HloOpcode::kGetDimensionSize:
        return GetDimensionSize();
      case HloOpcode::kSetDimensionSize:
        return SetDimensionSize();
      case HloOpcode::kDynamicReshape:
        return DynamicReshape();
      case HloOpcode::kShuffle:
        return Shuffle();
      case HloOpcode::kAfterAll:
        return AfterAll();
      case HloOpcode::kAddDependency:
        AOT_RETURN_IF_ERROR(ExpectToken(1));
        return WithoutLayout(Op(0));
      case HloOpcode::kDomain:
        return WithoutLayout(Op(0));
      case HloOpcode::kCopyStart:
        return Shape::Tuple({WithoutLayout(Op(0)), WithoutLayout(Op(0)), Shape::Scalar(U32)});
      case HloOpcode::kCopyDone:
        return AsyncDone(HloOpcode::kCopyStart, 0);
      case HloOpcode::kAsyncStart:
        return AsyncStart();
      case HloOpcode::kAsyncUpdate:
      case HloOpcode::kAsyncDone:
        return AsyncUpdateOrDone();
      case HloOpcode::kMap:
        return Map();
      case HloOpcode::kTopK:
        return TopK();
      case HloOpcode::kBatchNormTraining:
      case HloOpcode::kBatchNormInference:
      case HloOpcode::kBatchNormGrad:
        return BatchNorm();
      case HloOpcode::kGather:
        return Gather();
      case HloOpcode::kScatter:
        return Scatter();
      case HloOpcode::kReduce:
        return Reduce();
      case HloOpcode::kReduceWindow:
        return ReduceWindow();
      case HloOpcode::kSelectAndScatter:
        return SelectAndScatter();
      case HloOpcode::kDot:
        return Dot();
      case HloOpcode::kConvolution:
        return Convolution();
      case HloOpcode::kSort:
        return Sort();
      case HloOpcode::kWhile:
        return While();
      case HloOpcode::kConditional:
        return Conditional();
      case HloOpcode::kAllReduce:
      case HloOpcode::kAllReduceStart:
        return AllReduce();
      case HloOpcode::kAllReduceDone:
        return AsyncDone(HloOpcode::kAllReduceStart, -1);
      case HloOpcode::kAllGather:
        return AllGather(/*start=*/false);
      case HloOpcode::kAllGatherStart:
        return AllGather(/*start=*/true);
      case HloOpcode::kAllGatherDone:
        return AsyncDone(HloOpcode::kAllGatherStart, 1);
      case HloOpcode::kReduceScatter:
        return ReduceScatter();
      case HloOpcode::kAllToAll:
        return AllToAll();
      case HloOpcode::kCollectivePermute:
        return CollectivePermute(/*start=*/false);
      case HloOpcode::kCollectivePermuteStart:
        return CollectivePermute(/*start=*/true);
      case HloOpcode::kCollectivePermuteDone:
        return AsyncDone(HloOpcode::kCollectivePermuteStart, 1);
      case HloOpcode::kCollectiveBroadcast:
        return CollectiveBroadcast();
      default:
        break;
    }
    return Invalid("no shape inference for this opcode");
  }

 private:
  int64_t n() const { return hlo_.operand_count(); }
  const Shape& Op(int64_t i) const { return hlo_.operand(i)->shape(); }
  const std::vector<HloComputation*>& called() const { return hlo_.called_computations(); }

  // "operand 1 (%p1: s32[2])" style, for messages.
  std::string OperandDesc(int64_t i) const {
    return absl::StrCat("operand ", i, " '", hlo_.operand(i)->name(), "'");
  }

  absl::Status ExpectArray(int64_t i) const {
    if (!Op(i).IsArray()) {
      return Invalid(OperandDesc(i), " has shape ", Str(Op(i)), "; expected an array");
    }
    return absl::OkStatus();
  }
  absl::Status ExpectAllArrays() const {
    for (int64_t i = 0; i < n(); ++i) AOT_RETURN_IF_ERROR(ExpectArray(i));
    return absl::OkStatus();
  }
  absl::Status ExpectClass(int64_t i, TypeClass c) const {
    if (!InClass(c, Op(i).element_type())) {
      return Invalid(OperandDesc(i), " has element type ", PrimitiveTypeName(Op(i).element_type()),
                     " (shape ", Str(Op(i)), "); expected ", ClassName(c));
    }
    return absl::OkStatus();
  }
  absl::Status ExpectScalar(int64_t i, absl::string_view role) const {
    if (!Op(i).IsArray() || Op(i).rank() != 0) {
      return Invalid(role, " (", OperandDesc(i), ") must be a scalar; got ", Str(Op(i)));
    }
    return absl::OkStatus();
  }
  // Same element type and dimensions as operand `j`.
  absl::Status ExpectSameShape(int64_t i, int64_t j) const {
    if (!Op(i).Compatible(Op(j))) {
      return Invalid("operand ", i, " has shape ", Str(Op(i)), " but operand ", j, " has ",
                     Str(Op(j)));
    }
    return absl::OkStatus();
  }
  absl::Status ExpectSameType(int64_t i, int64_t j) const {
    if (Op(i).element_type() != Op(j).element_type()) {
      return Invalid("operand ", i, " has shape ", Str(Op(i)), " but operand ", j, " has ",
                     Str(Op(j)), "; element types must match");
    }
    return absl::OkStatus();
  }
  absl::Status ExpectDeclaredArray() const {
    if (!hlo_.shape().IsArray()) {
      return Invalid("declared shape ", Str(hlo_.shape()), " must be an array");
    }
    return absl::OkStatus();
  }

  absl::Status CheckCalledComputationCount() const {
    const int64_t count = static_cast<int64_t>(called().size());
    auto expect = [&](int64_t want, absl::string_view roles) -> absl::Status {
      if (count != want) {
        return Invalid("expects ", want, " called computation", want == 1 ? "" : "s", " (", roles,
                       ") but has ", count);
      }
      return absl::OkStatus();
    };
    switch (opcode_) {
      case HloOpcode::kCall:
      case HloOpcode::kReduce:
      case HloOpcode::kReduceWindow:
      case HloOpcode::kScatter:
      case HloOpcode::kAllReduce:
      case HloOpcode::kAllReduceStart:
      case HloOpcode::kReduceScatter:
        return expect(1, "to_apply");
      case HloOpcode::kSort:
        return expect(1, "to_apply comparator");
      case HloOpcode::kMap:
      case HloOpcode::kScan:
        return expect(1, "to_apply");
      case HloOpcode::kAsyncStart:
        return expect(1, "calls, the wrapped computation");
      case HloOpcode::kAsyncUpdate:
      case HloOpcode::kAsyncDone:
        // XLA prints calls= on these too; it must name the start's.
        if (count > 1) return expect(1, "calls, the wrapped computation");
        break;
      case HloOpcode::kFusion:
        return expect(1, "calls, the fused computation");
      case HloOpcode::kWhile:
        return expect(2, "condition, body");
      case HloOpcode::kSelectAndScatter:
        return expect(2, "select, scatter");
      case HloOpcode::kConditional:
        if (count < 1) {
          return Invalid("expects at least one branch computation; has none");
        }
        break;
      case HloOpcode::kCustomCall:
        break;
      default:
        if (count != 0) {
          return Invalid("takes no called computations but has ", count);
        }
    }
    for (int64_t i = 0; i < count; ++i) {
      if (called()[i] == nullptr) {
        return Invalid("called computation ", i, " is null");
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Signature> Callee(int64_t index, absl::string_view role) const {
    const HloComputation* c = called()[index];
    Signature sig;
    sig.description = absl::StrCat(role, " '", c->name(), "'");
    if (c->root_instruction() == nullptr) {
      return Invalid(sig.description, " has no root instruction");
    }
    for (int64_t i = 0; i < c->num_parameters(); ++i) {
      const HloInstruction* p = c->parameter_instruction(i);
      if (p == nullptr) {
        return Invalid(sig.description, " has no parameter ", i);
      }
      sig.parameters.push_back(p->shape());
    }
    sig.result = c->root_instruction()->shape();
    return sig;
  }

  absl::Status ExpectParameterCount(const Signature& sig, int64_t count) const {
    if (static_cast<int64_t>(sig.parameters.size()) != count) {
      return Invalid(sig.description, " must take ", count, " parameter", count == 1 ? "" : "s",
                     " but takes ", sig.parameters.size());
    }
    return absl::OkStatus();
  }

  // XLA's VerifyReducerShape: 2N scalar parameters (N accumulators, N
  // inputs) returning N scalars (a tuple when N > 1, or a 1-tuple).
  absl::Status VerifyReducer(const Signature& sig, absl::Span<const Shape> init_values,
                             absl::Span<const PrimitiveType> input_types, int64_t inputs) const {
    AOT_RETURN_IF_ERROR(ExpectParameterCount(sig, 2 * inputs));
    std::vector<Shape> accumulators;
    if (sig.result.IsArray()) {
      if (inputs != 1) {
        return Invalid(sig.description, " must return a tuple of ", inputs, " scalars but returns ",
                       Str(sig.result));
      }
      accumulators.push_back(sig.result);
    } else if (sig.result.IsTuple()) {
      if (static_cast<int64_t>(sig.result.tuple_shapes().size()) != inputs) {
        return Invalid(sig.description, " must return ", inputs, " scalar", inputs == 1 ? "" : "s",
                       " but returns ", Str(sig.result));
      }
      accumulators = sig.result.tuple_shapes();
    } else {
      return Invalid(sig.description, " must return a scalar or a tuple of scalars but returns ",
                     Str(sig.result));
    }
    for (int64_t i = 0; i < inputs; ++i) {
      const Shape& acc = accumulators[i];
      if (!acc.IsArray() || acc.rank() != 0) {
        return Invalid(sig.description, " must return scalars but result ", i, " is ", Str(acc));
      }
      const Shape& lhs = sig.parameters[i];
      const Shape& rhs = sig.parameters[inputs + i];
      if (!acc.Compatible(lhs)) {
        return Invalid(sig.description, ": parameter ", i, " has shape ", Str(lhs),
                       " but the result ", i, " (accumulator) is ", Str(acc));
      }
      if (!acc.Compatible(init_values[i])) {
        return Invalid(sig.description, ": accumulator ", i, " is ", Str(acc),
                       " but the init value has shape ", Str(init_values[i]));
      }
      const Shape input_scalar = Shape::Scalar(input_types[i]);
      if (!input_scalar.Compatible(rhs)) {
        return Invalid(sig.description, ": parameter ", inputs + i, " has shape ", Str(rhs),
                       " but input ", i, " has element type ", PrimitiveTypeName(input_types[i]));
      }
      if (!acc.Compatible(rhs)) {
        return Invalid(sig.description, ": parameter ", inputs + i, " has shape ", Str(rhs),
                       " but the result ", i, " is ", Str(acc));
      }
    }
    return absl::OkStatus();
  }

  // ---------------------------------------------------------------------
  // Leaf-like instructions.

  absl::StatusOr<Shape> Declared() const { return WithoutLayout(hlo_.shape()); }

  absl::StatusOr<Shape> Parameter() const {
    if (attrs_.parameter_number < 0) {
      return Invalid("parameter number ", attrs_.parameter_number, " is negative");
    }
    return Declared();
  }

  absl::StatusOr<Shape> Constant() const {
    if (!attrs_.literal.has_value()) return Invalid("constant has no literal");
    const Shape& literal_shape = attrs_.literal->shape();
    if (!literal_shape.Compatible(hlo_.shape())) {
      return Invalid("literal has shape ", Str(literal_shape), " but the declared shape is ",
                     Str(hlo_.shape()));
    }
    return WithoutLayout(literal_shape);
  }

  absl::StatusOr<Shape> Iota() const {
    AOT_RETURN_IF_ERROR(ExpectDeclaredArray());
    const Shape& s = hlo_.shape();
    if (s.rank() == 0) return Invalid("iota does not support scalars");
    if (attrs_.dimensions.size() != 1) {
      return Invalid("iota needs exactly one iota_dimension; got ", Dims(attrs_.dimensions));
    }
    const int64_t d = attrs_.dimensions[0];
    if (d < 0 || d >= s.rank()) {
      return Invalid("iota_dimension ", d, " is out of range [0, ", s.rank(), ") for ", Str(s));
    }
    return Declared();
  }

  // call and fusion: parameters match operands; the result is the root's.
  absl::StatusOr<Shape> CallLike(absl::string_view role) const {
    AOT_ASSIGN_OR_RETURN(Signature sig, Callee(0, role));
    AOT_RETURN_IF_ERROR(ExpectParameterCount(sig, n()));
    for (int64_t i = 0; i < n(); ++i) {
      if (!sig.parameters[i].Compatible(Op(i))) {
        return Invalid(OperandDesc(i), " has shape ", Str(Op(i)), " but ", sig.description,
                       " parameter ", i, " has shape ", Str(sig.parameters[i]));
      }
    }
    return WithoutLayout(sig.result);
  }

  absl::StatusOr<Shape> Tuple() const {
    std::vector<Shape> elements;
    elements.reserve(n());
    for (int64_t i = 0; i < n(); ++i) elements.push_back(WithoutLayout(Op(i)));
    return Shape::Tuple(std::move(elements));
  }

  absl::StatusOr<Shape> GetTupleElement() const {
    const Shape& t = Op(0);
    if (!t.IsTuple()) {
      return Invalid(OperandDesc(0), " has shape ", Str(t), "; expected a tuple");
    }
    const int64_t size = static_cast<int64_t>(t.tuple_shapes().size());
    if (attrs_.tuple_index < 0 || attrs_.tuple_index >= size) {
      return Invalid("tuple index ", attrs_.tuple_index, " is out of range for ", Str(t), " with ",
                     size, " element", size == 1 ? "" : "s");
    }
    return WithoutLayout(t.tuple_shapes(attrs_.tuple_index));
  }

  // ---------------------------------------------------------------------
  // Elementwise.

  absl::StatusOr<Shape> Unary() const {
    if (opcode_ == HloOpcode::kCopy) return WithoutLayout(Op(0));
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    switch (opcode_) {
      case HloOpcode::kNot:
        AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kPredOrInteger));
        break;
      case HloOpcode::kPopulationCount:
      case HloOpcode::kClz:
        AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kInteger));
        break;
      case HloOpcode::kAbs: {
        AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kSignedFloatOrComplex));
        // |z| of a complex value is its component type.
        Shape result = WithoutLayout(Op(0));
        result.set_element_type(ComplexComponentType(Op(0).element_type()));
        return result;
      }
      case HloOpcode::kSign:
        AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kSignedFloatOrComplex));
        break;
      case HloOpcode::kNegate:
        AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kNumeric));
        break;
      case HloOpcode::kReducePrecision:
        AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kFloat));
        if (attrs_.exponent_bits < 1) {
          return Invalid("exponent_bits=", attrs_.exponent_bits, " must be at least 1");
        }
        if (attrs_.mantissa_bits < 0) {
          return Invalid("mantissa_bits=", attrs_.mantissa_bits, " must be non-negative");
        }
        break;
      default:
        // exp, log, trig, sqrt, rsqrt, cbrt, erf, floor, ceil, round-*, ...;
        // XLA defines the transcendental ones on complex values too.
        AOT_RETURN_IF_ERROR(ExpectClass(
            0, IsComplexUnaryOpcode(opcode_) ? TypeClass::kFloatOrComplex : TypeClass::kFloat));
        break;
    }
    return WithoutLayout(Op(0));
  }

  absl::StatusOr<Shape> Binary() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    AOT_RETURN_IF_ERROR(ExpectSameShape(1, 0));
    const PrimitiveType t = Op(0).element_type();
    switch (opcode_) {
      case HloOpcode::kAnd:
      case HloOpcode::kOr:
      case HloOpcode::kXor:
        AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kPredOrInteger));
        break;
      case HloOpcode::kShiftLeft:
      case HloOpcode::kShiftRightArithmetic:
      case HloOpcode::kShiftRightLogical:
      case HloOpcode::kMulhi:
        AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kInteger));
        break;
      case HloOpcode::kAtan2:
        AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kFloat));
        break;
      case HloOpcode::kAdd:
      case HloOpcode::kMultiply:
      case HloOpcode::kMaximum:
      case HloOpcode::kMinimum:
        // XLA accepts pred here (add = or, multiply = and).
        break;
      default:
        // subtract, divide, remainder, power: numeric, not pred.
        if (t == PRED) {
          AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kIntegerOrFloat));
        }
        break;
    }
    // Complex values have add, subtract, multiply, divide and power only
    // (no order, no bits).
    if (IsComplex(t) && !IsComplexBinaryOpcode(opcode_)) {
      AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kIntegerOrFloat));
    }
    return WithoutLayout(Op(0));
  }

  // real / imag: the component of a complex value (of a real value, the
  // value itself / zero), in the component type.
  absl::StatusOr<Shape> RealOrImag() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kFloatOrComplex));
    Shape result = WithoutLayout(Op(0));
    result.set_element_type(ComplexComponentType(Op(0).element_type()));
    return result;
  }

  // complex(real, imag): f32 pairs make c64, f64 pairs c128.
  absl::StatusOr<Shape> Complex() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    AOT_RETURN_IF_ERROR(ExpectSameShape(1, 0));
    const PrimitiveType complex = ComplexTypeOf(Op(0).element_type());
    if (complex == PRIMITIVE_TYPE_INVALID) {
      return Invalid(OperandDesc(0), " has element type ", PrimitiveTypeName(Op(0).element_type()),
                     " (shape ", Str(Op(0)), "); expected f32 or f64");
    }
    return Shape(complex, Op(0).dimensions());
  }

  // fft: fft_type FFT / IFFT (complex to complex), RFFT (real to complex,
  // the last transformed dimension halved plus one) or IRFFT (back), over
  // the trailing fft_length.size() (1 to 3) dimensions.
  absl::StatusOr<Shape> Fft() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    absl::StatusOr<FftAttributes> fft = ReadFftAttributes(hlo_);
    AOT_RETURN_IF_ERROR_AND(fft, Invalid(_.message()));
    const std::string& type = fft->type;
    const std::vector<int64_t>& length = fft->length;
    const Shape& x = Op(0);
    const int64_t k = static_cast<int64_t>(length.size());
    if (k < 1 || k > 3 || k > x.rank()) {
      return Invalid("fft_length has ", k, " entries; expected 1 to 3, at most the rank of ",
                     Str(x));
    }
    for (int64_t l : length) {
      if (l < 0) return Invalid("fft_length has a negative entry ", l);
    }
    const bool real_in = type == "RFFT";
    const bool real_out = type == "IRFFT";
    if (real_in) {
      if (x.element_type() != F32 && x.element_type() != F64) {
        return Invalid("RFFT needs an f32 or f64 operand; got ", Str(x));
      }
    } else if (!IsComplex(x.element_type())) {
      return Invalid(type, " needs a c64 or c128 operand; got ", Str(x));
    }
    std::vector<int64_t> dims = x.dimensions();
    for (int64_t i = 0; i < k; ++i) {
      const int64_t d = x.rank() - k + i;
      int64_t expected = length[i];
      if (real_out && i == k - 1) expected = expected / 2 + 1;
      if (dims[d] != expected) {
        return Invalid(type, " over fft_length=", DimsToString(length), ": dimension ", d, " of ",
                       Str(x), " is ", dims[d], ", expected ", expected);
      }
    }
    PrimitiveType out = x.element_type();
    if (real_in) {
      out = ComplexTypeOf(x.element_type());
      dims.back() = length.back() / 2 + 1;
    } else if (real_out) {
      out = ComplexComponentType(x.element_type());
      dims.back() = length.back();
    }
    return Shape(out, dims);
  }

  // rng-bit-generator(state), algorithm=: (the next state, random bits).
  // The state is u64[2] (Threefry) or u64[2] / u64[3] (Philox, the
  // default); the bits, declared, an array of 8- to 64-bit integers.
  absl::StatusOr<Shape> RngBitGenerator() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    absl::StatusOr<RngAlgorithm> algorithm = ReadRngAlgorithm(hlo_);
    AOT_RETURN_IF_ERROR_AND(algorithm, Invalid(_.message()));
    const Shape& state = Op(0);
    const bool philox = *algorithm == RngAlgorithm::kPhilox;
    if (state.element_type() != U64 || state.rank() != 1 ||
        !(state.dimensions(0) == 2 || (philox && state.dimensions(0) == 3))) {
      return Invalid("the state is ", Str(state), "; ", philox ? "Philox" : "Threefry",
                     " takes u64[2]", philox ? " or u64[3]" : "");
    }
    const Shape& declared = hlo_.shape();
    if (!declared.IsTuple() || declared.tuple_shapes().size() != 2 ||
        !declared.tuple_shapes(0).Compatible(state)) {
      return Invalid("the result is ", Str(declared), "; expected (", Str(state),
                     ", an integer array)");
    }
    const Shape& bits = declared.tuple_shapes(1);
    if (!bits.IsArray() || !IsInteger(bits.element_type()) ||
        IsNarrowInteger(bits.element_type())) {
      return Invalid("the random values are ", Str(bits),
                     "; expected an array of 8-, 16-, 32- or 64-bit integers");
    }
    return Declared();
  }

  // rng(a, b), distribution=: an array of the declared shape drawn from
  // the executable's random state: uniform in [a, b) (floats and 8- to
  // 64-bit integers) or normal with mean a and standard deviation b
  // (floats). a and b are scalars of the result's element type.
  absl::StatusOr<Shape> Rng() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    absl::StatusOr<RngDistribution> distribution = ReadRngDistribution(hlo_);
    AOT_RETURN_IF_ERROR_AND(distribution, Invalid(_.message()));
    const Shape& declared = hlo_.shape();
    if (!declared.IsArray()) return Invalid("the result is ", Str(declared), "; expected an array");
    const PrimitiveType t = declared.element_type();
    const bool wide_float = IsFloatingPoint(t) && !IsNarrowFloat(t);
    const bool wide_integer = IsInteger(t) && !IsNarrowInteger(t);
    if (*distribution == RngDistribution::kNormal && !wide_float) {
      return Invalid("the result is ", Str(declared),
                     "; rng_normal draws f16, bf16, f32 or f64 values");
    }
    if (!wide_float && !wide_integer) {
      return Invalid("the result is ", Str(declared),
                     "; rng_uniform draws f16, bf16, f32, f64 or 8- to 64-bit integer values");
    }
    for (int i = 0; i < 2; ++i) {
      if (Op(i).rank() != 0 || Op(i).element_type() != t) {
        return Invalid("operand ", i, " is ", Str(Op(i)), "; expected a scalar of the result's ",
                       PrimitiveTypeName(t));
      }
    }
    return Shape(t, declared.dimensions());
  }

  // rng-get-and-update-state, delta=N: the executable's 128-bit random
  // state as u64[2] (low word first), which the call then advances by N.
  absl::StatusOr<Shape> RngGetAndUpdateState() const {
    absl::StatusOr<int64_t> delta = ReadRngDelta(hlo_);
    AOT_RETURN_IF_ERROR_AND(delta, Invalid(_.message()));
    return Shape(U64, {2});
  }

  // stochastic-convert(x, random): x (f16, bf16, f32 or f64) to the
  // declared signed integer type, rounding up where random (unsigned, of
  // x's width and dimensions) is below the fraction scaled to its range.
  absl::StatusOr<Shape> StochasticConvert() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    const Shape& x = Op(0);
    const Shape& random = Op(1);
    const PrimitiveType t = x.element_type();
    if (!IsFloatingPoint(t) || IsNarrowFloat(t)) {
      return Invalid("the operand is ", Str(x), "; expected f16, bf16, f32 or f64");
    }
    if (!IsUnsignedInteger(random.element_type()) ||
        ByteWidth(random.element_type()) != ByteWidth(t) || random.dimensions() != x.dimensions()) {
      return Invalid("the random operand is ", Str(random), "; expected an unsigned integer of ",
                     8 * ByteWidth(t), " bits with the dimensions of ", Str(x));
    }
    const PrimitiveType out =
        hlo_.shape().IsArray() ? hlo_.shape().element_type() : PRIMITIVE_TYPE_INVALID;
    if (!IsSignedInteger(out) || IsNarrowInteger(out)) {
      return Invalid("the result is ", Str(hlo_.shape()),
                     "; expected s8, s16, s32 or s64 (XLA converts to signed integers only)");
    }
    return Shape(out, x.dimensions());
  }

  // ragged-dot(lhs, rhs, group_sizes), the dot dimension numbers,
  // lhs_ragged_dims={r} and, when r is a free lhs dimension,
  // rhs_group_dims={g}: XLA's three modes, as JAX's ragged_dot_general
  // defines them (group_sizes cuts r into consecutive runs, one per group):
  //  1. r free (not contracting, not batch): each index of r is multiplied
  //     with its group's rhs (rhs without g, which is neither batch nor
  //     contracting): the dot's shape without g, [b.., m.., n..];
  //  2. r contracting (no g): one dot per group, contracting only its run:
  //     the dot's shape with a leading dimension of the groups;
  //  3. r a batch dimension (no g): the dot itself.
  // group_sizes is a rank-1 integer array (XLA's per-batch group sizes are
  // refused by name).
  absl::StatusOr<Shape> RaggedDot() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    absl::StatusOr<RaggedDotAttributes> attributes = ReadRaggedDotAttributes(hlo_);
    AOT_RETURN_IF_ERROR_AND(attributes, Invalid(_.message()));
    const Shape& lhs = Op(0);
    const Shape& rhs = Op(1);
    const Shape& sizes = Op(2);
    if (!hlo_.attrs().dot_dimension_numbers.has_value()) {
      return Invalid("needs lhs_contracting_dims and rhs_contracting_dims");
    }
    const DotDimensionNumbersProto& dn = *hlo_.attrs().dot_dimension_numbers;
    const int64_t r = attributes->lhs_ragged;
    if (r < 0 || r >= lhs.rank()) {
      return Invalid("lhs_ragged_dims={", r, "} is out of range for ", Str(lhs));
    }
    const bool contracting = absl::c_linear_search(dn.lhs_contracting_dimensions(), r);
    const bool batch = absl::c_linear_search(dn.lhs_batch_dimensions(), r);
    std::vector<int64_t> rhs_dims = rhs.dimensions();
    if (!contracting && !batch) {
      if (!attributes->rhs_group.has_value()) {
        return Invalid("a ragged non-contracting dimension needs rhs_group_dims={g}");
      }
      const int64_t g = *attributes->rhs_group;
      if (g < 0 || g >= rhs.rank() || absl::c_linear_search(dn.rhs_contracting_dimensions(), g) ||
          absl::c_linear_search(dn.rhs_batch_dimensions(), g)) {
        return Invalid("rhs_group_dims={", g, "} must be a dimension of ", Str(rhs),
                       " that is neither contracting nor batch");
      }
      if (sizes.rank() != 1 || !IsInteger(sizes.element_type()) ||
          IsNarrowInteger(sizes.element_type()) || sizes.dimensions(0) != rhs.dimensions(g)) {
        return Invalid("group_sizes is ", Str(sizes), "; expected a rank-1 integer array of the ",
                       rhs.dimensions(g), " groups of rhs's dimension ", g);
      }
      rhs_dims.erase(rhs_dims.begin() + g);
    } else {
      if (attributes->rhs_group.has_value()) {
        return Invalid("rhs_group_dims must be empty when the ragged dimension is ",
                       contracting ? "contracting" : "a batch dimension");
      }
      if (sizes.rank() != 1 || !IsInteger(sizes.element_type()) ||
          IsNarrowInteger(sizes.element_type())) {
        return Invalid("group_sizes is ", Str(sizes),
                       "; expected a rank-1 integer array, one size per group (per-batch group "
                       "sizes are not supported by this compiler)");
      }
    }
    const DotDimensionNumbersProto& gdn = attributes->group_dot_dimension_numbers;
    const std::vector<int64_t> lc = ToVector(gdn.lhs_contracting_dimensions());
    const std::vector<int64_t> rc = ToVector(gdn.rhs_contracting_dimensions());
    const std::vector<int64_t> lb = ToVector(gdn.lhs_batch_dimensions());
    const std::vector<int64_t> rb = ToVector(gdn.rhs_batch_dimensions());
    const int64_t rhs_rank = static_cast<int64_t>(rhs_dims.size());
    if (lc.size() != rc.size() || lb.size() != rb.size()) {
      return Invalid("lhs and rhs differ in the number of contracting or batch dimensions");
    }
    auto pairs_match = [&](const std::vector<int64_t>& l, const std::vector<int64_t>& rr) {
      for (size_t i = 0; i < l.size(); ++i) {
        if (l[i] < 0 || l[i] >= lhs.rank() || rr[i] < 0 || rr[i] >= rhs_rank ||
            lhs.dimensions(l[i]) != rhs_dims[rr[i]]) {
          return false;
        }
      }
      return true;
    };
    if (!pairs_match(lc, rc) || !pairs_match(lb, rb)) {
      return Invalid("the contracting or batch dimensions of ", Str(lhs), " and ", Str(rhs),
                     " do not match");
    }
    if (lhs.element_type() != rhs.element_type() || !IsFloatingPoint(lhs.element_type()) ||
        IsNarrowFloat(lhs.element_type())) {
      return Invalid("lhs and rhs must be of one float type (f16, bf16, f32, f64); got ", Str(lhs),
                     " and ", Str(rhs));
    }
    std::vector<int64_t> dims;
    if (contracting) dims.push_back(sizes.dimensions(0));
    for (int64_t d : DotResultDimensions(lhs.dimensions(), rhs_dims, lb, lc, rb, rc)) {
      dims.push_back(d);
    }
    const PrimitiveType out =
        hlo_.shape().IsArray() ? hlo_.shape().element_type() : lhs.element_type();
    return Shape(out, dims);
  }

  // scaled-dot(lhs, rhs, lhs_scale, rhs_scale), the dot dimension numbers:
  // the dot of the operands dequantized block by block. Each scale has its
  // operand's rank and each of its dimensions divides the operand's (a
  // block of operand / scale indices per scale value); lhs, rhs and scales
  // are floats. The result is the dot's, in the declared float type, which
  // the dequantized values and the products are computed in.
  absl::StatusOr<Shape> ScaledDot() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    for (int64_t k = 0; k < 4; ++k) {
      if (!IsFloatingPoint(Op(k).element_type())) {
        return Invalid(OperandDesc(k), " is ", Str(Op(k)), "; scaled-dot takes floats");
      }
    }
    for (int64_t k = 0; k < 2; ++k) {
      const Shape& x = Op(k);
      const Shape& scale = Op(k + 2);
      bool blocks = scale.rank() == x.rank();
      for (int64_t d = 0; blocks && d < x.rank(); ++d) {
        blocks = scale.dimensions(d) > 0 && x.dimensions(d) % scale.dimensions(d) == 0;
      }
      if (!blocks) {
        return Invalid("the ", k == 0 ? "lhs" : "rhs", " scale is ", Str(scale),
                       "; expected the rank of ", Str(x),
                       " with each dimension dividing the operand's (one scale per block)");
      }
    }
    if (!hlo_.shape().IsArray() || !IsFloatingPoint(hlo_.shape().element_type()) ||
        IsNarrowFloat(hlo_.shape().element_type())) {
      return Invalid("the result is ", Str(hlo_.shape()), "; expected f16, bf16, f32 or f64");
    }
    AOT_ASSIGN_OR_RETURN(Shape dot, Dot());
    dot.set_element_type(hlo_.shape().element_type());
    return dot;
  }

  // scan(inputs..., inits...), dimensions={d}, num_carries=n, to_apply=f:
  // f takes one slice of each input along d (d removed) and the carries,
  // and returns one slice of each output and the next carries. The result
  // is each output with d inserted at position d (the inputs' length
  // there), then the final carries.
  absl::StatusOr<Shape> Scan() const {
    absl::StatusOr<ScanAttributes> a = ReadScanAttributes(hlo_);
    AOT_RETURN_IF_ERROR_AND(a, Invalid(_.message()));
    const int64_t carries = a->num_carries;
    if (carries < 0 || carries >= n()) {
      return Invalid("num_carries=", carries, " must leave at least one of its ", n(),
                     " operands as an input");
    }
    const int64_t inputs = n() - carries;
    const int64_t d = a->dimension;
    int64_t length = -1;
    for (int64_t i = 0; i < inputs; ++i) {
      AOT_RETURN_IF_ERROR(ExpectArray(i));
      if (d < 0 || d >= Op(i).rank()) {
        return Invalid("dimensions={", d, "} is out of range for input ", i, " ", Str(Op(i)));
      }
      if (length >= 0 && Op(i).dimensions(d) != length) {
        return Invalid("input ", i, " is ", Str(Op(i)), " but input 0 has length ", length,
                       " along dimension ", d);
      }
      length = Op(i).dimensions(d);
    }
    AOT_ASSIGN_OR_RETURN(Signature f, Callee(0, "to_apply computation"));
    AOT_RETURN_IF_ERROR(ExpectParameterCount(f, n()));
    for (int64_t i = 0; i < n(); ++i) {
      Shape want = WithoutLayout(Op(i));
      if (i < inputs) {
        std::vector<int64_t> dims = want.dimensions();
        dims.erase(dims.begin() + d);
        want = Shape(want.element_type(), dims);
      }
      if (!f.parameters[i].Compatible(want)) {
        return Invalid(f.description, " parameter ", i, " has shape ", Str(f.parameters[i]),
                       " but ", i < inputs ? "a slice of input " : "carry ",
                       i < inputs ? i : i - inputs, " is ", Str(want));
      }
    }
    const int64_t results =
        f.result.IsTuple() ? static_cast<int64_t>(f.result.tuple_shapes().size()) : -1;
    if (results < carries) {
      return Invalid(f.description, " returns ", Str(f.result),
                     "; expected a tuple of the outputs' slices then the ", carries, " carries");
    }
    std::vector<Shape> elements;
    for (int64_t k = 0; k < results; ++k) {
      const Shape& r = f.result.tuple_shapes(k);
      if (k >= results - carries) {
        const Shape& carry = Op(inputs + k - (results - carries));
        if (!r.Compatible(carry)) {
          return Invalid(f.description, " returns ", Str(r), " for carry ", k - (results - carries),
                         " whose initial value is ", Str(carry));
        }
        elements.push_back(WithoutLayout(carry));
        continue;
      }
      if (!r.IsArray() || r.rank() < d) {
        return Invalid(f.description, " returns ", Str(r), " for output ", k,
                       "; expected an array of rank at least ", d);
      }
      std::vector<int64_t> dims = r.dimensions();
      dims.insert(dims.begin() + d, length);
      elements.push_back(Shape(r.element_type(), dims));
    }
    return Shape::Tuple(std::move(elements));
  }

  // cholesky(a), lower=: a batch of square matrices in the two minor
  // dimensions, floating point or complex; the factor has a's shape.
  absl::StatusOr<Shape> Cholesky() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kFloatOrComplex));
    AOT_RETURN_IF_ERROR(ExpectSquareMatrices(0, "a"));
    absl::StatusOr<bool> lower = BoolAttribute(hlo_, "lower", false);
    AOT_RETURN_IF_ERROR_AND(lower, Invalid(_.message()));
    return WithoutLayout(Op(0));
  }

  // triangular-solve(a, b), left_side=, lower=, unit_diagonal=,
  // transpose_a=: solves op(a) x = b (left side) or x op(a) = b for x, a
  // batch of square a against b of the same batch; x has b's shape.
  absl::StatusOr<Shape> TriangularSolve() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kFloatOrComplex));
    AOT_RETURN_IF_ERROR(ExpectSameType(1, 0));
    AOT_RETURN_IF_ERROR(ExpectSquareMatrices(0, "a"));
    absl::StatusOr<TriangularSolveAttributes> attributes = ReadTriangularSolveAttributes(hlo_);
    AOT_RETURN_IF_ERROR_AND(attributes, Invalid(_.message()));
    const Shape& a = Op(0);
    const Shape& b = Op(1);
    if (b.rank() != a.rank()) {
      return Invalid("b has shape ", Str(b), " but a has ", Str(a), "; the ranks must match");
    }
    const int64_t r = a.rank();
    for (int64_t d = 0; d + 2 < r; ++d) {
      if (a.dimensions(d) != b.dimensions(d)) {
        return Invalid("batch dimension ", d, " of b (", Str(b), ") differs from a's (", Str(a),
                       ")");
      }
    }
    const bool left = attributes->left_side;
    const int64_t m = a.dimensions(r - 1);
    const int64_t solved = left ? b.dimensions(r - 2) : b.dimensions(r - 1);
    if (solved != m) {
      return Invalid(left ? "left_side: b's dimension " : "right side: b's dimension ",
                     left ? r - 2 : r - 1, " is ", solved, " but a is ", m, "x", m);
    }
    return WithoutLayout(b);
  }

  absl::Status ExpectSquareMatrices(int64_t i, absl::string_view role) const {
    const Shape& x = Op(i);
    if (x.rank() < 2 || x.dimensions(x.rank() - 1) != x.dimensions(x.rank() - 2)) {
      return Invalid(role, " (", OperandDesc(i), ") has shape ", Str(x),
                     "; expected square matrices in its two minor dimensions");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Shape> IsFinite() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kFloat));
    return Shape(PRED, Op(0).dimensions());
  }

  absl::StatusOr<Shape> Compare() const {
    if (!attrs_.comparison_direction.has_value()) {
      return Invalid("missing comparison direction (direction=EQ|NE|...)");
    }
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    AOT_RETURN_IF_ERROR(ExpectSameShape(1, 0));
    const PrimitiveType t = Op(0).element_type();
    const std::string& type = attrs_.comparison_type;
    if (IsComplex(t)) {
      // Complex values are unordered: only (in)equality, compared as FLOAT.
      const ComparisonDirection d = *attrs_.comparison_direction;
      if (d != ComparisonDirection::kEq && d != ComparisonDirection::kNe) {
        return Invalid("comparison direction ", ComparisonDirectionString(d),
                       " is not defined for element type ", PrimitiveTypeName(t),
                       " (only EQ and NE are)");
      }
      if (!type.empty() && type != "FLOAT") {
        return Invalid("comparison type ", type, " is not valid for element type ",
                       PrimitiveTypeName(t));
      }
      return Shape(PRED, Op(0).dimensions());
    }
    if (!type.empty()) {
      bool ok;
      if (type == "FLOAT" || type == "TOTALORDER" || type == "PARTIALORDER") {
        ok = IsFloatingPoint(t);
      } else if (type == "SIGNED") {
        ok = IsSignedInteger(t);
      } else if (type == "UNSIGNED") {
        ok = IsUnsignedInteger(t) || t == PRED;
      } else {
        return Invalid("unknown comparison type '", type,
                       "' (expected FLOAT, TOTALORDER, PARTIALORDER, SIGNED or UNSIGNED)");
      }
      if (!ok) {
        return Invalid("comparison type ", type, " is not valid for element type ",
                       PrimitiveTypeName(t));
      }
    }
    return Shape(PRED, Op(0).dimensions());
  }

  absl::StatusOr<Shape> Select() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    if (Op(0).element_type() != PRED) {
      return Invalid("predicate (", OperandDesc(0), ") has shape ", Str(Op(0)),
                     "; expected element type pred");
    }
    AOT_RETURN_IF_ERROR(ExpectSameShape(2, 1));
    if (Op(0).rank() != 0 && Op(0).dimensions() != Op(1).dimensions()) {
      return Invalid("predicate has shape ", Str(Op(0)), " but on_true/on_false have shape ",
                     Str(Op(1)),
                     "; the predicate must have the same dimensions or be "
                     "a scalar");
    }
    return WithoutLayout(Op(1));
  }

  absl::StatusOr<Shape> Clamp() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    const Shape& operand = Op(1);
    for (int64_t i : {0, 2}) {
      AOT_RETURN_IF_ERROR(ExpectSameType(i, 1));
      if (Op(i).rank() != 0 && Op(i).dimensions() != operand.dimensions()) {
        return Invalid(i == 0 ? "min" : "max", " (", OperandDesc(i), ") has shape ", Str(Op(i)),
                       " but the clamped operand has ", Str(operand),
                       "; must be a scalar or the same shape");
      }
    }
    return WithoutLayout(operand);
  }

  absl::StatusOr<Shape> Convert() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    const PrimitiveType to = hlo_.shape().element_type();
    if (!IsArrayType(to)) {
      return Invalid("declared shape ", Str(hlo_.shape()), " must be an array");
    }
    if (IsComplex(Op(0).element_type()) && !IsComplex(to)) {
      return Invalid("converting ", PrimitiveTypeName(Op(0).element_type()), " to ",
                     PrimitiveTypeName(to),
                     " is not defined (complex to real: use real, imag or abs)");
    }
    return Shape(to, Op(0).dimensions());
  }

  absl::StatusOr<Shape> BitcastConvert() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    const PrimitiveType to = hlo_.shape().element_type();
    if (!IsArrayType(to)) {
      return Invalid("declared shape ", Str(hlo_.shape()), " must be an array");
    }
    const Shape& in = Op(0);
    const int64_t in_bits = BitWidth(in.element_type());
    const int64_t out_bits = BitWidth(to);
    std::vector<int64_t> dims = in.dimensions();
    if (in_bits > out_bits) {
      dims.push_back(in_bits / out_bits);
    } else if (in_bits < out_bits) {
      const int64_t ratio = out_bits / in_bits;
      if (dims.empty() || dims.back() != ratio) {
        return Invalid("bitcast-convert from ", Str(in), " to ", PrimitiveTypeName(to),
                       " needs a minor-most dimension of size ", ratio,
                       " (the ratio of the bit widths)");
      }
      dims.pop_back();
    }
    return Shape(to, std::move(dims));
  }

  // ---------------------------------------------------------------------
  // Data movement.

  absl::StatusOr<Shape> Broadcast() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(ExpectDeclaredArray());
    const Shape& in = Op(0);
    const Shape& out = hlo_.shape();
    const std::vector<int64_t>& dims = attrs_.dimensions;
    if (static_cast<int64_t>(dims.size()) != in.rank()) {
      return Invalid("dimensions=", Dims(dims), " has ", dims.size(), " entries but the operand ",
                     Str(in), " has rank ", in.rank());
    }
    for (int64_t i = 0; i < in.rank(); ++i) {
      const int64_t d = dims[i];
      if (d < 0 || d >= out.rank()) {
        return Invalid("broadcast dimension ", d, " (for operand dimension ", i,
                       ") is out of range for the result ", Str(out));
      }
      if (i > 0 && dims[i - 1] >= d) {
        return Invalid("broadcast dimensions ", Dims(dims), " must be strictly increasing");
      }
      if (out.dimensions(d) != in.dimensions(i)) {
        return Invalid("operand dimension ", i, " has size ", in.dimensions(i),
                       " but result dimension ", d, " of ", Str(out), " has size ",
                       out.dimensions(d));
      }
    }
    return Shape(in.element_type(), out.dimensions());
  }

  absl::StatusOr<Shape> Reshape() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(ExpectDeclaredArray());
    const Shape& out = hlo_.shape();
    const std::optional<int64_t> in_count = CheckedElementCount(Op(0));
    const std::optional<int64_t> out_count = CheckedElementCount(out);
    if (!in_count.has_value() || !out_count.has_value()) {
      return Invalid("element count of ", Str(Op(0)), " or ", Str(out), " overflows int64");
    }
    if (*in_count != *out_count) {
      return Invalid("reshape of ", Str(Op(0)), " (", *in_count, " elements) to ", Str(out), " (",
                     *out_count, " elements) changes the element count");
    }
    return Shape(Op(0).element_type(), out.dimensions());
  }

  absl::StatusOr<Shape> Bitcast() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(ExpectDeclaredArray());
    const Shape& out = hlo_.shape();
    const std::optional<int64_t> in_count = CheckedElementCount(Op(0));
    const std::optional<int64_t> out_count = CheckedElementCount(out);
    if (!in_count.has_value() || !out_count.has_value()) {
      return Invalid("element count of ", Str(Op(0)), " or ", Str(out), " overflows int64");
    }
    const Wide in_bytes = Wide{*in_count} * ByteWidth(Op(0).element_type());
    const Wide out_bytes = Wide{*out_count} * ByteWidth(out.element_type());
    if (in_bytes != out_bytes) {
      return Invalid("bitcast of ", Str(Op(0)), " (", WideStr(in_bytes), " bytes) to ", Str(out),
                     " (", WideStr(out_bytes), " bytes) changes the byte size");
    }
    return Declared();
  }

  absl::StatusOr<Shape> Transpose() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    const Shape& in = Op(0);
    const std::vector<int64_t>& perm = attrs_.dimensions;
    if (static_cast<int64_t>(perm.size()) != in.rank()) {
      return Invalid("dimensions=", Dims(perm), " is not a permutation of the operand's ",
                     in.rank(), " dimensions (", Str(in), ")");
    }
    AOT_RETURN_IF_ERROR(
        CheckDimensionList("transpose dimensions", perm, in.rank(), Str(in), false));
    std::vector<int64_t> dims(in.rank());
    for (int64_t i = 0; i < in.rank(); ++i) dims[i] = in.dimensions(perm[i]);
    return Shape(in.element_type(), std::move(dims));
  }

  absl::StatusOr<Shape> Slice() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    const Shape& in = Op(0);
    const std::vector<SliceSpec>& slice = attrs_.slice;
    if (static_cast<int64_t>(slice.size()) != in.rank()) {
      return Invalid("slice has ", slice.size(), " dimension specs but the operand ", Str(in),
                     " has rank ", in.rank());
    }
    std::vector<int64_t> dims(in.rank());
    for (int64_t i = 0; i < in.rank(); ++i) {
      const SliceSpec& s = slice[i];
      if (s.stride < 1) {
        return Invalid("slice dimension ", i, " has stride ", s.stride, "; must be >= 1");
      }
      if (s.start < 0 || s.start > s.limit || s.limit > in.dimensions(i)) {
        return Invalid("slice dimension ", i, " [", s.start, ":", s.limit, ":", s.stride,
                       "] is out of range for size ", in.dimensions(i), " of ", Str(in),
                       " (need 0 <= start <= limit <= size)");
      }
      dims[i] = s.limit == s.start ? 0 : (s.limit - s.start - 1) / s.stride + 1;
    }
    return Shape(in.element_type(), std::move(dims));
  }

  // Checks operands [first, n()) are `rank` scalar indices of one integer
  // type.
  absl::Status CheckStartIndices(int64_t first, int64_t rank) const {
    if (n() - first != rank) {
      return Invalid("expects ", rank, " start indices (one per dimension of ", Str(Op(0)),
                     ") but has ", n() - first);
    }
    for (int64_t i = first; i < n(); ++i) {
      if (!Op(i).IsArray() || Op(i).rank() != 0 || !IsInteger(Op(i).element_type())) {
        return Invalid("start index ", OperandDesc(i), " has shape ", Str(Op(i)),
                       "; expected an integer scalar");
      }
      if (Op(i).element_type() != Op(first).element_type()) {
        return Invalid("start index ", OperandDesc(i), " has shape ", Str(Op(i)),
                       " but start index operand ", first, " has ", Str(Op(first)),
                       "; all start indices must have the same type");
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Shape> DynamicSlice() const {
    if (n() < 1) return Invalid("expects an operand and start indices");
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    const Shape& in = Op(0);
    AOT_RETURN_IF_ERROR(CheckStartIndices(1, in.rank()));
    const std::vector<int64_t>& sizes = attrs_.dynamic_slice_sizes;
    if (static_cast<int64_t>(sizes.size()) != in.rank()) {
      return Invalid("dynamic_slice_sizes=", Dims(sizes), " has ", sizes.size(),
                     " entries but the operand ", Str(in), " has rank ", in.rank());
    }
    for (int64_t i = 0; i < in.rank(); ++i) {
      if (sizes[i] < 0 || sizes[i] > in.dimensions(i)) {
        return Invalid("dynamic slice size ", sizes[i], " in dimension ", i,
                       " is out of range [0, ", in.dimensions(i), "] for ", Str(in));
      }
    }
    return Shape(in.element_type(), sizes);
  }

  absl::StatusOr<Shape> DynamicUpdateSlice() const {
    if (n() < 2) return Invalid("expects an operand, an update and indices");
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(ExpectArray(1));
    const Shape& in = Op(0);
    const Shape& update = Op(1);
    AOT_RETURN_IF_ERROR(ExpectSameType(1, 0));
    if (update.rank() != in.rank()) {
      return Invalid("update ", Str(update), " has rank ", update.rank(), " but the operand ",
                     Str(in), " has rank ", in.rank());
    }
    for (int64_t i = 0; i < in.rank(); ++i) {
      if (update.dimensions(i) > in.dimensions(i)) {
        return Invalid("update ", Str(update), " is larger than the operand ", Str(in),
                       " in dimension ", i);
      }
    }
    AOT_RETURN_IF_ERROR(CheckStartIndices(2, in.rank()));
    return WithoutLayout(in);
  }

  absl::StatusOr<Shape> Concatenate() const {
    if (n() < 1) return Invalid("expects at least one operand");
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    if (attrs_.dimensions.size() != 1) {
      return Invalid("needs exactly one concatenate dimension; got dimensions=",
                     Dims(attrs_.dimensions));
    }
    const int64_t dim = attrs_.dimensions[0];
    const Shape& first = Op(0);
    if (dim < 0 || dim >= first.rank()) {
      return Invalid("concatenate dimension ", dim, " is out of range for ", Str(first));
    }
    std::vector<int64_t> dims = first.dimensions();
    for (int64_t i = 1; i < n(); ++i) {
      AOT_RETURN_IF_ERROR(ExpectSameType(i, 0));
      const Shape& s = Op(i);
      bool ok = s.rank() == first.rank();
      for (int64_t d = 0; ok && d < s.rank(); ++d) {
        if (d != dim && s.dimensions(d) != first.dimensions(d)) ok = false;
      }
      if (!ok) {
        return Invalid("operand ", i, " has shape ", Str(s), " but operand 0 has ", Str(first),
                       "; all dimensions except ", dim, " must be equal");
      }
      if (!FitsInt64(Wide{dims[dim]} + s.dimensions(dim))) {
        return Invalid("concatenated dimension ", dim, " overflows int64");
      }
      dims[dim] += s.dimensions(dim);
    }
    return Shape(first.element_type(), std::move(dims));
  }

  absl::StatusOr<Shape> Pad() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    const Shape& in = Op(0);
    AOT_RETURN_IF_ERROR(ExpectScalar(1, "padding value"));
    AOT_RETURN_IF_ERROR(ExpectSameType(1, 0));
    if (!attrs_.padding_config.has_value()) {
      return Invalid("missing padding config (padding=...)");
    }
    const PaddingConfigProto& config = *attrs_.padding_config;
    if (config.dimensions_size() != in.rank()) {
      return Invalid("padding config has ", config.dimensions_size(),
                     " dimensions but the operand ", Str(in), " has rank ", in.rank());
    }
    std::vector<int64_t> dims(in.rank());
    for (int64_t i = 0; i < in.rank(); ++i) {
      const auto& p = config.dimensions(static_cast<int>(i));
      if (p.interior_padding() < 0) {
        return Invalid("padding dimension ", i, " has negative interior ", "padding ",
                       p.interior_padding());
      }
      const int64_t size = in.dimensions(i);
      const Wide out = Wide{p.edge_padding_low()} + p.edge_padding_high() + size +
                       std::max<Wide>(Wide{size} - 1, 0) * p.interior_padding();
      if (out < 0) {
        return Invalid("padding ", p.edge_padding_low(), "_", p.edge_padding_high(), "_",
                       p.interior_padding(), " of dimension ", i, " (size ", size,
                       ") gives negative size ", WideStr(out));
      }
      if (!FitsInt64(out)) {
        return Invalid("padding of dimension ", i, " overflows int64");
      }
      dims[i] = static_cast<int64_t>(out);
    }
    return Shape(in.element_type(), std::move(dims));
  }

  absl::Status ExpectToken(int64_t i) const {
    if (!Op(i).IsToken()) {
      return Invalid(OperandDesc(i), " has shape ", Str(Op(i)), "; expected token[]");
    }
    return absl::OkStatus();
  }

  // after-all: joins tokens (none is fine) into one.
  absl::StatusOr<Shape> AfterAll() const {
    for (int64_t i = 0; i < n(); ++i) AOT_RETURN_IF_ERROR(ExpectToken(i));
    return Shape::Token();
  }

  // async-start: ((operand shapes), wrapped result, context...) where the
  // wrapped computation takes the operands; the context elements are the
  // runtime's own and only declared.
  absl::StatusOr<Shape> AsyncStart() const {
    AOT_ASSIGN_OR_RETURN(Shape result, CallLike("wrapped computation"));
    const Shape& declared = hlo_.shape();
    std::vector<Shape> operands;
    for (int64_t i = 0; i < n(); ++i) operands.push_back(WithoutLayout(Op(i)));
    const Shape operand_tuple = Shape::Tuple(operands);
    if (!declared.IsTuple() || declared.tuple_shapes().size() < 2 ||
        !declared.tuple_shapes(0).Compatible(operand_tuple) ||
        !declared.tuple_shapes(1).Compatible(result)) {
      return Invalid("declared shape ", Str(declared), " must be (", Str(operand_tuple), ", ",
                     Str(result), ", context...): the operands, the wrapped result, then context");
    }
    return WithoutLayout(declared);
  }

  // async-update passes the start's value on; async-done yields the wrapped
  // result. A calls= on either must name the start's computation.
  absl::StatusOr<Shape> AsyncUpdateOrDone() const {
    const HloInstruction* start = hlo_.operand(0);
    while (start->opcode() == HloOpcode::kAsyncUpdate && start->operand_count() == 1) {
      start = start->operand(0);
    }
    if (start->opcode() != HloOpcode::kAsyncStart) {
      return Invalid(OperandDesc(0), " must be an async-start or async-update; got a ",
                     HloOpcodeString(hlo_.operand(0)->opcode()));
    }
    if (!called().empty() && start->called_computations() != called()) {
      return Invalid("calls=", called()[0]->name(), " is not the computation of '", start->name(),
                     "'");
    }
    if (opcode_ == HloOpcode::kAsyncUpdate) return WithoutLayout(Op(0));
    if (!Op(0).IsTuple() || Op(0).tuple_shapes().size() < 2) {
      return Invalid(OperandDesc(0), " has shape ", Str(Op(0)), "; expected an async tuple");
    }
    return WithoutLayout(Op(0).tuple_shapes(1));
  }

  // map: a scalar computation applied to every element of same-dimensioned
  // operands; dimensions, when given, list them all in order.
  absl::StatusOr<Shape> Map() const {
    if (n() < 1) return Invalid("expects at least one operand");
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    for (int64_t i = 1; i < n(); ++i) {
      if (Op(i).dimensions() != Op(0).dimensions()) {
        return Invalid("operand ", i, " has shape ", Str(Op(i)), " but operand 0 has ", Str(Op(0)),
                       "; all operands must have the same dimensions");
      }
    }
    if (!attrs_.dimensions.empty()) {
      std::vector<int64_t> every(Op(0).rank());
      std::iota(every.begin(), every.end(), 0);
      if (attrs_.dimensions != every) {
        return Invalid("dimensions=", Dims(attrs_.dimensions), " must list every dimension of ",
                       Str(Op(0)), " in order");
      }
    }
    AOT_ASSIGN_OR_RETURN(Signature f, Callee(0, "to_apply computation"));
    AOT_RETURN_IF_ERROR(ExpectParameterCount(f, n()));
    for (int64_t i = 0; i < n(); ++i) {
      const Shape scalar = Shape::Scalar(Op(i).element_type());
      if (!f.parameters[i].Compatible(scalar)) {
        return Invalid(f.description, ": parameter ", i, " has shape ", Str(f.parameters[i]),
                       " but operand ", i, " needs ", Str(scalar));
      }
    }
    if (!f.result.IsArray() || f.result.rank() != 0) {
      return Invalid(f.description, " must return a scalar but returns ", Str(f.result));
    }
    return Shape(f.result.element_type(), Op(0).dimensions());
  }

  // topk: the k largest (or smallest) along the last dimension, with their
  // s32 indices.
  absl::StatusOr<Shape> TopK() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kIntegerOrFloat));
    if (Op(0).rank() < 1) return Invalid("operand 0 must have rank >= 1; got ", Str(Op(0)));
    absl::StatusOr<int64_t> k = IntAttribute(hlo_, "k");
    AOT_RETURN_IF_ERROR_AND(k, Invalid(_.message()));
    absl::StatusOr<bool> largest = BoolAttribute(hlo_, "largest", true);
    AOT_RETURN_IF_ERROR_AND(largest, Invalid(_.message()));
    std::vector<int64_t> dims = Op(0).dimensions();
    if (*k < 0 || *k > dims.back()) {
      return Invalid("k=", *k, " is out of range [0, ", dims.back(), "] for ", Str(Op(0)));
    }
    dims.back() = *k;
    return Shape::Tuple({Shape(Op(0).element_type(), dims), Shape(S32, dims)});
  }

  // batch-norm-training (x, scale, offset), -inference (x, scale, offset,
  // mean, variance) and -grad (x, scale, mean, variance, grad_output):
  // per-feature vectors along feature_index.
  absl::StatusOr<Shape> BatchNorm() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    AOT_RETURN_IF_ERROR(ExpectClass(0, TypeClass::kFloat));
    absl::StatusOr<int64_t> feature_index = IntAttribute(hlo_, "feature_index");
    AOT_RETURN_IF_ERROR_AND(feature_index, Invalid(_.message()));
    absl::StatusOr<double> epsilon = FloatAttribute(hlo_, "epsilon");
    AOT_RETURN_IF_ERROR_AND(epsilon, Invalid(_.message()));
    const Shape& x = Op(0);
    if (*feature_index < 0 || *feature_index >= x.rank()) {
      return Invalid("feature_index=", *feature_index, " is out of range for ", Str(x));
    }
    const Shape feature(x.element_type(), {x.dimensions(*feature_index)});
    for (int64_t i = 1; i < n(); ++i) {
      const bool like_x = opcode_ == HloOpcode::kBatchNormGrad && i == 4;
      const Shape& expected = like_x ? x : feature;
      if (!Op(i).Compatible(expected)) {
        return Invalid(OperandDesc(i), " has shape ", Str(Op(i)), "; expected ", Str(expected));
      }
    }
    if (opcode_ == HloOpcode::kBatchNormInference) return WithoutLayout(x);
    return Shape::Tuple({WithoutLayout(x), feature, feature});
  }

  // get-dimension-size: the size of one dimension of an array, as s32[].
  absl::StatusOr<Shape> GetDimensionSize() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    if (attrs_.dimensions.size() != 1) {
      return Invalid("needs one dimension (dimensions={d}), got ", attrs_.dimensions.size());
    }
    AOT_RETURN_IF_ERROR(
        CheckDimensionList("dimensions", attrs_.dimensions, Op(0).rank(), Str(Op(0)), false));
    return Shape::Scalar(S32);
  }

  // A size operand of set-dimension-size / dynamic-reshape: s32[].
  absl::Status ExpectSizeOperand(int64_t i) const {
    if (!Op(i).IsArray() || Op(i).rank() != 0 || Op(i).element_type() != S32) {
      return Invalid("size (", OperandDesc(i), ") must be s32[]; got ", Str(Op(i)));
    }
    return absl::OkStatus();
  }

  // set-dimension-size(x, size), dimensions={d}: x, its dimension d sized at
  // run time (the shape keeps the bound).
  absl::StatusOr<Shape> SetDimensionSize() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(ExpectSizeOperand(1));
    if (attrs_.dimensions.size() != 1) {
      return Invalid("needs one dimension (dimensions={d}), got ", attrs_.dimensions.size());
    }
    AOT_RETURN_IF_ERROR(
        CheckDimensionList("dimensions", attrs_.dimensions, Op(0).rank(), Str(Op(0)), false));
    return WithoutLayout(Op(0));
  }

  // shuffle(x): x's shape; its attributes as ReadShuffleAttributes checks them.
  absl::StatusOr<Shape> Shuffle() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    absl::StatusOr<ShuffleAttributes> attributes = ReadShuffleAttributes(hlo_);
    AOT_RETURN_IF_ERROR_AND(attributes, Invalid(_.message()));
    return WithoutLayout(Op(0));
  }

  // dynamic-reshape(x, s0, ..., sN-1): the declared shape (its bounds), one
  // s32[] size per result dimension.
  absl::StatusOr<Shape> DynamicReshape() const {
    if (n() < 1) return Invalid("needs an operand and its sizes");
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(ExpectDeclaredArray());
    const Shape& out = hlo_.shape();
    if (n() != out.rank() + 1) {
      return Invalid("needs one size operand per result dimension: ", out.rank(),
                     " for the declared shape ", Str(out), ", got ", n() - 1);
    }
    for (int64_t i = 1; i < n(); ++i) AOT_RETURN_IF_ERROR(ExpectSizeOperand(i));
    return Shape(Op(0).element_type(), out.dimensions());
  }

  absl::StatusOr<Shape> Reverse() const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(CheckDimensionList("reverse dimensions", attrs_.dimensions, Op(0).rank(),
                                           Str(Op(0)), false));
    return WithoutLayout(Op(0));
  }

  // ---------------------------------------------------------------------
  // Gather / scatter.

  absl::StatusOr<Shape> Gather() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    if (!attrs_.gather_dimension_numbers.has_value()) {
      return Invalid("missing gather dimension numbers");
    }
    const GatherDimensionNumbersProto& d = *attrs_.gather_dimension_numbers;
    const Shape& input = Op(0);
    const Shape& indices = Op(1);
    if (!IsInteger(indices.element_type())) {
      return Invalid("start indices ", Str(indices), " must have an integer element type");
    }
    const int64_t ivd = d.index_vector_dim();
    if (ivd < 0 || ivd > indices.rank()) {
      return Invalid("index_vector_dim=", ivd, " is out of range [0, ", indices.rank() + 1,
                     ") for start indices ", Str(indices));
    }
    std::vector<int64_t> expanded = indices.dimensions();
    if (ivd == indices.rank()) expanded.push_back(1);

    const std::vector<int64_t> offset_dims = ToVector(d.offset_dims());
    const std::vector<int64_t> collapsed = ToVector(d.collapsed_slice_dims());
    const std::vector<int64_t> start_index_map = ToVector(d.start_index_map());
    const std::vector<int64_t> batching = ToVector(d.operand_batching_dims());
    const std::vector<int64_t> indices_batching = ToVector(d.start_indices_batching_dims());
    const int64_t result_rank = static_cast<int64_t>(offset_dims.size() + expanded.size()) - 1;

    AOT_RETURN_IF_ERROR(
        CheckDimensionList("offset_dims", offset_dims, result_rank, "the gather result", true));
    if (static_cast<int64_t>(start_index_map.size()) != expanded[ivd]) {
      return Invalid("start_index_map=", Dims(start_index_map), " has ", start_index_map.size(),
                     " entries but the index vector dimension ", ivd, " of the start indices ",
                     Str(indices), " has size ", expanded[ivd]);
    }
    AOT_RETURN_IF_ERROR(CheckDimensionList("start_index_map", start_index_map, input.rank(),
                                           absl::StrCat("the operand ", Str(input)), false));
    AOT_RETURN_IF_ERROR(CheckDimensionList("collapsed_slice_dims", collapsed, input.rank(),
                                           absl::StrCat("the operand ", Str(input)), true));
    AOT_RETURN_IF_ERROR(CheckDimensionList("operand_batching_dims", batching, input.rank(),
                                           absl::StrCat("the operand ", Str(input)), true));
    for (int64_t b : batching) {
      if (Contains(collapsed, b)) {
        return Invalid("dimension ", b,
                       " is both in collapsed_slice_dims and in "
                       "operand_batching_dims");
      }
      if (Contains(start_index_map, b)) {
        return Invalid("dimension ", b,
                       " is both in start_index_map and in "
                       "operand_batching_dims");
      }
    }
    AOT_RETURN_IF_ERROR(CheckBatchingDimensions(
        "operand_batching_dims", "start_indices_batching_dims", "operand", "start indices",
        batching, indices_batching, input, indices, expanded, ivd));

    const std::vector<int64_t>& slice_sizes = attrs_.gather_slice_sizes;
    if (static_cast<int64_t>(slice_sizes.size()) != input.rank()) {
      return Invalid("slice_sizes=", Dims(slice_sizes), " has ", slice_sizes.size(),
                     " entries but the operand ", Str(input), " has rank ", input.rank());
    }
    if (static_cast<int64_t>(offset_dims.size() + collapsed.size() + batching.size()) !=
        input.rank()) {
      return Invalid("offset_dims=", Dims(offset_dims), ", collapsed_slice_dims=", Dims(collapsed),
                     " and operand_batching_dims=", Dims(batching),
                     " must together have one entry per operand dimension (", input.rank(), ")");
    }
    for (int64_t i = 0; i < input.rank(); ++i) {
      if (slice_sizes[i] < 0 || slice_sizes[i] > input.dimensions(i)) {
        return Invalid("slice size ", slice_sizes[i], " in dimension ", i, " is out of range [0, ",
                       input.dimensions(i), "] for the operand ", Str(input));
      }
    }
    for (int64_t c : collapsed) {
      if (slice_sizes[c] > 1) {
        return Invalid("collapsed slice dimension ", c, " has slice size ", slice_sizes[c],
                       "; must be at most 1");
      }
    }
    for (int64_t b : batching) {
      if (slice_sizes[b] > 1) {
        return Invalid("operand batching dimension ", b, " has slice size ", slice_sizes[b],
                       "; must be at most 1");
      }
    }

    std::vector<int64_t> dims;
    dims.reserve(result_rank);
    int64_t offset_seen = 0;
    int64_t batch_seen = 0;
    for (int64_t i = 0; i < result_rank; ++i) {
      if (Contains(offset_dims, i)) {
        while (Contains(collapsed, offset_seen) || Contains(batching, offset_seen)) {
          ++offset_seen;
        }
        dims.push_back(slice_sizes[offset_seen++]);
      } else {
        if (batch_seen == ivd) ++batch_seen;
        dims.push_back(expanded[batch_seen++]);
      }
    }
    return Shape(input.element_type(), std::move(dims));
  }

  absl::StatusOr<Shape> Scatter() const {
    if (n() < 3 || n() % 2 == 0) {
      return Invalid(
          "expects 2N+1 operands (N inputs, the indices, N "
          "updates) but has ",
          n());
    }
    const int64_t count = (n() - 1) / 2;
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    if (!attrs_.scatter_dimension_numbers.has_value()) {
      return Invalid("missing scatter dimension numbers");
    }
    const ScatterDimensionNumbersProto& d = *attrs_.scatter_dimension_numbers;
    const Shape& operand = Op(0);
    const Shape& indices = Op(count);
    const Shape& updates = Op(count + 1);
    if (!IsInteger(indices.element_type())) {
      return Invalid("scatter indices ", Str(indices), " must have an integer element type");
    }
    const int64_t ivd = d.index_vector_dim();
    if (ivd < 0 || ivd > indices.rank()) {
      return Invalid("index_vector_dim=", ivd, " is out of range [0, ", indices.rank() + 1,
                     ") for scatter indices ", Str(indices));
    }
    std::vector<int64_t> expanded = indices.dimensions();
    if (ivd == indices.rank()) expanded.push_back(1);

    for (int64_t i = 0; i < count; ++i) {
      if (Op(i).dimensions() != operand.dimensions()) {
        return Invalid("input ", i, " has shape ", Str(Op(i)), " but input 0 has ", Str(operand),
                       "; all inputs must have the same dimensions");
      }
      const Shape& u = Op(count + 1 + i);
      if (u.dimensions() != updates.dimensions()) {
        return Invalid("update ", i, " has shape ", Str(u), " but update 0 has ", Str(updates),
                       "; all updates must have the same dimensions");
      }
      if (u.element_type() != Op(i).element_type()) {
        return Invalid("update ", i, " has shape ", Str(u), " but input ", i, " has ", Str(Op(i)),
                       "; element types must match");
      }
    }

    const std::vector<int64_t> window_dims = ToVector(d.update_window_dims());
    const std::vector<int64_t> inserted = ToVector(d.inserted_window_dims());
    const std::vector<int64_t> to_operand = ToVector(d.scatter_dims_to_operand_dims());
    const std::vector<int64_t> batching = ToVector(d.input_batching_dims());
    const std::vector<int64_t> indices_batching = ToVector(d.scatter_indices_batching_dims());

    AOT_RETURN_IF_ERROR(CheckDimensionList("update_window_dims", window_dims, updates.rank(),
                                           absl::StrCat("the updates ", Str(updates)), true));
    AOT_RETURN_IF_ERROR(CheckDimensionList("inserted_window_dims", inserted, operand.rank(),
                                           absl::StrCat("the operand ", Str(operand)), true));
    AOT_RETURN_IF_ERROR(CheckDimensionList("input_batching_dims", batching, operand.rank(),
                                           absl::StrCat("the operand ", Str(operand)), true));
    for (int64_t b : batching) {
      if (Contains(inserted, b)) {
        return Invalid("dimension ", b,
                       " is both in inserted_window_dims and in "
                       "input_batching_dims");
      }
    }
    if (static_cast<int64_t>(window_dims.size() + inserted.size() + batching.size()) !=
        operand.rank()) {
      return Invalid("update_window_dims=", Dims(window_dims),
                     ", inserted_window_dims=", Dims(inserted),
                     " and input_batching_dims=", Dims(batching),
                     " must together have one entry per operand dimension (", operand.rank(), ")");
    }
    if (static_cast<int64_t>(to_operand.size()) != expanded[ivd]) {
      return Invalid("scatter_dims_to_operand_dims=", Dims(to_operand), " has ", to_operand.size(),
                     " entries but the index vector dimension ", ivd, " of the scatter indices ",
                     Str(indices), " has size ", expanded[ivd]);
    }
    AOT_RETURN_IF_ERROR(CheckDimensionList("scatter_dims_to_operand_dims", to_operand,
                                           operand.rank(),
                                           absl::StrCat("the operand ", Str(operand)), false));
    for (int64_t b : batching) {
      if (Contains(to_operand, b)) {
        return Invalid("dimension ", b,
                       " is both in scatter_dims_to_operand_dims and in "
                       "input_batching_dims");
      }
    }
    AOT_RETURN_IF_ERROR(CheckBatchingDimensions(
        "input_batching_dims", "scatter_indices_batching_dims", "input", "scatter indices",
        batching, indices_batching, operand, indices, expanded, ivd));

    const int64_t expected_rank = static_cast<int64_t>(expanded.size() - 1 + window_dims.size());
    if (updates.rank() != expected_rank) {
      return Invalid("updates ", Str(updates), " must have rank ", expected_rank, " (",
                     expanded.size() - 1, " scatter dimensions + ", window_dims.size(),
                     " window dimensions)");
    }
    std::vector<int64_t> max_window;
    for (int64_t i = 0; i < operand.rank(); ++i) {
      if (!Contains(inserted, i) && !Contains(batching, i)) {
        max_window.push_back(operand.dimensions(i));
      }
    }
    for (size_t i = 0; i < window_dims.size(); ++i) {
      if (updates.dimensions(window_dims[i]) > max_window[i]) {
        return Invalid("updates window dimension ", window_dims[i], " has size ",
                       updates.dimensions(window_dims[i]),
                       " which exceeds the corresponding operand bound ", max_window[i]);
      }
    }
    int64_t scatter_seen = 0;
    for (int64_t i = 0; i < updates.rank(); ++i) {
      if (Contains(window_dims, i)) continue;
      if (scatter_seen == ivd) ++scatter_seen;
      if (updates.dimensions(i) != expanded[scatter_seen]) {
        return Invalid("updates scatter dimension ", i, " has size ", updates.dimensions(i),
                       " but the scatter indices dimension ", scatter_seen, " has size ",
                       expanded[scatter_seen]);
      }
      ++scatter_seen;
    }

    AOT_ASSIGN_OR_RETURN(Signature sig, Callee(0, "to_apply computation"));
    std::vector<Shape> inits;
    std::vector<PrimitiveType> types;
    for (int64_t i = 0; i < count; ++i) {
      inits.push_back(Shape::Scalar(Op(i).element_type()));
      types.push_back(Op(count + 1 + i).element_type());
    }
    AOT_RETURN_IF_ERROR(VerifyReducer(sig, inits, types, count));
    if (count == 1) return WithoutLayout(operand);
    std::vector<Shape> results;
    for (int64_t i = 0; i < count; ++i) results.push_back(WithoutLayout(Op(i)));
    return Shape::Tuple(std::move(results));
  }

  // ---------------------------------------------------------------------
  // Reductions.

  // Variadic reductions (reduce, reduce-window): 2N operands, N inputs of
  // one shape then their N init values. Returns N.
  absl::StatusOr<int64_t> ReductionInputCount() const {
    if (n() < 2 || n() % 2 != 0) {
      return Invalid("expects 2N operands (N inputs, N init values) but has ", n());
    }
    const int64_t count = n() / 2;
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    for (int64_t i = 1; i < count; ++i) {
      if (Op(i).dimensions() != Op(0).dimensions()) {
        return Invalid("input ", i, " has shape ", Str(Op(i)), " but input 0 has ", Str(Op(0)),
                       "; all inputs must have the same dimensions");
      }
    }
    return count;
  }

  // The to_apply reducer of a variadic reduction over `count` inputs.
  absl::StatusOr<Signature> ReductionReducer(int64_t count) const {
    AOT_ASSIGN_OR_RETURN(Signature sig, Callee(0, "to_apply computation"));
    std::vector<Shape> inits;
    std::vector<PrimitiveType> types;
    for (int64_t i = 0; i < count; ++i) {
      inits.push_back(Op(count + i));
      types.push_back(Op(i).element_type());
    }
    AOT_RETURN_IF_ERROR(VerifyReducer(sig, inits, types, count));
    return sig;
  }

  absl::StatusOr<Shape> Reduce() const {
    AOT_ASSIGN_OR_RETURN(const int64_t count, ReductionInputCount());
    const Shape& first = Op(0);
    AOT_RETURN_IF_ERROR(CheckDimensionList("reduce dimensions", attrs_.dimensions, first.rank(),
                                           absl::StrCat("the input ", Str(first)), false));
    AOT_ASSIGN_OR_RETURN(Signature sig, ReductionReducer(count));
    std::vector<int64_t> kept;
    for (int64_t i = 0; i < first.rank(); ++i) {
      if (!Contains(attrs_.dimensions, i)) kept.push_back(first.dimensions(i));
    }
    if (sig.result.IsArray()) return Shape(sig.result.element_type(), kept);
    std::vector<Shape> results;
    for (const Shape& s : sig.result.tuple_shapes()) {
      results.push_back(Shape(s.element_type(), kept));
    }
    return Shape::Tuple(std::move(results));
  }

  absl::StatusOr<Shape> ReduceWindow() const {
    AOT_ASSIGN_OR_RETURN(const int64_t count, ReductionInputCount());
    if (!attrs_.window.has_value()) return Invalid("missing window");
    const Shape& first = Op(0);
    AOT_ASSIGN_OR_RETURN(Signature sig, ReductionReducer(count));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         WindowOutputDimensions(first.dimensions(), *attrs_.window,
                                                absl::StrCat("the input ", Str(first))));
    if (sig.result.IsArray()) return Shape(Op(count).element_type(), dims);
    std::vector<Shape> results;
    for (int64_t i = 0; i < count; ++i) {
      results.push_back(Shape(Op(count + i).element_type(), dims));
    }
    return Shape::Tuple(std::move(results));
  }

  absl::StatusOr<Shape> SelectAndScatter() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    if (!attrs_.window.has_value()) return Invalid("missing window");
    const Shape& operand = Op(0);
    const Shape& source = Op(1);
    AOT_ASSIGN_OR_RETURN(Signature select, Callee(0, "select computation"));
    AOT_RETURN_IF_ERROR(ExpectParameterCount(select, 2));
    if (!select.result.Compatible(Shape::Scalar(PRED))) {
      return Invalid(select.description, " must return pred[] but returns ", Str(select.result));
    }
    const Shape element = Shape::Scalar(operand.element_type());
    for (int i = 0; i < 2; ++i) {
      if (!select.parameters[i].Compatible(element)) {
        return Invalid(select.description, ": parameter ", i, " has shape ",
                       Str(select.parameters[i]), " but the operand element shape is ",
                       Str(element));
      }
    }
    AOT_ASSIGN_OR_RETURN(Signature scatter, Callee(1, "scatter computation"));
    const std::vector<Shape> inits = {Op(2)};
    const std::vector<PrimitiveType> types = {source.element_type()};
    AOT_RETURN_IF_ERROR(VerifyReducer(scatter, inits, types, 1));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         WindowOutputDimensions(operand.dimensions(), *attrs_.window,
                                                absl::StrCat("the operand ", Str(operand))));
    const Shape windowed(operand.element_type(), dims);
    if (!source.Compatible(windowed)) {
      return Invalid("source ", Str(source), " does not match the window-reduced operand ",
                     Str(windowed));
    }
    return WithoutLayout(operand);
  }

  // ---------------------------------------------------------------------
  // Dot / convolution.

  // The result element type of dot/convolution from its operand types.
  absl::StatusOr<PrimitiveType> MixedResultType() const {
    const PrimitiveType lt = Op(0).element_type();
    const PrimitiveType rt = Op(1).element_type();
    PrimitiveType from = lt;
    if (lt != rt && (IsComplex(lt) || IsComplex(rt))) {
      return Invalid("lhs has shape ", Str(Op(0)), " but rhs has ", Str(Op(1)),
                     "; complex operands must have the same element type");
    }
    if (lt != rt) {
      const bool same_class =
          (IsFloatingPoint(lt) && IsFloatingPoint(rt)) || (IsInteger(lt) && IsInteger(rt));
      if (!same_class) {
        return Invalid("lhs has shape ", Str(Op(0)), " but rhs has ", Str(Op(1)),
                       "; operand element types must both be floating point "
                       "or both integer");
      }
      from = HigherPrecisionType(lt, rt);
    }
    return UpcastToDeclared(from, hlo_.shape().element_type());
  }

  absl::StatusOr<Shape> Dot() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    if (!attrs_.dot_dimension_numbers.has_value()) {
      return Invalid(
          "missing dot dimension numbers "
          "(lhs_contracting_dims=..., rhs_contracting_dims=...)");
    }
    const DotDimensionNumbersProto& d = *attrs_.dot_dimension_numbers;
    const Shape& lhs = Op(0);
    const Shape& rhs = Op(1);
    const std::vector<int64_t> lc = ToVector(d.lhs_contracting_dimensions());
    const std::vector<int64_t> rc = ToVector(d.rhs_contracting_dimensions());
    const std::vector<int64_t> lb = ToVector(d.lhs_batch_dimensions());
    const std::vector<int64_t> rb = ToVector(d.rhs_batch_dimensions());
    std::vector<int64_t> lhs_all = lb;
    lhs_all.insert(lhs_all.end(), lc.begin(), lc.end());
    std::vector<int64_t> rhs_all = rb;
    rhs_all.insert(rhs_all.end(), rc.begin(), rc.end());
    AOT_RETURN_IF_ERROR(CheckDimensionList("lhs batch+contracting dimensions", lhs_all, lhs.rank(),
                                           absl::StrCat("the lhs ", Str(lhs)), false));
    AOT_RETURN_IF_ERROR(CheckDimensionList("rhs batch+contracting dimensions", rhs_all, rhs.rank(),
                                           absl::StrCat("the rhs ", Str(rhs)), false));
    if (lc.size() != rc.size()) {
      return Invalid("lhs_contracting_dims=", Dims(lc), " and rhs_contracting_dims=", Dims(rc),
                     " must have the same number of dimensions");
    }
    if (lb.size() != rb.size()) {
      return Invalid("lhs_batch_dims=", Dims(lb), " and rhs_batch_dims=", Dims(rb),
                     " must have the same number of dimensions");
    }
    for (size_t i = 0; i < lc.size(); ++i) {
      if (lhs.dimensions(lc[i]) != rhs.dimensions(rc[i])) {
        return Invalid("contracting dimension sizes differ: lhs ", Str(lhs), " dimension ", lc[i],
                       " has size ", lhs.dimensions(lc[i]), " but rhs ", Str(rhs), " dimension ",
                       rc[i], " has size ", rhs.dimensions(rc[i]));
      }
    }
    for (size_t i = 0; i < lb.size(); ++i) {
      if (lhs.dimensions(lb[i]) != rhs.dimensions(rb[i])) {
        return Invalid("batch dimension sizes differ: lhs ", Str(lhs), " dimension ", lb[i],
                       " has size ", lhs.dimensions(lb[i]), " but rhs ", Str(rhs), " dimension ",
                       rb[i], " has size ", rhs.dimensions(rb[i]));
      }
    }
    AOT_RETURN_IF_ERROR(CheckOperandPrecision());
    AOT_ASSIGN_OR_RETURN(PrimitiveType type, MixedResultType());
    return Shape(type, DotResultDimensions(lhs.dimensions(), rhs.dimensions(), lb, lc, rb, rc));
  }

  absl::Status CheckOperandPrecision() const {
    const size_t count = attrs_.operand_precision.size();
    if (count != 0 && count != 2) {
      return Invalid("operand_precision has ", count, " entries; expected one per operand (2)");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Shape> Convolution() const {
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    if (!attrs_.convolution_dimension_numbers.has_value()) {
      return Invalid("missing convolution dimension numbers (dim_labels=...)");
    }
    const ConvolutionDimensionNumbersProto& d = *attrs_.convolution_dimension_numbers;
    const Shape& lhs = Op(0);
    const Shape& rhs = Op(1);
    const int64_t fgc = attrs_.feature_group_count;
    const int64_t bgc = attrs_.batch_group_count;
    if (fgc < 1) {
      return Invalid("feature_group_count=", fgc, " must be positive");
    }
    if (bgc < 1) return Invalid("batch_group_count=", bgc, " must be positive");
    if (fgc > 1 && bgc > 1) {
      return Invalid("feature_group_count=", fgc, " and batch_group_count=", bgc,
                     " cannot both be greater than 1");
    }
    const int64_t spatial = d.input_spatial_dimensions_size();
    if (d.kernel_spatial_dimensions_size() != spatial ||
        d.output_spatial_dimensions_size() != spatial) {
      return Invalid("dim_labels have ", spatial, " input, ", d.kernel_spatial_dimensions_size(),
                     " kernel and ", d.output_spatial_dimensions_size(),
                     " output spatial dimensions; they must be equal");
    }
    WindowProto empty_window;
    const WindowProto* window = &empty_window;
    if (attrs_.window.has_value()) {
      window = &*attrs_.window;
    } else if (spatial > 0) {
      return Invalid("missing window");
    }
    if (window->dimensions_size() != spatial) {
      return Invalid("window has ", window->dimensions_size(),
                     " dimensions but the dim_labels have ", spatial, " spatial dimensions");
    }
    const int64_t rank = spatial + 2;
    if (lhs.rank() != rank) {
      return Invalid("lhs ", Str(lhs), " must have rank ", rank, " (batch, feature and ", spatial,
                     " spatial dimensions)");
    }
    if (rhs.rank() != rank) {
      return Invalid("rhs ", Str(rhs), " must have rank ", rank,
                     " (input feature, output feature and ", spatial, " spatial dimensions)");
    }
    auto is_permutation = [rank](std::vector<int64_t> dims) {
      std::sort(dims.begin(), dims.end());
      for (int64_t i = 0; i < rank; ++i) {
        if (dims[i] != i) return false;
      }
      return true;
    };
    std::vector<int64_t> in_dims = {d.input_batch_dimension(), d.input_feature_dimension()};
    in_dims.insert(in_dims.end(), d.input_spatial_dimensions().begin(),
                   d.input_spatial_dimensions().end());
    std::vector<int64_t> k_dims = {d.kernel_input_feature_dimension(),
                                   d.kernel_output_feature_dimension()};
    k_dims.insert(k_dims.end(), d.kernel_spatial_dimensions().begin(),
                  d.kernel_spatial_dimensions().end());
    std::vector<int64_t> out_dims = {d.output_batch_dimension(), d.output_feature_dimension()};
    out_dims.insert(out_dims.end(), d.output_spatial_dimensions().begin(),
                    d.output_spatial_dimensions().end());
    if (!is_permutation(in_dims)) {
      return Invalid("input dimension numbers ", Dims(in_dims), " must name each of the ", rank,
                     " lhs dimensions exactly once");
    }
    if (!is_permutation(k_dims)) {
      return Invalid("kernel dimension numbers ", Dims(k_dims), " must name each of the ", rank,
                     " rhs dimensions exactly once");
    }
    if (!is_permutation(out_dims)) {
      return Invalid("output dimension numbers ", Dims(out_dims), " must name each of the ", rank,
                     " result dimensions exactly once");
    }
    const int64_t input_batch = lhs.dimensions(d.input_batch_dimension());
    const int64_t input_features = lhs.dimensions(d.input_feature_dimension());
    const int64_t kernel_in = rhs.dimensions(d.kernel_input_feature_dimension());
    const int64_t kernel_out = rhs.dimensions(d.kernel_output_feature_dimension());
    if (kernel_out % bgc != 0) {
      return Invalid("kernel output feature size ", kernel_out,
                     " is not a multiple of batch_group_count=", bgc);
    }
    if (input_features % fgc != 0 || input_features / fgc != kernel_in) {
      return Invalid("lhs feature dimension size ", input_features,
                     " divided by feature_group_count=", fgc,
                     " must equal the kernel input feature size ", kernel_in, " (lhs ", Str(lhs),
                     ", rhs ", Str(rhs), ")");
    }
    if (kernel_out % fgc != 0) {
      return Invalid("kernel output feature size ", kernel_out,
                     " is not a multiple of feature_group_count=", fgc);
    }
    if (input_batch % bgc != 0) {
      return Invalid("lhs batch size ", input_batch,
                     " is not a multiple of batch_group_count=", bgc);
    }
    std::vector<int64_t> base(spatial);
    for (int64_t i = 0; i < spatial; ++i) {
      base[i] = lhs.dimensions(d.input_spatial_dimensions(i));
      const int64_t k = rhs.dimensions(d.kernel_spatial_dimensions(i));
      if (window->dimensions(i).size() != k) {
        return Invalid("window size ", window->dimensions(i).size(), " of spatial dimension ", i,
                       " does not match the kernel size ", k, " (rhs ", Str(rhs), ")");
      }
    }
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> windowed,
                         WindowOutputDimensions(base, *window, "the lhs spatial dimensions"));
    AOT_RETURN_IF_ERROR(CheckOperandPrecision());
    AOT_ASSIGN_OR_RETURN(PrimitiveType type, MixedResultType());
    std::vector<int64_t> dims(rank);
    dims[d.output_batch_dimension()] = input_batch / bgc;
    dims[d.output_feature_dimension()] = kernel_out;
    for (int64_t i = 0; i < spatial; ++i) {
      dims[d.output_spatial_dimensions(i)] = windowed[i];
    }
    return Shape(type, std::move(dims));
  }

  // ---------------------------------------------------------------------
  // Sort and control flow.

  absl::StatusOr<Shape> Sort() const {
    if (n() < 1) return Invalid("expects at least one operand");
    AOT_RETURN_IF_ERROR(ExpectAllArrays());
    const Shape& first = Op(0);
    for (int64_t i = 1; i < n(); ++i) {
      if (Op(i).dimensions() != first.dimensions()) {
        return Invalid("operand ", i, " has shape ", Str(Op(i)), " but operand 0 has ", Str(first),
                       "; all operands must have the same dimensions");
      }
    }
    if (attrs_.dimensions.size() != 1) {
      return Invalid("needs exactly one sort dimension; got dimensions=", Dims(attrs_.dimensions));
    }
    const int64_t dim = attrs_.dimensions[0];
    if (dim < 0 || dim >= first.rank()) {
      return Invalid("sort dimension ", dim, " is out of range for ", Str(first));
    }
    AOT_ASSIGN_OR_RETURN(Signature cmp, Callee(0, "comparator"));
    AOT_RETURN_IF_ERROR(ExpectParameterCount(cmp, 2 * n()));
    if (!cmp.result.Compatible(Shape::Scalar(PRED))) {
      return Invalid(cmp.description, " must return pred[] but returns ", Str(cmp.result));
    }
    for (int64_t p = 0; p < 2 * n(); ++p) {
      const Shape expected = Shape::Scalar(Op(p / 2).element_type());
      if (!cmp.parameters[p].Compatible(expected)) {
        return Invalid(cmp.description, ": parameter ", p, " has shape ", Str(cmp.parameters[p]),
                       " but operand ", p / 2, " needs ", Str(expected));
      }
    }
    if (n() == 1) return WithoutLayout(first);
    return Tuple();
  }

  absl::StatusOr<Shape> While() const {
    const Shape& init = Op(0);
    AOT_ASSIGN_OR_RETURN(Signature cond, Callee(0, "condition computation"));
    AOT_ASSIGN_OR_RETURN(Signature body, Callee(1, "body computation"));
    AOT_RETURN_IF_ERROR(ExpectParameterCount(cond, 1));
    AOT_RETURN_IF_ERROR(ExpectParameterCount(body, 1));
    if (!cond.parameters[0].Compatible(init)) {
      return Invalid(cond.description, " parameter has shape ", Str(cond.parameters[0]),
                     " but the operand has ", Str(init));
    }
    if (!cond.result.Compatible(Shape::Scalar(PRED))) {
      return Invalid(cond.description, " must return pred[] but returns ", Str(cond.result));
    }
    if (!body.parameters[0].Compatible(init)) {
      return Invalid(body.description, " parameter has shape ", Str(body.parameters[0]),
                     " but the operand has ", Str(init));
    }
    if (!body.result.Compatible(init)) {
      return Invalid(body.description, " returns ", Str(body.result),
                     " but the operand (loop state) has ", Str(init));
    }
    return WithoutLayout(init);
  }

  absl::StatusOr<Shape> Conditional() const {
    if (n() < 1) return Invalid("expects a branch index operand");
    const Shape& index = Op(0);
    const int64_t branches = static_cast<int64_t>(called().size());
    if (!index.IsArray() || index.rank() != 0 ||
        (index.element_type() != PRED && index.element_type() != S32)) {
      return Invalid("branch index (", OperandDesc(0), ") has shape ", Str(index),
                     "; expected pred[] or s32[]");
    }
    if (index.element_type() == PRED && branches != 2) {
      return Invalid(
          "a pred[] branch index needs exactly 2 branch "
          "computations but there are ",
          branches);
    }
    if (n() != branches + 1) {
      return Invalid("has ", branches, " branch computations and so needs ", branches + 1,
                     " operands but has ", n());
    }
    Shape result;
    for (int64_t b = 0; b < branches; ++b) {
      AOT_ASSIGN_OR_RETURN(Signature sig, Callee(b, absl::StrCat("branch ", b, " computation")));
      AOT_RETURN_IF_ERROR(ExpectParameterCount(sig, 1));
      if (!sig.parameters[0].Compatible(Op(b + 1))) {
        return Invalid(sig.description, " parameter has shape ", Str(sig.parameters[0]), " but ",
                       OperandDesc(b + 1), " has ", Str(Op(b + 1)));
      }
      if (b == 0) {
        result = sig.result;
      } else if (!sig.result.Compatible(result)) {
        return Invalid(sig.description, " returns ", Str(sig.result), " but branch 0 returns ",
                       Str(result), "; all branches must return the same shape");
      }
    }
    return WithoutLayout(result);
  }

  // ---------------------------------------------------------------------
  // Collectives.

  // The operands' shapes as the result: the shape of a single operand, a
  // tuple of them otherwise.
  Shape OperandsAsResult(const std::vector<Shape>& shapes) const {
    if (shapes.size() == 1) return shapes[0];
    return Shape::Tuple(shapes);
  }
  std::vector<Shape> OperandShapes() const {
    std::vector<Shape> shapes;
    for (int64_t i = 0; i < n(); ++i) shapes.push_back(WithoutLayout(Op(i)));
    return shapes;
  }

  absl::Status ExpectSomeArrayOperands() const {
    if (n() < 1) return Invalid("expects at least one operand");
    return ExpectAllArrays();
  }

  // The size of the groups the collective runs over. In a module the
  // groups come from its replica_count and num_partitions (and are checked:
  // CollectiveParticipantGroups' errors); a lone instruction falls back to
  // its first explicit group, or nullopt when it has none. `uniform`: the
  // shape depends on the size, so every group must have the same.
  absl::StatusOr<std::optional<int64_t>> CollectiveGroupSize(bool uniform) const {
    AOT_RETURN_IF_ERROR(GetCollectiveOpGroupMode(hlo_).status());
    const HloComputation* computation = hlo_.parent();
    const HloModule* module = computation == nullptr ? nullptr : computation->parent();
    std::vector<std::vector<int64_t>> groups;
    if (module != nullptr) {
      AOT_ASSIGN_OR_RETURN(groups, CollectiveParticipantGroups(hlo_, module->config().replica_count,
                                                               module->config().num_partitions));
    } else {
      groups = attrs_.replica_groups;
    }
    if (groups.empty()) return std::optional<int64_t>();
    if (uniform) {
      for (const std::vector<int64_t>& g : groups) {
        if (g.size() != groups[0].size()) {
          return Invalid("replica_groups ", ReplicaGroupsToString(attrs_.replica_groups),
                         " have groups of different sizes (", groups[0].size(), " and ", g.size(),
                         "); the result shape needs one group size");
        }
      }
    }
    return std::optional<int64_t>(static_cast<int64_t>(groups[0].size()));
  }

  // to_apply: (T[], T[]) -> T[] for the element type T of every operand.
  absl::Status CollectiveReducer() const {
    AOT_ASSIGN_OR_RETURN(Signature sig, Callee(0, "to_apply computation"));
    AOT_RETURN_IF_ERROR(ExpectParameterCount(sig, 2));
    for (int64_t i = 0; i < n(); ++i) {
      const Shape scalar = Shape::Scalar(Op(i).element_type());
      if (!sig.parameters[0].Compatible(scalar) || !sig.parameters[1].Compatible(scalar) ||
          !sig.result.Compatible(scalar)) {
        return Invalid(sig.description, " must be a binary computation (", Str(scalar), ", ",
                       Str(scalar), ") -> ", Str(scalar), " for ", OperandDesc(i), " (", Str(Op(i)),
                       ") but is (", Str(sig.parameters[0]), ", ", Str(sig.parameters[1]), ") -> ",
                       Str(sig.result));
      }
    }
    return absl::OkStatus();
  }

  // The one dimension of all-gather / reduce-scatter / array all-to-all, in
  // range for every operand.
  absl::StatusOr<int64_t> CollectiveDimension() const {
    if (attrs_.dimensions.size() != 1) {
      return Invalid("needs exactly one dimension; got dimensions=", Dims(attrs_.dimensions));
    }
    const int64_t d = attrs_.dimensions[0];
    for (int64_t i = 0; i < n(); ++i) {
      if (d < 0 || d >= Op(i).rank()) {
        return Invalid("dimension ", d, " is out of range for ", OperandDesc(i), " (", Str(Op(i)),
                       ")");
      }
    }
    return d;
  }

  absl::Status ExpectDivisible(int64_t i, int64_t d, int64_t group_size) const {
    if (Op(i).dimensions(d) % group_size != 0) {
      return Invalid("dimension ", d, " of ", OperandDesc(i), " (", Str(Op(i)), ") has size ",
                     Op(i).dimensions(d), ", not a multiple of the group size ", group_size);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Shape> AllReduce() const {
    AOT_RETURN_IF_ERROR(ExpectSomeArrayOperands());
    AOT_RETURN_IF_ERROR(CollectiveReducer());
    AOT_RETURN_IF_ERROR(CollectiveGroupSize(/*uniform=*/false).status());
    return OperandsAsResult(OperandShapes());
  }

  absl::StatusOr<Shape> AllGather(bool start) const {
    AOT_RETURN_IF_ERROR(ExpectSomeArrayOperands());
    AOT_ASSIGN_OR_RETURN(const int64_t d, CollectiveDimension());
    AOT_ASSIGN_OR_RETURN(std::optional<int64_t> group_size, CollectiveGroupSize(/*uniform=*/true));
    if (!group_size.has_value()) return Declared();
    std::vector<Shape> results = OperandShapes();
    for (Shape& r : results) {
      const Wide size = Wide{r.dimensions(d)} * *group_size;
      if (!FitsInt64(size)) return Invalid("the gathered dimension ", d, " overflows int64");
      (*r.mutable_dimensions())[d] = static_cast<int64_t>(size);
    }
    if (!start) return OperandsAsResult(results);
    if (n() == 1) return Shape::Tuple({WithoutLayout(Op(0)), results[0]});
    return Shape::Tuple({Shape::Tuple(OperandShapes()), Shape::Tuple(results)});
  }

  absl::StatusOr<Shape> ReduceScatter() const {
    AOT_RETURN_IF_ERROR(ExpectSomeArrayOperands());
    AOT_RETURN_IF_ERROR(CollectiveReducer());
    AOT_ASSIGN_OR_RETURN(const int64_t d, CollectiveDimension());
    AOT_ASSIGN_OR_RETURN(std::optional<int64_t> group_size, CollectiveGroupSize(/*uniform=*/true));
    if (!group_size.has_value()) return Declared();
    std::vector<Shape> results = OperandShapes();
    for (int64_t i = 0; i < n(); ++i) {
      AOT_RETURN_IF_ERROR(ExpectDivisible(i, d, *group_size));
      (*results[i].mutable_dimensions())[d] /= *group_size;
    }
    return OperandsAsResult(results);
  }

  absl::StatusOr<Shape> AllToAll() const {
    AOT_RETURN_IF_ERROR(ExpectSomeArrayOperands());
    AOT_ASSIGN_OR_RETURN(std::optional<int64_t> group_size, CollectiveGroupSize(/*uniform=*/true));
    if (!attrs_.dimensions.empty()) {
      // The array form: split along the dimension, one chunk per member.
      if (n() != 1) {
        return Invalid("the array form (dimensions=", Dims(attrs_.dimensions),
                       ") takes one operand but has ", n());
      }
      AOT_ASSIGN_OR_RETURN(const int64_t d, CollectiveDimension());
      if (group_size.has_value()) AOT_RETURN_IF_ERROR(ExpectDivisible(0, d, *group_size));
      return WithoutLayout(Op(0));
    }
    // The tuple form: operand j goes to member j.
    for (int64_t i = 1; i < n(); ++i) AOT_RETURN_IF_ERROR(ExpectSameShape(i, 0));
    if (group_size.has_value() && n() != *group_size) {
      return Invalid("the tuple form (no dimensions) takes one operand per group member (",
                     *group_size, ") but has ", n());
    }
    return Shape::Tuple(OperandShapes());
  }

  absl::StatusOr<Shape> CollectivePermute(bool start) const {
    AOT_RETURN_IF_ERROR(ExpectArray(0));
    AOT_RETURN_IF_ERROR(GetCollectiveOpGroupMode(hlo_).status());
    const HloComputation* computation = hlo_.parent();
    const HloModule* module = computation == nullptr ? nullptr : computation->parent();
    if (module != nullptr) {
      AOT_RETURN_IF_ERROR(CollectivePermutePairs(hlo_, module->config().replica_count,
                                                 module->config().num_partitions)
                              .status());
    } else {
      absl::flat_hash_set<int64_t> sources, targets;
      for (const auto& [source, target] : attrs_.source_target_pairs) {
        if (!sources.insert(source).second) {
          return Invalid("source_target_pairs: source ", source, " appears more than once");
        }
        if (!targets.insert(target).second) {
          return Invalid("source_target_pairs: target ", target, " appears more than once");
        }
      }
    }
    const Shape operand = WithoutLayout(Op(0));
    if (!start) return operand;
    return Shape::Tuple({operand, operand, Shape::Scalar(U32), Shape::Scalar(U32)});
  }

  absl::StatusOr<Shape> CollectiveBroadcast() const {
    AOT_RETURN_IF_ERROR(ExpectSomeArrayOperands());
    AOT_RETURN_IF_ERROR(CollectiveGroupSize(/*uniform=*/false).status());
    return OperandsAsResult(OperandShapes());
  }

  // all-reduce-done (the start's shape, `element` < 0), all-gather-done and
  // collective-permute-done (element 1 of the start's tuple).
  absl::StatusOr<Shape> AsyncDone(HloOpcode start, int64_t element) const {
    if (hlo_.operand(0)->opcode() != start) {
      return Invalid(OperandDesc(0), " must be the ", HloOpcodeString(start),
                     " this completes; got a ", HloOpcodeString(hlo_.operand(0)->opcode()));
    }
    if (element < 0) return WithoutLayout(Op(0));
    if (!Op(0).IsTuple() || static_cast<int64_t>(Op(0).tuple_shapes().size()) <= element) {
      return Invalid(OperandDesc(0), " has shape ", Str(Op(0)), "; expected a tuple with element ",
                     element);
    }
    return WithoutLayout(Op(0).tuple_shapes(element));
  }

  const HloInstruction& hlo_;
  const HloAttributes& attrs_;
  const HloOpcode opcode_;
};

}  // namespace

absl::StatusOr<Shape> InferShape(const HloInstruction& instruction) {
  absl::StatusOr<Shape> result = Inferrer(instruction).Run();
  if (!result.ok()) {
    const std::string prefix = absl::StrCat(DescribeInstruction(instruction), ": ");
    // Errors of collective_ops.h name the instruction already.
    if (absl::StartsWith(result.status().message(), prefix)) return result;
    return absl::Status(result.status().code(), absl::StrCat(prefix, result.status().message()));
  }
  return result;
}

}  // namespace aot
