#include "compiler/passes/xla_custom_call_lowering.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/xla_custom_calls.h"
#include "compiler/interpreter/custom_call_registry.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// (values..., zeros of the custom call's next result): a library call's
// workspace or scratch, which nothing reads.
HloInstruction* WithZeroWorkspace(std::vector<HloInstruction*> values,
                                  const HloInstruction& custom_call, InstructionBuilder& b) {
  const Shape& workspace = custom_call.shape().tuple_shapes(static_cast<int64_t>(values.size()));
  values.push_back(
      b.WithLayoutOf(b.Splat(workspace.element_type(), 0, workspace.dimensions()), workspace));
  return b.Tuple(std::move(values));
}

absl::StatusOr<HloInstruction*> LowerGemm(HloInstruction* h, InstructionBuilder& b) {
  AOT_ASSIGN_OR_RETURN(const GemmConfig gemm, ReadGemmConfig(*h));
  const PrimitiveType type = gemm.output.element_type();
  const std::vector<int64_t>& dims = gemm.output.dimensions();
  HloInstruction* value = b.Op(HloOpcode::kDot, Shape(type, dims), {h->operand(0), h->operand(1)});
  value->mutable_attrs()->dot_dimension_numbers = gemm.dot_dimension_numbers;
  if (gemm.alpha != 1) {
    value = b.Binary(HloOpcode::kMultiply, value, b.Splat(type, gemm.alpha, dims));
  }
  if (gemm.has_c) {
    HloInstruction* c = b.Convert(h->operand(2), type);
    if (gemm.beta != 1) c = b.Binary(HloOpcode::kMultiply, c, b.Splat(type, gemm.beta, dims));
    value = b.Binary(HloOpcode::kAdd, value, c);
  }
  if (gemm.has_bias) {
    HloInstruction* bias = b.Convert(h->operand(h->operand_count() - 1), type);
    value = b.Binary(HloOpcode::kAdd, value,
                     b.Broadcast(bias, Shape(type, dims), {static_cast<int64_t>(dims.size()) - 1}));
  }
  HloInstruction* before_activation = value;
  if (gemm.activation == GemmConfig::Activation::kRelu) {
    value = b.Binary(HloOpcode::kMaximum, value, b.Splat(type, 0, dims));
  } else if (gemm.activation == GemmConfig::Activation::kGelu) {
    // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
    auto mul = [&](HloInstruction* x, HloInstruction* y) {
      return b.Binary(HloOpcode::kMultiply, x, y);
    };
    HloInstruction* cube = mul(mul(value, value), value);
    HloInstruction* inner =
        b.Binary(HloOpcode::kAdd, value, mul(b.Splat(type, 0.044715, dims), cube));
    HloInstruction* t = b.Unary(
        HloOpcode::kTanh, mul(b.Splat(type, 0.79788456080286535587989211986876, dims), inner));
    value = mul(mul(b.Splat(type, 0.5, dims), value),
                b.Binary(HloOpcode::kAdd, b.Splat(type, 1, dims), t));
  }
  std::vector<HloInstruction*> values = {b.WithLayoutOf(value, gemm.output)};
  if (gemm.has_aux) {
    const Shape& aux = h->shape().tuple_shapes(1);
    values.push_back(b.WithLayoutOf(b.Convert(before_activation, aux.element_type()), aux));
  }
  if (gemm.has_workspace) return WithZeroWorkspace(std::move(values), *h, b);
  return values.size() == 1 ? values[0] : b.Tuple(std::move(values));
}

// The forward window's extent along spatial dimension i of an array of
// `size` elements: (size - 1) * step + 1, or 0 when empty.
int64_t Span(int64_t size, int64_t step) { return size == 0 ? 0 : (size - 1) * step + 1; }

// dx = __cudnn$convBackwardInput(dy, w) as a forward convolution, the
// transpose of y = conv(x, w): dy dilated by the forward stride, convolved
// with w reversed in space and its features swapped (per group: the kernel
// [o_g, g * i + z] from w[z, g * o_g + j]), padded so that each dx position
// sees the dy positions it fed.
HloInstruction* BackwardInputConvolution(HloInstruction* h, const CudnnConvConfig& conv,
                                         InstructionBuilder& b) {
  const HloAttributes& attrs = h->attrs();
  const ConvolutionDimensionNumbersProto& dn = *attrs.convolution_dimension_numbers;
  HloInstruction* dy = h->operand(0);
  HloInstruction* w = h->operand(1);
  const Shape& ws = w->shape();
  const Shape& ys = dy->shape();
  const Shape& xs = conv.output;
  const int64_t spatial = dn.input_spatial_dimensions_size();
  const int64_t groups = attrs.feature_group_count;

  HloInstruction* reversed =
      b.Op(HloOpcode::kReverse, Shape(ws.element_type(), ws.dimensions()), {w});
  reversed->mutable_attrs()->dimensions.assign(dn.kernel_spatial_dimensions().begin(),
                                               dn.kernel_spatial_dimensions().end());
  ConvolutionDimensionNumbersProto t;
  t.set_input_batch_dimension(dn.output_batch_dimension());
  t.set_input_feature_dimension(dn.output_feature_dimension());
  *t.mutable_input_spatial_dimensions() = dn.output_spatial_dimensions();
  t.set_output_batch_dimension(dn.input_batch_dimension());
  t.set_output_feature_dimension(dn.input_feature_dimension());
  *t.mutable_output_spatial_dimensions() = dn.input_spatial_dimensions();
  HloInstruction* kernel = reversed;
  if (groups == 1) {
    t.set_kernel_input_feature_dimension(dn.kernel_output_feature_dimension());
    t.set_kernel_output_feature_dimension(dn.kernel_input_feature_dimension());
    *t.mutable_kernel_spatial_dimensions() = dn.kernel_spatial_dimensions();
  } else {
    // [o, z, s...] -> [g, j, z, s...] -> [j, g, z, s...] -> [j, g * z, s...].
    const int64_t out = ws.dimensions(dn.kernel_output_feature_dimension());
    const int64_t in = ws.dimensions(dn.kernel_input_feature_dimension());
    std::vector<int64_t> perm = {dn.kernel_output_feature_dimension(),
                                 dn.kernel_input_feature_dimension()};
    std::vector<int64_t> sizes;
    for (int64_t d : dn.kernel_spatial_dimensions()) {
      perm.push_back(d);
      sizes.push_back(ws.dimensions(d));
    }
    std::vector<int64_t> oz = {out, in};
    oz.insert(oz.end(), sizes.begin(), sizes.end());
    HloInstruction* canonical = b.Op(HloOpcode::kTranspose, Shape(ws.element_type(), oz), {kernel});
    canonical->mutable_attrs()->dimensions = perm;
    std::vector<int64_t> split = {groups, out / groups, in};
    split.insert(split.end(), sizes.begin(), sizes.end());
    std::vector<int64_t> swapped = {out / groups, groups, in};
    swapped.insert(swapped.end(), sizes.begin(), sizes.end());
    std::vector<int64_t> swap(split.size());
    for (size_t i = 0; i < swap.size(); ++i) swap[i] = static_cast<int64_t>(i);
    std::swap(swap[0], swap[1]);
    HloInstruction* moved = b.Op(HloOpcode::kTranspose, Shape(ws.element_type(), swapped),
                                 {b.Reshape(canonical, split)});
    moved->mutable_attrs()->dimensions = swap;
    std::vector<int64_t> merged = {out / groups, groups * in};
    merged.insert(merged.end(), sizes.begin(), sizes.end());
    kernel = b.Reshape(moved, merged);
    t.set_kernel_input_feature_dimension(0);
    t.set_kernel_output_feature_dimension(1);
    for (int64_t i = 0; i < spatial; ++i) t.add_kernel_spatial_dimensions(2 + i);
  }
  WindowProto window;
  for (int64_t i = 0; i < spatial; ++i) {
    const WindowDimensionProto& f = attrs.window->dimensions(static_cast<int>(i));
    const int64_t stride = std::max<int64_t>(f.stride(), 1);
    const int64_t dilation = std::max<int64_t>(f.window_dilation(), 1);
    const int64_t k = ws.dimensions(dn.kernel_spatial_dimensions(i));
    const int64_t dilated_dy = Span(ys.dimensions(dn.output_spatial_dimensions(i)), stride);
    WindowDimensionProto* d = window.add_dimensions();
    d->set_size(k);
    d->set_stride(1);
    d->set_window_dilation(dilation);
    d->set_base_dilation(stride);
    d->set_padding_low((k - 1) * dilation - f.padding_low());
    d->set_padding_high(xs.dimensions(dn.input_spatial_dimensions(i)) + (k - 1) * dilation -
                        dilated_dy - d->padding_low());
  }
  HloInstruction* value =
      b.Op(HloOpcode::kConvolution, Shape(xs.element_type(), xs.dimensions()), {dy, kernel});
  value->mutable_attrs()->window = window;
  value->mutable_attrs()->convolution_dimension_numbers = t;
  value->mutable_attrs()->feature_group_count = groups;
  return value;
}

// dw = __cudnn$convBackwardFilter(x, dy) as a forward convolution: x's
// batch contracted with dy's, dy the window (dilated by the forward stride)
// sliding over x with the forward dilation as its stride; with feature
// groups, x's features are batch groups, each seeing its group's dy
// features.
HloInstruction* BackwardFilterConvolution(HloInstruction* h, const CudnnConvConfig& conv,
                                          InstructionBuilder& b) {
  const HloAttributes& attrs = h->attrs();
  const ConvolutionDimensionNumbersProto& dn = *attrs.convolution_dimension_numbers;
  const Shape& xs = h->operand(0)->shape();
  const Shape& ys = h->operand(1)->shape();
  const Shape& ws = conv.output;
  ConvolutionDimensionNumbersProto t;
  t.set_input_batch_dimension(dn.input_feature_dimension());
  t.set_input_feature_dimension(dn.input_batch_dimension());
  *t.mutable_input_spatial_dimensions() = dn.input_spatial_dimensions();
  t.set_kernel_input_feature_dimension(dn.output_batch_dimension());
  t.set_kernel_output_feature_dimension(dn.output_feature_dimension());
  *t.mutable_kernel_spatial_dimensions() = dn.output_spatial_dimensions();
  t.set_output_batch_dimension(dn.kernel_input_feature_dimension());
  t.set_output_feature_dimension(dn.kernel_output_feature_dimension());
  *t.mutable_output_spatial_dimensions() = dn.kernel_spatial_dimensions();
  WindowProto window;
  for (int64_t i = 0; i < dn.input_spatial_dimensions_size(); ++i) {
    const WindowDimensionProto& f = attrs.window->dimensions(static_cast<int>(i));
    const int64_t stride = std::max<int64_t>(f.stride(), 1);
    const int64_t dilation = std::max<int64_t>(f.window_dilation(), 1);
    const int64_t k = ws.dimensions(dn.kernel_spatial_dimensions(i));
    const int64_t o = ys.dimensions(dn.output_spatial_dimensions(i));
    WindowDimensionProto* d = window.add_dimensions();
    d->set_size(o);
    d->set_stride(dilation);
    d->set_window_dilation(stride);
    d->set_base_dilation(1);
    d->set_padding_low(f.padding_low());
    d->set_padding_high((k - 1) * dilation + Span(o, stride) -
                        xs.dimensions(dn.input_spatial_dimensions(i)) - f.padding_low());
  }
  HloInstruction* value = b.Op(HloOpcode::kConvolution, Shape(ws.element_type(), ws.dimensions()),
                               {h->operand(0), h->operand(1)});
  value->mutable_attrs()->window = window;
  value->mutable_attrs()->convolution_dimension_numbers = t;
  value->mutable_attrs()->batch_group_count = attrs.feature_group_count;
  return value;
}

absl::StatusOr<HloInstruction*> LowerCudnnConvolution(HloInstruction* h, InstructionBuilder& b) {
  AOT_ASSIGN_OR_RETURN(const CudnnConvConfig conv, ReadCudnnConvConfig(*h));
  const PrimitiveType type = conv.output.element_type();
  const std::vector<int64_t>& dims = conv.output.dimensions();
  HloInstruction* value = nullptr;
  // The gradient of a convolution without terms is all zeros.
  const bool no_terms = conv.output.ElementCount() == 0 ||
                        h->operand(0)->shape().ElementCount() == 0 ||
                        h->operand(1)->shape().ElementCount() == 0;
  if (conv.kind != CudnnConvConfig::Kind::kForward && no_terms) {
    value = b.Splat(type, 0, dims);
  } else if (conv.kind == CudnnConvConfig::Kind::kBackwardInput) {
    value = BackwardInputConvolution(h, conv, b);
  } else if (conv.kind == CudnnConvConfig::Kind::kBackwardFilter) {
    value = BackwardFilterConvolution(h, conv, b);
  } else {
    value = b.Op(HloOpcode::kConvolution, Shape(type, dims), {h->operand(0), h->operand(1)});
    SetCudnnConvolutionAttributes(*h, value->mutable_attrs());
  }
  if (conv.conv_result_scale != 1) {
    value = b.Binary(HloOpcode::kMultiply, value, b.Splat(type, conv.conv_result_scale, dims));
  }
  if (conv.has_side_input && conv.side_input_scale != 0) {
    HloInstruction* side = b.Convert(h->operand(3), type);
    if (conv.side_input_scale != 1) {
      side = b.Binary(HloOpcode::kMultiply, side, b.Splat(type, conv.side_input_scale, dims));
    }
    value = b.Binary(HloOpcode::kAdd, value, side);
  }
  if (conv.has_bias) {
    value = b.Binary(HloOpcode::kAdd, value,
                     b.Broadcast(b.Convert(h->operand(2), type), Shape(type, dims),
                                 {conv.output_feature_dimension}));
  }
  using Activation = CudnnConvConfig::Activation;
  HloInstruction* zero = conv.activation == Activation::kNone ? nullptr : b.Splat(type, 0, dims);
  switch (conv.activation) {
    case Activation::kNone:
      break;
    case Activation::kRelu:
      value = b.Binary(HloOpcode::kMaximum, value, zero);
      break;
    case Activation::kRelu6:
      value = b.Binary(HloOpcode::kMinimum, b.Binary(HloOpcode::kMaximum, value, zero),
                       b.Splat(type, 6, dims));
      break;
    case Activation::kElu:
      value = b.Select(b.Compare(value, zero, ComparisonDirection::kGt), value,
                       b.Unary(HloOpcode::kExpm1, value));
      break;
    case Activation::kLeakyRelu:
      value = b.Select(
          b.Compare(value, zero, ComparisonDirection::kGt), value,
          b.Binary(HloOpcode::kMultiply, b.Splat(type, conv.leakyrelu_alpha, dims), value));
      break;
  }
  value = b.WithLayoutOf(value, conv.output);
  return conv.has_scratch ? WithZeroWorkspace({value}, *h, b) : value;
}

absl::StatusOr<HloInstruction*> LowerTriangularSolve(HloInstruction* h, InstructionBuilder& b) {
  AOT_ASSIGN_OR_RETURN(const TriangularSolveConfig solve, ReadTriangularSolveConfig(*h));
  HloInstruction* x = b.Op(HloOpcode::kTriangularSolve,
                           Shape(solve.output.element_type(), solve.output.dimensions()),
                           {h->operand(0), h->operand(1)});
  x->mutable_attrs()->unknown_attributes = TriangularSolveAttributeList(solve.options);
  x = b.WithLayoutOf(x, solve.output);
  return solve.has_scratch ? WithZeroWorkspace({x}, *h, b) : x;
}

// potrf's (factor, workspace, info) from cholesky: the factor's triangle
// where it belongs and a's elsewhere; info from the factor's diagonal (the
// first element that is not > 0, where a column's pivot failed, counted
// from 1), reduced by min over each matrix.
absl::StatusOr<HloInstruction*> LowerCusolverCholesky(HloInstruction* h, InstructionBuilder& b) {
  AOT_ASSIGN_OR_RETURN(const CusolverCholeskyConfig chol, ReadCusolverCholeskyConfig(*h));
  HloInstruction* a = h->operand(0);
  const PrimitiveType type = a->shape().element_type();
  const std::vector<int64_t>& dims = a->shape().dimensions();
  const int64_t rank = static_cast<int64_t>(dims.size());
  const int64_t n = dims.back();
  HloInstruction* l = b.Op(HloOpcode::kCholesky, Shape(type, dims), {a});
  l->mutable_attrs()->unknown_attributes = {{"lower", chol.lower ? "true" : "false"}};
  auto iota = [&](int64_t dimension) {
    HloInstruction* i = b.Op(HloOpcode::kIota, Shape(S32, dims), {});
    i->mutable_attrs()->dimensions = {dimension};
    return i;
  };
  HloInstruction* row = iota(rank - 2);
  HloInstruction* col = iota(rank - 1);
  HloInstruction* factor = b.Select(
      b.Compare(row, col, chol.lower ? ComparisonDirection::kGe : ComparisonDirection::kLe), l, a);
  const PrimitiveType real = IsComplex(type) ? ComplexComponentType(type) : type;
  HloInstruction* diagonal = IsComplex(type) ? b.Op(HloOpcode::kReal, Shape(real, dims), {l}) : l;
  HloInstruction* failed =
      b.Binary(HloOpcode::kAnd, b.Compare(row, col, ComparisonDirection::kEq),
               b.Unary(HloOpcode::kNot,
                       b.Compare(diagonal, b.Splat(real, 0, dims), ComparisonDirection::kGt)));
  HloInstruction* none = b.Splat(S32, static_cast<double>(n + 1), dims);
  HloInstruction* order =
      b.Select(failed, b.Binary(HloOpcode::kAdd, col, b.Splat(S32, 1, dims)), none);
  HloComputation* min = AddScalarComputation(
      h->parent()->parent(), "cholesky_info_min", {S32, S32}, [](std::vector<HloInstruction*> p) {
        return HloInstruction::Create(HloOpcode::kMinimum, Shape::Scalar(S32), {p[0], p[1]});
      });
  const std::vector<int64_t> batch(dims.begin(), dims.end() - 2);
  HloInstruction* first =
      b.Op(HloOpcode::kReduce, Shape(S32, batch), {order, b.Constant(S32, n + 1)});
  first->mutable_attrs()->dimensions = {rank - 2, rank - 1};
  first->mutable_called_computations()->push_back(min);
  HloInstruction* info = b.Select(
      b.Compare(first, b.Splat(S32, static_cast<double>(n + 1), batch), ComparisonDirection::kEq),
      b.Splat(S32, 0, batch), first);
  info = b.WithLayoutOf(b.Reshape(info, chol.info.dimensions()), chol.info);
  HloInstruction* workspace = b.WithLayoutOf(
      b.Splat(chol.workspace.element_type(), 0, chol.workspace.dimensions()), chol.workspace);
  return b.Tuple({b.WithLayoutOf(factor, chol.factor), workspace, info});
}

absl::StatusOr<HloInstruction*> Lower(HloInstruction* h, InstructionBuilder& b) {
  switch (ClassifyXlaCustomCall(*h)) {
    case XlaCustomCall::kPassThrough:
      AOT_RETURN_IF_ERROR(CheckPassThrough(*h));
      return b.WithLayoutOf(h->operand(0), h->shape());
    case XlaCustomCall::kTopK: {
      AOT_ASSIGN_OR_RETURN(const int64_t k, ReadXlaTopK(*h));
      AOT_ASSIGN_OR_RETURN(const bool largest, XlaTopKTakesLargest(*h));
      HloInstruction* topk = b.Op(HloOpcode::kTopK, h->shape(), {h->operand(0)});
      topk->mutable_attrs()->unknown_attributes = {{"k", absl::StrCat(k)},
                                                   {"largest", largest ? "true" : "false"}};
      return topk;
    }
    case XlaCustomCall::kGemm:
      return LowerGemm(h, b);
    case XlaCustomCall::kCudnnConvolution:
      return LowerCudnnConvolution(h, b);
    case XlaCustomCall::kTriangularSolve:
      return LowerTriangularSolve(h, b);
    case XlaCustomCall::kCholesky:
      return LowerCusolverCholesky(h, b);
    case XlaCustomCall::kNone:
      break;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<bool> LowerXlaCustomCalls(HloModule* module) {
  return RewriteUnfusedComputations(
      module, AfterRewrite::kRemoveDeadAndReorder, [](HloComputation* c) -> absl::StatusOr<bool> {
        NameUniquer names = NameUniquer::ForInstructions(*c);
        bool changed = false;
        for (HloInstruction* h : c->MakeInstructionPostOrder()) {
          if (ClassifyXlaCustomCall(*h) == XlaCustomCall::kNone) continue;
          InstructionBuilder b(c, &names, *h);
          absl::StatusOr<HloInstruction*> lowered = Lower(h, b);
          if (!lowered.ok()) {
            return absl::Status(lowered.status().code(),
                                absl::StrCat("instruction '", h->name(),
                                             "' (custom-call): ", lowered.status().message()));
          }
          h->ReplaceAllUsesWith(*lowered);
          // A GEMM's or convolution's output read from its (output,
          // workspace) tuple is the output itself: the workspace's zeros
          // are then dead code.
          if ((*lowered)->opcode() == HloOpcode::kTuple) {
            const std::vector<HloInstruction*> users = (*lowered)->users();
            for (HloInstruction* user : users) {
              if (user->opcode() != HloOpcode::kGetTupleElement) continue;
              user->ReplaceAllUsesWith((*lowered)->operand(user->attrs().tuple_index));
            }
          }
          changed = true;
        }
        return changed;
      });
}

}  // namespace aot
