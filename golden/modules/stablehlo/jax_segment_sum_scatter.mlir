// jax.ops.segment_sum with 4 segments (one empty): scatter-add of the data into zeros at the segment ids.
module @jit_segment_sum attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<4xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<6xf32>, tensor<6xi32>)
    %1 = call @expected() : () -> tensor<4xf32>
    %2 = call @segment_sum(%0#0, %0#1) : (tensor<6xf32>, tensor<6xi32>) -> tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    return %2 : tensor<4xf32>
  }
  func.func private @inputs() -> (tensor<6xf32> {mhlo.layout_mode = "default"}, tensor<6xi32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.500000e+00]> : tensor<6xf32>
    %c = stablehlo.constant dense<[0, 2, 0, 3, 3, 2]> : tensor<6xi32>
    return %cst, %c : tensor<6xf32>, tensor<6xi32>
  }
  func.func private @expected() -> (tensor<4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[4.000000e+00, 0.000000e+00, 8.500000e+00, 9.000000e+00]> : tensor<4xf32>
    return %cst : tensor<4xf32>
  }
  func.func private @segment_sum(%arg0: tensor<6xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<6xi32> {mhlo.layout_mode = "default"}) -> tensor<4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %2 = "stablehlo.scatter"(%0, %1, %arg0) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %3 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %3 : tensor<f32>
    }) : (tensor<4xf32>, tensor<6x1xi32>, tensor<6xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}
