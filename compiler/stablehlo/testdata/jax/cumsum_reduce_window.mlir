// jnp.cumsum along axis 1, lowered to a reduce_window with low padding equal to the window size minus one.
module @jit_cumsum attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x4xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<2x4xf32>
    %1 = call @expected() : () -> tensor<2x4xf32>
    %2 = call @cumsum(%0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<2x4xf32>, tensor<2x4xf32>) -> ()
    return %2 : tensor<2x4xf32>
  }
  func.func private @inputs() -> (tensor<2x4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e-01, -1.500000e+00, 2.250000e+00, 8.000000e+00]]> : tensor<2x4xf32>
    return %cst : tensor<2x4xf32>
  }
  func.func private @expected() -> (tensor<2x4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, 3.000000e+00, 6.000000e+00, 1.000000e+01], [5.000000e-01, -1.000000e+00, 1.250000e+00, 9.250000e+00]]> : tensor<2x4xf32>
    return %cst : tensor<2x4xf32>
  }
  func.func private @cumsum(%arg0: tensor<2x4xf32> {mhlo.layout_mode = "default"}) -> tensor<2x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{padding = dense<[[0, 0], [3, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 4>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
}
