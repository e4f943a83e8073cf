#include "compiler/interpreter/custom_call_registry.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/xla_custom_calls.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {

absl::Status CustomCallRegistry::Register(absl::string_view target, CustomCallHandler handler,
                                          bool takes_complex) {
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
  if (takes_complex) takes_complex_.emplace(target);
  return absl::OkStatus();
}

bool CustomCallRegistry::TakesComplex(absl::string_view target) const {
  std::lock_guard<std::mutex> lock(mu_);
  return takes_complex_.find(target) != takes_complex_.end();
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

// XLA's TopK: topk's k largest or smallest, k from the result.
absl::StatusOr<Literal> XlaTopK(absl::Span<const Literal* const> operands,
                                const HloInstruction& instruction) {
  AOT_ASSIGN_OR_RETURN(const int64_t k, ReadXlaTopK(instruction));
  AOT_ASSIGN_OR_RETURN(const bool largest, XlaTopKTakesLargest(instruction));
  std::unique_ptr<HloInstruction> topk =
      HloInstruction::Create(HloOpcode::kTopK, instruction.shape(), {});
  topk->set_name(instruction.name());
  topk->mutable_attrs()->unknown_attributes = {{"k", absl::StrCat(k)},
                                               {"largest", largest ? "true" : "false"}};
  return interpreter_internal::EvalTopK(*topk, *operands[0]);
}

// (values..., zeros of the custom call's next result): a library call's
// workspace or scratch.
Literal WithZeroWorkspace(std::vector<Literal> values, const HloInstruction& custom_call) {
  values.emplace_back(custom_call.shape().tuple_shapes(static_cast<int64_t>(values.size())));
  return Literal::Tuple(std::move(values));
}

// The custom call's results: `out` alone, or with zeros for its scratch.
Literal WithZeroWorkspace(Literal out, const HloInstruction& custom_call) {
  std::vector<Literal> values;
  values.push_back(std::move(out));
  return WithZeroWorkspace(std::move(values), custom_call);
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
  // The _AUX epilogues' second result: the value before the activation.
  std::optional<Literal> aux;
  if (gemm.has_aux) {
    const Shape& aux_shape = instruction.shape().tuple_shapes(1);
    aux.emplace(Shape(aux_shape.element_type(), aux_shape.dimensions()));
  }
  const int64_t n = gemm.output.rank() == 0 ? 1 : gemm.output.dimensions(gemm.output.rank() - 1);
  for (int64_t i = 0; i < out.element_count(); ++i) {
    double v = gemm.alpha * product.GetAsDouble(i);
    if (gemm.has_c) v += gemm.beta * operands[2]->GetAsDouble(i);
    if (gemm.has_bias) v += operands[operands.size() - 1]->GetAsDouble(i % n);
    if (aux.has_value()) aux->SetFromDouble(i, v);
    if (gemm.activation == GemmConfig::Activation::kRelu) v = std::max(v, 0.0);
    if (gemm.activation == GemmConfig::Activation::kGelu) v = GeluValue<double>(v);
    out.SetFromDouble(i, v);
  }
  out.set_layout(gemm.output.minor_to_major());
  std::vector<Literal> values;
  values.push_back(std::move(out));
  if (aux.has_value()) {
    aux->set_layout(instruction.shape().tuple_shapes(1).minor_to_major());
    values.push_back(std::move(*aux));
  }
  if (gemm.has_workspace) return WithZeroWorkspace(std::move(values), instruction);
  return values.size() == 1 ? std::move(values[0]) : Literal::Tuple(std::move(values));
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
  std::vector<int64_t> kernel(spatial), stride(spatial), dilation(spatial), pad_low(spatial);
  for (int64_t i = 0; i < spatial; ++i) {
    kernel[i] = wd[dn.kernel_spatial_dimensions(i)];
    const WindowDimensionProto& f = attrs.window->dimensions(static_cast<int>(i));
    stride[i] = std::max<int64_t>(f.stride(), 1);
    dilation[i] = std::max<int64_t>(f.window_dilation(), 1);
    pad_low[i] = f.padding_low();
  }
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
          const int64_t p =
              q[dn.output_spatial_dimensions(i)] * stride[i] + k[i] * dilation[i] - pad_low[i];
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

// XLA:GPU's cuBLAS triangular solve: triangular-solve with its options.
absl::StatusOr<Literal> CublasTriangularSolve(absl::Span<const Literal* const> operands,
                                              const HloInstruction& instruction) {
  AOT_ASSIGN_OR_RETURN(const TriangularSolveConfig solve, ReadTriangularSolveConfig(instruction));
  std::unique_ptr<HloInstruction> op =
      HloInstruction::Create(HloOpcode::kTriangularSolve,
                             Shape(solve.output.element_type(), solve.output.dimensions()), {});
  op->set_name(instruction.name());
  op->mutable_attrs()->unknown_attributes = TriangularSolveAttributeList(solve.options);
  AOT_ASSIGN_OR_RETURN(Literal x,
                       interpreter_internal::EvalTriangularSolve(*op, *operands[0], *operands[1]));
  x.set_layout(solve.output.minor_to_major());
  return solve.has_scratch ? WithZeroWorkspace(std::move(x), instruction) : std::move(x);
}

// XLA:GPU's cuSOLVER Cholesky: potrf's result, from cholesky's (the
// definition in compiler/hlo/xla_custom_calls.h), matrix by matrix.
absl::StatusOr<Literal> CusolverCholesky(absl::Span<const Literal* const> operands,
                                         const HloInstruction& instruction) {
  AOT_ASSIGN_OR_RETURN(const CusolverCholeskyConfig chol, ReadCusolverCholeskyConfig(instruction));
  const Literal& a = *operands[0];
  const Shape plain(a.shape().element_type(), a.shape().dimensions());
  std::unique_ptr<HloInstruction> op = HloInstruction::Create(HloOpcode::kCholesky, plain, {});
  op->set_name(instruction.name());
  op->mutable_attrs()->unknown_attributes = {{"lower", chol.lower ? "true" : "false"}};
  AOT_ASSIGN_OR_RETURN(Literal l, interpreter_internal::EvalCholesky(*op, a));
  const int64_t n = plain.dimensions().back();
  const int64_t width = ByteWidth(plain.element_type());
  Literal factor(plain);
  Literal info(Shape(S32, chol.info.dimensions()));
  for (int64_t m = 0; n > 0 && m < a.element_count() / (n * n); ++m) {
    int32_t failed = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const int64_t at = m * n * n + i * n + j;
        const bool in_factor = chol.lower ? i >= j : i <= j;
        std::memcpy(factor.raw_data() + at * width, (in_factor ? l : a).raw().data() + at * width,
                    width);
      }
      if (failed == 0 && !(l.GetAsDouble(m * n * n + i * n + i) > 0))
        failed = static_cast<int32_t>(i + 1);
    }
    info.Set<int32_t>(m, failed);
  }
  factor.set_layout(chol.factor.minor_to_major());
  info.set_layout(chol.info.minor_to_major());
  std::vector<Literal> elements;
  elements.push_back(std::move(factor));
  elements.emplace_back(chol.workspace);
  elements.push_back(std::move(info));
  return Literal::Tuple(std::move(elements));
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
  AOT_RETURN_IF_ERROR(registry.Register("__cublas$triangularSolve", CublasTriangularSolve));
  AOT_RETURN_IF_ERROR(registry.Register("__cusolver$cholesky", CusolverCholesky));
  AOT_RETURN_IF_ERROR(RegisterLapackCustomCalls(registry));
  return registry.Register("__cublas$lt$matmul", Gemm);
}

absl::StatusOr<bool> XlaTopKTakesLargest(const HloInstruction& custom_call) {
  if (custom_call.called_computations().empty()) return true;
  const HloComputation* comparator = custom_call.called_computations()[0];
  const auto scalar = [&](int64_t i) {
    return comparator->parameter_instruction(i)->shape().IsArray() &&
           comparator->parameter_instruction(i)->shape().rank() == 0;
  };
  if (comparator->num_parameters() != 2 || !scalar(0) || !scalar(1) ||
      comparator->parameter_instruction(0)->shape().element_type() !=
          comparator->parameter_instruction(1)->shape().element_type()) {
    return absl::InvalidArgumentError(
        absl::StrCat("TopK's comparator '", comparator->name(),
                     "' does not take two scalars of one element type"));
  }
  const PrimitiveType type = comparator->parameter_instruction(0)->shape().element_type();
  // Probes that every type holds some of; rounding to the type may merge or
  // lose some (NaN for a float type without infinities), so each is read
  // back and the distinct ordinary ones kept.
  std::vector<Literal> probes;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (double v : {-kInf, -3.5, -2.0, -1.0, -0.25, 0.0, 0.5, 1.0, 3.0, 6.0, kInf}) {
    if (!IsFloatingPoint(type) && (std::isinf(v) || v != std::floor(v))) continue;
    if (IsUnsignedInteger(type) && v < 0) continue;
    Literal probe{Shape(type, {})};
    probe.SetFromDouble(0, v);
    const double got = probe.GetAsDouble(0);
    bool fresh = !std::isnan(got);
    for (const Literal& p : probes) fresh = fresh && p.GetAsDouble(0) != got;
    if (fresh) probes.push_back(std::move(probe));
  }
  bool greater = true, less = true;
  std::string disagreement;
  HloEvaluator evaluator;
  for (const Literal& a : probes) {
    for (const Literal& b : probes) {
      if (&a == &b) continue;
      AOT_ASSIGN_OR_RETURN(Literal r, evaluator.EvaluateComputation(*comparator, {&a, &b}));
      const bool before = r.GetAsDouble(0) != 0;
      const double x = a.GetAsDouble(0), y = b.GetAsDouble(0);
      if (before != (x > y)) greater = false;
      if (before != (x < y)) less = false;
      if (!greater && !less && disagreement.empty()) {
        disagreement = absl::StrCat("gives ", before ? "true" : "false", " for (", x, ", ", y, ")");
      }
    }
  }
  if (probes.size() < 2 || greater) return true;
  if (less) return false;
  return absl::UnimplementedError(
      absl::StrCat("TopK with the comparator '", comparator->name(),
                   "', which orders neither as greater-than nor as less-than (it ", disagreement,
                   "): not supported (this compiler computes the k largest or smallest)"));
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
