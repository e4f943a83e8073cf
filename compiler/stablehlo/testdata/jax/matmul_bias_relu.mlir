// Dense layer x @ w + b followed by relu (maximum with a broadcast zero); three inputs from a tuple.
module @jit_dense_relu attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x4xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:3 = call @inputs() : () -> (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>)
    %1 = call @expected() : () -> tensor<2x4xf32>
    %2 = call @dense_relu(%0#0, %0#1, %0#2) : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<2x4xf32>, tensor<2x4xf32>) -> ()
    return %2 : tensor<2x4xf32>
  }
  func.func private @inputs() -> (tensor<2x3xf32> {mhlo.layout_mode = "default"}, tensor<3x4xf32> {mhlo.layout_mode = "default"}, tensor<4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, -2.000000e+00, 5.000000e-01], [3.000000e+00, 0.000000e+00, -1.000000e+00]]> : tensor<2x3xf32>
    %cst_0 = stablehlo.constant dense<[[5.000000e-01, -1.000000e+00, 2.000000e+00, 0.000000e+00], [1.000000e+00, 2.500000e-01, -5.000000e-01, 1.500000e+00], [-2.000000e+00, 1.000000e+00, 0.000000e+00, 4.000000e+00]]> : tensor<3x4xf32>
    %cst_1 = stablehlo.constant dense<[2.500000e+00, 1.500000e+00, 1.000000e+00, -3.000000e+00]> : tensor<4xf32>
    return %cst, %cst_0, %cst_1 : tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>
  }
  func.func private @expected() -> (tensor<2x4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[0.000000e+00, 5.000000e-01, 4.000000e+00, 0.000000e+00], [6.000000e+00, 0.000000e+00, 7.000000e+00, 0.000000e+00]]> : tensor<2x4xf32>
    return %cst : tensor<2x4xf32>
  }
  func.func private @dense_relu(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<3x4xf32> {mhlo.layout_mode = "default"}, %arg2: tensor<4xf32> {mhlo.layout_mode = "default"}) -> tensor<2x4xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> loc(#loc4)
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32> loc(#loc5)
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<2x4xf32> loc(#loc6)
    %3 = stablehlo.add %0, %2 : tensor<2x4xf32> loc(#loc6)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %5 = stablehlo.maximum %3, %4 : tensor<2x4xf32> loc(#loc7)
    return %5 : tensor<2x4xf32>
  }
}
#loc = loc(unknown)
#loc1 = loc("/tmp/mlp.py":8:0)
#loc2 = loc("/tmp/mlp.py":9:0)
#loc3 = loc("/tmp/mlp.py":10:0)
#loc4 = loc("jit(dense_relu)/jit(main)/dot_general[dimension_numbers=(([1], [0]), ([], []))]"(#loc1))
#loc5 = loc("jit(dense_relu)/jit(main)/broadcast_in_dim[shape=(1, 4)]"(#loc2))
#loc6 = loc("jit(dense_relu)/jit(main)/add"(#loc2))
#loc7 = loc("jit(dense_relu)/jit(main)/max"(#loc3))
