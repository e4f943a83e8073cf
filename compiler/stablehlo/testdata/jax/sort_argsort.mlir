// jnp.sort and jnp.argsort (stable) of a vector with a repeated key: a two-operand sort of the values and an iota.
module @jit_argsort attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<6xf32> {jax.result_info = "[0]", mhlo.layout_mode = "default"}, tensor<6xi32> {jax.result_info = "[1]", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<6xf32>
    %1:2 = call @expected() : () -> (tensor<6xf32>, tensor<6xi32>)
    %2:2 = call @argsort(%0) : (tensor<6xf32>) -> (tensor<6xf32>, tensor<6xi32>)
    stablehlo.custom_call @check.expect_eq(%2#0, %1#0) {has_side_effect = true} : (tensor<6xf32>, tensor<6xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%2#1, %1#1) {has_side_effect = true} : (tensor<6xi32>, tensor<6xi32>) -> ()
    return %2#0, %2#1 : tensor<6xf32>, tensor<6xi32>
  }
  func.func private @inputs() -> (tensor<6xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[3.000000e+00, -1.000000e+00, 2.000000e+00, -1.000000e+00, 5.000000e-01, 7.000000e+00]> : tensor<6xf32>
    return %cst : tensor<6xf32>
  }
  func.func private @expected() -> (tensor<6xf32> {mhlo.layout_mode = "default"}, tensor<6xi32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[-1.000000e+00, -1.000000e+00, 5.000000e-01, 2.000000e+00, 3.000000e+00, 7.000000e+00]> : tensor<6xf32>
    %c = stablehlo.constant dense<[1, 3, 4, 2, 0, 5]> : tensor<6xi32>
    return %cst, %c : tensor<6xf32>, tensor<6xi32>
  }
  func.func private @argsort(%arg0: tensor<6xf32> {mhlo.layout_mode = "default"}) -> (tensor<6xf32>, tensor<6xi32>) {
    %0 = stablehlo.iota dim = 0 : tensor<6xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %2 = stablehlo.compare  LT, %arg1, %arg2,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }) : (tensor<6xf32>, tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>)
    return %1#0, %1#1 : tensor<6xf32>, tensor<6xi32>
  }
}
