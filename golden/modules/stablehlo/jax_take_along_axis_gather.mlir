// jnp.take_along_axis on axis 1 with a negative index: wrap negatives, pair with a row iota, gather single elements.
module @jit_take_along_axis attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3x2xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<3x4xf32>, tensor<3x2xi32>)
    %1 = call @expected() : () -> tensor<3x2xf32>
    %2 = call @take_along_axis(%0#0, %0#1) : (tensor<3x4xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<3x2xf32>, tensor<3x2xf32>) -> ()
    return %2 : tensor<3x2xf32>
  }
  func.func private @inputs() -> (tensor<3x4xf32> {mhlo.layout_mode = "default"}, tensor<3x2xi32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+01, 1.100000e+01, 1.200000e+01, 1.300000e+01], [2.000000e+01, 2.100000e+01, 2.200000e+01, 2.300000e+01], [3.000000e+01, 3.100000e+01, 3.200000e+01, 3.300000e+01]]> : tensor<3x4xf32>
    %c = stablehlo.constant dense<[[3, 0], [-1, 1], [2, 2]]> : tensor<3x2xi32>
    return %cst, %c : tensor<3x4xf32>, tensor<3x2xi32>
  }
  func.func private @expected() -> (tensor<3x2xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.300000e+01, 1.000000e+01], [2.300000e+01, 2.100000e+01], [3.200000e+01, 3.200000e+01]]> : tensor<3x2xf32>
    return %cst : tensor<3x2xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<3x4xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<3x2xi32> {mhlo.layout_mode = "default"}) -> tensor<3x2xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3x2xi32>
    %1 = stablehlo.compare  LT, %arg1, %0,  SIGNED : (tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi1>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3x2xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<3x2xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<3x2xi1>, tensor<3x2xi32>
    %5 = stablehlo.reshape %4 : (tensor<3x2xi32>) -> tensor<3x2x1xi32>
    %6 = stablehlo.iota dim = 0 : tensor<3x2x1xi32>
    %7 = stablehlo.concatenate %6, %5, dim = 2 : (tensor<3x2x1xi32>, tensor<3x2x1xi32>) -> tensor<3x2x2xi32>
    %8 = "stablehlo.gather"(%arg0, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<3x4xf32>, tensor<3x2x2xi32>) -> tensor<3x2xf32>
    return %8 : tensor<3x2xf32>
  }
}
