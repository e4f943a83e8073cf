// Regions and control flow (stablehlo_regions.cc): outer values threaded in,
// constants copied.
#include "compiler/stablehlo/stablehlo_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot::stablehlo {
namespace {

using test_util::Convert;
using test_util::HloOf;
using ::testing::HasSubstr;

TEST(ConvertTest, RegionsThreadOuterValuesAndCopyConstants) {
  const std::string hlo = HloOf(R"(
func.func @main(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<f32>
   cond {
    %c = stablehlo.compare  LT, %i, %n,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %a1 = stablehlo.add %acc, %x : tensor<f32>
    stablehlo.return %i1, %a1 : tensor<i32>, tensor<f32>
  }
  return %r#1 : tensor<f32>
})");
  // %n and %x are threaded through the loop state after the two loop values.
  EXPECT_THAT(hlo, HasSubstr("tuple(%zero, %x, %n, %x)"));
  EXPECT_THAT(hlo, HasSubstr("while(%while_init), condition=%cond, body=%body"));
}

}  // namespace
}  // namespace aot::stablehlo
