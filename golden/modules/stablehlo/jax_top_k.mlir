// lax.top_k with k = 3 along the last axis of a 2x5 array, returning values and indices.
module @jit_top_k attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x3xf32> {jax.result_info = "[0]", mhlo.layout_mode = "default"}, tensor<2x3xi32> {jax.result_info = "[1]", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<2x5xf32>
    %1:2 = call @expected() : () -> (tensor<2x3xf32>, tensor<2x3xi32>)
    %2:2 = call @top_k(%0) : (tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
    stablehlo.custom_call @check.expect_eq(%2#0, %1#0) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%2#1, %1#1) {has_side_effect = true} : (tensor<2x3xi32>, tensor<2x3xi32>) -> ()
    return %2#0, %2#1 : tensor<2x3xf32>, tensor<2x3xi32>
  }
  func.func private @inputs() -> (tensor<2x5xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[5.000000e-01, 9.000000e+00, -3.000000e+00, 4.000000e+00, 7.500000e+00], [-1.000000e+00, -8.000000e+00, 2.000000e+00, 6.000000e+00, 0.000000e+00]]> : tensor<2x5xf32>
    return %cst : tensor<2x5xf32>
  }
  func.func private @expected() -> (tensor<2x3xf32> {mhlo.layout_mode = "default"}, tensor<2x3xi32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[9.000000e+00, 7.500000e+00, 4.000000e+00], [6.000000e+00, 2.000000e+00, 0.000000e+00]]> : tensor<2x3xf32>
    %c = stablehlo.constant dense<[[1, 4, 3], [3, 2, 4]]> : tensor<2x3xi32>
    return %cst, %c : tensor<2x3xf32>, tensor<2x3xi32>
  }
  func.func private @top_k(%arg0: tensor<2x5xf32> {mhlo.layout_mode = "default"}) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
    %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<2x5xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
    return %values, %indices : tensor<2x3xf32>, tensor<2x3xi32>
  }
}
