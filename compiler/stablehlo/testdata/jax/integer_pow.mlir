// lax.integer_pow for x**3, x**-2 (f32) and n**4 (i32), lowered to multiply chains and a reciprocal.
module @jit_integer_pow attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<4xf32> {jax.result_info = "[0]", mhlo.layout_mode = "default"}, tensor<4xf32> {jax.result_info = "[1]", mhlo.layout_mode = "default"}, tensor<4xi32> {jax.result_info = "[2]", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<4xf32>, tensor<4xi32>)
    %1:3 = call @expected() : () -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>)
    %2:3 = call @integer_pow(%0#0, %0#1) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>)
    stablehlo.custom_call @check.expect_eq(%2#0, %1#0) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    stablehlo.custom_call @check.expect_close(%2#1, %1#1) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%2#2, %1#2) {has_side_effect = true} : (tensor<4xi32>, tensor<4xi32>) -> ()
    return %2#0, %2#1, %2#2 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
  }
  func.func private @inputs() -> (tensor<4xf32> {mhlo.layout_mode = "default"}, tensor<4xi32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[1.500000e+00, -2.000000e+00, 5.000000e-01, 3.000000e+00]> : tensor<4xf32>
    %c = stablehlo.constant dense<[2, -3, 7, -1]> : tensor<4xi32>
    return %cst, %c : tensor<4xf32>, tensor<4xi32>
  }
  func.func private @expected() -> (tensor<4xf32> {mhlo.layout_mode = "default"}, tensor<4xf32> {mhlo.layout_mode = "default"}, tensor<4xi32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[3.375000e+00, -8.000000e+00, 1.250000e-01, 2.700000e+01]> : tensor<4xf32>
    %cst_0 = stablehlo.constant dense<[0.44444445, 2.500000e-01, 4.000000e+00, 0.11111111]> : tensor<4xf32>
    %c = stablehlo.constant dense<[16, 81, 2401, 1]> : tensor<4xi32>
    return %cst, %cst_0, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
  }
  func.func private @integer_pow(%arg0: tensor<4xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<4xi32> {mhlo.layout_mode = "default"}) -> (tensor<4xf32> {mhlo.layout_mode = "default"}, tensor<4xf32> {mhlo.layout_mode = "default"}, tensor<4xi32> {mhlo.layout_mode = "default"}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<4xf32>
    %2 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %4 = stablehlo.divide %3, %2 : tensor<4xf32>
    %5 = stablehlo.multiply %arg1, %arg1 : tensor<4xi32>
    %6 = stablehlo.multiply %5, %5 : tensor<4xi32>
    return %1, %4, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
  }
}
