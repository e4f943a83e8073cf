// lax.fori_loop(0, 5, lambda i, x: x * 2 + i, x): a while loop carrying the counter and a 3-vector.
module @jit_fori_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<3xf32>
    %1 = call @expected() : () -> tensor<3xf32>
    %2 = call @fori_loop(%0) : (tensor<3xf32>) -> tensor<3xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
    return %2 : tensor<3xf32>
  }
  func.func private @inputs() -> (tensor<3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[1.000000e+00, -5.000000e-01, 2.500000e-01]> : tensor<3xf32>
    return %cst : tensor<3xf32>
  }
  func.func private @expected() -> (tensor<3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[5.800000e+01, 1.000000e+01, 3.400000e+01]> : tensor<3xf32>
    return %cst : tensor<3xf32>
  }
  func.func private @fori_loop(%arg0: tensor<3xf32> {mhlo.layout_mode = "default"}) -> tensor<3xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<3xf32>
     cond {
      %c_1 = stablehlo.constant dense<5> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %2 = stablehlo.multiply %iterArg_0, %1 : tensor<3xf32>
      %3 = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>
      %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %5 = stablehlo.add %2, %4 : tensor<3xf32>
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %6 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      stablehlo.return %6, %5 : tensor<i32>, tensor<3xf32>
    }
    return %0#1 : tensor<3xf32>
  }
}
