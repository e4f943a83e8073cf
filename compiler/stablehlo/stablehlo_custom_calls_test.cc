// Custom calls and checks (stablehlo_custom_calls.cc): typed-FFI attributes
// kept, check ops as outputs after the results.
#include "compiler/stablehlo/stablehlo_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot::stablehlo {
namespace {

using test_util::Convert;
using test_util::HloOf;
using ::testing::HasSubstr;

// JAX's CPU exports call LAPACK through typed-FFI custom calls whose
// attributes are a dictionary in mhlo.backend_config.
TEST(ConvertTest, TypedFfiCustomCallsKeepTheirAttributes) {
  auto converted = Convert(R"(func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r:2 = stablehlo.custom_call @lapack_spotrf_ffi(%x) {mhlo.backend_config = {uplo = 76 : ui8, flag = true}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  func.return %r#0 : tensor<4x4xf32>
})");
  ASSERT_TRUE(converted.ok()) << converted.status();
  EXPECT_THAT(
      converted->hlo_text,
      HasSubstr("custom_call_target=\"lapack_spotrf_ffi\", api_version=API_VERSION_TYPED_FFI, "
                "backend_config={flag = true, uplo = 76 : ui8}"));
  // The legacy string form stays a string.
  auto legacy = Convert(R"(func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = stablehlo.custom_call @my_op(%x) {backend_config = "k=2"} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
})");
  ASSERT_TRUE(legacy.ok()) << legacy.status();
  EXPECT_THAT(legacy->hlo_text, HasSubstr("custom_call_target=\"my_op\", backend_config=\"k=2\""));
}

TEST(ConvertTest, ChecksBecomeOutputsAfterTheResults) {
  auto converted = Convert(R"(
func.func @main() -> tensor<2xi32> {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.add %a, %a : tensor<2xi32>
  check.expect_eq_const %b, dense<[2, 4]> : tensor<2xi32>
  check.expect_almost_eq %b, %b, tolerance = 1.0e-3 : tensor<2xi32>
  stablehlo.custom_call @check.expect_close(%b, %b) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
  return %b : tensor<2xi32>
})");
  ASSERT_TRUE(converted.ok()) << converted.status();
  ASSERT_EQ(converted->checks.size(), 3u);
  EXPECT_TRUE(converted->tuple_root);
  EXPECT_EQ(converted->num_results, 1);
  EXPECT_EQ(converted->checks[0].kind, CheckSpec::kEq);
  EXPECT_EQ(converted->checks[0].actual_output, 1);
  EXPECT_EQ(converted->checks[0].expected_output, 2);
  EXPECT_EQ(converted->checks[1].kind, CheckSpec::kAlmostEq);
  EXPECT_DOUBLE_EQ(converted->checks[1].tolerance, 1e-3);
  EXPECT_EQ(converted->checks[2].kind, CheckSpec::kClose);
  EXPECT_EQ(converted->checks[2].where, "t.mlir:7:3");
  EXPECT_TRUE(ParseHloModule(converted->hlo_text).ok());
}

}  // namespace
}  // namespace aot::stablehlo
