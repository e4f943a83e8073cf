// Shapes and refinement (stablehlo_shapes.cc): shape-polymorphic programs
// sized from their arguments.
#include "compiler/stablehlo/stablehlo_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot::stablehlo {
namespace {

using test_util::Convert;
using test_util::HloOf;
using ::testing::HasSubstr;
using ::testing::Not;

// As JAX exports with symbolic shapes: `?` sizes from the actual
// arguments, the size arithmetic folded, functions with `?` in their
// signature specialized at the call, dynamic ops then static.
constexpr char kPolymorphic[] = R"(module @jit_f attributes {jax.uses_shape_polymorphism = true} {
  func.func public @main(%arg0: tensor<?x3xf32>) -> tensor<?x2xf32> {
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
    %1 = stablehlo.constant dense<2> : tensor<i32>
    %2 = stablehlo.compare  GE, %0, %1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%2, %0) {api_version = 2 : i32, error_message = "Expected value >= 2 for dimension variable 'b', got {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %3 = call @_wrapped(%0, %arg0) : (tensor<i32>, tensor<?x3xf32>) -> tensor<?x2xf32>
    return %3 : tensor<?x2xf32>
  }
  func.func private @_wrapped(%b: tensor<i32>, %x: tensor<?x3xf32>) -> tensor<?x2xf32> {
    %c = stablehlo.constant dense<2> : tensor<i32>
    %k = stablehlo.subtract %c, %b : tensor<i32>
    %k2 = stablehlo.add %k, %b : tensor<i32>
    %v:2 = stablehlo.custom_call @stablehlo.dynamic_top_k(%x, %k2) {api_version = 2 : i32} : (tensor<?x3xf32>, tensor<i32>) -> (tensor<?x?xf32>, tensor<?x?xi32>)
    %r = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %two = stablehlo.constant dense<2> : tensor<1xi32>
    %shape = stablehlo.concatenate %r, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %z = stablehlo.constant dense<0.5> : tensor<f32>
    %h = stablehlo.dynamic_broadcast_in_dim %z, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>
    %s = stablehlo.add %v#0, %h : tensor<?x2xf32>
    return %s : tensor<?x2xf32>
  }
})";

TEST(ConvertTest, ShapePolymorphicProgramsTakeTheirSizesFromTheArguments) {
  ConvertOptions options;
  options.entry_argument_dims = {{4, 3}};
  auto converted = ConvertStableHloText(kPolymorphic, "p.mlir", options);
  ASSERT_TRUE(converted.ok()) << converted.status();
  EXPECT_THAT(converted->hlo_text, HasSubstr("f32[4,3] parameter(0)"));
  EXPECT_THAT(converted->hlo_text, HasSubstr("topk("));
  EXPECT_THAT(converted->hlo_text, HasSubstr("k=2, largest=true"));
  EXPECT_THAT(converted->hlo_text, HasSubstr("f32[4,2] add("));
  EXPECT_THAT(converted->hlo_text, ::testing::Not(HasSubstr(" call(")));
  // The shape assertion is JAX's check of the sizes, with its message.
  options.entry_argument_dims = {{1, 3}};
  auto small = ConvertStableHloText(kPolymorphic, "p.mlir", options);
  ASSERT_FALSE(small.ok());
  EXPECT_THAT(small.status().message(),
              HasSubstr("p.mlir:6:5: 'stablehlo.custom_call': Expected value >= 2 for dimension "
                        "variable 'b', got 1"));
  // Sizes that contradict the static ones, and none at all.
  options.entry_argument_dims = {{4, 5}};
  EXPECT_THAT(ConvertStableHloText(kPolymorphic, "p.mlir", options).status().message(),
              HasSubstr("@main argument %arg0 is tensor<?x3xf32>; the given value is [4x5]"));
  EXPECT_THAT(ConvertStableHloText(kPolymorphic, "p.mlir").status().message(),
              HasSubstr("unbounded dynamic dimension 0 in tensor<?x3xf32>"));
}

}  // namespace
}  // namespace aot::stablehlo
