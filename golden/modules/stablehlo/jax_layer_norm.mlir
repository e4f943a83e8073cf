// Layer normalization over the last axis (mean, variance, rsqrt(var + 1e-5)) with scale and offset; compared with expect_almost_eq.
module @jit_layer_norm attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x4xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:3 = call @inputs() : () -> (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)
    %1 = call @expected() : () -> tensor<2x4xf32>
    %2 = call @layer_norm(%0#0, %0#1, %0#2) : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    stablehlo.custom_call @check.expect_almost_eq(%2, %1) {has_side_effect = true} : (tensor<2x4xf32>, tensor<2x4xf32>) -> ()
    return %2 : tensor<2x4xf32>
  }
  func.func private @inputs() -> (tensor<2x4xf32> {mhlo.layout_mode = "default"}, tensor<4xf32> {mhlo.layout_mode = "default"}, tensor<4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [-1.000000e+00, 5.000000e-01, 2.000000e+00, 6.500000e+00]]> : tensor<2x4xf32>
    %cst_0 = stablehlo.constant dense<[1.000000e+00, 5.000000e-01, 2.000000e+00, -1.000000e+00]> : tensor<4xf32>
    %cst_1 = stablehlo.constant dense<[0.000000e+00, 2.500000e-01, -5.000000e-01, 1.000000e+00]> : tensor<4xf32>
    return %cst, %cst_0, %cst_1 : tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  func.func private @expected() -> (tensor<2x4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[-1.3416355, 0.026394097, 3.944236e-01, -3.416354e-01], [-1.0690442, -0.017261073, -5.000000e-01, -6.035664e-01]]> : tensor<2x4xf32>
    return %cst : tensor<2x4xf32>
  }
  func.func private @layer_norm(%arg0: tensor<2x4xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<4xf32> {mhlo.layout_mode = "default"}, %arg2: tensor<4xf32> {mhlo.layout_mode = "default"}) -> tensor<2x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
    %cst_0 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.divide %0, %1 : tensor<2xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xf32>) -> tensor<2x4xf32>
    %4 = stablehlo.subtract %arg0, %3 : tensor<2x4xf32>
    %5 = stablehlo.multiply %4, %4 : tensor<2x4xf32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
    %7 = stablehlo.divide %6, %1 : tensor<2xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %9 = stablehlo.add %7, %8 : tensor<2xf32>
    %10 = stablehlo.rsqrt %9 : tensor<2xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<2xf32>) -> tensor<2x4xf32>
    %12 = stablehlo.multiply %4, %11 : tensor<2x4xf32>
    %13 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
    %14 = stablehlo.multiply %12, %13 : tensor<2x4xf32>
    %15 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
    %16 = stablehlo.add %14, %15 : tensor<2x4xf32>
    return %16 : tensor<2x4xf32>
  }
}
