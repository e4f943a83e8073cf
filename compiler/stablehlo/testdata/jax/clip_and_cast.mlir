// jnp.round(jnp.clip(x, 0, 255)).astype(jnp.uint8): clamp with scalar bounds, round half to even, convert to ui8.
module @jit_clip_and_cast attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<8xui8> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<8xf32>
    %1 = call @expected() : () -> tensor<8xui8>
    %2 = call @clip_and_cast(%0) : (tensor<8xf32>) -> tensor<8xui8>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<8xui8>, tensor<8xui8>) -> ()
    return %2 : tensor<8xui8>
  }
  func.func private @inputs() -> (tensor<8xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[-3.700000e+00, 4.000000e-01, 5.000000e-01, 1.500000e+00, 2.500000e+00, 2.546000e+02, 3.000000e+02, 1.274900e+02]> : tensor<8xf32>
    return %cst : tensor<8xf32>
  }
  func.func private @expected() -> (tensor<8xui8> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<[0, 0, 0, 2, 2, 255, 255, 127]> : tensor<8xui8>
    return %c : tensor<8xui8>
  }
  func.func private @clip_and_cast(%arg0: tensor<8xf32> {mhlo.layout_mode = "default"}) -> tensor<8xui8> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<2.550000e+02> : tensor<f32>
    %0 = stablehlo.clamp %cst, %arg0, %cst_0 : (tensor<f32>, tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.round_nearest_even %0 : tensor<8xf32>
    %2 = stablehlo.convert %1 : (tensor<8xf32>) -> tensor<8xui8>
    return %2 : tensor<8xui8>
  }
}
