#include "compiler/passes/xla_custom_call_lowering.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/xla_custom_calls.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// (value, zeros of the custom call's second result): a library call's
// workspace or scratch, which nothing reads.
HloInstruction* WithZeroWorkspace(HloInstruction* value, const HloInstruction& custom_call,
                                  InstructionBuilder& b) {
  const Shape& workspace = custom_call.shape().tuple_shapes(1);
  HloInstruction* zeros =
      b.WithLayoutOf(b.Splat(workspace.element_type(), 0, workspace.dimensions()), workspace);
  return b.Tuple({value, zeros});
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
  value = b.WithLayoutOf(value, gemm.output);
  return gemm.has_workspace ? WithZeroWorkspace(value, *h, b) : value;
}

absl::StatusOr<HloInstruction*> LowerCudnnConvolution(HloInstruction* h, InstructionBuilder& b) {
  AOT_ASSIGN_OR_RETURN(const CudnnConvConfig conv, ReadCudnnConvConfig(*h));
  const PrimitiveType type = conv.output.element_type();
  const std::vector<int64_t>& dims = conv.output.dimensions();
  HloInstruction* value =
      b.Op(HloOpcode::kConvolution, Shape(type, dims), {h->operand(0), h->operand(1)});
  SetCudnnConvolutionAttributes(*h, value->mutable_attrs());
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
  return conv.has_scratch ? WithZeroWorkspace(value, *h, b) : value;
}

absl::StatusOr<HloInstruction*> Lower(HloInstruction* h, InstructionBuilder& b) {
  switch (ClassifyXlaCustomCall(*h)) {
    case XlaCustomCall::kPassThrough:
      AOT_RETURN_IF_ERROR(CheckPassThrough(*h));
      return b.WithLayoutOf(h->operand(0), h->shape());
    case XlaCustomCall::kTopK: {
      AOT_ASSIGN_OR_RETURN(const int64_t k, ReadXlaTopK(*h));
      HloInstruction* topk = b.Op(HloOpcode::kTopK, h->shape(), {h->operand(0)});
      topk->mutable_attrs()->unknown_attributes = {{"k", absl::StrCat(k)}, {"largest", "true"}};
      return topk;
    }
    case XlaCustomCall::kGemm:
      return LowerGemm(h, b);
    case XlaCustomCall::kCudnnConvolution:
      return LowerCudnnConvolution(h, b);
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
