// lax.dynamic_slice and lax.dynamic_update_slice with start index -2: normalized to 4, then clamped to 3 for the size-3 slice.
module @jit_dynamic_slice_update attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3xf32> {jax.result_info = "[0]", mhlo.layout_mode = "default"}, tensor<6xf32> {jax.result_info = "[1]", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<6xf32>, tensor<i32>)
    %1:2 = call @expected() : () -> (tensor<3xf32>, tensor<6xf32>)
    %2:2 = call @dynamic_slice_update(%0#0, %0#1) : (tensor<6xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<6xf32>)
    stablehlo.custom_call @check.expect_eq(%2#0, %1#0) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%2#1, %1#1) {has_side_effect = true} : (tensor<6xf32>, tensor<6xf32>) -> ()
    return %2#0, %2#1 : tensor<3xf32>, tensor<6xf32>
  }
  func.func private @inputs() -> (tensor<6xf32> {mhlo.layout_mode = "default"}, tensor<i32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[5.000000e-01, 1.500000e+00, 2.500000e+00, 3.500000e+00, 4.500000e+00, 5.500000e+00]> : tensor<6xf32>
    %c = stablehlo.constant dense<-2> : tensor<i32>
    return %cst, %c : tensor<6xf32>, tensor<i32>
  }
  func.func private @expected() -> (tensor<3xf32> {mhlo.layout_mode = "default"}, tensor<6xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[3.500000e+00, 4.500000e+00, 5.500000e+00]> : tensor<3xf32>
    %cst_0 = stablehlo.constant dense<[5.000000e-01, 1.500000e+00, 2.500000e+00, 3.500000e+00, 9.000000e+00, 9.000000e+00]> : tensor<6xf32>
    return %cst, %cst_0 : tensor<3xf32>, tensor<6xf32>
  }
  func.func private @dynamic_slice_update(%arg0: tensor<6xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<i32> {mhlo.layout_mode = "default"}) -> (tensor<3xf32> {mhlo.layout_mode = "default"}, tensor<6xf32> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare  LT, %arg1, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %1 = stablehlo.add %arg1, %c_0 : tensor<i32>
    %2 = stablehlo.select %0, %1, %arg1 : tensor<i1>, tensor<i32>
    %3 = stablehlo.dynamic_slice %arg0, %2, sizes = [3] : (tensor<6xf32>, tensor<i32>) -> tensor<3xf32>
    %cst = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %5 = stablehlo.dynamic_update_slice %arg0, %4, %2 : (tensor<6xf32>, tensor<2xf32>, tensor<i32>) -> tensor<6xf32>
    return %3, %5 : tensor<3xf32>, tensor<6xf32>
  }
}
