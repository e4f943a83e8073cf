// Cumulative product written as a fori_loop: each step reads x[i-1] and x[i] with dynamic_slice and writes the product back with dynamic_update_slice.
module @jit_cumprod attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<5xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<5xf32>
    %1 = call @expected() : () -> tensor<5xf32>
    %2 = call @cumprod(%0) : (tensor<5xf32>) -> tensor<5xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<5xf32>, tensor<5xf32>) -> ()
    return %2 : tensor<5xf32>
  }
  func.func private @inputs() -> (tensor<5xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[2.000000e+00, 5.000000e-01, -3.000000e+00, 1.500000e+00, 4.000000e+00]> : tensor<5xf32>
    return %cst : tensor<5xf32>
  }
  func.func private @expected() -> (tensor<5xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[2.000000e+00, 1.000000e+00, -3.000000e+00, -4.500000e+00, -1.800000e+01]> : tensor<5xf32>
    return %cst : tensor<5xf32>
  }
  func.func private @cumprod(%arg0: tensor<5xf32> {mhlo.layout_mode = "default"}) -> tensor<5xf32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<5xf32>
     cond {
      %c_1 = stablehlo.constant dense<5> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.subtract %iterArg, %c_1 : tensor<i32>
      %2 = stablehlo.dynamic_slice %iterArg_0, %1, sizes = [1] : (tensor<5xf32>, tensor<i32>) -> tensor<1xf32>
      %3 = stablehlo.dynamic_slice %iterArg_0, %iterArg, sizes = [1] : (tensor<5xf32>, tensor<i32>) -> tensor<1xf32>
      %4 = stablehlo.multiply %2, %3 : tensor<1xf32>
      %5 = stablehlo.dynamic_update_slice %iterArg_0, %4, %iterArg : (tensor<5xf32>, tensor<1xf32>, tensor<i32>) -> tensor<5xf32>
      %6 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      stablehlo.return %6, %5 : tensor<i32>, tensor<5xf32>
    }
    return %0#1 : tensor<5xf32>
  }
}
