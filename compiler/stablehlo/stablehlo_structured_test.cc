// Structured ops (stablehlo_structured.cc): dot_general, convolution, gather
// and dynamic shapes.
#include "compiler/stablehlo/stablehlo_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot::stablehlo {
namespace {

using test_util::Convert;
using test_util::HloOf;
using ::testing::HasSubstr;

TEST(ConvertTest, DotGeneralConvolutionGatherAndDynamicShapes) {
  const std::string hlo = HloOf(R"(
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %img: tensor<1x4x4x1xf32>, %k: tensor<2x2x1x1xf32>, %t: tensor<3x3xf32>, %i: tensor<2x1xi32>, %d: tensor<?xf32, #stablehlo.bounds<8>>) -> (tensor<2x3x5xf32>, tensor<1x3x3x1xf32>, tensor<2x3xf32>, tensor<?xf32, #stablehlo.bounds<8>>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  %2 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<3x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %3 = stablehlo.negate %d : tensor<?xf32, #stablehlo.bounds<8>>
  return %0, %1, %2, %3 : tensor<2x3x5xf32>, tensor<1x3x3x1xf32>, tensor<2x3xf32>, tensor<?xf32, #stablehlo.bounds<8>>
})");
  EXPECT_THAT(hlo, HasSubstr("lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, "
                             "rhs_contracting_dims={1}"));
  EXPECT_THAT(hlo, HasSubstr("window={size=2x2 stride=1x1 pad=0_0x0_0 rhs_dilate=1x1}, "
                             "dim_labels=b01f_01io->b01f"));
  EXPECT_THAT(hlo, HasSubstr("offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
                             "index_vector_dim=1, slice_sizes={1,3}"));
  EXPECT_THAT(hlo, HasSubstr("f32[<=8] negate(%d)"));
}

}  // namespace
}  // namespace aot::stablehlo
