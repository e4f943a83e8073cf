// jax.nn.sigmoid lowered to stablehlo.logistic; the inputs are a hex-encoded dense constant (little-endian f32 bytes).
module @jit_sigmoid attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<6xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<6xf32>
    %1 = call @expected() : () -> tensor<6xf32>
    %2 = call @sigmoid(%0) : (tensor<6xf32>) -> tensor<6xf32>
    stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<6xf32>, tensor<6xf32>) -> ()
    return %2 : tensor<6xf32>
  }
  func.func private @inputs() -> (tensor<6xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<"0x000000000000803F000080BF00002040000000BF00004040"> : tensor<6xf32>
    return %cst : tensor<6xf32>
  }
  func.func private @expected() -> (tensor<6xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[5.000000e-01, 7.310586e-01, 0.26894143, 9.241418e-01, 0.37754068, 0.95257413]> : tensor<6xf32>
    return %cst : tensor<6xf32>
  }
  func.func private @sigmoid(%arg0: tensor<6xf32> {mhlo.layout_mode = "default"}) -> tensor<6xf32> {
    %0 = stablehlo.logistic %arg0 : tensor<6xf32>
    return %0 : tensor<6xf32>
  }
}
