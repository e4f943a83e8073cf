#include "compiler/hlo/xla_custom_calls.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_computation.h"
#include "nlohmann/json.hpp"
#include "support/status_macros.h"

namespace aot {

namespace {

// Errors name the target; the compiler and the interpreter put the
// instruction in front, as for any instruction.
absl::Status Unsupported(const HloInstruction& h, absl::string_view why) {
  return absl::UnimplementedError(absl::StrCat(h.attrs().custom_call_target, " ", why));
}

absl::Status Malformed(const HloInstruction& h, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(h.attrs().custom_call_target, " ", why));
}

// A number of the config: JSON numbers, or strings as protobuf's JSON
// mapping writes int64 fields.
bool ReadNumber(const nlohmann::json& j, double* out) {
  if (j.is_number()) {
    *out = j.get<double>();
    return true;
  }
  return j.is_string() && absl::SimpleAtod(j.get<std::string>(), out);
}

bool ReadDims(const nlohmann::json& config, const char* key,
              google::protobuf::RepeatedField<int64_t>* out) {
  if (!config.contains(key)) return true;
  const nlohmann::json& list = config[key];
  if (!list.is_array()) return false;
  for (const nlohmann::json& v : list) {
    double d = 0;
    if (!ReadNumber(v, &d)) return false;
    out->Add(static_cast<int64_t>(d));
  }
  return true;
}

// A bool field of an options proto in JSON, false when absent.
bool ReadBool(const nlohmann::json& config, const char* key, bool* out) {
  if (!config.contains(key)) return true;
  if (!config[key].is_boolean()) return false;
  *out = config[key].get<bool>();
  return true;
}

// The matrices' batch: every dimension but the two minor ones.
int64_t MatrixCount(const Shape& shape) {
  int64_t count = 1;
  for (int64_t d = 0; d + 2 < shape.rank(); ++d) count *= shape.dimensions(d);
  return count;
}

// The backend_config's `section` (a GpuBackendConfig's field), or the
// whole config when it has no such field (as older XLA wrote it bare).
absl::StatusOr<nlohmann::json> BackendConfigSection(const HloInstruction& h, const char* section) {
  // No backend_config (as XLA's own tests write the custom calls): every
  // field takes its default.
  if (h.attrs().backend_config.empty()) return nlohmann::json::object();
  nlohmann::json root =
      nlohmann::json::parse(h.attrs().backend_config, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) {
    return Malformed(h, "has a backend_config that is not a JSON object");
  }
  nlohmann::json config = root.contains(section) ? root[section] : root;
  if (!config.is_object()) {
    return Malformed(h,
                     absl::StrCat("has a backend_config whose ", section, " is not a JSON object"));
  }
  return config;
}

// The dimension numbers label every dimension of an array of `rank` once.
bool Labels(int64_t a, int64_t b, const google::protobuf::RepeatedField<int64_t>& spatial,
            int64_t rank) {
  std::vector<int> uses(static_cast<size_t>(std::max<int64_t>(rank, 0)), 0);
  if (spatial.size() + 2 != rank) return false;
  for (int64_t d : spatial) {
    if (d < 0 || d >= rank || uses[d]++ > 0) return false;
  }
  for (int64_t d : {a, b}) {
    if (d < 0 || d >= rank || uses[d]++ > 0) return false;
  }
  return true;
}

// A gradient's operands and result fit the forward convolution its
// attributes describe: x, w and y of one geometry, a window cuDNN's
// gradients take (no base dilation, no reversal) and one batch group.
absl::Status CheckGradientGeometry(const HloInstruction& custom_call, const CudnnConvConfig& conv) {
  const HloAttributes& attrs = custom_call.attrs();
  const ConvolutionDimensionNumbersProto& dn = *attrs.convolution_dimension_numbers;
  const bool input = conv.kind == CudnnConvConfig::Kind::kBackwardInput;
  const Shape& a = custom_call.operand(0)->shape();
  const Shape& b = custom_call.operand(1)->shape();
  if (!a.IsArray() || !b.IsArray()) return Malformed(custom_call, "takes two array operands");
  const Shape& x = input ? conv.output : a;
  const Shape& w = input ? b : conv.output;
  const Shape& y = input ? a : b;
  if (!Labels(dn.input_batch_dimension(), dn.input_feature_dimension(),
              dn.input_spatial_dimensions(), x.rank()) ||
      !Labels(dn.kernel_input_feature_dimension(), dn.kernel_output_feature_dimension(),
              dn.kernel_spatial_dimensions(), w.rank()) ||
      !Labels(dn.output_batch_dimension(), dn.output_feature_dimension(),
              dn.output_spatial_dimensions(), y.rank())) {
    return Malformed(custom_call,
                     absl::StrCat("has dim_labels that do not label the dimensions of the input ",
                                  x.ToString(false), ", the kernel ", w.ToString(false),
                                  " and the output ", y.ToString(false), " once each"));
  }
  if (attrs.batch_group_count != 1) {
    return Unsupported(custom_call, absl::StrCat("with batch_group_count=", attrs.batch_group_count,
                                                 ": not supported"));
  }
  const int64_t groups = attrs.feature_group_count;
  const int64_t kernel_in = w.dimensions(dn.kernel_input_feature_dimension());
  const int64_t features = y.dimensions(dn.output_feature_dimension());
  const int64_t spatial = dn.input_spatial_dimensions_size();
  const bool fits =
      groups >= 1 &&
      x.dimensions(dn.input_batch_dimension()) == y.dimensions(dn.output_batch_dimension()) &&
      features == w.dimensions(dn.kernel_output_feature_dimension()) && features % groups == 0 &&
      x.dimensions(dn.input_feature_dimension()) == kernel_in * groups &&
      (attrs.window.has_value() ? attrs.window->dimensions_size() == spatial : spatial == 0);
  std::string why;
  for (int64_t i = 0; fits && why.empty() && i < spatial; ++i) {
    const int64_t in = x.dimensions(dn.input_spatial_dimensions(i));
    const int64_t k = w.dimensions(dn.kernel_spatial_dimensions(i));
    const WindowDimensionProto& d = attrs.window->dimensions(static_cast<int>(i));
    const int64_t stride = std::max<int64_t>(d.stride(), 1);
    const int64_t dilation = std::max<int64_t>(d.window_dilation(), 1);
    if (d.base_dilation() > 1 || d.window_reversal()) {
      return Unsupported(custom_call,
                         "with a base dilation or window reversal: not supported (cuDNN's "
                         "gradients take neither)");
    }
    // Bounded, so that the lowering's and the interpreter's index
    // arithmetic (sums and products of these) cannot overflow int64.
    constexpr int64_t kLimit = int64_t{1} << 40;
    for (int64_t v : {in, k, y.dimensions(dn.output_spatial_dimensions(i)), d.stride(),
                      d.window_dilation(), d.padding_low(), d.padding_high()}) {
      if (v > kLimit || v < -kLimit) {
        return Malformed(custom_call, absl::StrCat("has a window or spatial size of magnitude ", v,
                                                   ", above 2^40"));
      }
    }
    if (d.size() != k) {
      why = absl::StrCat("a window of size ", d.size(), " over a kernel of size ", k);
      break;
    }
    const int64_t padded = in + d.padding_low() + d.padding_high();
    const int64_t span = k == 0 ? 0 : (k - 1) * dilation + 1;
    const int64_t out = padded < span ? 0 : (padded - span) / stride + 1;
    if (y.dimensions(dn.output_spatial_dimensions(i)) != out) {
      why = absl::StrCat("spatial dimension ", i, ": the input's ", in, " gives an output of ", out,
                         ", not ", y.dimensions(dn.output_spatial_dimensions(i)));
    }
  }
  if (!fits || !why.empty()) {
    return Malformed(
        custom_call,
        absl::StrCat("has the input ", x.ToString(false), ", the kernel ", w.ToString(false),
                     " and the output ", y.ToString(false), ", which are not one convolution's",
                     why.empty() ? "" : absl::StrCat(" (", why, ")")));
  }
  return absl::OkStatus();
}

}  // namespace

XlaCustomCall ClassifyXlaCustomCall(const HloInstruction& instruction) {
  if (instruction.opcode() != HloOpcode::kCustomCall) return XlaCustomCall::kNone;
  const std::string& target = instruction.attrs().custom_call_target;
  if (target == "Sharding" || target == "SPMDFullToShardShape" ||
      target == "SPMDShardToFullShape" || target == "MoveToHost" || target == "MoveToDevice") {
    return XlaCustomCall::kPassThrough;
  }
  if (target == "TopK") return XlaCustomCall::kTopK;
  if (target == "__cublas$gemm" || target == "__cublas$lt$matmul") return XlaCustomCall::kGemm;
  if (absl::StartsWith(target, "__cudnn$conv")) return XlaCustomCall::kCudnnConvolution;
  if (target == "__cublas$triangularSolve") return XlaCustomCall::kTriangularSolve;
  if (target == "__cusolver$cholesky") return XlaCustomCall::kCholesky;
  return XlaCustomCall::kNone;
}

absl::Status CheckPassThrough(const HloInstruction& custom_call) {
  if (custom_call.operand_count() != 1) {
    return Malformed(custom_call,
                     absl::StrCat("takes one operand, has ", custom_call.operand_count()));
  }
  const Shape& from = custom_call.operand(0)->shape();
  if (!from.Compatible(custom_call.shape())) {
    return Unsupported(custom_call, absl::StrCat("changes ", from.ToString(false), " into ",
                                                 custom_call.shape().ToString(false),
                                                 ", which takes more than one partition"));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ReadXlaTopK(const HloInstruction& custom_call) {
  const Shape& shape = custom_call.shape();
  if (custom_call.operand_count() != 1 || !custom_call.operand(0)->shape().IsArray() ||
      custom_call.operand(0)->shape().rank() < 1 || !shape.IsTuple() ||
      shape.tuple_shapes().size() != 2 || !shape.tuple_shapes(0).IsArray() ||
      shape.tuple_shapes(0).rank() != custom_call.operand(0)->shape().rank()) {
    return Malformed(custom_call,
                     "takes one array operand and gives a (values, indices) tuple of its rank");
  }
  const Shape& values = shape.tuple_shapes(0);
  return values.dimensions(values.rank() - 1);
}

absl::StatusOr<GemmConfig> ReadGemmConfig(const HloInstruction& custom_call) {
  AOT_ASSIGN_OR_RETURN(const nlohmann::json config,
                       BackendConfigSection(custom_call, "gemm_backend_config"));
  if (!config.contains("dot_dimension_numbers")) {
    return Malformed(custom_call,
                     "has no gemm_backend_config.dot_dimension_numbers in its backend_config");
  }
  GemmConfig gemm;
  const nlohmann::json& dn = config["dot_dimension_numbers"];
  DotDimensionNumbersProto& d = gemm.dot_dimension_numbers;
  if (!dn.is_object() ||
      !ReadDims(dn, "lhs_contracting_dimensions", d.mutable_lhs_contracting_dimensions()) ||
      !ReadDims(dn, "rhs_contracting_dimensions", d.mutable_rhs_contracting_dimensions()) ||
      !ReadDims(dn, "lhs_batch_dimensions", d.mutable_lhs_batch_dimensions()) ||
      !ReadDims(dn, "rhs_batch_dimensions", d.mutable_rhs_batch_dimensions())) {
    return Malformed(custom_call, "has dot_dimension_numbers that are not lists of integers");
  }
  double alpha_imag = 0;
  if ((config.contains("alpha_real") && !ReadNumber(config["alpha_real"], &gemm.alpha)) ||
      (config.contains("alpha_imag") && !ReadNumber(config["alpha_imag"], &alpha_imag)) ||
      (config.contains("beta") && !ReadNumber(config["beta"], &gemm.beta))) {
    return Malformed(custom_call, "has an alpha_real, alpha_imag or beta that is not a number");
  }
  if (alpha_imag != 0) {
    return Unsupported(custom_call, "with a complex alpha (alpha_imag != 0): not supported");
  }
  const std::string epilogue = config.contains("epilogue") && config["epilogue"].is_string()
                                   ? config["epilogue"].get<std::string>()
                                   : "DEFAULT";
  if (epilogue == "RELU" || epilogue == "BIAS_RELU")
    gemm.activation = GemmConfig::Activation::kRelu;
  if (epilogue == "GELU" || epilogue == "BIAS_GELU" || epilogue == "GELU_AUX" ||
      epilogue == "BIAS_GELU_AUX") {
    gemm.activation = GemmConfig::Activation::kGelu;
  }
  gemm.has_bias = epilogue == "BIAS" || epilogue == "BIAS_RELU" || epilogue == "BIAS_GELU" ||
                  epilogue == "BIAS_GELU_AUX";
  gemm.has_aux = absl::EndsWith(epilogue, "_AUX");
  if (epilogue != "DEFAULT" && epilogue != "BIAS" &&
      gemm.activation == GemmConfig::Activation::kNone) {
    return Unsupported(custom_call, absl::StrCat("with the epilogue ", epilogue,
                                                 ": not supported (this compiler computes "
                                                 "DEFAULT, RELU, GELU, GELU_AUX, BIAS, BIAS_RELU, "
                                                 "BIAS_GELU and BIAS_GELU_AUX)"));
  }
  gemm.has_c = gemm.beta != 0;
  const Shape& shape = custom_call.shape();
  // (output[, aux][, workspace]): an array alone without aux or workspace.
  const size_t arrays = shape.IsTuple() ? shape.tuple_shapes().size() : 1;
  bool arrays_only = true;
  for (size_t i = 0; shape.IsTuple() && i < arrays; ++i) {
    arrays_only = arrays_only && shape.tuple_shapes(static_cast<int64_t>(i)).IsArray();
  }
  const size_t values = gemm.has_aux ? 2 : 1;
  gemm.has_workspace = shape.IsTuple() && arrays == values + 1;
  const bool fits = shape.IsTuple()
                        ? arrays_only && (gemm.has_workspace || (gemm.has_aux && arrays == 2))
                        : !gemm.has_aux;
  if (!fits) {
    return Malformed(custom_call,
                     absl::StrCat("has the result ", shape.ToString(false), ", not (output",
                                  gemm.has_aux ? ", aux" : "", "[, workspace])"));
  }
  gemm.output = shape.IsTuple() ? shape.tuple_shapes(0) : shape;
  if (gemm.has_aux && shape.tuple_shapes(1).dimensions() != gemm.output.dimensions()) {
    return Malformed(custom_call,
                     absl::StrCat("has the aux ", shape.tuple_shapes(1).ToString(false),
                                  ", not the output's dimensions ", gemm.output.ToString(false)));
  }
  const int64_t operands = 2 + (gemm.has_c ? 1 : 0) + (gemm.has_bias ? 1 : 0);
  if (custom_call.operand_count() != operands) {
    return Malformed(
        custom_call,
        absl::StrCat("takes ", operands, " operands (lhs, rhs", gemm.has_c ? ", c" : "",
                     gemm.has_bias ? ", bias" : "", ") for beta ", gemm.beta, " and the epilogue ",
                     epilogue, ", has ", custom_call.operand_count()));
  }
  if (gemm.has_c && !custom_call.operand(2)->shape().Compatible(gemm.output)) {
    return Malformed(custom_call,
                     absl::StrCat("has c ", custom_call.operand(2)->shape().ToString(false),
                                  ", not the output's ", gemm.output.ToString(false)));
  }
  if (gemm.has_bias) {
    const Shape& bias = custom_call.operand(operands - 1)->shape();
    if (!bias.IsArray() || bias.rank() != 1 || gemm.output.rank() < 1 ||
        bias.dimensions(0) != gemm.output.dimensions(gemm.output.rank() - 1)) {
      return Malformed(custom_call, absl::StrCat("has the bias ", bias.ToString(false),
                                                 ", not a vector along the last dimension of ",
                                                 gemm.output.ToString(false)));
    }
  }
  return gemm;
}

absl::StatusOr<CudnnConvConfig> ReadCudnnConvConfig(const HloInstruction& custom_call) {
  const std::string& target = custom_call.attrs().custom_call_target;
  const bool fused = target == "__cudnn$convBiasActivationForward";
  CudnnConvConfig conv;
  if (target == "__cudnn$convBackwardInput") {
    conv.kind = CudnnConvConfig::Kind::kBackwardInput;
  } else if (target == "__cudnn$convBackwardFilter") {
    conv.kind = CudnnConvConfig::Kind::kBackwardFilter;
  } else if (!fused && target != "__cudnn$convForward") {
    return Unsupported(custom_call,
                       "is not supported (of XLA's cuDNN convolutions this compiler computes "
                       "__cudnn$convForward, __cudnn$convBiasActivationForward, "
                       "__cudnn$convBackwardInput and __cudnn$convBackwardFilter)");
  }
  const HloAttributes& attrs = custom_call.attrs();
  if (!attrs.convolution_dimension_numbers.has_value()) {
    return Malformed(custom_call, "has no dim_labels");
  }
  AOT_ASSIGN_OR_RETURN(const nlohmann::json config,
                       BackendConfigSection(custom_call, "cudnn_conv_backend_config"));
  if ((config.contains("conv_result_scale") &&
       !ReadNumber(config["conv_result_scale"], &conv.conv_result_scale)) ||
      (config.contains("side_input_scale") &&
       !ReadNumber(config["side_input_scale"], &conv.side_input_scale)) ||
      (config.contains("leakyrelu_alpha") &&
       !ReadNumber(config["leakyrelu_alpha"], &conv.leakyrelu_alpha))) {
    return Malformed(custom_call,
                     "has a conv_result_scale, side_input_scale or leakyrelu_alpha that is not a "
                     "number");
  }
  std::string mode = "kNone";
  if (config.contains("activation_mode")) {
    const nlohmann::json& m = config["activation_mode"];
    if (m.is_string()) {
      mode = m.get<std::string>();
    } else if (!(m.is_number_integer() && m.get<int64_t>() == 0)) {
      return Unsupported(custom_call, absl::StrCat("with the numeric activation_mode ", m.dump(),
                                                   ": not supported (write the mode's name)"));
    }
  }
  using Activation = CudnnConvConfig::Activation;
  if (mode == "kRelu") {
    conv.activation = Activation::kRelu;
  } else if (mode == "kRelu6") {
    conv.activation = Activation::kRelu6;
  } else if (mode == "kElu") {
    conv.activation = Activation::kElu;
  } else if (mode == "kLeakyRelu") {
    conv.activation = Activation::kLeakyRelu;
  } else if (mode != "kNone") {
    return Unsupported(custom_call,
                       absl::StrCat("with the activation ", mode,
                                    ": not supported (this compiler computes kNone, kRelu, "
                                    "kRelu6, kElu and kLeakyRelu)"));
  }
  if (!fused && (conv.activation != Activation::kNone || conv.side_input_scale != 0)) {
    return Malformed(custom_call,
                     "has an activation or a side input scale, which only "
                     "__cudnn$convBiasActivationForward applies");
  }
  const Shape& shape = custom_call.shape();
  conv.has_scratch = shape.IsTuple();
  if (conv.has_scratch && (shape.tuple_shapes().size() != 2 || !shape.tuple_shapes(0).IsArray() ||
                           !shape.tuple_shapes(1).IsArray())) {
    return Malformed(custom_call, "has a tuple result that is not (output, scratch)");
  }
  conv.output = conv.has_scratch ? shape.tuple_shapes(0) : shape;
  conv.output_feature_dimension = attrs.convolution_dimension_numbers->output_feature_dimension();
  if (conv.kind == CudnnConvConfig::Kind::kForward &&
      (conv.output_feature_dimension < 0 || conv.output_feature_dimension >= conv.output.rank())) {
    return Malformed(custom_call, "has an output feature dimension outside its output");
  }
  conv.has_bias = fused && custom_call.operand_count() >= 3;
  conv.has_side_input = fused && custom_call.operand_count() == 4;
  const int64_t most = fused ? 4 : 2, least = fused ? 3 : 2;
  if (custom_call.operand_count() < least || custom_call.operand_count() > most) {
    return Malformed(custom_call,
                     absl::StrCat("takes ",
                                  fused ? "3 or 4 operands (input, filter, bias[, side "
                                          "input])"
                                  : conv.kind == CudnnConvConfig::Kind::kBackwardInput
                                      ? "2 operands (output gradient, filter)"
                                  : conv.kind == CudnnConvConfig::Kind::kBackwardFilter
                                      ? "2 operands (input, output gradient)"
                                      : "2 operands (input, filter)",
                                  ", has ", custom_call.operand_count()));
  }
  if (conv.has_bias) {
    const Shape& bias = custom_call.operand(2)->shape();
    if (!bias.IsArray() || bias.rank() != 1 ||
        bias.dimensions(0) != conv.output.dimensions(conv.output_feature_dimension)) {
      return Malformed(custom_call, absl::StrCat("has the bias ", bias.ToString(false),
                                                 ", not a vector along the feature dimension of ",
                                                 conv.output.ToString(false)));
    }
  }
  if (conv.has_side_input &&
      custom_call.operand(3)->shape().dimensions() != conv.output.dimensions()) {
    return Malformed(
        custom_call,
        absl::StrCat("has the side input ", custom_call.operand(3)->shape().ToString(false),
                     ", not the output's dimensions ", conv.output.ToString(false)));
  }
  if (conv.kind != CudnnConvConfig::Kind::kForward) {
    AOT_RETURN_IF_ERROR(CheckGradientGeometry(custom_call, conv));
  }
  return conv;
}

absl::StatusOr<TriangularSolveConfig> ReadTriangularSolveConfig(const HloInstruction& custom_call) {
  AOT_ASSIGN_OR_RETURN(const nlohmann::json config,
                       BackendConfigSection(custom_call, "triangular_solve_options"));
  TriangularSolveConfig solve;
  TriangularSolveAttributes& o = solve.options;
  if (!ReadBool(config, "left_side", &o.left_side) || !ReadBool(config, "lower", &o.lower) ||
      !ReadBool(config, "unit_diagonal", &o.unit_diagonal)) {
    return Malformed(custom_call, "has a left_side, lower or unit_diagonal that is not a bool");
  }
  if (config.contains("transpose_a")) {
    const nlohmann::json& t = config["transpose_a"];
    static constexpr const char* kNames[] = {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE",
                                             "ADJOINT"};
    if (t.is_number_integer() && t.get<int64_t>() >= 1 && t.get<int64_t>() <= 3) {
      o.transpose_a = kNames[t.get<int64_t>()];
    } else if (t.is_string() && (t == "NO_TRANSPOSE" || t == "TRANSPOSE" || t == "ADJOINT")) {
      o.transpose_a = t.get<std::string>();
    } else {
      return Malformed(custom_call, absl::StrCat("has the transpose_a ", t.dump(),
                                                 " (NO_TRANSPOSE, TRANSPOSE or ADJOINT)"));
    }
  }
  const Shape& shape = custom_call.shape();
  solve.has_scratch = shape.IsTuple();
  if (custom_call.operand_count() != 2 ||
      (solve.has_scratch && (shape.tuple_shapes().size() != 2 || !shape.tuple_shapes(0).IsArray() ||
                             !shape.tuple_shapes(1).IsArray()))) {
    return Malformed(custom_call, absl::StrCat("takes (a, b) and gives x or (x, scratch); has ",
                                               custom_call.operand_count(),
                                               " operands and the result ", shape.ToString(false)));
  }
  solve.output = solve.has_scratch ? shape.tuple_shapes(0) : shape;
  if (solve.output.dimensions() != custom_call.operand(1)->shape().dimensions()) {
    return Malformed(custom_call,
                     absl::StrCat("gives ", solve.output.ToString(false), ", not b's dimensions ",
                                  custom_call.operand(1)->shape().ToString(false)));
  }
  return solve;
}

absl::StatusOr<CusolverCholeskyConfig> ReadCusolverCholeskyConfig(
    const HloInstruction& custom_call) {
  AOT_ASSIGN_OR_RETURN(const nlohmann::json config,
                       BackendConfigSection(custom_call, "cholesky_options"));
  CusolverCholeskyConfig chol;
  if (!ReadBool(config, "lower", &chol.lower)) {
    return Malformed(custom_call, "has a lower that is not a bool");
  }
  const Shape& shape = custom_call.shape();
  const Shape& a = custom_call.operand_count() == 1 ? custom_call.operand(0)->shape() : shape;
  const bool fits = custom_call.operand_count() == 1 && a.IsArray() && a.rank() >= 2 &&
                    shape.IsTuple() && shape.tuple_shapes().size() == 3 &&
                    shape.tuple_shapes(0).IsArray() && shape.tuple_shapes(1).IsArray() &&
                    shape.tuple_shapes(2).IsArray();
  if (!fits) {
    return Malformed(custom_call,
                     absl::StrCat("takes one matrix operand and gives (factor, workspace, info); "
                                  "has the result ",
                                  shape.ToString(false)));
  }
  chol.factor = shape.tuple_shapes(0);
  chol.workspace = shape.tuple_shapes(1);
  chol.info = shape.tuple_shapes(2);
  if (chol.factor.dimensions() != a.dimensions() ||
      a.dimensions(a.rank() - 1) != a.dimensions(a.rank() - 2) || chol.info.element_type() != S32 ||
      chol.info.ElementCount() != MatrixCount(a)) {
    return Malformed(custom_call,
                     absl::StrCat("gives ", shape.ToString(false), " for ", a.ToString(false),
                                  ": not (square matrices of its dimensions, workspace, s32 info "
                                  "with one element per matrix)"));
  }
  return chol;
}

void SetCudnnConvolutionAttributes(const HloInstruction& custom_call, HloAttributes* to) {
  const HloAttributes& from = custom_call.attrs();
  to->window = from.window;
  to->convolution_dimension_numbers = from.convolution_dimension_numbers;
  to->feature_group_count = from.feature_group_count;
  to->batch_group_count = from.batch_group_count;
}

double ApplyConvActivation(const CudnnConvConfig& config, double v) {
  switch (config.activation) {
    case CudnnConvConfig::Activation::kNone:
      return v;
    case CudnnConvConfig::Activation::kRelu:
      return std::max(v, 0.0);
    case CudnnConvConfig::Activation::kRelu6:
      return std::min(std::max(v, 0.0), 6.0);
    case CudnnConvConfig::Activation::kElu:
      return v > 0 ? v : std::expm1(v);
    case CudnnConvConfig::Activation::kLeakyRelu:
      return v > 0 ? v : config.leakyrelu_alpha * v;
  }
  return v;
}

}  // namespace aot
