// The interpreter's map, scan, topk and batch-norm: evaluated directly from
// their definitions (the compiler expands them into other opcodes, and the
// interpreter is the reference those expansions are checked against).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {

absl::StatusOr<Literal> EvalMap(const HloInstruction& instr, Operands ops,
                                ComputationCaller& caller) {
  if (ops.empty()) return absl::InvalidArgumentError("map has no operands");
  std::vector<PrimitiveType> types;
  for (const Literal* op : ops) {
    AOT_RETURN_IF_ERROR(ExpectArray(*op, "operand"));
    AOT_RETURN_IF_ERROR(ExpectDims(op->shape(), ops[0]->shape().dimensions(), "operand"));
    types.push_back(op->shape().element_type());
  }
  if (!instr.shape().IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("map result must be an array, got ", instr.shape().ToString(false)));
  }
  const HloComputation* f = instr.to_apply();
  if (f == nullptr) return absl::InvalidArgumentError("map has no to_apply computation");
  const PrimitiveType result_type = instr.shape().element_type();
  AOT_ASSIGN_OR_RETURN(auto function,
                       ScalarFunction::Create(f, types, {result_type}, caller, "to_apply"));
  Literal out(Shape(result_type, ops[0]->shape().dimensions()));
  const int64_t count = out.element_count();
  const int64_t out_width = ByteWidth(result_type);
  std::vector<const void*> args(ops.size());
  for (int64_t e = 0; e < count; ++e) {
    for (size_t i = 0; i < ops.size(); ++i) {
      args[i] = ops[i]->raw().data() + e * ByteWidth(types[i]);
    }
    AOT_RETURN_IF_ERROR(function->Call(args.data()));
    std::memcpy(out.raw_data() + e * out_width, function->result(0), out_width);
  }
  return out;
}

namespace {

// Copies the elements of index `i` along dimension `d` of an array shaped
// `dims` between `whole` and `part` (the same dimensions without d): to
// `part` when `into_part`, else back into `whole`. A strided copy of the
// [outer, inner] block around `d`.
void MoveIndex(const std::vector<int64_t>& dims, int64_t d, int64_t i, int64_t width,
               const uint8_t* from, uint8_t* to, bool into_part) {
  const std::vector<int64_t> strides = RowMajorStrides(dims);
  std::vector<int64_t> block = dims;  // the part's dimensions
  block.erase(block.begin() + d);
  std::vector<int64_t> whole_strides = strides;
  whole_strides.erase(whole_strides.begin() + d);
  const std::vector<int64_t> part_strides = RowMajorStrides(block);
  const int64_t whole_at = i * strides[d];
  if (into_part) {
    StridedCopy(from, whole_at, whole_strides, to, 0, part_strides, block, width);
  } else {
    StridedCopy(from, 0, part_strides, to, whole_at, whole_strides, block, width);
  }
}

}  // namespace

absl::StatusOr<Literal> EvalScan(const HloInstruction& instr, Operands ops,
                                 ComputationCaller& caller) {
  AOT_ASSIGN_OR_RETURN(ScanAttributes a, ReadScanAttributes(instr));
  const int64_t carries = a.num_carries;
  const int64_t inputs = static_cast<int64_t>(ops.size()) - carries;
  const int64_t d = a.dimension;
  const HloComputation* f = instr.to_apply();
  if (f == nullptr || carries < 0 || inputs < 1 || !instr.shape().IsTuple()) {
    return absl::InvalidArgumentError("scan needs inputs, num_carries and a to_apply computation");
  }
  const int64_t outputs = static_cast<int64_t>(instr.shape().tuple_shapes().size()) - carries;
  for (int64_t k = 0; k < inputs; ++k) {
    AOT_RETURN_IF_ERROR(ExpectArray(*ops[k], "input"));
    if (d < 0 || d >= ops[k]->shape().rank() ||
        ops[k]->shape().dimensions(d) != ops[0]->shape().dimensions(d)) {
      return absl::InvalidArgumentError(absl::StrCat("scan input ", k, " ",
                                                     ops[k]->shape().ToString(false),
                                                     " does not have the scanned dimension ", d));
    }
  }
  const int64_t length = ops[0]->shape().dimensions(d);
  std::vector<Literal> results;
  for (int64_t k = 0; k < outputs; ++k) {
    const Shape& shape = instr.shape().tuple_shapes(k);
    if (!shape.IsArray() || shape.rank() <= d || shape.dimensions(d) != length) {
      return absl::InvalidArgumentError(
          absl::StrCat("scan output ", k, " ", shape.ToString(false), " is not stacked along ", d));
    }
    results.emplace_back(Shape(shape.element_type(), shape.dimensions()));
  }
  std::vector<Literal> carry;
  for (int64_t k = 0; k < carries; ++k) carry.push_back(*ops[inputs + k]);
  std::vector<Literal> slices;
  for (int64_t k = 0; k < inputs; ++k) {
    std::vector<int64_t> dims = ops[k]->shape().dimensions();
    dims.erase(dims.begin() + d);
    slices.emplace_back(Shape(ops[k]->shape().element_type(), dims));
  }
  for (int64_t step = 0; step < length; ++step) {
    const int64_t i = a.is_reverse ? length - 1 - step : step;
    std::vector<const Literal*> args;
    for (int64_t k = 0; k < inputs; ++k) {
      MoveIndex(ops[k]->shape().dimensions(), d, i, ByteWidth(ops[k]->shape().element_type()),
                ops[k]->raw().data(), slices[k].raw_data(), /*into_part=*/true);
      args.push_back(&slices[k]);
    }
    for (const Literal& c : carry) args.push_back(&c);
    AOT_ASSIGN_OR_RETURN(Literal out, caller.Call(*f, args));
    if (!out.shape().IsTuple() ||
        static_cast<int64_t>(out.tuple_elements().size()) != outputs + carries) {
      return absl::InvalidArgumentError(absl::StrCat("scan's to_apply returned ",
                                                     out.shape().ToString(false), "; expected ",
                                                     outputs + carries, " elements"));
    }
    for (int64_t k = 0; k < outputs; ++k) {
      const Literal& part = out.tuple_element(k);
      const Shape& whole = results[k].shape();
      if (!part.shape().IsArray() || part.shape().element_type() != whole.element_type() ||
          part.element_count() * whole.dimensions(d) != results[k].element_count()) {
        return absl::InvalidArgumentError(absl::StrCat("scan's to_apply returned ",
                                                       part.shape().ToString(false), " for output ",
                                                       k, " of ", whole.ToString(false)));
      }
      MoveIndex(whole.dimensions(), d, i, ByteWidth(whole.element_type()), part.raw().data(),
                results[k].raw_data(), /*into_part=*/false);
    }
    for (int64_t k = 0; k < carries; ++k) carry[k] = out.tuple_element(outputs + k);
  }
  for (Literal& c : carry) results.push_back(std::move(c));
  return Literal::Tuple(std::move(results));
}

absl::StatusOr<Literal> EvalTopK(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
  const Shape& shape = x.shape();
  if (shape.rank() < 1) return absl::InvalidArgumentError("topk needs an operand of rank >= 1");
  AOT_ASSIGN_OR_RETURN(const int64_t k, IntAttribute(instr, "k"));
  AOT_ASSIGN_OR_RETURN(const bool largest, BoolAttribute(instr, "largest", true));
  const int64_t n = shape.dimensions().back();
  if (k < 0 || k > n) {
    return absl::InvalidArgumentError(absl::StrCat("k=", k, " is out of range [0, ", n, "]"));
  }
  std::vector<int64_t> dims = shape.dimensions();
  dims.back() = k;
  Literal values(Shape(shape.element_type(), dims));
  Literal indices(Shape(S32, dims));
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < dims.size(); ++d) rows *= dims[d];
  // Stable: equal values keep their order, so the lower index comes first.
  // Floats order totally (NaN above +inf, -0 below +0), as the expansion's
  // comparator does.
  const ComparisonDirection direction =
      largest ? ComparisonDirection::kGt : ComparisonDirection::kLt;
  ArrayTypeSwitch(shape.element_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x.data<T>().data();
    T* out = values.data<T>().data();
    int32_t* index = indices.data<int32_t>().data();
    std::vector<int64_t> perm(n);
    for (int64_t r = 0; r < rows; ++r) {
      const T* row = in + r * n;
      std::iota(perm.begin(), perm.end(), 0);
      std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
        return CompareValues<T>(direction, /*total_order=*/true, row[a], row[b]);
      });
      for (int64_t j = 0; j < k; ++j) {
        out[r * k + j] = row[perm[j]];
        index[r * k + j] = static_cast<int32_t>(perm[j]);
      }
    }
  });
  std::vector<Literal> elements;
  elements.push_back(std::move(values));
  elements.push_back(std::move(indices));
  return Literal::Tuple(std::move(elements));
}

absl::StatusOr<Literal> EvalBatchNorm(const HloInstruction& instr, Operands ops) {
  for (const Literal* op : ops) AOT_RETURN_IF_ERROR(ExpectArray(*op, "operand"));
  AOT_ASSIGN_OR_RETURN(const int64_t feature_index, IntAttribute(instr, "feature_index"));
  AOT_ASSIGN_OR_RETURN(const double epsilon_attr, FloatAttribute(instr, "epsilon"));
  const Literal& x = *ops[0];
  const Shape& shape = x.shape();
  if (feature_index < 0 || feature_index >= shape.rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("feature_index=", feature_index, " is out of range for rank ", shape.rank()));
  }
  const PrimitiveType type = shape.element_type();
  const int64_t features = shape.dimensions(feature_index);
  for (size_t i = 1; i < ops.size(); ++i) {
    const bool like_x = instr.opcode() == HloOpcode::kBatchNormGrad && i == 4;
    AOT_RETURN_IF_ERROR(ExpectDims(
        ops[i]->shape(), like_x ? shape.dimensions() : std::vector<int64_t>{features}, "operand"));
  }
  // epsilon is an f32 attribute applied in the element type.
  Literal epsilon_value(Shape::Scalar(type));
  epsilon_value.SetFromDouble(0, static_cast<float>(epsilon_attr));
  const double epsilon = epsilon_value.GetAsDouble(0);
  int64_t inner = 1;
  for (int64_t d = feature_index + 1; d < shape.rank(); ++d) inner *= shape.dimensions(d);
  const int64_t count = shape.ElementCount();
  const int64_t per_feature = features == 0 ? 0 : count / features;
  auto feature_of = [&](int64_t e) { return (e / inner) % features; };
  auto vec = [&](size_t operand) {
    std::vector<double> v(features);
    for (int64_t f = 0; f < features; ++f) v[f] = ops[operand]->GetAsDouble(f);
    return v;
  };
  const Shape feature_shape(type, {features});
  Literal y(Shape(type, shape.dimensions()));

  // Sums in double over each feature's elements: the reference is exact
  // enough that the compiled expansion's rounding is all that differs.
  auto feature_sums = [&](auto term) {
    std::vector<double> sums(features, 0.0);
    for (int64_t e = 0; e < count; ++e) sums[feature_of(e)] += term(e);
    return sums;
  };
  const double n = static_cast<double>(per_feature);
  switch (instr.opcode()) {
    case HloOpcode::kBatchNormInference: {
      const std::vector<double> scale = vec(1), offset = vec(2), mean = vec(3), var = vec(4);
      for (int64_t e = 0; e < count; ++e) {
        const int64_t f = feature_of(e);
        y.SetFromDouble(
            e, (x.GetAsDouble(e) - mean[f]) * scale[f] / std::sqrt(var[f] + epsilon) + offset[f]);
      }
      return y;
    }
    case HloOpcode::kBatchNormTraining: {
      const std::vector<double> scale = vec(1), offset = vec(2);
      std::vector<double> mean = feature_sums([&](int64_t e) { return x.GetAsDouble(e); });
      for (double& m : mean) m = n == 0 ? 0 : m / n;
      std::vector<double> var = feature_sums([&](int64_t e) {
        const double d = x.GetAsDouble(e) - mean[feature_of(e)];
        return d * d;
      });
      for (double& v : var) v = n == 0 ? 0 : v / n;
      for (int64_t e = 0; e < count; ++e) {
        const int64_t f = feature_of(e);
        y.SetFromDouble(
            e, (x.GetAsDouble(e) - mean[f]) / std::sqrt(var[f] + epsilon) * scale[f] + offset[f]);
      }
      std::vector<Literal> elements;
      elements.push_back(std::move(y));
      elements.push_back(Literal::FromDoubles(feature_shape, mean));
      elements.push_back(Literal::FromDoubles(feature_shape, var));
      return Literal::Tuple(std::move(elements));
    }
    case HloOpcode::kBatchNormGrad: {
      const std::vector<double> scale = vec(1), mean = vec(2), var = vec(3);
      const Literal& dy = *ops[4];
      std::vector<double> rstd(features);
      for (int64_t f = 0; f < features; ++f) rstd[f] = 1.0 / std::sqrt(var[f] + epsilon);
      const std::vector<double> grad_offset =
          feature_sums([&](int64_t e) { return dy.GetAsDouble(e); });
      std::vector<double> grad_scale = feature_sums(
          [&](int64_t e) { return dy.GetAsDouble(e) * (x.GetAsDouble(e) - mean[feature_of(e)]); });
      for (int64_t f = 0; f < features; ++f) grad_scale[f] *= rstd[f];
      // dx = scale * rstd / n * (n * dy - sum(dy) - (x - mean) * rstd * grad_scale)
      for (int64_t e = 0; e < count; ++e) {
        const int64_t f = feature_of(e);
        const double centered = (x.GetAsDouble(e) - mean[f]) * rstd[f];
        y.SetFromDouble(e, scale[f] * rstd[f] / n *
                               (n * dy.GetAsDouble(e) - grad_offset[f] - centered * grad_scale[f]));
      }
      std::vector<Literal> elements;
      elements.push_back(std::move(y));
      elements.push_back(Literal::FromDoubles(feature_shape, grad_scale));
      elements.push_back(Literal::FromDoubles(feature_shape, grad_offset));
      return Literal::Tuple(std::move(elements));
    }
    default:
      return absl::InternalError("not a batch-norm opcode");
  }
}

}  // namespace interpreter_internal
}  // namespace aot
