// lax.complex(re, im) * (0.5 + 1j) and its jnp.abs: complex construction, a complex splat constant, multiply, abs to f32.
module @jit_complex_mul_abs attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3xcomplex<f32>> {jax.result_info = "[0]", mhlo.layout_mode = "default"}, tensor<3xf32> {jax.result_info = "[1]", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<3xf32>, tensor<3xf32>)
    %1:2 = call @expected() : () -> (tensor<3xcomplex<f32>>, tensor<3xf32>)
    %2:2 = call @complex_mul_abs(%0#0, %0#1) : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xcomplex<f32>>, tensor<3xf32>)
    stablehlo.custom_call @check.expect_close(%2#0, %1#0) {has_side_effect = true} : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> ()
    stablehlo.custom_call @check.expect_close(%2#1, %1#1) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
    return %2#0, %2#1 : tensor<3xcomplex<f32>>, tensor<3xf32>
  }
  func.func private @inputs() -> (tensor<3xf32> {mhlo.layout_mode = "default"}, tensor<3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[1.000000e+00, 0.000000e+00, -2.000000e+00]> : tensor<3xf32>
    %cst_0 = stablehlo.constant dense<[2.000000e+00, -1.000000e+00, 5.000000e-01]> : tensor<3xf32>
    return %cst, %cst_0 : tensor<3xf32>, tensor<3xf32>
  }
  func.func private @expected() -> (tensor<3xcomplex<f32>> {mhlo.layout_mode = "default"}, tensor<3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[(-1.500000e+00,2.000000e+00), (1.000000e+00,-5.000000e-01), (-1.500000e+00,-1.750000e+00)]> : tensor<3xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<[2.500000e+00, 1.118034e+00, 2.304886e+00]> : tensor<3xf32>
    return %cst, %cst_0 : tensor<3xcomplex<f32>>, tensor<3xf32>
  }
  func.func private @complex_mul_abs(%arg0: tensor<3xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<3xf32> {mhlo.layout_mode = "default"}) -> (tensor<3xcomplex<f32>>, tensor<3xf32>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<3xcomplex<f32>>
    %cst = stablehlo.constant dense<(5.000000e-01,1.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<3xcomplex<f32>>
    %2 = stablehlo.multiply %0, %1 : tensor<3xcomplex<f32>>
    %3 = stablehlo.abs %2 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
    return %2, %3 : tensor<3xcomplex<f32>>, tensor<3xf32>
  }
}
