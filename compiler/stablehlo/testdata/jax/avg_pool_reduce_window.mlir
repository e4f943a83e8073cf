// flax avg_pool (2x2, stride 1, SAME, count_include_pad=False): window sums divided by window counts from a second reduce_window over ones.
module @jit_avg_pool attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<1x4x4x1xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<1x4x4x1xf32>
    %1 = call @expected() : () -> tensor<1x4x4x1xf32>
    %2 = call @avg_pool(%0) : (tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>) -> ()
    return %2 : tensor<1x4x4x1xf32>
  }
  func.func private @inputs() -> (tensor<1x4x4x1xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[[[1.000000e+00], [6.000000e+00], [0.000000e+00], [5.000000e+00]], [[1.000000e+01], [4.000000e+00], [9.000000e+00], [3.000000e+00]], [[8.000000e+00], [2.000000e+00], [7.000000e+00], [1.000000e+00]], [[6.000000e+00], [0.000000e+00], [5.000000e+00], [1.000000e+01]]]]> : tensor<1x4x4x1xf32>
    return %cst : tensor<1x4x4x1xf32>
  }
  func.func private @expected() -> (tensor<1x4x4x1xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[[[5.250000e+00], [4.750000e+00], [4.250000e+00], [4.000000e+00]], [[6.000000e+00], [5.500000e+00], [5.000000e+00], [2.000000e+00]], [[4.000000e+00], [3.500000e+00], [5.750000e+00], [5.500000e+00]], [[3.000000e+00], [2.500000e+00], [7.500000e+00], [1.000000e+01]]]]> : tensor<1x4x4x1xf32>
    return %cst : tensor<1x4x4x1xf32>
  }
  func.func private @avg_pool(%arg0: tensor<1x4x4x1xf32> {mhlo.layout_mode = "default"}) -> tensor<1x4x4x1xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %5 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x4x4x1xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x4x4x1xf32>
    %2 = "stablehlo.reduce_window"(%1, %cst) <{padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %5 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x4x4x1xf32>
    %3 = stablehlo.divide %0, %2 : tensor<1x4x4x1xf32>
    return %3 : tensor<1x4x4x1xf32>
  }
}
