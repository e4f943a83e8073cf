// jnp.einsum('bij,bjk->bki', a, b): a batched dot_general followed by a transpose, written inline in @main.
module @jit_einsum attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x4x2xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<2x2x3xf32>, tensor<2x3x4xf32>)
    %1 = call @expected() : () -> tensor<2x4x2xf32>
    %2 = stablehlo.dot_general %0#0, %0#1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x3xf32>, tensor<2x3x4xf32>) -> tensor<2x2x4xf32>
    %3 = stablehlo.transpose %2, dims = [0, 2, 1] : (tensor<2x2x4xf32>) -> tensor<2x4x2xf32>
    stablehlo.custom_call @check.expect_eq(%3, %1) {has_side_effect = true} : (tensor<2x4x2xf32>, tensor<2x4x2xf32>) -> ()
    return %3 : tensor<2x4x2xf32>
  }
  func.func private @inputs() -> (tensor<2x2x3xf32> {mhlo.layout_mode = "default"}, tensor<2x3x4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[[1.000000e+00, 2.000000e+00, 0.000000e+00], [-1.000000e+00, 5.000000e-01, 3.000000e+00]], [[2.000000e+00, -2.000000e+00, 1.000000e+00], [0.000000e+00, 4.000000e+00, -5.000000e-01]]]> : tensor<2x2x3xf32>
    %cst_0 = stablehlo.constant dense<[[[-3.000000e+00, 2.000000e+00, 0.000000e+00, -2.000000e+00], [3.000000e+00, 1.000000e+00, -1.000000e+00, -3.000000e+00], [2.000000e+00, 0.000000e+00, -2.000000e+00, 3.000000e+00]], [[1.000000e+00, -1.000000e+00, -3.000000e+00, 2.000000e+00], [0.000000e+00, -2.000000e+00, 3.000000e+00, 1.000000e+00], [-1.000000e+00, -3.000000e+00, 2.000000e+00, 0.000000e+00]]]> : tensor<2x3x4xf32>
    return %cst, %cst_0 : tensor<2x2x3xf32>, tensor<2x3x4xf32>
  }
  func.func private @expected() -> (tensor<2x4x2xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[[3.000000e+00, 1.050000e+01], [4.000000e+00, -1.500000e+00], [-2.000000e+00, -6.500000e+00], [-8.000000e+00, 9.500000e+00]], [[1.000000e+00, 5.000000e-01], [-1.000000e+00, -6.500000e+00], [-1.000000e+01, 1.100000e+01], [2.000000e+00, 4.000000e+00]]]> : tensor<2x4x2xf32>
    return %cst : tensor<2x4x2xf32>
  }
}
