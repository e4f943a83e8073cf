// CHLO decompositions (stablehlo_chlo.cc).
#include "compiler/stablehlo/stablehlo_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot::stablehlo {
namespace {

using test_util::Convert;
using test_util::HloOf;
using ::testing::HasSubstr;
using ::testing::Not;

// CHLO functions without an HLO opcode (or whose HLO opcode takes no
// complex operand) are decomposed.
TEST(ConvertTest, ChloErfcNextAfterAndComplexFunctionsAreDecomposed) {
  const std::string hlo = HloOf(R"(
func.func @main(%x: tensor<3xf16>, %y: tensor<3xf32>, %z: tensor<3xcomplex<f32>>, %p: tensor<3xi1>) -> (tensor<3xf16>, tensor<3xf32>, tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<2xi1>, tensor<2xi32>) {
  %0 = chlo.erfc %x : tensor<3xf16> -> tensor<3xf16>
  %1 = chlo.next_after %y, %y : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %2 = chlo.asin %z : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.sinh %z : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %4, %5 = chlo.top_k(%p, k = 2) : tensor<3xi1> -> (tensor<2xi1>, tensor<2xi32>)
  return %0, %1, %2, %3, %4, %5 : tensor<3xf16>, tensor<3xf32>, tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<2xi1>, tensor<2xi32>
})");
  EXPECT_THAT(hlo, HasSubstr("f64[3] convert(%x)"));
  EXPECT_THAT(hlo, HasSubstr("f64[3] exponential("));
  EXPECT_THAT(hlo, HasSubstr("f16[3] convert("));
  EXPECT_THAT(hlo, HasSubstr("u32[3] bitcast-convert(%y)"));
  EXPECT_THAT(hlo, HasSubstr("f64[3] atan2("));
  EXPECT_THAT(hlo, HasSubstr("f64[3] log-plus-one("));
  EXPECT_THAT(hlo, HasSubstr("f64[3] sinh("));
  EXPECT_THAT(hlo, Not(HasSubstr("c64[3] asin(")));
  EXPECT_THAT(hlo, Not(HasSubstr("c64[3] sinh(")));
  EXPECT_THAT(hlo, HasSubstr("u8[3] convert(%p)"));
  EXPECT_THAT(hlo, HasSubstr("topk("));
}

}  // namespace
}  // namespace aot::stablehlo
