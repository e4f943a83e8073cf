// Matrix product in bfloat16: both f32 operands are converted to bf16 (1.01 rounds to 1.0078125), multiplied, and the product converted back to f32.
module @jit_bf16_matmul attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x2xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<2x3xf32>, tensor<3x2xf32>)
    %1 = call @expected() : () -> tensor<2x2xf32>
    %2 = call @bf16_matmul(%0#0, %0#1) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
    stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    return %2 : tensor<2x2xf32>
  }
  func.func private @inputs() -> (tensor<2x3xf32> {mhlo.layout_mode = "default"}, tensor<3x2xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.010000e+00, 2.000000e+00, -5.000000e-01], [2.500000e-01, 3.000000e+00, 1.000000e+00]]> : tensor<2x3xf32>
    %cst_0 = stablehlo.constant dense<[[2.000000e+00, 0.000000e+00], [5.000000e-01, -1.000000e+00], [4.000000e+00, 7.500000e-01]]> : tensor<3x2xf32>
    return %cst, %cst_0 : tensor<2x3xf32>, tensor<3x2xf32>
  }
  func.func private @expected() -> (tensor<2x2xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.015625e+00, -2.375000e+00], [6.000000e+00, -2.250000e+00]]> : tensor<2x2xf32>
    return %cst : tensor<2x2xf32>
  }
  func.func private @bf16_matmul(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<3x2xf32> {mhlo.layout_mode = "default"}) -> tensor<2x2xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xbf16>
    %1 = stablehlo.convert %arg1 : (tensor<3x2xf32>) -> tensor<3x2xbf16>
    %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xbf16>, tensor<3x2xbf16>) -> tensor<2x2xbf16>
    %3 = stablehlo.convert %2 : (tensor<2x2xbf16>) -> tensor<2x2xf32>
    return %3 : tensor<2x2xf32>
  }
}
