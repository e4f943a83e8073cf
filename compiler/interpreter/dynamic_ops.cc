// Evaluation of XLA's bounded dynamic dimensions (compiler/hlo/
// dynamic_dimensions.h) on concrete sizes: the reference the compiler's
// LowerDynamicDimensions is checked against.

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {
namespace {

// Row-major strides of `dims`.
std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t d = static_cast<int64_t>(dims.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * dims[d + 1];
  }
  return strides;
}

int64_t SizeOf(const DynamicOperand& op, int64_t dim) {
  if (op.dims != nullptr && dim < static_cast<int64_t>(op.dims->size()) && (*op.dims)[dim]) {
    return (*op.sizes)[dim];
  }
  return op.literal->shape().dimensions(dim);
}

int64_t Clamped(const Literal& size, int64_t bound) {
  return std::clamp<int64_t>(size.GetAsInt64(0), 0, bound);
}

// dynamic-reshape: the operand's valid elements, in row-major order, laid
// out row-major over the result's sizes; the rest of the result is zero.
Literal Compact(const Shape& shape, const DynamicOperand& in, const std::vector<int64_t>& in_sizes,
                const std::vector<int64_t>& out_sizes) {
  Literal result(shape);
  const int64_t width = ByteWidth(shape.element_type());
  const std::vector<int64_t> in_strides = Strides(in.literal->shape().dimensions());
  const std::vector<int64_t> out_strides = Strides(shape.dimensions());
  int64_t in_count = 1, out_count = 1;
  for (int64_t s : in_sizes) in_count *= s;
  for (int64_t s : out_sizes) out_count *= s;
  const int64_t count = std::min(in_count, out_count);
  auto padded = [](int64_t k, const std::vector<int64_t>& sizes,
                   const std::vector<int64_t>& strides) {
    int64_t linear = 0;
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      linear += (k % sizes[d]) * strides[d];
      k /= sizes[d];
    }
    return linear;
  };
  const uint8_t* from = in.literal->raw().data();
  uint8_t* to = result.raw_data();
  for (int64_t k = 0; k < count; ++k) {
    std::memcpy(to + padded(k, out_sizes, out_strides) * width,
                from + padded(k, in_sizes, in_strides) * width, width);
  }
  return result;
}

}  // namespace

absl::StatusOr<Literal> EvalWithDynamicSizes(const HloInstruction& instr,
                                             absl::Span<const DynamicOperand> ops,
                                             const DynamicEval& eval, DynamicDims* result_dims,
                                             std::vector<int64_t>* result_sizes) {
  std::vector<DynamicDims> dims;
  for (const DynamicOperand& op : ops) {
    dims.push_back(op.dims == nullptr ? DynamicDims() : *op.dims);
  }
  AOT_ASSIGN_OR_RETURN(DynamicPlan plan, PlanDynamicDimensions(instr, dims));
  const Shape& shape = instr.shape();
  std::vector<int64_t> sizes;
  for (int64_t d = 0; d < static_cast<int64_t>(plan.result.size()); ++d) {
    const DynamicSize& s = plan.result[d];
    switch (s.kind) {
      case DynamicSize::kStatic:
        sizes.push_back(shape.dimensions(d));
        break;
      case DynamicSize::kDimension:
        sizes.push_back(SizeOf(ops[s.operand], s.dimension) * s.multiplier);
        break;
      case DynamicSize::kValue:
        sizes.push_back(Clamped(*ops[s.operand].literal, shape.dimensions(d)));
        break;
    }
  }
  *result_dims = ResultDynamicDims(plan);
  *result_sizes = result_dims->empty() ? std::vector<int64_t>() : sizes;
  switch (instr.opcode()) {
    case HloOpcode::kGetDimensionSize:
      return Literal::Scalar<int32_t>(
          S32, static_cast<int32_t>(SizeOf(ops[0], instr.attrs().dimensions[0])));
    case HloOpcode::kSetDimensionSize:
      return *ops[0].literal;
    case HloOpcode::kDynamicReshape: {
      if (ops[0].literal->shape().element_type() != shape.element_type()) {
        return absl::InvalidArgumentError(absl::StrCat(DescribeInstruction(instr),
                                                       ": the operand's element type differs "
                                                       "from the result's"));
      }
      std::vector<int64_t> in_sizes;
      for (int64_t d = 0; d < ops[0].literal->shape().rank(); ++d) {
        in_sizes.push_back(SizeOf(ops[0], d));
      }
      return Compact(shape, ops[0], in_sizes, sizes);
    }
    default:
      break;
  }
  // Overwrite the padding a reduce folds or a dot contracts, on copies.
  std::vector<Literal> copies(ops.size());
  std::vector<const Literal*> operands;
  for (const DynamicOperand& op : ops) operands.push_back(op.literal);
  for (const DynamicMask& m : plan.masks) {
    if (operands[m.operand] != &copies[m.operand]) {
      copies[m.operand] = *operands[m.operand];
      operands[m.operand] = &copies[m.operand];
    }
    Literal& x = copies[m.operand];
    const int64_t width = ByteWidth(x.shape().element_type());
    std::vector<uint8_t> fill(width, 0);
    if (m.fill_operand >= 0) {
      const Literal& init = *ops[m.fill_operand].literal;
      if (init.shape().element_type() != x.shape().element_type() || init.element_count() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat(DescribeInstruction(instr), ": init value ", m.fill_operand,
                         " is not a scalar of operand ", m.operand, "'s element type"));
      }
      std::memcpy(fill.data(), init.raw().data(), width);
    }
    const int64_t size = SizeOf(ops[m.size_operand], m.size_dimension);
    const std::vector<int64_t> strides = Strides(x.shape().dimensions());
    const int64_t extent = x.shape().dimensions(m.dimension);
    for (int64_t e = 0; e < x.element_count(); ++e) {
      if ((e / strides[m.dimension]) % extent >= size) {
        std::memcpy(x.raw_data() + e * width, fill.data(), width);
      }
    }
  }
  return eval(operands);
}

}  // namespace interpreter_internal
}  // namespace aot
