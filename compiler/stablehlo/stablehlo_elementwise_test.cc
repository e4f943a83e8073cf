// Elementwise ops (stablehlo_elementwise.cc): their HLO, and StableHLO's
// meaning where an HLO opcode of the name differs.
#include "compiler/stablehlo/stablehlo_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot::stablehlo {
namespace {

using test_util::Convert;
using test_util::HloOf;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ConvertTest, ElementwiseAndStructuredOpsBecomeHlo) {
  const std::string hlo = HloOf(R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.add %a, %0 : tensor<2x3xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = stablehlo.slice %2 [0:3, 0:2:1] : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %3 : tensor<3x2xf32>
})");
  EXPECT_THAT(hlo, HasSubstr("broadcast(%b), dimensions={1}"));
  EXPECT_THAT(hlo, HasSubstr("f32[2,3] add(%a, %bcast)"));
  EXPECT_THAT(hlo, HasSubstr("transpose(%v1), dimensions={1,0}"));
  EXPECT_THAT(hlo, HasSubstr("slice(%v2), slice={[0:3:1], [0:2:1]}"));
  EXPECT_THAT(hlo, HasSubstr("ENTRY %main"));
}

// Where StableHLO's semantics differ from HLO's opcode of the name, the
// converter emits what StableHLO means.
TEST(ConvertTest, StableHloSemanticsWhereHloOpcodesDiffer) {
  const std::string hlo = HloOf(R"(
func.func @main(%p: tensor<4xi1>, %q: tensor<4xi1>, %z: tensor<2xcomplex<f32>>, %w: tensor<2xcomplex<f32>>, %b: tensor<2x32xi1>, %f: tensor<3xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xi32>, tensor<2xi1>, tensor<2xf32>, tensor<3x32xi1>, tensor<2xcomplex<f64>>) {
  %0 = stablehlo.add %p, %q : tensor<4xi1>
  %1 = stablehlo.multiply %p, %q : tensor<4xi1>
  %2 = stablehlo.maximum %z, %w : tensor<2xcomplex<f32>>
  %3 = stablehlo.atan2 %z, %w : tensor<2xcomplex<f32>>
  %4 = stablehlo.convert %z : (tensor<2xcomplex<f32>>) -> tensor<2xi32>
  %5 = stablehlo.convert %z : (tensor<2xcomplex<f32>>) -> tensor<2xi1>
  %6 = stablehlo.convert %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %7 = stablehlo.bitcast_convert %f : (tensor<3xf32>) -> tensor<3x32xi1>
  %8 = stablehlo.iota dim = 0 : tensor<2xcomplex<f64>>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xi1>, tensor<4xi1>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xi32>, tensor<2xi1>, tensor<2xf32>, tensor<3x32xi1>, tensor<2xcomplex<f64>>
})");
  EXPECT_THAT(hlo, HasSubstr("pred[4] or(%p, %q)"));
  EXPECT_THAT(hlo, HasSubstr("pred[4] and(%p, %q)"));
  EXPECT_THAT(hlo, Not(HasSubstr("pred[4] add(")));
  EXPECT_THAT(hlo, Not(HasSubstr("maximum(%z, %w)")));
  EXPECT_THAT(hlo, HasSubstr("c64[2] select("));
  EXPECT_THAT(hlo, Not(HasSubstr("atan2(%z, %w)")));
  EXPECT_THAT(hlo, HasSubstr("c64[2] log("));
  EXPECT_THAT(hlo, HasSubstr("f32[2] real(%z)"));
  EXPECT_THAT(hlo, Not(HasSubstr("convert(%z)")));
  EXPECT_THAT(hlo, HasSubstr("u32[3] bitcast-convert(%f)"));
  EXPECT_THAT(hlo, HasSubstr("shift-right-logical("));
  EXPECT_THAT(hlo, HasSubstr("f64[2] iota(), iota_dimension=0"));
  EXPECT_THAT(hlo, HasSubstr("c128[2] convert("));
  // i1 to a wider type: an or-reduction of the shifted bits.
  const std::string gather = HloOf(R"(
func.func @main(%b: tensor<2x8xi1>) -> tensor<2xi8> {
  %0 = stablehlo.bitcast_convert %b : (tensor<2x8xi1>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
})");
  EXPECT_THAT(gather, HasSubstr("u8[2,8] shift-left("));
  EXPECT_THAT(gather, HasSubstr("u8[2] reduce("));
  EXPECT_THAT(gather, HasSubstr("s8[2] bitcast-convert("));
}

}  // namespace
}  // namespace aot::stablehlo
