#include "compiler/interpreter/custom_call_registry.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/xla_custom_calls.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {

absl::Status CustomCallRegistry::Register(absl::string_view target, CustomCallHandler handler) {
  if (target.empty()) {
    return absl::InvalidArgumentError("custom-call target name is empty");
  }
  if (!handler) {
    return absl::InvalidArgumentError(
        absl::StrCat("custom-call target '", target, "': empty handler"));
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = handlers_.emplace(std::string(target), std::move(handler));
  if (!inserted) {
    return absl::AlreadyExistsError(
        absl::StrCat("custom-call target '", target, "' is already registered"));
  }
  return absl::OkStatus();
}

absl::StatusOr<CustomCallHandler> CustomCallRegistry::Lookup(absl::string_view target) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = handlers_.find(target);
  if (it == handlers_.end()) {
    return absl::NotFoundError(absl::StrCat(
        "custom-call target '", target, "' has no reference implementation in the interpreter"));
  }
  return it->second;
}

bool CustomCallRegistry::Contains(absl::string_view target) const {
  std::lock_guard<std::mutex> lock(mu_);
  return handlers_.find(target) != handlers_.end();
}

std::vector<std::string> CustomCallRegistry::Targets() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> names;
  for (const auto& [name, handler] : handlers_) names.push_back(name);
  return names;
}

namespace {

absl::Status CheckOneArrayOperand(absl::Span<const Literal* const> operands,
                                  absl::string_view target) {
  if (operands.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(target, " takes 1 operand, got ", operands.size()));
  }
  if (!operands[0]->shape().IsArray()) {
    return absl::InvalidArgumentError(absl::StrCat(target, " takes an array operand, got ",
                                                   operands[0]->shape().ToString(false)));
  }
  return absl::OkStatus();
}

// Total order on doubles: -NaN < -inf < ... < -0 < +0 < ... < inf < +NaN.
int64_t TotalOrderKey(double v) {
  int64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  if (bits < 0) bits ^= INT64_MAX;
  return bits;
}

absl::StatusOr<Literal> TopK(absl::Span<const Literal* const> operands,
                             const HloInstruction& instruction) {
  AOT_RETURN_IF_ERROR(CheckOneArrayOperand(operands, "aot.topk"));
  const Literal& input = *operands[0];
  const Shape& in_shape = input.shape();
  if (in_shape.rank() < 1) {
    return absl::InvalidArgumentError("aot.topk needs an operand of rank >= 1, got a scalar");
  }
  if (in_shape.element_type() == PRED) {
    return absl::InvalidArgumentError("aot.topk does not take pred operands");
  }
  const int64_t n = in_shape.dimensions(in_shape.rank() - 1);
  int64_t k = -1;
  absl::string_view config = absl::StripAsciiWhitespace(instruction.attrs().backend_config);
  if (!config.empty()) {
    if (!absl::SimpleAtoi(config, &k)) {
      return absl::InvalidArgumentError(
          absl::StrCat("aot.topk: backend_config must be the integer k, got '", config, "'"));
    }
  } else {
    const Shape& result = instruction.shape();
    if (result.IsTuple() && !result.tuple_shapes().empty() && result.tuple_shapes(0).IsArray() &&
        result.tuple_shapes(0).rank() >= 1) {
      k = result.tuple_shapes(0).dimensions(result.tuple_shapes(0).rank() - 1);
    }
  }
  if (k < 0 || k > n) {
    return absl::InvalidArgumentError(
        absl::StrCat("aot.topk: k=", k, " must be in [0, ", n, "] (the last dimension)"));
  }
  std::vector<int64_t> out_dims = in_shape.dimensions();
  out_dims.back() = k;
  Literal values(Shape(in_shape.element_type(), out_dims));
  Literal indices(Shape(S32, out_dims));
  const int64_t rows = n == 0 ? 0 : input.element_count() / n;
  const bool is_float = IsFloatingPoint(in_shape.element_type());
  const bool is_unsigned = IsUnsignedInteger(in_shape.element_type());
  const int64_t width = ByteWidth(in_shape.element_type());
  std::vector<int64_t> order(n);
  std::vector<int64_t> keys(n);
  std::vector<uint64_t> ukeys(n);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx = r * n + j;
      if (is_float) {
        keys[j] = TotalOrderKey(input.GetAsDouble(idx));
      } else if (is_unsigned) {
        ukeys[j] = input.GetAsUint64(idx);
      } else {
        keys[j] = input.GetAsInt64(idx);
      }
    }
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return is_unsigned ? ukeys[a] > ukeys[b] : keys[a] > keys[b];
    });
    for (int64_t j = 0; j < k; ++j) {
      std::memcpy(values.raw_data() + (r * k + j) * width,
                  input.raw().data() + (r * n + order[j]) * width, width);
      indices.Set<int32_t>(r * k + j, static_cast<int32_t>(order[j]));
    }
  }
  std::vector<Literal> elements;
  elements.push_back(std::move(values));
  elements.push_back(std::move(indices));
  return Literal::Tuple(std::move(elements));
}

template <typename T>
T GeluValue(T x) {
  const T kSqrt2OverPi = static_cast<T>(0.79788456080286535587989211986876);
  return static_cast<T>(0.5) * x *
         (static_cast<T>(1) + std::tanh(kSqrt2OverPi * (x + static_cast<T>(0.044715) * x * x * x)));
}

absl::StatusOr<Literal> Gelu(absl::Span<const Literal* const> operands,
                             const HloInstruction& instruction) {
  AOT_RETURN_IF_ERROR(CheckOneArrayOperand(operands, "aot.gelu"));
  const Literal& input = *operands[0];
  PrimitiveType type = input.shape().element_type();
  if (!IsFloatingPoint(type)) {
    return absl::InvalidArgumentError(
        absl::StrCat("aot.gelu takes a floating-point operand, got ", PrimitiveTypeName(type)));
  }
  Literal out(Shape(type, input.shape().dimensions()));
  const int64_t n = input.element_count();
  switch (type) {
    case F64:
      for (int64_t i = 0; i < n; ++i) {
        out.Set<double>(i, GeluValue<double>(input.Get<double>(i)));
      }
      break;
    case F32:
      for (int64_t i = 0; i < n; ++i) {
        out.Set<float>(i, GeluValue<float>(input.Get<float>(i)));
      }
      break;
    case F16:
      for (int64_t i = 0; i < n; ++i) {
        float x = static_cast<float>(input.Get<Half>(i));
        out.Set<Half>(i, Half(GeluValue<float>(x)));
      }
      break;
    default:  // BF16
      for (int64_t i = 0; i < n; ++i) {
        float x = static_cast<float>(input.Get<BFloat16>(i));
        out.Set<BFloat16>(i, BFloat16(GeluValue<float>(x)));
      }
      break;
  }
  return out;
}

// XLA's annotations: the operand's value (compiler/hlo/xla_custom_calls.h).
absl::StatusOr<Literal> PassThrough(absl::Span<const Literal* const> operands,
                                    const HloInstruction& instruction) {
  AOT_RETURN_IF_ERROR(CheckPassThrough(instruction));
  Literal value = *operands[0];
  value.set_layout(instruction.shape().minor_to_major());
  return value;
}

// XLA's TopK: aot.topk's k largest, k from the result.
absl::StatusOr<Literal> XlaTopK(absl::Span<const Literal* const> operands,
                                const HloInstruction& instruction) {
  AOT_RETURN_IF_ERROR(ReadXlaTopK(instruction).status());
  return TopK(operands, instruction);
}

// (out, zeros of the custom call's second result): a library call's
// workspace or scratch.
Literal WithZeroWorkspace(Literal out, const HloInstruction& custom_call) {
  std::vector<Literal> elements;
  elements.push_back(std::move(out));
  elements.emplace_back(custom_call.shape().tuple_shapes(1));
  return Literal::Tuple(std::move(elements));
}

// XLA:GPU's GEMM: the dot, then alpha, beta * c, the bias and the relu or GELU
// element by element in double, rounded once to the output type.
absl::StatusOr<Literal> Gemm(absl::Span<const Literal* const> operands,
                             const HloInstruction& instruction) {
  AOT_ASSIGN_OR_RETURN(const GemmConfig gemm, ReadGemmConfig(instruction));
  Shape dot_shape(gemm.output.element_type(), gemm.output.dimensions());
  std::unique_ptr<HloInstruction> dot = HloInstruction::Create(HloOpcode::kDot, dot_shape, {});
  dot->set_name(instruction.name());
  dot->mutable_attrs()->dot_dimension_numbers = gemm.dot_dimension_numbers;
  AOT_ASSIGN_OR_RETURN(Literal product,
                       interpreter_internal::EvalDot(*dot, *operands[0], *operands[1]));
  Literal out(dot_shape);
  const int64_t n = gemm.output.rank() == 0 ? 1 : gemm.output.dimensions(gemm.output.rank() - 1);
  for (int64_t i = 0; i < out.element_count(); ++i) {
    double v = gemm.alpha * product.GetAsDouble(i);
    if (gemm.has_c) v += gemm.beta * operands[2]->GetAsDouble(i);
    if (gemm.has_bias) v += operands[operands.size() - 1]->GetAsDouble(i % n);
    if (gemm.activation == GemmConfig::Activation::kRelu) v = std::max(v, 0.0);
    if (gemm.activation == GemmConfig::Activation::kGelu) v = GeluValue<double>(v);
    out.SetFromDouble(i, v);
  }
  out.set_layout(gemm.output.minor_to_major());
  return gemm.has_workspace ? WithZeroWorkspace(std::move(out), instruction) : std::move(out);
}

// A cuDNN convolution's gradient by its definition, in double: each term
// x[b, g * z_count + z, p] * w[z, o, k] of the forward convolution's
// y[b, o, q] (p = q * stride + k * dilation - padding_low, inside x) adds
// dy[b, o, q] * w[z, o, k] to dx[b, g * z_count + z, p] (backward input) or
// x[b, g * z_count + z, p] * dy[b, o, q] to dw[z, o, k] (backward filter).
// Written apart from the compiler's lowering (a transposed convolution),
// which it checks.
Literal CudnnConvolutionGradient(const CudnnConvConfig& conv, const HloInstruction& instruction,
                                 const Literal& a, const Literal& b) {
  const HloAttributes& attrs = instruction.attrs();
  const ConvolutionDimensionNumbersProto& dn = *attrs.convolution_dimension_numbers;
  const bool input = conv.kind == CudnnConvConfig::Kind::kBackwardInput;
  const Literal& dy = input ? a : b;
  const Literal& other = input ? b : a;  // w for dx, x for dw
  const std::vector<int64_t>& xd = input ? conv.output.dimensions() : a.shape().dimensions();
  const std::vector<int64_t>& wd = input ? b.shape().dimensions() : conv.output.dimensions();
  const std::vector<int64_t>& yd = dy.shape().dimensions();
  const std::vector<int64_t> xs = RowMajorStrides(xd), ws = RowMajorStrides(wd);
  const int64_t spatial = dn.input_spatial_dimensions_size();
  const int64_t z_count = wd[dn.kernel_input_feature_dimension()];
  const int64_t per_group = yd[dn.output_feature_dimension()] / attrs.feature_group_count;
  std::vector<int64_t> kernel(spatial);
  for (int64_t i = 0; i < spatial; ++i) kernel[i] = wd[dn.kernel_spatial_dimensions(i)];
  std::vector<double> grad(static_cast<size_t>(conv.output.ElementCount()), 0.0);
  std::vector<int64_t> q(yd.size(), 0), k(spatial, 0);
  int64_t y_linear = 0;
  if (dy.element_count() > 0 && other.element_count() > 0 && !grad.empty()) {
    do {
      const double dyv = dy.GetAsDouble(y_linear++);
      const int64_t o = q[dn.output_feature_dimension()];
      const int64_t x_fixed = q[dn.output_batch_dimension()] * xs[dn.input_batch_dimension()] +
                              (o / per_group) * z_count * xs[dn.input_feature_dimension()];
      const int64_t w_fixed = o * ws[dn.kernel_output_feature_dimension()];
      std::fill(k.begin(), k.end(), 0);
      do {
        int64_t x_off = x_fixed, w_off = w_fixed;
        bool inside = true;
        for (int64_t i = 0; i < spatial && inside; ++i) {
          const WindowDimensionProto& f = attrs.window->dimensions(static_cast<int>(i));
          const int64_t p = q[dn.output_spatial_dimensions(i)] * std::max<int64_t>(f.stride(), 1) +
                            k[i] * std::max<int64_t>(f.window_dilation(), 1) - f.padding_low();
          inside = p >= 0 && p < xd[dn.input_spatial_dimensions(i)];
          x_off += p * xs[dn.input_spatial_dimensions(i)];
          w_off += k[i] * ws[dn.kernel_spatial_dimensions(i)];
        }
        if (!inside) continue;
        for (int64_t z = 0; z < z_count; ++z) {
          const int64_t xi = x_off + z * xs[dn.input_feature_dimension()];
          const int64_t wi = w_off + z * ws[dn.kernel_input_feature_dimension()];
          if (input) {
            grad[xi] += dyv * other.GetAsDouble(wi);
          } else {
            grad[wi] += other.GetAsDouble(xi) * dyv;
          }
        }
      } while (NextIndex(kernel, k));
    } while (NextIndex(yd, q));
  }
  Literal out(Shape(conv.output.element_type(), conv.output.dimensions()));
  for (int64_t i = 0; i < out.element_count(); ++i) {
    out.SetFromDouble(i, conv.conv_result_scale * grad[i]);
  }
  return out;
}

// XLA:GPU's cuDNN convolutions: the convolution, then the scale, the side
// input, the bias and the activation element by element in double, rounded
// once to the output type; the gradients by their definition.
absl::StatusOr<Literal> CudnnConvolution(absl::Span<const Literal* const> operands,
                                         const HloInstruction& instruction) {
  AOT_ASSIGN_OR_RETURN(const CudnnConvConfig conv, ReadCudnnConvConfig(instruction));
  if (conv.kind != CudnnConvConfig::Kind::kForward) {
    Literal out = CudnnConvolutionGradient(conv, instruction, *operands[0], *operands[1]);
    out.set_layout(conv.output.minor_to_major());
    return conv.has_scratch ? WithZeroWorkspace(std::move(out), instruction) : std::move(out);
  }
  Shape conv_shape(conv.output.element_type(), conv.output.dimensions());
  std::unique_ptr<HloInstruction> op =
      HloInstruction::Create(HloOpcode::kConvolution, conv_shape, {});
  op->set_name(instruction.name());
  SetCudnnConvolutionAttributes(instruction, op->mutable_attrs());
  AOT_ASSIGN_OR_RETURN(Literal result,
                       interpreter_internal::EvalConvolution(*op, *operands[0], *operands[1]));
  // Elements are in row-major logical order: the feature index of element
  // i is (i / inner) % features.
  int64_t inner = 1;
  for (int64_t d = conv.output_feature_dimension + 1; d < conv_shape.rank(); ++d) {
    inner *= conv_shape.dimensions(d);
  }
  const int64_t features = conv_shape.dimensions(conv.output_feature_dimension);
  Literal out(conv_shape);
  for (int64_t i = 0; i < out.element_count(); ++i) {
    double v = conv.conv_result_scale * result.GetAsDouble(i);
    if (conv.has_side_input) v += conv.side_input_scale * operands[3]->GetAsDouble(i);
    if (conv.has_bias) v += operands[2]->GetAsDouble((i / inner) % features);
    out.SetFromDouble(i, ApplyConvActivation(conv, v));
  }
  out.set_layout(conv.output.minor_to_major());
  return conv.has_scratch ? WithZeroWorkspace(std::move(out), instruction) : std::move(out);
}

}  // namespace

absl::Status RegisterBuiltinCustomCalls(CustomCallRegistry& registry) {
  AOT_RETURN_IF_ERROR(registry.Register("aot.topk", TopK));
  AOT_RETURN_IF_ERROR(registry.Register("aot.gelu", Gelu));
  for (const char* annotation :
       {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape", "MoveToHost", "MoveToDevice"}) {
    AOT_RETURN_IF_ERROR(registry.Register(annotation, PassThrough));
  }
  AOT_RETURN_IF_ERROR(registry.Register("TopK", XlaTopK));
  AOT_RETURN_IF_ERROR(registry.Register("__cublas$gemm", Gemm));
  // __cudnn$convForwardGraph too, so that ReadCudnnConvConfig's refusal
  // names it.
  for (const char* target :
       {"__cudnn$convForward", "__cudnn$convBiasActivationForward", "__cudnn$convBackwardInput",
        "__cudnn$convBackwardFilter", "__cudnn$convForwardGraph"}) {
    AOT_RETURN_IF_ERROR(registry.Register(target, CudnnConvolution));
  }
  return registry.Register("__cublas$lt$matmul", Gemm);
}

CustomCallRegistry& CustomCallRegistry::Global() {
  static CustomCallRegistry* registry = [] {
    auto* r = new CustomCallRegistry();
    // Cannot fail on a fresh registry.
    (void)RegisterBuiltinCustomCalls(*r);
    return r;
  }();
  return *registry;
}

}  // namespace aot
