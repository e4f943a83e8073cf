// Mean softmax cross-entropy of 3x4 logits against integer labels: log_softmax, one-hot mask, full reduce to a scalar.
module @jit_cross_entropy attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<f32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<3x4xf32>, tensor<3xi32>)
    %1 = call @expected() : () -> tensor<f32>
    %2 = call @cross_entropy(%0#0, %0#1) : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<f32>
    stablehlo.custom_call @check.expect_almost_eq(%2, %1) {has_side_effect = true} : (tensor<f32>, tensor<f32>) -> ()
    return %2 : tensor<f32>
  }
  func.func private @inputs() -> (tensor<3x4xf32> {mhlo.layout_mode = "default"}, tensor<3xi32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[2.000000e+00, 1.000000e+00, 1.000000e-01, -1.000000e+00], [5.000000e-01, 5.000000e-01, 3.000000e+00, -2.000000e+00], [-1.000000e+00, 0.000000e+00, 1.000000e+00, 2.000000e+00]]> : tensor<3x4xf32>
    %c = stablehlo.constant dense<[0, 2, 1]> : tensor<3xi32>
    return %cst, %c : tensor<3x4xf32>, tensor<3xi32>
  }
  func.func private @expected() -> (tensor<f32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<1.0157608> : tensor<f32>
    return %cst : tensor<f32>
  }
  func.func private @cross_entropy(%arg0: tensor<3x4xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<3xi32> {mhlo.layout_mode = "default"}) -> tensor<f32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<3xf32>) -> tensor<3x4xf32>
    %2 = stablehlo.subtract %arg0, %1 : tensor<3x4xf32>
    %3 = stablehlo.exponential %2 : tensor<3x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
    %5 = stablehlo.log %4 : tensor<3xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<3xf32>) -> tensor<3x4xf32>
    %7 = stablehlo.subtract %2, %6 : tensor<3x4xf32>
    %8 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<3xi32>) -> tensor<3x4xi32>
    %9 = stablehlo.iota dim = 1 : tensor<3x4xi32>
    %10 = stablehlo.compare  EQ, %8, %9,  SIGNED : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi1>
    %11 = stablehlo.convert %10 : (tensor<3x4xi1>) -> tensor<3x4xf32>
    %12 = stablehlo.multiply %7, %11 : tensor<3x4xf32>
    %13 = stablehlo.reduce(%12 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
    %14 = stablehlo.negate %13 : tensor<f32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %15 = stablehlo.divide %14, %cst_1 : tensor<f32>
    return %15 : tensor<f32>
  }
}
