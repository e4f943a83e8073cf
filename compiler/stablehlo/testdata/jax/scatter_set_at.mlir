// x.at[rows].set(values): a scatter whose update computation returns the update, replacing whole rows.
module @jit_set_at attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<4x3xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:3 = call @inputs() : () -> (tensor<4x3xf32>, tensor<2xi32>, tensor<2x3xf32>)
    %1 = call @expected() : () -> tensor<4x3xf32>
    %2 = call @set_at(%0#0, %0#1, %0#2) : (tensor<4x3xf32>, tensor<2xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<4x3xf32>, tensor<4x3xf32>) -> ()
    return %2 : tensor<4x3xf32>
  }
  func.func private @inputs() -> (tensor<4x3xf32> {mhlo.layout_mode = "default"}, tensor<2xi32> {mhlo.layout_mode = "default"}, tensor<2x3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00], [7.000000e+00, 8.000000e+00, 9.000000e+00], [1.000000e+01, 1.100000e+01, 1.200000e+01]]> : tensor<4x3xf32>
    %c = stablehlo.constant dense<[2, 0]> : tensor<2xi32>
    %cst_0 = stablehlo.constant dense<[[-1.000000e+00, -2.000000e+00, -3.000000e+00], [1.000000e+01, 2.000000e+01, 3.000000e+01]]> : tensor<2x3xf32>
    return %cst, %c, %cst_0 : tensor<4x3xf32>, tensor<2xi32>, tensor<2x3xf32>
  }
  func.func private @expected() -> (tensor<4x3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+01, 2.000000e+01, 3.000000e+01], [4.000000e+00, 5.000000e+00, 6.000000e+00], [-1.000000e+00, -2.000000e+00, -3.000000e+00], [1.000000e+01, 1.100000e+01, 1.200000e+01]]> : tensor<4x3xf32>
    return %cst : tensor<4x3xf32>
  }
  func.func private @set_at(%arg0: tensor<4x3xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<2xi32> {mhlo.layout_mode = "default"}, %arg2: tensor<2x3xf32> {mhlo.layout_mode = "default"}) -> tensor<4x3xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %1 = "stablehlo.scatter"(%arg0, %0, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      stablehlo.return %arg4 : tensor<f32>
    }) : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    return %1 : tensor<4x3xf32>
  }
}
