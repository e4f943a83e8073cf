// The convolution thunk on the host platform (its direct loop) and its
// load-time checks; the CUDA side (cuDNN calls) is in
// cuda_stream_rules_test, its compiler side in cudnn_convolution_test.
#include "runtime/thunks/convolution_thunk.h"

#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "runtime/testing/executable_builder.h"

namespace aot {
namespace {

using ::aot::testing::As;
using ::aot::testing::Builder;
using ::aot::testing::Bytes;
using ::aot::testing::Load;
using ::aot::testing::Shape;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Input [N=1, C=2, 3, 3] stored NHWC (channel 0 holds 1..9, channel 1 ten
// times that), filter [O=1, C=2, 2, 2] of ones stored (O, S, C), stride 1,
// no padding: each output is the sum of a 2x2 window of both channels.
ExecutableProto SumOfWindows(ConvolutionParams p) {
  Builder b;
  int x = b.Parameter(Shape(F32, {1, 3, 3, 2}));
  int w = b.Parameter(Shape(F32, {1, 2, 2, 2}));
  int out = b.Allocation(16, BufferAllocationProto::OUTPUT);
  ConvolutionThunkProto* c = b.Thunk("conv")->mutable_convolution();
  *c->mutable_input() = Builder::Slice(x, 0, 72);
  *c->mutable_filter() = Builder::Slice(w, 0, 32);
  *c->mutable_output() = Builder::Slice(out, 0, 16);
  ConvolutionThunk::ParamsToProto(p, c);
  b.Result({{Shape(F32, {1, 1, 2, 2}), Builder::Slice(out, 0, 16)}});
  return b.Build();
}

ConvolutionParams SumOfWindowsParams() {
  ConvolutionParams p;
  p.element_type = F32;
  p.input_dims = {1, 2, 3, 3};
  p.input_strides = {18, 1, 6, 2};
  p.filter_dims = {1, 2, 2, 2};
  p.filter_strides = {8, 1, 4, 2};
  p.output_dims = {1, 1, 2, 2};
  p.output_strides = {4, 4, 2, 1};
  p.window_strides = {1, 1};
  p.padding = {0, 0};
  p.dilations = {1, 1};
  p.feature_group_count = 1;
  return p;
}

TEST(ThunksTest, ConvolutionReadsEachOperandThroughItsStrides) {
  auto executable = Load(SumOfWindows(SumOfWindowsParams()));
  ASSERT_NE(executable, nullptr);
  std::vector<float> x(18);
  for (int i = 0; i < 9; ++i) {
    x[2 * i] = static_cast<float>(i + 1);
    x[2 * i + 1] = 10.0f * static_cast<float>(i + 1);
  }
  std::vector<float> w(8, 1.0f);
  auto results = executable->Execute({Bytes(x), Bytes(w)});
  ASSERT_TRUE(results.ok()) << results.status();
  // Windows of 1..9: 12, 16, 24, 28; both channels: 11 times that.
  EXPECT_THAT(As<float>((*results)[0]), ElementsAre(132, 176, 264, 308));
}

TEST(ThunksTest, ConvolutionLoadRefusesInconsistentDescriptions) {
  struct Bad {
    const char* what;
    std::function<void(ConvolutionParams&)> change;
  };
  for (const Bad& bad :
       std::vector<Bad>{{"does not divide the input features",
                         [](ConvolutionParams& p) { p.feature_group_count = 3; }},
                        {"spatial dimension 0 is 2, the window gives 4",
                         [](ConvolutionParams& p) {
                           p.padding = {1, 0};
                         }},
                        {"bytes its dimensions and strides span",
                         [](ConvolutionParams& p) {
                           p.input_strides = {18, 1, 6, 4};
                         }},
                        {"window_strides, padding and dilations must each have 2 entries",
                         [](ConvolutionParams& p) { p.dilations = {1}; }}}) {
    SCOPED_TRACE(bad.what);
    ConvolutionParams p = SumOfWindowsParams();
    bad.change(p);
    auto client = *Client::Create("host");
    absl::Status s = client->Load(SumOfWindows(p)).status();
    ASSERT_FALSE(s.ok());
    EXPECT_THAT(std::string(s.message()), HasSubstr("thunks[0].convolution"));
    EXPECT_THAT(std::string(s.message()), HasSubstr(bad.what));
  }
}

}  // namespace
}  // namespace aot
