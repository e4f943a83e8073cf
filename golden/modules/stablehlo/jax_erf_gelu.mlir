// jax.nn.gelu(x, approximate=False) = x * (1 + erf(x / sqrt(2))) / 2, using chlo.erf.
module @jit_gelu attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<8xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<8xf32>
    %1 = call @expected() : () -> tensor<8xf32>
    %2 = call @gelu(%0) : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.custom_call @check.expect_almost_eq(%2, %1) {has_side_effect = true} : (tensor<8xf32>, tensor<8xf32>) -> ()
    return %2 : tensor<8xf32>
  }
  func.func private @inputs() -> (tensor<8xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[-2.000000e+00, -1.000000e+00, -5.000000e-01, 0.000000e+00, 5.000000e-01, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<8xf32>
    return %cst : tensor<8xf32>
  }
  func.func private @expected() -> (tensor<8xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[-0.045500264, -0.15865526, -0.15426877, 0.000000e+00, 0.34573123, 8.413448e-01, 1.9544997, 2.9959502]> : tensor<8xf32>
    return %cst : tensor<8xf32>
  }
  func.func private @gelu(%arg0: tensor<8xf32> {mhlo.layout_mode = "default"}) -> tensor<8xf32> {
    %cst = stablehlo.constant dense<1.41421354> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.divide %arg0, %0 : tensor<8xf32>
    %2 = chlo.erf %1 : tensor<8xf32> -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %4 = stablehlo.add %3, %2 : tensor<8xf32>
    %5 = stablehlo.multiply %arg0, %4 : tensor<8xf32>
    %cst_1 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %7 = stablehlo.multiply %5, %6 : tensor<8xf32>
    return %7 : tensor<8xf32>
  }
}
