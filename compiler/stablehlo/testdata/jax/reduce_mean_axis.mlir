// jnp.mean(x, axis=0) on a 3x4 array: a reduce with an explicit add reducer region, then divide by the broadcast count.
module @jit_mean attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<4xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<3x4xf32>
    %1 = call @expected() : () -> tensor<4xf32>
    %2 = call @mean(%0) : (tensor<3x4xf32>) -> tensor<4xf32>
    stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    return %2 : tensor<4xf32>
  }
  func.func private @inputs() -> (tensor<3x4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e+00, -6.000000e+00, 7.000000e+00, 8.000000e+00], [5.000000e-01, 1.000000e+00, -2.000000e+00, 3.000000e+00]]> : tensor<3x4xf32>
    return %cst : tensor<3x4xf32>
  }
  func.func private @expected() -> (tensor<4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[2.1666667, -1.000000e+00, 2.6666667, 5.000000e+00]> : tensor<4xf32>
    return %cst : tensor<4xf32>
  }
  func.func private @mean(%arg0: tensor<3x4xf32> {mhlo.layout_mode = "default"}) -> tensor<4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<4xf32>
     reducer(%arg1: tensor<f32>, %arg2: tensor<f32>)  {
      %3 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %3 : tensor<f32>
    }
    %cst_0 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.divide %0, %1 : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}
