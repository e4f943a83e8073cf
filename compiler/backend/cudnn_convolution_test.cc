// emit_cudnn_convolution: which convolutions become convolution thunks on
// CUDA, with what dimensions and strides, and that those describe the
// convolution: the thunk's parameters, run by the host platform's direct
// loop over the operands' real buffers, give the interpreter's values.
#include "compiler/backend/cudnn_convolution.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "support/file_io.h"

namespace aot {
namespace {

constexpr char kFlag[] = "emit_cudnn_convolution";

// NCHW activations with an OIHW filter (packed as cuDNN reads it: no copy),
// grouped.
constexpr char kNchwGrouped[] = R"(
HloModule nchw
ENTRY e {
  x = f32[2,4,9,7] parameter(0)
  w = f32[6,2,3,2] parameter(1)
  ROOT c = f32[2,6,5,4] convolution(x, w), window={size=3x2 stride=2x2 pad=1_1x1_1 rhs_dilate=1x2}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})";

std::string Load(const std::string& path) {
  auto text = ReadFileToString(path);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

ConvolutionParams ParamsOf(const ConvolutionThunkProto& c) {
  ConvolutionParams p;
  p.element_type = c.element_type();
  auto get = [](const google::protobuf::RepeatedField<int64_t>& f) {
    return std::vector<int64_t>(f.begin(), f.end());
  };
  p.input_dims = get(c.input_dims());
  p.input_strides = get(c.input_strides());
  p.filter_dims = get(c.filter_dims());
  p.filter_strides = get(c.filter_strides());
  p.output_dims = get(c.output_dims());
  p.output_strides = get(c.output_strides());
  p.window_strides = get(c.window_strides());
  p.padding = get(c.padding());
  p.dilations = get(c.dilations());
  p.feature_group_count = c.feature_group_count();
  return p;
}

// The filter literal (row-major over its HLO dimensions) rearranged as
// (O, spatial..., I), what the compiler's layout-changing copy makes.
std::vector<float> PackOhwi(const Literal& filter, const ConvolutionDimensionNumbersProto& dn) {
  const Shape& s = filter.shape();
  std::vector<int64_t> order = {dn.kernel_output_feature_dimension()};
  for (int64_t d : dn.kernel_spatial_dimensions()) order.push_back(d);
  order.push_back(dn.kernel_input_feature_dimension());
  std::vector<float> out(static_cast<size_t>(s.ElementCount()));
  std::vector<int64_t> index(static_cast<size_t>(s.rank()), 0);
  for (int64_t linear = 0; linear < s.ElementCount(); ++linear) {
    // index: row-major multi-index of `linear` over the HLO dimensions.
    int64_t rest = linear;
    for (int64_t d = s.rank() - 1; d >= 0; --d) {
      index[d] = rest % s.dimensions(d);
      rest /= s.dimensions(d);
    }
    int64_t packed = 0;
    for (int64_t d : order) packed = packed * s.dimensions(d) + index[d];
    out[static_cast<size_t>(packed)] = filter.Get<float>(linear);
  }
  return out;
}

TEST(CudnnConvolutionTest, ThunkParametersComputeTheInterpretersConvolution) {
  if (!std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")) {
    GTEST_SKIP() << "CUDA libdevice not installed at /usr/local/cuda";
  }
  struct Case {
    const char* name;
    std::string text;
    bool filter_copied;  // HWIO filters are copied to (O, S..., I)
  };
  const std::vector<Case> cases = {
      {"conv2d", Load("golden/modules/conv_pool/conv2d.hlo"), true},
      {"depthwise_conv", Load("golden/modules/conv_pool/depthwise_conv.hlo"), true},
      {"nchw_grouped", kNchwGrouped, false}};
  auto host = CreatePlatform("host", {});
  ASSERT_TRUE(host.ok()) << host.status();
  auto stream = (*host)->AcquireStream();
  ASSERT_TRUE(stream.ok()) << stream.status();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto module = ParseHloModule(c.text);
    ASSERT_TRUE(module.ok()) << module.status();
    const HloInstruction* conv = (*module)->entry_computation()->root_instruction();
    ASSERT_EQ(conv->opcode(), HloOpcode::kConvolution);
    CompileOptions options;
    options.compile_cubin = false;
    options.emission_flags = {kFlag};
    auto compiled = Compile(**module, *ShippedTargetConfig("h100"), options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    const ConvolutionThunkProto* thunk = nullptr;
    bool copied = false;
    for (const ThunkProto& t : (*compiled)->proto().thunks()) {
      if (t.has_convolution()) thunk = &t.convolution();
      copied |= t.has_kernel() && absl::StrContains(t.info().name(), ".filter_ohwi");
    }
    ASSERT_NE(thunk, nullptr) << (*compiled)->ThunksToString();
    EXPECT_EQ(copied, c.filter_copied) << (*compiled)->ThunksToString();
    ConvolutionParams params = ParamsOf(*thunk);
    EXPECT_GE(PackedFilterOrder(params), 0);

    std::vector<Literal> args = RandomArguments(**module, 7);
    HloEvaluator evaluator;
    auto expected = evaluator.Evaluate(**module, args);
    ASSERT_TRUE(expected.ok()) << expected.status();
    std::vector<float> input(args[0].data<float>().begin(), args[0].data<float>().end());
    std::vector<float> filter =
        c.filter_copied
            ? PackOhwi(args[1], *conv->attrs().convolution_dimension_numbers)
            : std::vector<float>(args[1].data<float>().begin(), args[1].data<float>().end());
    std::vector<float> output(static_cast<size_t>(expected->element_count()), NAN);
    ASSERT_TRUE((*stream)
                    ->Convolution(params, DeviceMemory{input.data(), 0},
                                  DeviceMemory{filter.data(), 0}, DeviceMemory{output.data(), 0})
                    .ok());
    for (size_t i = 0; i < output.size(); ++i) {
      const float want = expected->Get<float>(static_cast<int64_t>(i));
      ASSERT_NEAR(output[i], want, 1e-4f * (1 + std::fabs(want))) << "element " << i;
    }
  }
}

// Without the flag, and on the host, no convolution thunk; forms cuDNN's
// legacy API does not take (one spatial dimension, asymmetric padding,
// input dilation) stay kernels with the flag on.
TEST(CudnnConvolutionTest, OnlyBehindTheFlagOnCudaAndOnlyForFormsCudnnTakes) {
  if (!std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")) {
    GTEST_SKIP() << "CUDA libdevice not installed at /usr/local/cuda";
  }
  auto count = [](const std::string& text, const char* target, bool flag) {
    auto module = ParseHloModule(text);
    EXPECT_TRUE(module.ok()) << module.status();
    CompileOptions options;
    options.compile_cubin = false;
    if (flag) options.emission_flags = {kFlag};
    auto compiled = Compile(**module, *ShippedTargetConfig(target), options);
    EXPECT_TRUE(compiled.ok()) << compiled.status();
    int n = 0;
    for (const ThunkProto& t : (*compiled)->proto().thunks()) n += t.has_convolution();
    return n;
  };
  EXPECT_EQ(count(kNchwGrouped, "h100", true), 1);
  EXPECT_EQ(count(kNchwGrouped, "h100", false), 0);
  EXPECT_EQ(count(kNchwGrouped, "host-x86-64-v3", true), 0);
  struct Form {
    const char* name;
    const char* text;
  };
  for (const Form& form : {Form{"one spatial dimension", R"(
HloModule m
ENTRY e {
  x = f32[2,4,9] parameter(0)
  w = f32[6,2,3] parameter(1)
  ROOT c = f32[2,6,9] convolution(x, w), window={size=3 pad=1_1}, dim_labels=bf0_oi0->bf0, feature_group_count=2
})"},
                           Form{"asymmetric padding", R"(
HloModule m
ENTRY e {
  x = f32[2,4,9,7] parameter(0)
  w = f32[6,2,3,2] parameter(1)
  ROOT c = f32[2,6,8,6] convolution(x, w), window={size=3x2 pad=1_0x0_0}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})"},
                           Form{"input dilation", R"(
HloModule m
ENTRY e {
  x = f32[2,4,9,7] parameter(0)
  w = f32[6,2,3,2] parameter(1)
  ROOT c = f32[2,6,15,6] convolution(x, w), window={size=3x2 lhs_dilate=2x1}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})"}}) {
    SCOPED_TRACE(form.name);
    EXPECT_EQ(count(form.text, "h100", true), 0);
    auto module = ParseHloModule(form.text);
    ASSERT_TRUE(module.ok()) << module.status();
    EXPECT_FALSE(CudnnConvolutionParams(*(*module)->entry_computation()->root_instruction()));
  }
}

}  // namespace
}  // namespace aot
