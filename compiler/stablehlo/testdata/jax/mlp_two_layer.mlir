// Two dense layers with a tanh in between (five inputs: x, w1, b1, w2, b2); compared with expect_almost_eq.
module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x2xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:5 = call @inputs() : () -> (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<2xf32>)
    %1 = call @expected() : () -> tensor<2x2xf32>
    %2 = call @mlp(%0#0, %0#1, %0#2, %0#3, %0#4) : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    stablehlo.custom_call @check.expect_almost_eq(%2, %1) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    return %2 : tensor<2x2xf32>
  }
  func.func private @inputs() -> (tensor<2x3xf32> {mhlo.layout_mode = "default"}, tensor<3x4xf32> {mhlo.layout_mode = "default"}, tensor<4xf32> {mhlo.layout_mode = "default"}, tensor<4x2xf32> {mhlo.layout_mode = "default"}, tensor<2xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[5.000000e-01, -1.000000e+00, 2.000000e+00], [1.500000e+00, 0.000000e+00, -5.000000e-01]]> : tensor<2x3xf32>
    %cst_0 = stablehlo.constant dense<[[1.000000e-01, -2.000000e-01, 3.000000e-01, 4.000000e-01], [5.000000e-01, 6.000000e-01, -7.000000e-01, 8.000000e-01], [-9.000000e-01, 1.000000e+00, 2.000000e-01, -3.000000e-01]]> : tensor<3x4xf32>
    %cst_1 = stablehlo.constant dense<[0.000000e+00, 1.000000e-01, -1.000000e-01, 2.000000e-01]> : tensor<4xf32>
    %cst_2 = stablehlo.constant dense<[[1.000000e+00, -1.000000e+00], [5.000000e-01, 5.000000e-01], [-5.000000e-01, 2.000000e+00], [2.500000e-01, -7.500000e-01]]> : tensor<4x2xf32>
    %cst_3 = stablehlo.constant dense<[5.000000e-02, -5.000000e-02]> : tensor<2xf32>
    return %cst, %cst_0, %cst_1, %cst_2, %cst_3 : tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<2xf32>
  }
  func.func private @expected() -> (tensor<2x2xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[-1.0846258, 3.5774057], [0.34735212, -9.542334e-01]]> : tensor<2x2xf32>
    return %cst : tensor<2x2xf32>
  }
  func.func private @mlp(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<3x4xf32> {mhlo.layout_mode = "default"}, %arg2: tensor<4xf32> {mhlo.layout_mode = "default"}, %arg3: tensor<4x2xf32> {mhlo.layout_mode = "default"}, %arg4: tensor<2xf32> {mhlo.layout_mode = "default"}) -> tensor<2x2xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
    %2 = stablehlo.add %0, %1 : tensor<2x4xf32>
    %3 = stablehlo.tanh %2 : tensor<2x4xf32>
    %4 = stablehlo.dot_general %3, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
    %5 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<2xf32>) -> tensor<2x2xf32>
    %6 = stablehlo.add %4, %5 : tensor<2x2xf32>
    return %6 : tensor<2x2xf32>
  }
}
