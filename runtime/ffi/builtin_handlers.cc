// The runtime's built-in custom-call handlers. Their semantics match the
// reference interpreter's custom calls of the same names.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/ffi/ffi_registry.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {
namespace {

absl::Status ExpectF32Dense(const FfiBuffer& b, absl::string_view what) {
  if (b.shape == nullptr || b.shape->element_type() != F32 ||
      !runtime_shape::HasDefaultLayout(*b.shape)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be a row-major f32 array, got ",
                     b.shape == nullptr ? "nothing" : runtime_shape::ToString(*b.shape)));
  }
  return absl::OkStatus();
}

// Total order for sorting floats descending: NaN above +inf.
bool GreaterTotal(float a, float b) {
  if (std::isnan(a)) return !std::isnan(b);
  if (std::isnan(b)) return false;
  return a > b;
}

// aot.topk: the k largest values along the last dimension, descending,
// ties broken by the lower index; results (values f32[..., k], indices
// s32[..., k]). k comes from the attribute "k" or the opaque string.
absl::Status TopK(const FfiCallFrame& frame) {
  if (frame.operands.size() != 1 || frame.results.size() != 2) {
    return absl::InvalidArgumentError("aot.topk takes one operand and returns (values, indices)");
  }
  AOT_RETURN_IF_ERROR(ExpectF32Dense(frame.operands[0], "aot.topk operand"));
  int64_t k = -1;
  if (frame.attributes != nullptr) {
    for (const CustomCallAttributeProto& a : *frame.attributes) {
      if (a.name() == "k") k = a.i64();
    }
  }
  if (k < 0 && !absl::SimpleAtoi(frame.opaque, &k)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "aot.topk needs k (attribute 'k' or an integer backend_config), got '", frame.opaque, "'"));
  }
  const ShapeProto& in = *frame.operands[0].shape;
  if (in.dimensions_size() == 0) {
    return absl::InvalidArgumentError("aot.topk operand must have rank >= 1");
  }
  int64_t n = in.dimensions(in.dimensions_size() - 1);
  if (k < 0 || k > n) {
    return absl::InvalidArgumentError(absl::StrCat("aot.topk: k=", k, " outside [0, ", n, "]"));
  }
  int64_t rows = n == 0 ? 0 : runtime_shape::ElementCount(in) / n;
  const ShapeProto& vs = *frame.results[0].shape;
  const ShapeProto& is = *frame.results[1].shape;
  if (vs.element_type() != F32 || is.element_type() != S32 ||
      runtime_shape::ElementCount(vs) != rows * k || runtime_shape::ElementCount(is) != rows * k) {
    return absl::InvalidArgumentError(
        absl::StrCat("aot.topk results must be (f32[..., ", k, "], s32[..., ", k, "]), got (",
                     runtime_shape::ToString(vs), ", ", runtime_shape::ToString(is), ")"));
  }
  const float* x = static_cast<const float*>(frame.operands[0].data);
  float* values = static_cast<float*>(frame.results[0].data);
  int32_t* indices = static_cast<int32_t*>(frame.results[1].data);
  std::vector<int32_t> order(n);
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = x + r * n;
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int32_t a, int32_t b) { return GreaterTotal(row[a], row[b]); });
    for (int64_t j = 0; j < k; ++j) {
      values[r * k + j] = row[order[j]];
      indices[r * k + j] = order[j];
    }
  }
  return absl::OkStatus();
}

// aot.gelu: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), in f32.
absl::Status Gelu(const FfiCallFrame& frame) {
  if (frame.operands.size() != 1 || frame.results.size() != 1) {
    return absl::InvalidArgumentError("aot.gelu takes one operand and one result");
  }
  AOT_RETURN_IF_ERROR(ExpectF32Dense(frame.operands[0], "aot.gelu operand"));
  AOT_RETURN_IF_ERROR(ExpectF32Dense(frame.results[0], "aot.gelu result"));
  int64_t n = runtime_shape::ElementCount(*frame.operands[0].shape);
  if (runtime_shape::ElementCount(*frame.results[0].shape) != n) {
    return absl::InvalidArgumentError("aot.gelu result size differs from operand");
  }
  const float* x = static_cast<const float*>(frame.operands[0].data);
  float* y = static_cast<float*>(frame.results[0].data);
  const float kSqrt2OverPi = 0.7978845608028654f;
  for (int64_t i = 0; i < n; ++i) {
    float v = x[i];
    float inner = kSqrt2OverPi * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + std::tanh(inner));
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterBuiltinFfiHandlers(FfiRegistry& registry) {
  (void)registry.Register("aot.topk", TopK);
  (void)registry.Register("aot.gelu", Gelu);
  // Compatibility fallback: aot.gelu was called aot.gelu_tanh; artifacts
  // of the last 6 months may still name it.
  // Can be removed in June 2027 (6 months backward compatibility window).
  (void)registry.RegisterAlias("aot.gelu_tanh", "aot.gelu", "2027-06-01");
}

}  // namespace aot
