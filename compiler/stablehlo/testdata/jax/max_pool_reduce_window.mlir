// flax max_pool with a 2x2 window and stride 2 on NHWC input: reduce_window with maximum and a -inf init (splat zero padding attribute).
module @jit_max_pool attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<1x2x2x1xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<1x4x4x1xf32>
    %1 = call @expected() : () -> tensor<1x2x2x1xf32>
    %2 = call @max_pool(%0) : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> ()
    return %2 : tensor<1x2x2x1xf32>
  }
  func.func private @inputs() -> (tensor<1x4x4x1xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[[[1.000000e+00], [5.000000e+00], [-2.000000e+00], [0.000000e+00]], [[3.000000e+00], [-1.000000e+00], [4.000000e+00], [4.500000e+00]], [[-6.000000e+00], [-3.000000e+00], [2.000000e+00], [1.000000e+00]], [[-4.000000e+00], [-5.000000e+00], [5.000000e-01], [7.000000e+00]]]]> : tensor<1x4x4x1xf32>
    return %cst : tensor<1x4x4x1xf32>
  }
  func.func private @expected() -> (tensor<1x2x2x1xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[[[5.000000e+00], [4.500000e+00]], [[-3.000000e+00], [7.000000e+00]]]]> : tensor<1x2x2x1xf32>
    return %cst : tensor<1x2x2x1xf32>
  }
  func.func private @max_pool(%arg0: tensor<1x4x4x1xf32> {mhlo.layout_mode = "default"}) -> tensor<1x2x2x1xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
    return %0 : tensor<1x2x2x1xf32>
  }
}
