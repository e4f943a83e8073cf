// jax.nn.one_hot(labels, 3) with out-of-range labels (3 and -1) giving all-zero rows: compare against an iota, convert i1 to f32.
module @jit_one_hot attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<5x3xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<5xi32>
    %1 = call @expected() : () -> tensor<5x3xf32>
    %2 = call @one_hot(%0) : (tensor<5xi32>) -> tensor<5x3xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<5x3xf32>, tensor<5x3xf32>) -> ()
    return %2 : tensor<5x3xf32>
  }
  func.func private @inputs() -> (tensor<5xi32> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<[0, 2, 1, 3, -1]> : tensor<5xi32>
    return %c : tensor<5xi32>
  }
  func.func private @expected() -> (tensor<5x3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<5x3xf32>
    return %cst : tensor<5x3xf32>
  }
  func.func private @one_hot(%arg0: tensor<5xi32> {mhlo.layout_mode = "default"}) -> tensor<5x3xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x3xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<5x1xi32>) -> tensor<5x3xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x3xi32>) -> tensor<5x3xi32>
    %4 = stablehlo.compare  EQ, %2, %3,  SIGNED : (tensor<5x3xi32>, tensor<5x3xi32>) -> tensor<5x3xi1>
    %5 = stablehlo.convert %4 : (tensor<5x3xi1>) -> tensor<5x3xf32>
    return %5 : tensor<5x3xf32>
  }
}
