// jax.nn.leaky_relu(x, 0.01) = where(x >= 0, x, 0.01 * x): compare, multiply by a broadcast constant, select.
module @jit_leaky_relu attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<6xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<6xf32>
    %1 = call @expected() : () -> tensor<6xf32>
    %2 = call @leaky_relu(%0) : (tensor<6xf32>) -> tensor<6xf32>
    stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<6xf32>, tensor<6xf32>) -> ()
    return %2 : tensor<6xf32>
  }
  func.func private @inputs() -> (tensor<6xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[-2.000000e+00, -5.000000e-01, 0.000000e+00, 5.000000e-01, 3.000000e+00, -1.000000e+02]> : tensor<6xf32>
    return %cst : tensor<6xf32>
  }
  func.func private @expected() -> (tensor<6xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[-2.000000e-02, -5.000000e-03, 0.000000e+00, 5.000000e-01, 3.000000e+00, -1.000000e+00]> : tensor<6xf32>
    return %cst : tensor<6xf32>
  }
  func.func private @leaky_relu(%arg0: tensor<6xf32> {mhlo.layout_mode = "default"}) -> tensor<6xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %1 = stablehlo.compare  GE, %arg0, %0,  FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %cst_0 = stablehlo.constant dense<9.99999977E-3> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %3 = stablehlo.multiply %2, %arg0 : tensor<6xf32>
    %4 = stablehlo.select %1, %arg0, %3 : tensor<6xi1>, tensor<6xf32>
    return %4 : tensor<6xf32>
  }
}
