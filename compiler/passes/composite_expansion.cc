#include "compiler/passes/composite_expansion.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/shuffle.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

absl::StatusOr<HloInstruction*> ExpandMap(HloInstruction* map, InstructionBuilder& b) {
  const HloComputation* f = map->to_apply();
  const std::vector<int64_t>& dims = map->shape().dimensions();
  absl::flat_hash_map<const HloInstruction*, HloInstruction*> value_of;
  for (HloInstruction* i : f->MakeInstructionPostOrder()) {
    if (i->opcode() == HloOpcode::kParameter) {
      value_of[i] = map->operand(i->parameter_number());
      continue;
    }
    if (i->opcode() == HloOpcode::kConstant && i->shape().IsArray() && i->shape().rank() == 0) {
      HloInstruction* scalar = b.Add(CloneWithOperands(*i, {}));
      value_of[i] = b.Broadcast(scalar, Shape(i->shape().element_type(), dims), {});
      continue;
    }
    if (!IsElementwise(i->opcode()) || !i->shape().IsArray()) {
      return absl::UnimplementedError(absl::StrCat(
          "instruction '", map->name(), "' (map): its to_apply computation '", f->name(),
          "' holds '", i->name(), "' (", HloOpcodeString(i->opcode()),
          "), which is not elementwise; only elementwise scalar computations are mapped"));
    }
    std::vector<HloInstruction*> operands;
    for (HloInstruction* op : i->operands()) operands.push_back(value_of.at(op));
    std::unique_ptr<HloInstruction> lifted = CloneWithOperands(*i, operands);
    *lifted->mutable_shape() = Shape(i->shape().element_type(), dims);
    value_of[i] = b.Add(std::move(lifted));
  }
  HloInstruction* result = value_of.at(f->root_instruction());
  // A map that hands back an operand which is a parameter of the caller
  // still yields a value of its own. (Every value here is in the map's
  // computation: its operands, or instructions added beside it.)
  if (result->opcode() == HloOpcode::kParameter) {
    result = b.Op(HloOpcode::kCopy, Shape(result->shape().element_type(), dims), {result});
  }
  return b.WithLayoutOf(result, map->shape());
}

absl::StatusOr<HloInstruction*> ExpandTopK(HloInstruction* topk, InstructionBuilder& b,
                                           HloModule* module) {
  AOT_ASSIGN_OR_RETURN(const int64_t k, IntAttribute(*topk, "k"));
  AOT_ASSIGN_OR_RETURN(const bool largest, BoolAttribute(*topk, "largest", true));
  HloInstruction* x = topk->operand(0);
  const PrimitiveType type = x->shape().element_type();
  const std::vector<int64_t>& dims = x->shape().dimensions();
  const int64_t last = static_cast<int64_t>(dims.size()) - 1;
  HloInstruction* iota = b.Op(HloOpcode::kIota, Shape(S32, dims), {});
  iota->mutable_attrs()->dimensions = {last};
  HloComputation* comparator =
      AddScalarComputation(module, largest ? "topk_greater" : "topk_less", {type, type, S32, S32},
                           [&](std::vector<HloInstruction*> p) {
                             auto compare = HloInstruction::Create(
                                 HloOpcode::kCompare, Shape::Scalar(PRED), {p[0], p[1]});
                             compare->mutable_attrs()->comparison_direction =
                                 largest ? ComparisonDirection::kGt : ComparisonDirection::kLt;
                             if (IsFloatingPoint(type))
                               compare->mutable_attrs()->comparison_type = "TOTALORDER";
                             return compare;
                           });
  HloInstruction* sort =
      b.Op(HloOpcode::kSort, Shape::Tuple({Shape(type, dims), Shape(S32, dims)}), {x, iota});
  sort->mutable_attrs()->dimensions = {last};
  sort->mutable_attrs()->is_stable = true;
  sort->mutable_called_computations()->push_back(comparator);
  std::vector<SliceSpec> slice;
  for (int64_t d : dims) slice.push_back({0, d, 1});
  slice.back().limit = k;
  std::vector<int64_t> out_dims = dims;
  out_dims.back() = k;
  std::vector<HloInstruction*> outputs;
  for (int64_t i = 0; i < 2; ++i) {
    HloInstruction* sorted = b.GetTupleElement(sort, i);
    HloInstruction* top =
        b.Op(HloOpcode::kSlice, Shape(sorted->shape().element_type(), out_dims), {sorted});
    top->mutable_attrs()->slice = slice;
    outputs.push_back(b.WithLayoutOf(top, topk->shape().tuple_shapes(i)));
  }
  return b.Tuple(std::move(outputs));
}

absl::StatusOr<HloInstruction*> ExpandBatchNorm(HloInstruction* bn, InstructionBuilder& b,
                                                HloModule* module) {
  AOT_ASSIGN_OR_RETURN(const int64_t fi, IntAttribute(*bn, "feature_index"));
  AOT_ASSIGN_OR_RETURN(const double epsilon, FloatAttribute(*bn, "epsilon"));
  const Shape& x_shape = bn->operand(0)->shape();
  const PrimitiveType type = x_shape.element_type();
  // f16 and bf16 are computed in f32 and rounded once at the end.
  const PrimitiveType ct = (type == F16 || type == BF16) ? F32 : type;
  const std::vector<int64_t>& dims = x_shape.dimensions();
  const Shape xs(ct, dims);
  const Shape fs(ct, {dims[fi]});
  std::vector<int64_t> reduce_dims;
  for (int64_t d = 0; d < static_cast<int64_t>(dims.size()); ++d) {
    if (d != fi) reduce_dims.push_back(d);
  }
  int64_t per_feature = 1;
  for (int64_t d : reduce_dims) per_feature *= dims[d];
  std::vector<HloInstruction*> in;
  for (HloInstruction* op : bn->operands()) in.push_back(b.Convert(op, ct));

  HloComputation* add = nullptr;
  auto sum = [&](HloInstruction* v) {
    if (add == nullptr) add = AddComputationFor(module, ct);
    HloInstruction* r = b.Op(HloOpcode::kReduce, fs, {v, b.Constant(ct, 0)});
    r->mutable_attrs()->dimensions = reduce_dims;
    r->mutable_called_computations()->push_back(add);
    return r;
  };
  auto over_x = [&](HloInstruction* feature_vector) {
    return b.Broadcast(feature_vector, xs, {fi});
  };
  auto splat = [&](const Shape& shape, double value) {
    return b.Broadcast(b.Constant(ct, value), shape, {});
  };
  auto mul = [&](HloInstruction* p, HloInstruction* q) {
    return b.Binary(HloOpcode::kMultiply, p, q);
  };
  auto sub = [&](HloInstruction* p, HloInstruction* q) {
    return b.Binary(HloOpcode::kSubtract, p, q);
  };
  auto rstd_of = [&](HloInstruction* var) {
    // epsilon is f32 in XLA; as a constant of the compute type.
    HloInstruction* eps = splat(fs, static_cast<float>(epsilon));
    return b.Op(HloOpcode::kRsqrt, fs, {b.Binary(HloOpcode::kAdd, var, eps)});
  };
  const double n = static_cast<double>(per_feature);
  std::vector<HloInstruction*> outputs;
  switch (bn->opcode()) {
    case HloOpcode::kBatchNormInference: {
      // (x - mean) * (scale * rstd) + offset
      HloInstruction* factor = mul(in[1], rstd_of(in[4]));
      HloInstruction* y =
          b.Binary(HloOpcode::kAdd, mul(sub(in[0], over_x(in[3])), over_x(factor)), over_x(in[2]));
      outputs.push_back(y);
      break;
    }
    case HloOpcode::kBatchNormTraining: {
      HloInstruction* inv_n = splat(fs, n == 0 ? 0 : 1 / n);
      HloInstruction* mean = mul(sum(in[0]), inv_n);
      HloInstruction* centered = sub(in[0], over_x(mean));
      HloInstruction* var = mul(sum(mul(centered, centered)), inv_n);
      HloInstruction* factor = mul(in[1], rstd_of(var));
      HloInstruction* y = b.Binary(HloOpcode::kAdd, mul(centered, over_x(factor)), over_x(in[2]));
      outputs = {y, mean, var};
      break;
    }
    case HloOpcode::kBatchNormGrad: {
      // x, scale, mean, variance, grad_output:
      // dx = scale * rstd / n * (n * dy - sum(dy) - (x - mean) * rstd * d_scale),
      // d_scale = sum(dy * (x - mean)) * rstd, d_offset = sum(dy).
      HloInstruction* dy = in[4];
      HloInstruction* rstd = rstd_of(in[3]);
      HloInstruction* centered = sub(in[0], over_x(in[2]));
      HloInstruction* d_offset = sum(dy);
      HloInstruction* d_scale = mul(sum(mul(dy, centered)), rstd);
      HloInstruction* outer = mul(mul(in[1], rstd), splat(fs, n == 0 ? 0 : 1 / n));
      HloInstruction* inner = sub(sub(mul(splat(xs, n), dy), over_x(d_offset)),
                                  mul(centered, over_x(mul(rstd, d_scale))));
      outputs = {mul(over_x(outer), inner), d_scale, d_offset};
      break;
    }
    default:
      return absl::InternalError("not a batch-norm opcode");
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Shape& want = bn->shape().IsTuple() ? bn->shape().tuple_shapes(i) : bn->shape();
    outputs[i] = b.WithLayoutOf(b.Convert(outputs[i], type), want);
  }
  if (bn->opcode() == HloOpcode::kBatchNormInference) return outputs[0];
  return b.Tuple(std::move(outputs));
}

// stochastic-convert(x, random) -> XLA's decomposition: the whole part of
// |x|, plus one where random is below the fraction scaled to random's
// range, negated for negative x, clamped at the result's bounds (as x's
// type holds them). f16 scales in f32 (2^16 is beyond f16).
absl::StatusOr<HloInstruction*> ExpandStochasticConvert(HloInstruction* sc, InstructionBuilder& b) {
  HloInstruction* x = sc->operand(0);
  HloInstruction* random = sc->operand(1);
  const PrimitiveType type = x->shape().element_type();
  const PrimitiveType random_type = random->shape().element_type();
  const PrimitiveType out = sc->shape().element_type();
  const std::vector<int64_t>& dims = x->shape().dimensions();
  const int out_bits = static_cast<int>(8 * ByteWidth(out));
  auto splat_int = [&](int64_t value) {
    Literal scalar(Shape::Scalar(out));
    scalar.SetFromInt64(0, value);
    HloInstruction* c = b.Constant(std::move(scalar));
    return b.Broadcast(c, Shape(out, dims), {});
  };
  HloInstruction* a = b.Unary(HloOpcode::kAbs, x);
  HloInstruction* whole = b.Unary(HloOpcode::kFloor, a);
  HloInstruction* fraction = b.Binary(HloOpcode::kSubtract, a, whole);
  const PrimitiveType scale_type = type == F16 ? F32 : type;
  HloInstruction* wide_fraction = b.Convert(fraction, scale_type);
  HloInstruction* range =
      b.Splat(scale_type, std::ldexp(1.0, static_cast<int>(8 * ByteWidth(random_type))), dims);
  HloInstruction* scaled = b.Binary(HloOpcode::kMultiply, wide_fraction, range);
  HloInstruction* fixed = b.Convert(scaled, random_type);
  HloInstruction* up = b.Compare(random, fixed, ComparisonDirection::kLt);
  HloInstruction* truncated = b.Convert(whole, out);
  HloInstruction* one = splat_int(1);
  HloInstruction* bumped = b.Binary(HloOpcode::kAdd, truncated, one);
  HloInstruction* magnitude = b.Select(up, bumped, truncated);
  HloInstruction* zero = b.Splat(type, 0, dims);
  HloInstruction* negative = b.Compare(x, zero, ComparisonDirection::kLt);
  HloInstruction* negated = b.Unary(HloOpcode::kNegate, magnitude);
  HloInstruction* signed_value = b.Select(negative, negated, magnitude);
  const int64_t lowest = std::numeric_limits<int64_t>::min() >> (64 - out_bits);
  const int64_t highest = std::numeric_limits<int64_t>::max() >> (64 - out_bits);
  HloInstruction* low_bound = b.Splat(type, static_cast<double>(lowest), dims);
  HloInstruction* at_low = b.Compare(x, low_bound, ComparisonDirection::kLe);
  HloInstruction* lowest_value = splat_int(lowest);
  HloInstruction* low_clamped = b.Select(at_low, lowest_value, signed_value);
  HloInstruction* high_bound = b.Splat(type, static_cast<double>(highest), dims);
  HloInstruction* at_high = b.Compare(x, high_bound, ComparisonDirection::kGe);
  HloInstruction* highest_value = splat_int(highest);
  HloInstruction* clamped = b.Select(at_high, highest_value, low_clamped);
  return b.WithLayoutOf(clamped, sc->shape());
}

// ragged-dot's group runs: their bounds, scalars of group_sizes' type:
// start_0 = 0, end_j = start_j + max(size_j, 0), start_{j+1} = end_j.
std::vector<std::pair<HloInstruction*, HloInstruction*>> GroupRuns(HloInstruction* sizes,
                                                                   InstructionBuilder& b) {
  const PrimitiveType index_type = sizes->shape().element_type();
  std::vector<std::pair<HloInstruction*, HloInstruction*>> runs;
  HloInstruction* start = b.Constant(index_type, 0);
  HloInstruction* zero = b.Constant(index_type, 0);
  for (int64_t j = 0; j < sizes->shape().dimensions(0); ++j) {
    HloInstruction* size_slab = b.Op(HloOpcode::kSlice, Shape(index_type, {1}), {sizes});
    size_slab->mutable_attrs()->slice = {SliceSpec{j, j + 1, 1}};
    HloInstruction* raw_size = b.Reshape(size_slab, {});
    HloInstruction* size = b.Binary(HloOpcode::kMaximum, raw_size, zero);
    HloInstruction* end = b.Binary(HloOpcode::kAdd, start, size);
    runs.emplace_back(start, end);
    start = end;
  }
  return runs;
}

// Whether coordinate (an iota) lies in [start, end), elementwise.
HloInstruction* InRun(HloInstruction* coordinate, std::pair<HloInstruction*, HloInstruction*> run,
                      InstructionBuilder& b) {
  HloInstruction* starts = b.Broadcast(run.first, coordinate->shape(), {});
  HloInstruction* ends = b.Broadcast(run.second, coordinate->shape(), {});
  HloInstruction* after_start = b.Compare(coordinate, starts, ComparisonDirection::kGe);
  HloInstruction* before_end = b.Compare(coordinate, ends, ComparisonDirection::kLt);
  return b.Binary(HloOpcode::kAnd, after_start, before_end);
}

// A ragged contracting dimension (see ExpandRaggedDot).
absl::StatusOr<HloInstruction*> ExpandRaggedContractingDot(HloInstruction* rd,
                                                           const RaggedDotAttributes& a,
                                                           InstructionBuilder& b) {
  HloInstruction* lhs = rd->operand(0);
  HloInstruction* rhs = rd->operand(1);
  HloInstruction* sizes = rd->operand(2);
  const Shape& ls = lhs->shape();
  const std::vector<int64_t>& out_dims = rd->shape().dimensions();
  std::vector<int64_t> slab_dims(out_dims.begin() + 1, out_dims.end());
  std::vector<int64_t> one_slab = slab_dims;
  one_slab.insert(one_slab.begin(), 1);
  const PrimitiveType t = rd->shape().element_type();
  HloInstruction* coordinate =
      b.Op(HloOpcode::kIota, Shape(sizes->shape().element_type(), ls.dimensions()), {});
  coordinate->mutable_attrs()->dimensions = {a.lhs_ragged};
  HloInstruction* zeros = b.Splat(ls.element_type(), 0, ls.dimensions());
  std::vector<HloInstruction*> slabs;
  for (const auto& run : GroupRuns(sizes, b)) {
    HloInstruction* inside = InRun(coordinate, run, b);
    HloInstruction* masked = b.Select(inside, lhs, zeros);
    HloInstruction* product = b.Op(HloOpcode::kDot, Shape(t, slab_dims), {masked, rhs});
    product->mutable_attrs()->dot_dimension_numbers = rd->attrs().dot_dimension_numbers;
    slabs.push_back(b.Reshape(product, one_slab));
  }
  HloInstruction* stacked = b.Op(HloOpcode::kConcatenate, Shape(t, out_dims), slabs);
  stacked->mutable_attrs()->dimensions = {0};
  return b.WithLayoutOf(stacked, rd->shape());
}

// ragged-dot, in XLA's three modes. A ragged free lhs dimension -> one dot
// per group with that group's rhs, each kept (select) where the ragged
// index lies in the group's run [start_j, start_j + max(size_j, 0)), the
// starts summed from group_sizes at run time; zeros elsewhere. A ragged
// contracting dimension -> per group, lhs with the indices outside its run
// zeroed (select), dotted with rhs; the dots stacked along a leading
// dimension of the groups. A ragged batch dimension -> the dot.
absl::StatusOr<HloInstruction*> ExpandRaggedDot(HloInstruction* rd, InstructionBuilder& b) {
  AOT_ASSIGN_OR_RETURN(RaggedDotAttributes a, ReadRaggedDotAttributes(*rd));
  HloInstruction* lhs = rd->operand(0);
  HloInstruction* rhs = rd->operand(1);
  HloInstruction* sizes = rd->operand(2);
  const DotDimensionNumbersProto& dn = *rd->attrs().dot_dimension_numbers;
  if (absl::c_linear_search(dn.lhs_batch_dimensions(), a.lhs_ragged)) {
    HloInstruction* product = b.Op(
        HloOpcode::kDot, Shape(rd->shape().element_type(), rd->shape().dimensions()), {lhs, rhs});
    product->mutable_attrs()->dot_dimension_numbers = dn;
    return b.WithLayoutOf(product, rd->shape());
  }
  if (absl::c_linear_search(dn.lhs_contracting_dimensions(), a.lhs_ragged)) {
    return ExpandRaggedContractingDot(rd, a, b);
  }
  const int64_t g = *a.rhs_group;
  const Shape& rs = rhs->shape();
  const Shape out_shape(rd->shape().element_type(), rd->shape().dimensions());
  const PrimitiveType index_type = sizes->shape().element_type();
  std::vector<int64_t> group_dims;
  for (int64_t d = 0; d < rs.rank(); ++d) {
    if (d != g) group_dims.push_back(rs.dimensions(d));
  }
  HloInstruction* coordinate =
      b.Op(HloOpcode::kIota, Shape(index_type, out_shape.dimensions()), {});
  coordinate->mutable_attrs()->dimensions = {a.result_ragged_dimension};
  HloInstruction* result = b.Splat(out_shape.element_type(), 0, out_shape.dimensions());
  const std::vector<std::pair<HloInstruction*, HloInstruction*>> runs = GroupRuns(sizes, b);
  for (int64_t j = 0; j < rs.dimensions(g); ++j) {
    std::vector<SliceSpec> specs;
    std::vector<int64_t> one_group = rs.dimensions();
    one_group[g] = 1;
    for (int64_t d = 0; d < rs.rank(); ++d) {
      specs.push_back(d == g ? SliceSpec{j, j + 1, 1} : SliceSpec{0, rs.dimensions(d), 1});
    }
    HloInstruction* slab = b.Op(HloOpcode::kSlice, Shape(rs.element_type(), one_group), {rhs});
    slab->mutable_attrs()->slice = std::move(specs);
    HloInstruction* matrix = b.Reshape(slab, group_dims);
    HloInstruction* product = b.Op(HloOpcode::kDot, out_shape, {lhs, matrix});
    product->mutable_attrs()->dot_dimension_numbers = a.group_dot_dimension_numbers;
    HloInstruction* inside = InRun(coordinate, runs[j], b);
    result = b.Select(inside, product, result);
  }
  return b.WithLayoutOf(result, rd->shape());
}

// mulhi(a, b) -> the high half of the product at twice the width. Up to 32
// bits: the values widened to 64 bits, multiplied and shifted down. 64-bit
// values (no 128-bit type here): the unsigned high product from the four
// products of 32-bit halves with their carries, and for signed values
// hi(a*b) = hi_unsigned(a, b) - (a < 0 ? b : 0) - (b < 0 ? a : 0), modulo
// 2^64.
absl::StatusOr<HloInstruction*> ExpandMulhi(HloInstruction* mulhi, InstructionBuilder& b) {
  HloInstruction* x = mulhi->operand(0);
  HloInstruction* y = mulhi->operand(1);
  const PrimitiveType t = x->shape().element_type();
  const std::vector<int64_t>& dims = x->shape().dimensions();
  const bool is_signed = IsSignedInteger(t);
  if (!IsInteger(t) || IsNarrowInteger(t)) {
    return absl::UnimplementedError(
        absl::StrCat("instruction '", mulhi->name(), "' (mulhi) on ", PrimitiveTypeName(t),
                     ": this compiler computes it for 8- to 64-bit integers"));
  }
  const int64_t bits = 8 * ByteWidth(t);
  if (bits <= 32) {
    const PrimitiveType wide = is_signed ? S64 : U64;
    HloInstruction* wx = b.Convert(x, wide);
    HloInstruction* wy = b.Convert(y, wide);
    HloInstruction* product = b.Binary(HloOpcode::kMultiply, wx, wy);
    HloInstruction* by = b.Splat(wide, static_cast<double>(bits), dims);
    HloInstruction* high = b.Binary(
        is_signed ? HloOpcode::kShiftRightArithmetic : HloOpcode::kShiftRightLogical, product, by);
    return b.WithLayoutOf(b.Convert(high, t), mulhi->shape());
  }
  auto as_unsigned = [&](HloInstruction* v) {
    return is_signed ? b.Op(HloOpcode::kBitcastConvert, Shape(U64, dims), {v}) : v;
  };
  HloInstruction* ux = as_unsigned(x);
  HloInstruction* uy = as_unsigned(y);
  HloInstruction* mask = b.Splat(U64, 4294967295.0, dims);
  HloInstruction* by32 = b.Splat(U64, 32, dims);
  auto low = [&](HloInstruction* v) { return b.Binary(HloOpcode::kAnd, v, mask); };
  auto high = [&](HloInstruction* v) { return b.Binary(HloOpcode::kShiftRightLogical, v, by32); };
  auto mul = [&](HloInstruction* p, HloInstruction* q) {
    return b.Binary(HloOpcode::kMultiply, p, q);
  };
  auto add = [&](HloInstruction* p, HloInstruction* q) { return b.Binary(HloOpcode::kAdd, p, q); };
  HloInstruction* xl = low(ux);
  HloInstruction* xh = high(ux);
  HloInstruction* yl = low(uy);
  HloInstruction* yh = high(uy);
  HloInstruction* ll = mul(xl, yl);
  HloInstruction* hl = mul(xh, yl);
  HloInstruction* lh = mul(xl, yh);
  HloInstruction* hh = mul(xh, yh);
  HloInstruction* ll_high = high(ll);
  HloInstruction* middle = add(hl, ll_high);
  HloInstruction* middle_low = low(middle);
  HloInstruction* cross = add(middle_low, lh);
  HloInstruction* middle_high = high(middle);
  HloInstruction* cross_high = high(cross);
  HloInstruction* upper = add(hh, middle_high);
  HloInstruction* result = add(upper, cross_high);
  if (is_signed) {
    HloInstruction* zero = b.Splat(t, 0, dims);
    HloInstruction* zero_u = b.Splat(U64, 0, dims);
    HloInstruction* x_negative = b.Compare(x, zero, ComparisonDirection::kLt);
    HloInstruction* y_negative = b.Compare(y, zero, ComparisonDirection::kLt);
    HloInstruction* less_y = b.Select(x_negative, uy, zero_u);
    HloInstruction* less_x = b.Select(y_negative, ux, zero_u);
    HloInstruction* corrected = b.Binary(HloOpcode::kSubtract, result, less_y);
    corrected = b.Binary(HloOpcode::kSubtract, corrected, less_x);
    result = b.Op(HloOpcode::kBitcastConvert, Shape(t, dims), {corrected});
  }
  return b.WithLayoutOf(result, mulhi->shape());
}

// scaled-dot -> each operand and its scale converted to the result's type,
// the scale repeated over its block (broadcast to [s0, b0, s1, b1, ...],
// reshaped to the operand's dimensions), multiplied, then the dot.
absl::StatusOr<HloInstruction*> ExpandScaledDot(HloInstruction* sd, InstructionBuilder& b) {
  const PrimitiveType t = sd->shape().element_type();
  std::vector<HloInstruction*> dequantized;
  for (int64_t k = 0; k < 2; ++k) {
    HloInstruction* x = sd->operand(k);
    HloInstruction* scale = sd->operand(k + 2);
    const std::vector<int64_t>& xd = x->shape().dimensions();
    const std::vector<int64_t>& sdims = scale->shape().dimensions();
    std::vector<int64_t> blocks, positions;
    for (size_t d = 0; d < xd.size(); ++d) {
      positions.push_back(static_cast<int64_t>(blocks.size()));
      blocks.push_back(sdims[d]);
      blocks.push_back(xd[d] / sdims[d]);
    }
    HloInstruction* value = b.Convert(x, t);
    HloInstruction* per_block = b.Convert(scale, t);
    HloInstruction* repeated = b.Broadcast(per_block, Shape(t, blocks), positions);
    HloInstruction* spread = b.Reshape(repeated, xd);
    dequantized.push_back(b.Binary(HloOpcode::kMultiply, value, spread));
  }
  HloInstruction* dot = b.Op(HloOpcode::kDot, Shape(t, sd->shape().dimensions()), dequantized);
  dot->mutable_attrs()->dot_dimension_numbers = sd->attrs().dot_dimension_numbers;
  dot->mutable_attrs()->operand_precision = sd->attrs().operand_precision;
  return b.WithLayoutOf(dot, sd->shape());
}

// scan -> a counted while loop over the scanned dimension, as XLA's
// ScanExpander does: the state holds the carries, the inputs and the
// stacked outputs (zeros at first); each iteration takes index i (length -
// 1 - i when reversed) of every input by dynamic-slice, runs to_apply's
// instructions (cloned into the loop body) on those slices and the
// carries, and writes its outputs' slices at i by dynamic-update-slice.
absl::StatusOr<HloInstruction*> ExpandScan(HloInstruction* scan, InstructionBuilder& b,
                                           HloModule* module) {
  AOT_ASSIGN_OR_RETURN(ScanAttributes a, ReadScanAttributes(*scan));
  const int64_t carries = a.num_carries;
  const int64_t inputs = scan->operand_count() - carries;
  const int64_t outputs = static_cast<int64_t>(scan->shape().tuple_shapes().size()) - carries;
  const int64_t d = a.dimension;
  const int64_t length = scan->operand(0)->shape().dimensions(d);
  const HloComputation* f = scan->to_apply();
  std::vector<HloInstruction*> init;
  for (int64_t k = 0; k < carries; ++k) init.push_back(scan->operand(inputs + k));
  for (int64_t k = 0; k < inputs; ++k) init.push_back(scan->operand(k));
  for (int64_t k = 0; k < outputs; ++k) {
    const Shape& out = scan->shape().tuple_shapes(k);
    init.push_back(b.Splat(out.element_type(), 0, out.dimensions()));
  }
  auto step = [&](InstructionBuilder& body, HloInstruction* i,
                  std::vector<HloInstruction*> values) {
    HloInstruction* index = i;
    if (a.is_reverse) {
      HloInstruction* last = body.Constant(S32, static_cast<double>(length - 1));
      index = body.Binary(HloOpcode::kSubtract, last, i);
    }
    HloInstruction* zero = body.Constant(S32, 0);
    auto starts = [&](int64_t rank) {
      std::vector<HloInstruction*> at(rank, zero);
      at[d] = index;
      return at;
    };
    absl::flat_hash_map<const HloInstruction*, HloInstruction*> value_of;
    for (HloInstruction* p : f->parameter_instructions()) {
      const int64_t number = p->parameter_number();
      if (number >= inputs) {
        value_of[p] = values[number - inputs];
        continue;
      }
      HloInstruction* input = values[carries + number];
      const Shape& shape = input->shape();
      std::vector<int64_t> sizes = shape.dimensions();
      sizes[d] = 1;
      std::vector<HloInstruction*> operands = {input};
      for (HloInstruction* s : starts(shape.rank())) operands.push_back(s);
      HloInstruction* slice =
          body.Op(HloOpcode::kDynamicSlice, Shape(shape.element_type(), sizes), operands);
      slice->mutable_attrs()->dynamic_slice_sizes = sizes;
      value_of[p] = body.Reshape(slice, p->shape().dimensions());
    }
    for (HloInstruction* instruction : f->MakeInstructionPostOrder()) {
      if (instruction->opcode() == HloOpcode::kParameter) continue;
      std::vector<HloInstruction*> operands;
      for (HloInstruction* op : instruction->operands()) operands.push_back(value_of.at(op));
      value_of[instruction] = body.Add(CloneWithOperands(*instruction, operands));
    }
    HloInstruction* root = value_of.at(f->root_instruction());
    std::vector<HloInstruction*> next;
    for (int64_t k = 0; k < carries; ++k) next.push_back(body.GetTupleElement(root, outputs + k));
    for (int64_t k = 0; k < inputs; ++k) next.push_back(values[carries + k]);
    for (int64_t k = 0; k < outputs; ++k) {
      HloInstruction* stacked = values[carries + inputs + k];
      const Shape& shape = stacked->shape();
      std::vector<int64_t> one = shape.dimensions();
      one[d] = 1;
      HloInstruction* part = body.GetTupleElement(root, k);
      std::vector<HloInstruction*> operands = {stacked, body.Reshape(part, one)};
      for (HloInstruction* s : starts(shape.rank())) operands.push_back(s);
      next.push_back(body.Op(HloOpcode::kDynamicUpdateSlice,
                             Shape(shape.element_type(), shape.dimensions()), operands));
    }
    return next;
  };
  std::vector<HloInstruction*> final_values = CountedLoop(module, b, *scan, length, init, step);
  std::vector<HloInstruction*> elements;
  for (int64_t k = 0; k < outputs; ++k) {
    elements.push_back(
        b.WithLayoutOf(final_values[carries + inputs + k], scan->shape().tuple_shapes(k)));
  }
  for (int64_t k = 0; k < carries; ++k) elements.push_back(final_values[k]);
  return b.Tuple(elements);
}

// shuffle, as XLA's ShuffleExpander: mode=rotate, per shuffled dimension
// the elements from the shift on followed by those before it (two slices
// and a concatenate); the other modes one gather of an element per result
// element, whose start indices hold per dimension an iota (a dimension left
// in place) or the table's coordinate broadcast along the dimensions it
// shares (for multi_rotate, the iota plus the shift, wrapped once).
absl::StatusOr<HloInstruction*> ExpandShuffle(HloInstruction* shuffle, InstructionBuilder& b) {
  absl::StatusOr<ShuffleAttributes> read = ReadShuffleAttributes(*shuffle);
  if (!read.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(DescribeInstruction(*shuffle), ": ", read.status().message()));
  }
  const ShuffleAttributes& a = *read;
  HloInstruction* x = shuffle->operand(0);
  const PrimitiveType type = x->shape().element_type();
  const std::vector<int64_t>& dims = x->shape().dimensions();
  const int64_t rank = static_cast<int64_t>(dims.size());
  if (a.dimensions.empty() || x->shape().ElementCount() == 0) {
    return b.WithLayoutOf(x, shuffle->shape());
  }
  std::vector<SliceSpec> whole;
  for (int64_t n : dims) whole.push_back({0, n, 1});
  if (a.mode == ShuffleMode::kRotate) {
    HloInstruction* result = x;
    for (size_t k = 0; k < a.dimensions.size(); ++k) {
      const int64_t d = a.dimensions[k];
      const int64_t shift = a.shifts[k];
      if (shift == 0) continue;
      std::vector<HloInstruction*> parts;
      for (const SliceSpec range : {SliceSpec{shift, dims[d], 1}, SliceSpec{0, shift, 1}}) {
        std::vector<SliceSpec> slice = whole;
        slice[d] = range;
        std::vector<int64_t> part_dims = dims;
        part_dims[d] = range.limit - range.start;
        HloInstruction* part = b.Op(HloOpcode::kSlice, Shape(type, part_dims), {result});
        part->mutable_attrs()->slice = std::move(slice);
        parts.push_back(part);
      }
      result = b.Op(HloOpcode::kConcatenate, Shape(type, dims), std::move(parts));
      result->mutable_attrs()->dimensions = {d};
    }
    return b.WithLayoutOf(result, shuffle->shape());
  }
  // Coordinates up to the largest dimension, and for multi_rotate sums of
  // two of them, fit the index type.
  const int64_t largest = *std::max_element(dims.begin(), dims.end());
  const PrimitiveType index_type = largest < (int64_t{1} << 30) ? S32 : S64;
  const int64_t k_count = static_cast<int64_t>(a.dimensions.size());
  // The table with its shared dimensions dropped and the coordinate
  // dimension made explicit (neither moves an element in row-major
  // order); multi_rotate's shifts are in [0, n) already.
  const Shape& table_shape = a.table.shape();
  std::vector<int64_t> kept_dims, kept;
  for (int64_t d = 0; d < rank; ++d) {
    if (table_shape.dimensions(d) == dims[d]) {
      kept_dims.push_back(dims[d]);
      kept.push_back(d);
    }
  }
  kept_dims.push_back(k_count);
  kept.push_back(rank);
  std::vector<int64_t> values(a.table.element_count());
  for (int64_t i = 0; i < a.table.element_count(); ++i) values[i] = a.table.GetAsInt64(i);
  HloInstruction* table = b.Constant(Literal::FromInt64s(Shape(index_type, kept_dims), values));
  std::vector<int64_t> coordinates_dims = dims;
  coordinates_dims.push_back(k_count);
  HloInstruction* coordinates =
      b.Broadcast(table, Shape(index_type, coordinates_dims), std::move(kept));
  std::vector<int64_t> component_dims = dims;
  component_dims.push_back(1);
  const Shape component_shape(index_type, component_dims);
  std::vector<HloInstruction*> components;
  for (int64_t d = 0; d < rank; ++d) {
    HloInstruction* iota = b.Op(HloOpcode::kIota, component_shape, {});
    iota->mutable_attrs()->dimensions = {d};
    const auto k = std::find(a.dimensions.begin(), a.dimensions.end(), d);
    if (k == a.dimensions.end()) {
      components.push_back(iota);
      continue;
    }
    std::vector<SliceSpec> slice = whole;
    const int64_t c = k - a.dimensions.begin();
    slice.push_back({c, c + 1, 1});
    HloInstruction* coordinate = b.Op(HloOpcode::kSlice, component_shape, {coordinates});
    coordinate->mutable_attrs()->slice = std::move(slice);
    if (a.mode == ShuffleMode::kMultiRotate) {
      HloInstruction* sum = b.Binary(HloOpcode::kAdd, iota, coordinate);
      HloInstruction* n = b.Splat(index_type, static_cast<double>(dims[d]), component_dims);
      coordinate = b.Select(b.Compare(sum, n, ComparisonDirection::kGe),
                            b.Binary(HloOpcode::kSubtract, sum, n), sum);
    }
    components.push_back(coordinate);
  }
  HloInstruction* indices = components.front();
  if (components.size() > 1) {
    std::vector<int64_t> indices_dims = dims;
    indices_dims.push_back(rank);
    indices = b.Op(HloOpcode::kConcatenate, Shape(index_type, indices_dims), components);
    indices->mutable_attrs()->dimensions = {rank};
  }
  HloInstruction* gather = b.Op(HloOpcode::kGather, Shape(type, dims), {x, indices});
  GatherDimensionNumbersProto dn;
  for (int64_t d = 0; d < rank; ++d) {
    dn.add_collapsed_slice_dims(d);
    dn.add_start_index_map(d);
  }
  dn.set_index_vector_dim(rank);
  gather->mutable_attrs()->gather_dimension_numbers = dn;
  gather->mutable_attrs()->gather_slice_sizes = std::vector<int64_t>(rank, 1);
  return b.WithLayoutOf(gather, shuffle->shape());
}

}  // namespace

absl::StatusOr<bool> ExpandCompositeOpcodes(HloModule* module) {
  auto expand = [module](HloComputation* c) -> absl::StatusOr<bool> {
    NameUniquer names = NameUniquer::ForInstructions(*c);
    bool changed = false;
    for (HloInstruction* h : c->instructions()) {
      InstructionBuilder b(c, &names, *h);
      absl::StatusOr<HloInstruction*> replacement = nullptr;
      switch (h->opcode()) {
        case HloOpcode::kMap:
          replacement = ExpandMap(h, b);
          break;
        case HloOpcode::kTopK:
          replacement = ExpandTopK(h, b, module);
          break;
        case HloOpcode::kBatchNormTraining:
        case HloOpcode::kBatchNormInference:
        case HloOpcode::kBatchNormGrad:
          replacement = ExpandBatchNorm(h, b, module);
          break;
        case HloOpcode::kStochasticConvert:
          replacement = ExpandStochasticConvert(h, b);
          break;
        case HloOpcode::kRaggedDot:
          replacement = ExpandRaggedDot(h, b);
          break;
        case HloOpcode::kMulhi:
          replacement = ExpandMulhi(h, b);
          break;
        case HloOpcode::kScaledDot:
          replacement = ExpandScaledDot(h, b);
          break;
        case HloOpcode::kScan:
          replacement = ExpandScan(h, b, module);
          break;
        case HloOpcode::kShuffle:
          replacement = ExpandShuffle(h, b);
          break;
        default:
          continue;
      }
      AOT_RETURN_IF_ERROR(replacement);
      h->ReplaceAllUsesWith(*replacement);
      changed = true;
    }
    return changed;
  };
  return RewriteUnfusedComputations(module, AfterRewrite::kRemoveDeadAndReorder, expand);
}

}  // namespace aot
