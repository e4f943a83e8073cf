// jnp.floor_divide and jnp.mod on i32 (Python rounding toward -inf) built from truncating divide/remainder, sign, compare and select.
module @jit_floor_divide_mod attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<7xi32> {jax.result_info = "[0]", mhlo.layout_mode = "default"}, tensor<7xi32> {jax.result_info = "[1]", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<7xi32>, tensor<7xi32>)
    %1:2 = call @expected() : () -> (tensor<7xi32>, tensor<7xi32>)
    %2:2 = call @floor_divide_mod(%0#0, %0#1) : (tensor<7xi32>, tensor<7xi32>) -> (tensor<7xi32>, tensor<7xi32>)
    stablehlo.custom_call @check.expect_eq(%2#0, %1#0) {has_side_effect = true} : (tensor<7xi32>, tensor<7xi32>) -> ()
    stablehlo.custom_call @check.expect_eq(%2#1, %1#1) {has_side_effect = true} : (tensor<7xi32>, tensor<7xi32>) -> ()
    return %2#0, %2#1 : tensor<7xi32>, tensor<7xi32>
  }
  func.func private @inputs() -> (tensor<7xi32> {mhlo.layout_mode = "default"}, tensor<7xi32> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<[7, -7, 7, -7, 0, 9, -1]> : tensor<7xi32>
    %c_0 = stablehlo.constant dense<[2, 2, -2, -2, 3, -3, 5]> : tensor<7xi32>
    return %c, %c_0 : tensor<7xi32>, tensor<7xi32>
  }
  func.func private @expected() -> (tensor<7xi32> {mhlo.layout_mode = "default"}, tensor<7xi32> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<[3, -4, -4, 3, 0, -3, -1]> : tensor<7xi32>
    %c_0 = stablehlo.constant dense<[1, 1, -1, -1, 0, 0, 4]> : tensor<7xi32>
    return %c, %c_0 : tensor<7xi32>, tensor<7xi32>
  }
  func.func private @floor_divide_mod(%arg0: tensor<7xi32> {mhlo.layout_mode = "default"}, %arg1: tensor<7xi32> {mhlo.layout_mode = "default"}) -> (tensor<7xi32>, tensor<7xi32>) {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<7xi32>
    %1 = stablehlo.sign %arg0 : tensor<7xi32>
    %2 = stablehlo.sign %arg1 : tensor<7xi32>
    %3 = stablehlo.compare  NE, %1, %2,  SIGNED : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<7xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<7xi32>
    %6 = stablehlo.compare  NE, %4, %5,  SIGNED : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi1>
    %7 = stablehlo.and %3, %6 : tensor<7xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<7xi32>
    %9 = stablehlo.subtract %0, %8 : tensor<7xi32>
    %10 = stablehlo.select %7, %9, %0 : tensor<7xi1>, tensor<7xi32>
    %11 = stablehlo.sign %4 : tensor<7xi32>
    %12 = stablehlo.compare  NE, %11, %2,  SIGNED : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi1>
    %13 = stablehlo.and %6, %12 : tensor<7xi1>
    %14 = stablehlo.add %4, %arg1 : tensor<7xi32>
    %15 = stablehlo.select %13, %14, %4 : tensor<7xi1>, tensor<7xi32>
    return %10, %15 : tensor<7xi32>, tensor<7xi32>
  }
}
