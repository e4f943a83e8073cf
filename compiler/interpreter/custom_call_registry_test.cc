// The custom-call registry and its built-in reference implementations.

#include "compiler/interpreter/custom_call_registry.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "compiler/interpreter/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace interpreter_test {
namespace {

// GELU's tanh approximation, written out here as the tests' reference.
double TanhGelu(double x) {
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(CustomCallRegistryTest, RegisterLookupAndErrors) {
  CustomCallRegistry registry;
  EXPECT_FALSE(registry.Contains("my.double"));
  ASSERT_TRUE(registry
                  .Register("my.double",
                            [](absl::Span<const Literal* const> operands,
                               const HloInstruction& instruction) -> absl::StatusOr<Literal> {
                              Literal out = *operands[0];
                              for (int64_t i = 0; i < out.element_count(); ++i) {
                                out.SetFromDouble(i, 2 * out.GetAsDouble(i));
                              }
                              return out;
                            })
                  .ok());
  EXPECT_TRUE(registry.Contains("my.double"));
  absl::Status duplicate =
      registry.Register("my.double",
                        [](absl::Span<const Literal* const>,
                           const HloInstruction&) -> absl::StatusOr<Literal> { return Literal(); });
  EXPECT_EQ(duplicate.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_FALSE(registry.Register("", nullptr).ok());
  auto missing = registry.Lookup("other.op");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("'other.op'"));
  EXPECT_THAT(std::string(missing.status().message()), ::testing::Not(HasSubstr("my.double")));

  // The evaluator dispatches through the registry it was given.
  auto module = ParseHloModule(Module(R"(
  x = f32[3] parameter(0)
  ROOT c = f32[3] custom-call(x), custom_call_target="my.double")"));
  ASSERT_TRUE(module.ok()) << module.status();
  HloEvaluator evaluator(&registry);
  std::vector<Literal> args;
  args.push_back(L("f32[3]", {1, 2, 3}));
  auto r = evaluator.Evaluate(**module, args);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Doubles(*r), ElementsAre(2, 4, 6));
  // The global registry does not know it.
  HloEvaluator global;
  EXPECT_FALSE(global.Evaluate(**module, args).ok());
}

TEST(CustomCallRegistryTest, GlobalHasTheBuiltins) {
  EXPECT_TRUE(CustomCallRegistry::Global().Contains("aot.topk"));
  EXPECT_TRUE(CustomCallRegistry::Global().Contains("aot.gelu"));
}

TEST(CustomCallRegistryTest, AResultOfTheWrongShapeIsAnError) {
  CustomCallRegistry registry;
  ASSERT_TRUE(registry
                  .Register("bad.shape",
                            [](absl::Span<const Literal* const>,
                               const HloInstruction&) -> absl::StatusOr<Literal> {
                              return L("f32[2]", {1, 2});
                            })
                  .ok());
  auto module = ParseHloModule(Module(R"(
  ROOT c = f32[3] custom-call(), custom_call_target="bad.shape")"));
  ASSERT_TRUE(module.ok()) << module.status();
  HloEvaluator evaluator(&registry);
  auto r = evaluator.Evaluate(**module, {});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("returned f32[2]"));
}

TEST(TopKTest, LargestFirstTiesByIndexNaNHighest) {
  Literal r = RunHlo(Module(R"(
  x = f32[2,5] parameter(0)
  ROOT t = (f32[2,3], s32[2,3]) custom-call(x), custom_call_target="aot.topk", backend_config="3")"),
                     {L("f32[2,5]", {1, 5, 3, 5, 2, kNaN, -kInf, -0.0, 0.0, 7})});
  ASSERT_TRUE(r.shape().IsTuple());
  std::vector<double> values = Doubles(r.tuple_element(0));
  EXPECT_THAT(std::vector<double>(values.begin(), values.begin() + 3), ElementsAre(5, 5, 3));
  EXPECT_TRUE(std::isnan(values[3]));
  EXPECT_EQ(values[4], 7);
  EXPECT_TRUE(values[5] == 0 && !std::signbit(values[5]));
  EXPECT_THAT(Ints(r.tuple_element(1)), ElementsAre(1, 3, 2, 0, 4, 3));
}

TEST(TopKTest, KFromTheResultShapeAndIntegers) {
  Literal r = RunHlo(Module(R"(
  x = s32[4] parameter(0)
  ROOT t = (s32[2], s32[2]) custom-call(x), custom_call_target="aot.topk")"),
                     {LI("s32[4]", {-3, 8, 8, 1})});
  EXPECT_THAT(Ints(r.tuple_element(0)), ElementsAre(8, 8));
  EXPECT_THAT(Ints(r.tuple_element(1)), ElementsAre(1, 2));
  auto bad = TryRun(Module(R"(
  x = s32[4] parameter(0)
  ROOT t = (s32[9], s32[9]) custom-call(x), custom_call_target="aot.topk", backend_config="9")"),
                    {LI("s32[4]", {1, 2, 3, 4})});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("k=9"));
}

// The targets XLA's passes write (compiler/hlo/xla_custom_calls.h).
TEST(XlaCustomCallsTest, GemmScalesAddsBiasAndRelu) {
  // a = [[1, 2], [3, 4]], b = I: dot = a. 0.5 * a + 2 * c, then + bias and
  // relu for the lt form (its workspace zeros).
  Literal r = RunHlo(Module(R"(
  a = f32[2,2] parameter(0)
  b = f32[2,2] parameter(1)
  c = f32[2,2] parameter(2)
  bias = f32[2] parameter(3)
  g = f32[2,2] custom-call(a, b, c), custom_call_target="__cublas$gemm", backend_config={"alpha_real":0.5,"alpha_imag":0,"beta":2,"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"],"rhs_contracting_dimensions":["0"],"lhs_batch_dimensions":[],"rhs_batch_dimensions":[]},"epilogue":"DEFAULT"}
  l = (f32[2,2], s8[16]) custom-call(a, b, bias), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"alpha_real":1,"beta":0,"dot_dimension_numbers":{"lhs_contracting_dimensions":[1],"rhs_contracting_dimensions":[0]},"epilogue":"BIAS_RELU"}}
  ROOT t = (f32[2,2], (f32[2,2], s8[16])) tuple(g, l))"),
                     {L("f32[2,2]", {1, 2, 3, 4}), L("f32[2,2]", {1, 0, 0, 1}),
                      L("f32[2,2]", {1, 1, -1, 0}), L("f32[2]", {-2.5, 1})});
  EXPECT_THAT(Doubles(r.tuple_element(0)), ElementsAre(2.5, 3, -0.5, 2));
  const Literal& lt = r.tuple_element(1);
  EXPECT_THAT(Doubles(lt.tuple_element(0)), ElementsAre(0, 3, 0.5, 5));
  EXPECT_EQ(lt.tuple_element(1).element_count(), 16);
}

TEST(XlaCustomCallsTest, GeluEpilogueIsTheTanhApproximation) {
  Literal r =
      RunHlo(Module(R"(
  a = f32[2,2] parameter(0)
  b = f32[2,2] parameter(1)
  bias = f32[2] parameter(2)
  ROOT g = f32[2,2] custom-call(a, b, bias), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"dot_dimension_numbers":{"lhs_contracting_dimensions":[1],"rhs_contracting_dimensions":[0]},"epilogue":"BIAS_GELU"}})"),
             {L("f32[2,2]", {1, 2, 3, 4}), L("f32[2,2]", {1, 0, 0, 1}), L("f32[2]", {-2.5, 1})});
  const std::vector<double> got = Doubles(r);
  const double x[] = {-1.5, 3, 0.5, 5};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(got[i], TanhGelu(x[i]), 1e-6) << i;
}

TEST(XlaCustomCallsTest, CusolverCholeskyAndCublasTriangularSolve) {
  // [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]]: potrf leaves a's
  // upper triangle, info 0; [[1, 2], [2, 1]] fails at the second pivot
  // (1 - 4 < 0): info 2. Then L x = [2, 4] gives x = [1, 1.5].
  Literal r = RunHlo(Module(R"(
  a = f32[2,2,2] parameter(0)
  c = (f32[2,2,2], f32[8], s32[2]) custom-call(a), custom_call_target="__cusolver$cholesky", backend_config={"lower":true}
  l = f32[2,2,2] get-tuple-element(c), index=0
  l0 = f32[1,2,2] slice(l), slice={[0:1], [0:2], [0:2]}
  m = f32[2,2] reshape(l0)
  b = f32[2,1] parameter(1)
  x = (f32[2,1], s8[16]) custom-call(m, b), custom_call_target="__cublas$triangularSolve", backend_config={"operation_queue_id":"0","triangular_solve_options":{"left_side":true,"lower":true,"unit_diagonal":false,"transpose_a":"NO_TRANSPOSE"}}
  ROOT t = ((f32[2,2,2], f32[8], s32[2]), (f32[2,1], s8[16])) tuple(c, x))"),
                     {L("f32[2,2,2]", {4, 2, 2, 5, 1, 2, 2, 1}), L("f32[2,1]", {2, 4})});
  const Literal& c = r.tuple_element(0);
  const std::vector<double> factor = Doubles(c.tuple_element(0));
  EXPECT_THAT(std::vector<double>(factor.begin(), factor.begin() + 4), ElementsAre(2, 2, 1, 2));
  EXPECT_EQ(factor[4], 1);  // the failed matrix: its first column is fine
  EXPECT_EQ(factor[5], 2);  // a's upper triangle
  EXPECT_TRUE(std::isnan(factor[7]));
  EXPECT_THAT(Doubles(c.tuple_element(1)), ElementsAre(0, 0, 0, 0, 0, 0, 0, 0));
  EXPECT_THAT(Ints(c.tuple_element(2)), ElementsAre(0, 2));
  EXPECT_THAT(Doubles(r.tuple_element(1).tuple_element(0)), ElementsAre(1, 1.5));
  // The upper factor and a transposed solve: U = L^T, U^T x = b.
  Literal u = RunHlo(Module(R"(
  a = f32[2,2] parameter(0)
  c = (f32[2,2], f32[0], s32[1]) custom-call(a), custom_call_target="__cusolver$cholesky", backend_config={"cholesky_options":{"lower":false}}
  f = f32[2,2] get-tuple-element(c), index=0
  b = f32[2,1] parameter(1)
  ROOT x = f32[2,1] custom-call(f, b), custom_call_target="__cublas$triangularSolve", backend_config={"left_side":true,"transpose_a":2})"),
                     {L("f32[2,2]", {4, 2, 2, 5}), L("f32[2,1]", {2, 4})});
  EXPECT_THAT(Doubles(u), ElementsAre(1, 1.5));
  auto bad = TryRun(Module(R"(
  a = f32[2,2] parameter(0)
  ROOT c = (f32[2,2], f32[0], s32[2]) custom-call(a), custom_call_target="__cusolver$cholesky")"),
                    {L("f32[2,2]", {4, 2, 2, 5})});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("__cusolver$cholesky gives (f32[2,2], f32[0], s32[2]) for f32[2,2]: not "
                        "(square matrices of its dimensions, workspace, s32 info with one element "
                        "per matrix)"));
}

TEST(XlaCustomCallsTest, TopKWithALessThanTakesTheSmallest) {
  Literal r = RunHlo(Module(R"(
  x = f32[5] parameter(0)
  ROOT t = (f32[2], s32[2]) custom-call(x), custom_call_target="TopK", to_apply=less)",
                            R"(
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT
})"),
                     {L("f32[5]", {3, 5, 1, 5, 1})});
  EXPECT_THAT(Doubles(r.tuple_element(0)), ElementsAre(1, 1));
  EXPECT_THAT(Ints(r.tuple_element(1)), ElementsAre(2, 4));
}

TEST(XlaCustomCallsTest, AuxEpiloguesGiveTheValueBeforeTheGelu) {
  // a = [[1, 2], [3, 4]], b = I, bias [-2.5, 1]: before the GELU
  // [-1.5, 3, 0.5, 5] (the aux), after it the GELU of each; GELU_AUX
  // without a bias or workspace gives a itself as the aux.
  Literal r =
      RunHlo(Module(R"(
  a = f32[2,2] parameter(0)
  b = f32[2,2] parameter(1)
  bias = f32[2] parameter(2)
  g = (f32[2,2], f32[2,2], s8[8]) custom-call(a, b, bias), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"dot_dimension_numbers":{"lhs_contracting_dimensions":[1],"rhs_contracting_dimensions":[0]},"epilogue":"BIAS_GELU_AUX"}}
  h = (f32[2,2], f32[2,2]) custom-call(a, b), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"dot_dimension_numbers":{"lhs_contracting_dimensions":[1],"rhs_contracting_dimensions":[0]},"epilogue":"GELU_AUX"}}
  ROOT t = ((f32[2,2], f32[2,2], s8[8]), (f32[2,2], f32[2,2])) tuple(g, h))"),
             {L("f32[2,2]", {1, 2, 3, 4}), L("f32[2,2]", {1, 0, 0, 1}), L("f32[2]", {-2.5, 1})});
  const Literal& g = r.tuple_element(0);
  EXPECT_THAT(Doubles(g.tuple_element(1)), ElementsAre(-1.5, 3, 0.5, 5));
  const std::vector<double> out = Doubles(g.tuple_element(0));
  const double x[] = {-1.5, 3, 0.5, 5};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(out[i], TanhGelu(x[i]), 1e-6) << i;
  EXPECT_EQ(g.tuple_element(2).element_count(), 8);
  EXPECT_THAT(Doubles(r.tuple_element(1).tuple_element(1)), ElementsAre(1, 2, 3, 4));
  // An _AUX epilogue whose result has no aux, or an aux not shaped as the
  // output: refused, naming the forms.
  auto no_aux = TryRun(Module(R"(
  a = f32[2,2] parameter(0)
  ROOT g = f32[2,2] custom-call(a, a), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"dot_dimension_numbers":{"lhs_contracting_dimensions":[1],"rhs_contracting_dimensions":[0]},"epilogue":"GELU_AUX"}})"),
                       {L("f32[2,2]", {1, 2, 3, 4})});
  ASSERT_FALSE(no_aux.ok());
  EXPECT_THAT(std::string(no_aux.status().message()),
              HasSubstr("has the result f32[2,2], not (output, aux[, workspace])"));
  auto bad_aux = TryRun(Module(R"(
  a = f32[2,2] parameter(0)
  ROOT g = (f32[2,2], s8[8]) custom-call(a, a), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"dot_dimension_numbers":{"lhs_contracting_dimensions":[1],"rhs_contracting_dimensions":[0]},"epilogue":"GELU_AUX"}})"),
                        {L("f32[2,2]", {1, 2, 3, 4})});
  ASSERT_FALSE(bad_aux.ok());
  EXPECT_THAT(std::string(bad_aux.status().message()),
              HasSubstr("has the aux s8[8], not the output's dimensions f32[2,2]"));
}

TEST(XlaCustomCallsTest, AnnotationsPassValuesAndTopKTakesTheLargest) {
  Literal r = RunHlo(Module(R"(
  x = f32[5] parameter(0)
  s = f32[5] custom-call(x), custom_call_target="Sharding", sharding={replicated}
  h = f32[5] custom-call(s), custom_call_target="MoveToHost"
  d = f32[5] custom-call(h), custom_call_target="MoveToDevice"
  t = (f32[2], s32[2]) custom-call(d), custom_call_target="TopK"
  ROOT r = (f32[5], (f32[2], s32[2])) tuple(d, t))"),
                     {L("f32[5]", {1, 5, 3, 5, 2})});
  EXPECT_THAT(Doubles(r.tuple_element(0)), ElementsAre(1, 5, 3, 5, 2));
  EXPECT_THAT(Doubles(r.tuple_element(1).tuple_element(0)), ElementsAre(5, 5));
  EXPECT_THAT(Ints(r.tuple_element(1).tuple_element(1)), ElementsAre(1, 3));
  // More than one partition, a RELU_AUX epilogue: refused by name.
  auto sharded = TryRun(Module(R"(
  x = f32[4] parameter(0)
  ROOT s = f32[2] custom-call(x), custom_call_target="SPMDFullToShardShape")"),
                        {L("f32[4]", {1, 2, 3, 4})});
  ASSERT_FALSE(sharded.ok());
  EXPECT_THAT(std::string(sharded.status().message()),
              HasSubstr("SPMDFullToShardShape changes f32[4] into f32[2], which takes more than "
                        "one partition"));
  auto gelu = TryRun(Module(R"(
  a = f32[2,2] parameter(0)
  ROOT g = f32[2,2] custom-call(a, a), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"dot_dimension_numbers":{"lhs_contracting_dimensions":[1],"rhs_contracting_dimensions":[0]},"epilogue":"RELU_AUX"}})"),
                     {L("f32[2,2]", {1, 2, 3, 4})});
  ASSERT_FALSE(gelu.ok());
  EXPECT_THAT(std::string(gelu.status().message()), HasSubstr("with the epilogue RELU_AUX"));
}

TEST(XlaCustomCallsTest, CudnnConvolutionsScaleAddAndActivate) {
  // x = [2, -3] at two positions, a 1x1 filter [1, -1] into two features:
  // conv = [2, -2, -3, 3] (position-major, feature minor). Fused: 0.5 conv
  // + 2 side + bias by feature = [3, -1.25, 1.5, -0.75], then activated.
  auto run = [](const char* activation) {
    return Doubles(RunHlo(
        Module(absl::StrCat(
            R"(
  x = f32[1,2,1,1] parameter(0)
  w = f32[1,1,1,2] parameter(1)
  bias = f32[2] parameter(2)
  side = f32[1,2,1,2] parameter(3)
  c = (f32[1,2,1,2], u8[0]) custom-call(x, w, bias, side), window={size=1x1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBiasActivationForward", backend_config={"cudnn_conv_backend_config":{"activation_mode":")",
            activation, R"(","conv_result_scale":0.5,"side_input_scale":2,"leakyrelu_alpha":0.1}}
  ROOT r = f32[1,2,1,2] get-tuple-element(c), index=0)")),
        {L("f32[1,2,1,1]", {2, -3}), L("f32[1,1,1,2]", {1, -1}), L("f32[2]", {1, -0.25}),
         L("f32[1,2,1,2]", {0.5, 0, 1, -1})}));
  };
  EXPECT_THAT(run("kNone"), ElementsAre(3, -1.25, 1.5, -0.75));
  EXPECT_THAT(run("kRelu"), ElementsAre(3, 0, 1.5, 0));
  EXPECT_THAT(run("kRelu6"), ElementsAre(3, 0, 1.5, 0));
  std::vector<double> leaky = run("kLeakyRelu");
  EXPECT_NEAR(leaky[1], -0.125, 1e-7);
  EXPECT_NEAR(leaky[3], -0.075, 1e-7);
  std::vector<double> elu = run("kElu");
  EXPECT_NEAR(elu[1], std::expm1(-1.25), 1e-7);
  EXPECT_NEAR(elu[3], std::expm1(-0.75), 1e-7);
  EXPECT_EQ(elu[0], 3);
  // The plain forward convolution, with its scratch; relu6's upper clamp.
  Literal f = RunHlo(Module(R"(
  x = f32[1,2,1,1] parameter(0)
  w = f32[1,1,1,2] parameter(1)
  bias = f32[2] parameter(2)
  c = (f32[1,2,1,2], u8[4]) custom-call(x, w), window={size=1x1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convForward", backend_config={"cudnn_conv_backend_config":{"conv_result_scale":1}}
  six = (f32[1,2,1,2], u8[0]) custom-call(x, w, bias), window={size=1x1}, dim_labels=b01f_01io->b01f, custom_call_target="__cudnn$convBiasActivationForward", backend_config={"cudnn_conv_backend_config":{"activation_mode":"kRelu6","conv_result_scale":4}}
  ROOT r = ((f32[1,2,1,2], u8[4]), (f32[1,2,1,2], u8[0])) tuple(c, six))"),
                     {L("f32[1,2,1,1]", {2, -3}), L("f32[1,1,1,2]", {1, -1}), L("f32[2]", {0, 1})});
  EXPECT_THAT(Doubles(f.tuple_element(0).tuple_element(0)), ElementsAre(2, -2, -3, 3));
  EXPECT_EQ(f.tuple_element(0).tuple_element(1).element_count(), 4);
  EXPECT_THAT(Doubles(f.tuple_element(1).tuple_element(0)), ElementsAre(6, 0, 0, 6));
}

TEST(XlaCustomCallsTest, CudnnConvolutionGradientsByDefinition) {
  // Forward: y[q] = x[q] w0 + x[q + 1] w1 over x = [1, 2, 3], w = [2, 3].
  // With dy = [1, 10]: dx = [w0, 10 w0 + w1, 10 w1] = [2, 23, 30] and
  // dw[k] = x[k] + 10 x[k + 1] = [21, 32]; conv_result_scale 2 doubles dw.
  Literal r =
      RunHlo(Module(R"(
  dy = f32[1,2,1] parameter(0)
  w = f32[2,1,1] parameter(1)
  x = f32[1,3,1] parameter(2)
  di = (f32[1,3,1], u8[0]) custom-call(dy, w), window={size=2}, dim_labels=b0f_0io->b0f, custom_call_target="__cudnn$convBackwardInput"
  df = (f32[2,1,1], u8[8]) custom-call(x, dy), window={size=2}, dim_labels=b0f_0io->b0f, custom_call_target="__cudnn$convBackwardFilter", backend_config={"cudnn_conv_backend_config":{"conv_result_scale":2}}
  ROOT r = ((f32[1,3,1], u8[0]), (f32[2,1,1], u8[8])) tuple(di, df))"),
             {L("f32[1,2,1]", {1, 10}), L("f32[2,1,1]", {2, 3}), L("f32[1,3,1]", {1, 2, 3})});
  EXPECT_THAT(Doubles(r.tuple_element(0).tuple_element(0)), ElementsAre(2, 23, 30));
  EXPECT_THAT(Doubles(r.tuple_element(1).tuple_element(0)), ElementsAre(42, 64));
  EXPECT_EQ(r.tuple_element(1).tuple_element(1).element_count(), 8);
  // Stride 2, padding 1_0: y[q] = x[2q - 1] w0 + x[2q] w1 (x[-1] = 0), two
  // feature groups of one feature each: x's feature g feeds y's feature g.
  Literal s = RunHlo(Module(R"(
  dy = f32[1,2,2] parameter(0)
  w = f32[2,1,2] parameter(1)
  ROOT di = (f32[1,3,2], u8[0]) custom-call(dy, w), window={size=2 stride=2 pad=1_0}, dim_labels=b0f_0io->b0f, feature_group_count=2, custom_call_target="__cudnn$convBackwardInput")"),
                     {L("f32[1,2,2]", {1, 2, 10, 20}), L("f32[2,1,2]", {3, 5, 7, 11})});
  // Group 0 (w = [3, 7], dy = [1, 10]): dx = [dy0 w1, dy1 w0, dy1 w1] =
  // [7, 30, 70]; group 1 (w = [5, 11], dy = [2, 20]): [22, 100, 220];
  // position-major, feature minor.
  EXPECT_THAT(Doubles(s.tuple_element(0)), ElementsAre(7, 22, 30, 100, 70, 220));
}

TEST(GeluTest, TanhApproximation) {
  std::vector<double> r = Doubles(RunHlo(Module(R"(
  x = f32[3] parameter(0)
  ROOT g = f32[3] custom-call(x), custom_call_target="aot.gelu")"),
                                         {L("f32[3]", {0, 1, -2})}));
  EXPECT_EQ(r[0], 0);
  EXPECT_NEAR(r[1], TanhGelu(1), 1e-6);
  EXPECT_NEAR(r[1], 0.841192, 1e-6);
  EXPECT_NEAR(r[2], TanhGelu(-2), 1e-6);
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
