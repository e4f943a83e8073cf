#include "compiler/passes/xla_custom_call_lowering.h"

#include "absl/strings/str_replace.h"
#include "compiler/passes/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using testing_util::ExpectExpansionKeepsValues;
using testing_util::Parse;

// `text` lowered, after checking that it keeps the interpreter's values and
// that no custom call is left; null when the lowering failed.
std::unique_ptr<HloModule> LowerAll(absl::string_view text, Tolerance tolerance) {
  std::unique_ptr<HloModule> m = ExpectExpansionKeepsValues(text, LowerXlaCustomCalls, tolerance);
  for (const HloInstruction* h :
       m == nullptr ? std::vector<HloInstruction*>{} : m->entry_computation()->instructions()) {
    EXPECT_NE(h->opcode(), HloOpcode::kCustomCall) << h->ToString();
  }
  return m;
}

// The entry's instructions of `opcode`.
int Count(const HloModule& m, HloOpcode opcode) {
  int n = 0;
  for (const HloInstruction* h : m.entry_computation()->instructions()) n += h->opcode() == opcode;
  return n;
}

// XLA's GEMMs (both backend_config forms, beta and c, a bias and GELU,
// the _AUX epilogues' value before the GELU, workspaces), TopK with its comparator and the
// annotations: lowered to HLO with the interpreter's values, no custom call left.
TEST(XlaCustomCallLoweringTest, GemmsTopKAndAnnotationsBecomeHlo) {
  std::unique_ptr<HloModule> m = LowerAll(R"(
HloModule xla_custom_calls
greater {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT gt = pred[] compare(a, b), direction=GT
}
ENTRY main {
  a = f32[2,8,16]{2,1,0} parameter(0)
  b = f32[2,16,4]{2,1,0} parameter(1)
  c = f32[2,8,4]{2,1,0} parameter(2)
  bias = f32[4]{0} parameter(3)
  g = (f32[2,8,4]{2,1,0}, s8[256]{0}) custom-call(a, b, c), custom_call_target="__cublas$gemm", backend_config={"operation_queue_id":"0","gemm_backend_config":{"alpha_real":1.5,"alpha_imag":0,"beta":-1,"dot_dimension_numbers":{"lhs_contracting_dimensions":["2"],"rhs_contracting_dimensions":["1"],"lhs_batch_dimensions":["0"],"rhs_batch_dimensions":["0"]},"epilogue":"DEFAULT"}}
  g0 = f32[2,8,4]{2,1,0} get-tuple-element(g), index=0
  l = f32[2,8,4]{2,1,0} custom-call(a, b, bias), custom_call_target="__cublas$lt$matmul", backend_config={"alpha_real":1,"beta":0,"dot_dimension_numbers":{"lhs_contracting_dimensions":[2],"rhs_contracting_dimensions":[1],"lhs_batch_dimensions":[0],"rhs_batch_dimensions":[0]},"epilogue":"BIAS_GELU"}
  s = f32[2,8,4]{2,1,0} custom-call(l), custom_call_target="Sharding", sharding={replicated}
  sum = f32[2,8,4]{2,1,0} add(g0, s)
  t = (f32[2,8,2]{2,1,0}, s32[2,8,2]{2,1,0}) custom-call(sum), custom_call_target="TopK", to_apply=greater
  x = (f32[2,8,4]{2,1,0}, f32[2,8,4]{2,1,0}, s8[64]{0}) custom-call(a, b, bias), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"alpha_real":0.5,"beta":0,"dot_dimension_numbers":{"lhs_contracting_dimensions":["2"],"rhs_contracting_dimensions":["1"],"lhs_batch_dimensions":["0"],"rhs_batch_dimensions":["0"]},"epilogue":"BIAS_GELU_AUX"}}
  y = (f32[2,8,4]{2,1,0}, f32[2,8,4]{2,1,0}) custom-call(a, b), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"dot_dimension_numbers":{"lhs_contracting_dimensions":["2"],"rhs_contracting_dimensions":["1"],"lhs_batch_dimensions":["0"],"rhs_batch_dimensions":["0"]},"epilogue":"GELU_AUX"}}
  ROOT r = (f32[2,8,4]{2,1,0}, (f32[2,8,2]{2,1,0}, s32[2,8,2]{2,1,0}), (f32[2,8,4]{2,1,0}, f32[2,8,4]{2,1,0}, s8[64]{0}), (f32[2,8,4]{2,1,0}, f32[2,8,4]{2,1,0})) tuple(sum, t, x, y)
})",
                                          Tolerance{1e-5, 1e-5});
  ASSERT_NE(m, nullptr);
}

// XLA:GPU's solver calls: potrf's (factor, workspace, info) from cholesky
// (batched, lower and upper, the failure order from the diagonal) and
// cuBLAS's triangular solve with its options, with the interpreter's values.
TEST(XlaCustomCallLoweringTest, SolverCallsBecomeHlo) {
  std::unique_ptr<HloModule> m = LowerAll(R"(
HloModule solvers
ENTRY main {
  x = f32[3,4,4]{2,1,0} parameter(0)
  xt = f32[3,4,4]{2,1,0} transpose(x), dimensions={0,2,1}
  g = f32[3,4,4]{2,1,0} dot(x, xt), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
  eye = f32[3,4,4]{2,1,0} parameter(1)
  spd = f32[3,4,4]{2,1,0} add(g, eye)
  lo = (f32[3,4,4]{1,2,0}, f32[64]{0}, s32[3]{0}) custom-call(spd), custom_call_target="__cusolver$cholesky", backend_config={"operation_queue_id":"0","wait_on_operation_queues":[],"cholesky_options":{"lower":true}}
  l = f32[3,4,4]{1,2,0} get-tuple-element(lo), index=0
  up = (f32[3,4,4]{2,1,0}, f32[0]{0}, s32[3]{0}) custom-call(x), custom_call_target="__cusolver$cholesky", backend_config={"cholesky_options":{"lower":false}}
  b = f32[3,4,2]{2,1,0} parameter(2)
  s = (f32[3,4,2]{2,1,0}, s8[48]{0}) custom-call(l, b), custom_call_target="__cublas$triangularSolve", backend_config={"triangular_solve_options":{"left_side":true,"lower":true,"transpose_a":"NO_TRANSPOSE"}}
  s0 = f32[3,4,2]{2,1,0} get-tuple-element(s), index=0
  r = f32[3,2,4]{2,1,0} parameter(3)
  t = f32[3,2,4]{2,1,0} custom-call(l, r), custom_call_target="__cublas$triangularSolve", backend_config={"triangular_solve_options":{"lower":true,"unit_diagonal":true,"transpose_a":"TRANSPOSE"}}
  ROOT out = ((f32[3,4,4]{1,2,0}, f32[64]{0}, s32[3]{0}), (f32[3,4,4]{2,1,0}, f32[0]{0}, s32[3]{0}), f32[3,4,2]{2,1,0}, f32[3,2,4]{2,1,0}) tuple(lo, up, s0, t)
})",
                                          Tolerance{1e-4, 1e-4});
  ASSERT_NE(m, nullptr);
}

// TopK's comparator read by what it does: a less-than takes the k smallest,
// the NaN-safe greater-than on the values' bits (as XLA writes it for
// sorts it rewrites into TopK) the k largest, on s32 too.
TEST(XlaCustomCallLoweringTest, TopKComparatorsChooseLargestOrSmallest) {
  std::unique_ptr<HloModule> m = LowerAll(R"(
HloModule topk_comparators
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT, type=TOTALORDER
}
nan_safe_gt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ai = s32[] bitcast-convert(a)
  bi = s32[] bitcast-convert(b)
  au = u32[] bitcast-convert(a)
  bu = u32[] bitcast-convert(b)
  zero = s32[] constant(0)
  top = u32[] constant(2147483647)
  an = pred[] compare(ai, zero), direction=LT
  bn = pred[] compare(bi, zero), direction=LT
  af = u32[] subtract(top, au)
  bf = u32[] subtract(top, bu)
  afs = s32[] bitcast-convert(af)
  bfs = s32[] bitcast-convert(bf)
  ak = s32[] select(an, afs, ai)
  bk = s32[] select(bn, bfs, bi)
  ROOT gt = pred[] compare(ak, bk), direction=GT
}
greater_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT gt = pred[] compare(b, a), direction=LT
}
ENTRY main {
  x = f32[4,8] parameter(0)
  i = s32[3,6] parameter(1)
  small = (f32[4,3], s32[4,3]) custom-call(x), custom_call_target="TopK", to_apply=less
  large = (f32[4,3], s32[4,3]) custom-call(x), custom_call_target="TopK", to_apply=nan_safe_gt
  ints = (s32[3,2], s32[3,2]) custom-call(i), custom_call_target="TopK", to_apply=greater_s32
  ROOT r = ((f32[4,3], s32[4,3]), (f32[4,3], s32[4,3]), (s32[3,2], s32[3,2])) tuple(small, large, ints)
})",
                                          Tolerance{0, 0});
  ASSERT_NE(m, nullptr);
  std::vector<std::string> largest;
  for (const HloInstruction* h : m->entry_computation()->instructions()) {
    if (h->opcode() != HloOpcode::kTopK) continue;
    for (const auto& [name, value] : h->attrs().unknown_attributes) {
      if (name == "largest") largest.push_back(value);
    }
  }
  EXPECT_THAT(largest, ::testing::UnorderedElementsAre("false", "true", "true"));
}

// XLA:GPU's cuDNN convolutions: the forward one (NHWC, its scratch) and
// the fused one (NCHW, strided, scale, side input, bias, each activation):
// lowered to a convolution and elementwise HLO with the interpreter's
// values.
TEST(XlaCustomCallLoweringTest, CudnnConvolutionsBecomeHlo) {
  for (const char* activation : {"kNone", "kRelu", "kRelu6", "kElu", "kLeakyRelu"}) {
    SCOPED_TRACE(activation);
    std::unique_ptr<HloModule> m = LowerAll(absl::StrReplaceAll(R"(
HloModule cudnn_convolutions
ENTRY main {
  x = f32[2,6,6,3]{3,2,1,0} parameter(0)
  w = f32[3,3,3,4]{3,2,1,0} parameter(1)
  f = (f32[2,6,6,4]{3,2,1,0}, u8[0]{0}) custom-call(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convForward", backend_config={"operation_queue_id":"0","wait_on_operation_queues":[],"cudnn_conv_backend_config":{"activation_mode":"kNone","conv_result_scale":1,"side_input_scale":0,"leakyrelu_alpha":0}}
  f0 = f32[2,6,6,4]{3,2,1,0} get-tuple-element(f), index=0
  nchw = f32[2,3,9,9]{3,2,1,0} parameter(2)
  k = f32[4,3,3,3]{3,2,1,0} parameter(3)
  bias = f32[4]{0} parameter(4)
  side = f32[2,4,5,5]{3,2,1,0} parameter(5)
  b = (f32[2,4,5,5]{3,2,1,0}, u8[32]{0}) custom-call(nchw, k, bias, side), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, custom_call_target="__cudnn$convBiasActivationForward", backend_config={"cudnn_conv_backend_config":{"activation_mode":"ACT","conv_result_scale":0.5,"side_input_scale":2,"leakyrelu_alpha":0.1}}
  b0 = f32[2,4,5,5]{3,2,1,0} get-tuple-element(b), index=0
  ROOT r = (f32[2,6,6,4]{3,2,1,0}, f32[2,4,5,5]{3,2,1,0}) tuple(f0, b0)
})",
                                                                {{"ACT", activation}}),
                                            Tolerance{1e-5, 1e-5});
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(Count(*m, HloOpcode::kConvolution), 2);
  }
}

// XLA:GPU's convolution gradients, lowered to transposed convolutions with
// the values of the interpreter's definition: strides, uneven and negative
// padding (padding past the kernel's reach), dilation, feature groups,
// NHWC and NCHW, with and without a backend_config.
TEST(XlaCustomCallLoweringTest, CudnnConvolutionGradientsBecomeHlo) {
  std::unique_ptr<HloModule> m = LowerAll(R"(
HloModule cudnn_gradients
ENTRY main {
  dy = f32[2,3,3,4]{3,2,1,0} parameter(0)
  w = f32[3,3,5,4]{3,2,1,0} parameter(1)
  x = f32[2,6,6,5]{3,2,1,0} parameter(2)
  di = (f32[2,6,6,5]{3,2,1,0}, u8[0]{0}) custom-call(dy, w), window={size=3x3 stride=2x2 pad=0_1x1_1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBackwardInput", backend_config={"cudnn_conv_backend_config":{"activation_mode":"kNone","conv_result_scale":1,"side_input_scale":0,"leakyrelu_alpha":0}}
  di0 = f32[2,6,6,5]{3,2,1,0} get-tuple-element(di), index=0
  df = (f32[3,3,5,4]{3,2,1,0}, u8[16]{0}) custom-call(x, dy), window={size=3x3 stride=2x2 pad=0_1x1_1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBackwardFilter", backend_config={"cudnn_conv_backend_config":{"conv_result_scale":0.5}}
  df0 = f32[3,3,5,4]{3,2,1,0} get-tuple-element(df), index=0
  gy = f32[1,6,6,6]{3,2,1,0} parameter(3)
  gw = f32[6,2,3,3]{3,2,1,0} parameter(4)
  gx = f32[1,4,8,8]{3,2,1,0} parameter(5)
  gi = (f32[1,4,8,8]{3,2,1,0}, u8[0]{0}) custom-call(gy, gw), window={size=3x3 pad=1_1x1_1 rhs_dilate=2x2}, dim_labels=bf01_oi01->bf01, feature_group_count=2, custom_call_target="__cudnn$convBackwardInput"
  gi0 = f32[1,4,8,8]{3,2,1,0} get-tuple-element(gi), index=0
  gf = (f32[6,2,3,3]{3,2,1,0}, u8[0]{0}) custom-call(gx, gy), window={size=3x3 pad=1_1x1_1 rhs_dilate=2x2}, dim_labels=bf01_oi01->bf01, feature_group_count=2, custom_call_target="__cudnn$convBackwardFilter"
  gf0 = f32[6,2,3,3]{3,2,1,0} get-tuple-element(gf), index=0
  ly = f32[1,5,3]{2,1,0} parameter(6)
  lw = f32[5,3,2]{2,1,0} parameter(7)
  lx = f32[1,5,2]{2,1,0} parameter(8)
  li = (f32[1,5,2]{2,1,0}, u8[0]{0}) custom-call(ly, lw), window={size=5 stride=2 pad=5_4}, dim_labels=b0f_0oi->b0f, custom_call_target="__cudnn$convBackwardInput"
  li0 = f32[1,5,2]{2,1,0} get-tuple-element(li), index=0
  lf = (f32[5,3,2]{2,1,0}, u8[0]{0}) custom-call(lx, ly), window={size=5 stride=2 pad=5_4}, dim_labels=b0f_0oi->b0f, custom_call_target="__cudnn$convBackwardFilter"
  lf0 = f32[5,3,2]{2,1,0} get-tuple-element(lf), index=0
  ROOT r = (f32[2,6,6,5]{3,2,1,0}, f32[3,3,5,4]{3,2,1,0}, f32[1,4,8,8]{3,2,1,0}, f32[6,2,3,3]{3,2,1,0}, f32[1,5,2]{2,1,0}, f32[5,3,2]{2,1,0}) tuple(di0, df0, gi0, gf0, li0, lf0)
})",
                                          Tolerance{1e-5, 1e-5});
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Count(*m, HloOpcode::kConvolution), 6);
}

TEST(XlaCustomCallLoweringTest, OtherCustomCallsStayAndWhatItCannotComputeIsRefused) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule other
ENTRY main {
  x = f32[4,8] parameter(0)
  ROOT t = (f32[4,2], s32[4,2]) custom-call(x), custom_call_target="aot.topk", backend_config="2"
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<bool> changed = LowerXlaCustomCalls(m.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {R"(
HloModule unordered
equal {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT eq = pred[] compare(a, b), direction=EQ
}
ENTRY main {
  x = f32[4,8] parameter(0)
  ROOT t = (f32[4,2], s32[4,2]) custom-call(x), custom_call_target="TopK", to_apply=equal
})",
       "instruction 't' (custom-call): TopK with the comparator 'equal', which orders neither as "
       "greater-than nor as less-than (it gives false for (-3.5, -inf)): not supported"},
      {R"(
HloModule complex_alpha
ENTRY main {
  a = f32[2,2] parameter(0)
  ROOT g = f32[2,2] custom-call(a, a), custom_call_target="__cublas$gemm", backend_config={"alpha_real":1,"alpha_imag":1,"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"],"rhs_contracting_dimensions":["0"]}}
})",
       "instruction 'g' (custom-call): __cublas$gemm with a complex alpha"},
      {R"(
HloModule no_config
ENTRY main {
  a = f32[2,2] parameter(0)
  ROOT g = f32[2,2] custom-call(a, a), custom_call_target="__cublas$gemm", backend_config="not json"
})",
       "__cublas$gemm has a backend_config that is not a JSON object"},
      {R"(
HloModule missing_c
ENTRY main {
  a = f32[2,2] parameter(0)
  ROOT g = f32[2,2] custom-call(a, a), custom_call_target="__cublas$gemm", backend_config={"beta":1,"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"],"rhs_contracting_dimensions":["0"]}}
})",
       "__cublas$gemm takes 3 operands (lhs, rhs, c) for beta 1 and the epilogue DEFAULT, has 2"},
      {R"(
HloModule graph
ENTRY main {
  d = f32[1,4,4,2] parameter(0)
  w = f32[3,3,2,1] parameter(1)
  ROOT g = (f32[1,4,4,1], u8[0]) custom-call(d, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convForwardGraph", backend_config={"cudnn_conv_backend_config":{}}
})",
       "instruction 'g' (custom-call): __cudnn$convForwardGraph is not supported (of XLA's cuDNN "
       "convolutions this compiler computes __cudnn$convForward, "
       "__cudnn$convBiasActivationForward, __cudnn$convBackwardInput and "
       "__cudnn$convBackwardFilter)"},
      {R"(
HloModule backward_sizes
ENTRY main {
  d = f32[1,3,4,2] parameter(0)
  w = f32[3,3,1,2] parameter(1)
  ROOT g = (f32[1,4,4,1], u8[0]) custom-call(d, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBackwardInput"
})",
       "__cudnn$convBackwardInput has the input f32[1,4,4,1], the kernel f32[3,3,1,2] and the "
       "output f32[1,3,4,2], which are not one convolution's (spatial dimension 0: the input's "
       "4 gives an output of 4, not 3)"},
      {R"(
HloModule backward_features
ENTRY main {
  x = f32[1,4,4,3] parameter(0)
  d = f32[1,4,4,2] parameter(1)
  ROOT g = (f32[3,3,1,2], u8[0]) custom-call(x, d), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBackwardFilter"
})",
       "__cudnn$convBackwardFilter has the input f32[1,4,4,3], the kernel f32[3,3,1,2] and the "
       "output f32[1,4,4,2], which are not one convolution's"},
      {R"(
HloModule backward_labels
ENTRY main {
  x = f32[1,4,4,1] parameter(0)
  d = f32[1,4,4,2] parameter(1)
  ROOT g = (f32[3,3,2], u8[0]) custom-call(x, d), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBackwardFilter"
})",
       "has dim_labels that do not label the dimensions of the input f32[1,4,4,1], the kernel "
       "f32[3,3,2] and the output f32[1,4,4,2] once each"},
      {R"(
HloModule backward_huge_padding
ENTRY main {
  d = f32[1,3,4,2] parameter(0)
  w = f32[3,3,1,2] parameter(1)
  ROOT g = (f32[1,4,4,1], u8[0]) custom-call(d, w), window={size=3x3 stride=4611686018427387904x1 pad=9223372036854775807_-9223372036854775807x1_1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBackwardInput"
})",
       "__cudnn$convBackwardInput has a window or spatial size of magnitude "
       "4611686018427387904, above 2^40"},
      {R"(
HloModule backward_batch_groups
ENTRY main {
  x = f32[2,4,4,1] parameter(0)
  d = f32[1,4,4,2] parameter(1)
  ROOT g = (f32[3,3,1,2], u8[0]) custom-call(x, d), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, batch_group_count=2, custom_call_target="__cudnn$convBackwardFilter"
})",
       "__cudnn$convBackwardFilter with batch_group_count=2: not supported"},
      {R"(
HloModule backward_activation
ENTRY main {
  d = f32[1,4,4,2] parameter(0)
  w = f32[3,3,1,2] parameter(1)
  ROOT g = (f32[1,4,4,1], u8[0]) custom-call(d, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBackwardInput", backend_config={"cudnn_conv_backend_config":{"activation_mode":"kRelu"}}
})",
       "__cudnn$convBackwardInput has an activation or a side input scale, which only "
       "__cudnn$convBiasActivationForward applies"},
      {R"(
HloModule sigmoid
ENTRY main {
  x = f32[1,4,4,1] parameter(0)
  w = f32[1,1,1,2] parameter(1)
  bias = f32[2] parameter(2)
  ROOT c = (f32[1,4,4,2], u8[0]) custom-call(x, w, bias), window={size=1x1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBiasActivationForward", backend_config={"cudnn_conv_backend_config":{"activation_mode":"kSigmoid"}}
})",
       "__cudnn$convBiasActivationForward with the activation kSigmoid: not supported"},
      {R"(
HloModule bias_length
ENTRY main {
  x = f32[1,4,4,1] parameter(0)
  w = f32[1,1,1,2] parameter(1)
  bias = f32[3] parameter(2)
  ROOT c = (f32[1,4,4,2], u8[0]) custom-call(x, w, bias), window={size=1x1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBiasActivationForward", backend_config={"cudnn_conv_backend_config":{"activation_mode":"kRelu"}}
})",
       "has the bias f32[3], not a vector along the feature dimension of f32[1,4,4,2]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    std::unique_ptr<HloModule> bad = Parse(c.text);
    ASSERT_NE(bad, nullptr);
    absl::StatusOr<bool> refused = LowerXlaCustomCalls(bad.get());
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(std::string(refused.status().message()), HasSubstr(c.message));
  }
}

}  // namespace
}  // namespace aot
