// jnp.pad(jnp.concatenate([a, b]), (2, 1)) and its jnp.flip: concatenate, pad with a zero, reverse.
module @jit_concat_pad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<8xf32> {jax.result_info = "[0]", mhlo.layout_mode = "default"}, tensor<8xf32> {jax.result_info = "[1]", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<3xf32>, tensor<2xf32>)
    %1:2 = call @expected() : () -> (tensor<8xf32>, tensor<8xf32>)
    %2:2 = call @concat_pad(%0#0, %0#1) : (tensor<3xf32>, tensor<2xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    stablehlo.custom_call @check.expect_eq(%2#0, %1#0) {has_side_effect = true} : (tensor<8xf32>, tensor<8xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%2#1, %1#1) {has_side_effect = true} : (tensor<8xf32>, tensor<8xf32>) -> ()
    return %2#0, %2#1 : tensor<8xf32>, tensor<8xf32>
  }
  func.func private @inputs() -> (tensor<3xf32> {mhlo.layout_mode = "default"}, tensor<2xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
    %cst_0 = stablehlo.constant dense<[4.000000e+00, 5.000000e+00]> : tensor<2xf32>
    return %cst, %cst_0 : tensor<3xf32>, tensor<2xf32>
  }
  func.func private @expected() -> (tensor<8xf32> {mhlo.layout_mode = "default"}, tensor<8xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[0.000000e+00, 0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 0.000000e+00]> : tensor<8xf32>
    %cst_0 = stablehlo.constant dense<[0.000000e+00, 5.000000e+00, 4.000000e+00, 3.000000e+00, 2.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<8xf32>
    return %cst, %cst_0 : tensor<8xf32>, tensor<8xf32>
  }
  func.func private @concat_pad(%arg0: tensor<3xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<2xf32> {mhlo.layout_mode = "default"}) -> (tensor<8xf32>, tensor<8xf32>) {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<3xf32>, tensor<2xf32>) -> tensor<5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.pad %0, %cst, low = [2], high = [1], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.reverse %1, dims = [0] : tensor<8xf32>
    return %1, %2 : tensor<8xf32>, tensor<8xf32>
  }
}
