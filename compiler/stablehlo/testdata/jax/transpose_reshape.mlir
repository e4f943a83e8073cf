// jnp.swapaxes(x, 0, 1).reshape(3, 4) on an i32 array: a transpose followed by a row-major reshape.
module @jit_swapaxes_reshape attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3x4xi32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<2x3x2xi32>
    %1 = call @expected() : () -> tensor<3x4xi32>
    %2 = call @swapaxes_reshape(%0) : (tensor<2x3x2xi32>) -> tensor<3x4xi32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<3x4xi32>, tensor<3x4xi32>) -> ()
    return %2 : tensor<3x4xi32>
  }
  func.func private @inputs() -> (tensor<2x3x2xi32> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : tensor<2x3x2xi32>
    return %c : tensor<2x3x2xi32>
  }
  func.func private @expected() -> (tensor<3x4xi32> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<[[1, 2, 7, 8], [3, 4, 9, 10], [5, 6, 11, 12]]> : tensor<3x4xi32>
    return %c : tensor<3x4xi32>
  }
  func.func private @swapaxes_reshape(%arg0: tensor<2x3x2xi32> {mhlo.layout_mode = "default"}) -> tensor<3x4xi32> {
    %0 = stablehlo.transpose %arg0, dims = [1, 0, 2] : (tensor<2x3x2xi32>) -> tensor<3x2x2xi32>
    %1 = stablehlo.reshape %0 : (tensor<3x2x2xi32>) -> tensor<3x4xi32>
    return %1 : tensor<3x4xi32>
  }
}
