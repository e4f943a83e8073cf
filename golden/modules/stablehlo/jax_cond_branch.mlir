// lax.cond(sum(x) > t, square, minus_one, x) evaluated for a threshold that takes each branch; the predicate is converted to an i32 case index.
module @jit_cond_branch attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<4xf32> {jax.result_info = "[0]", mhlo.layout_mode = "default"}, tensor<4xf32> {jax.result_info = "[1]", mhlo.layout_mode = "default"}) {
    %0:3 = call @inputs() : () -> (tensor<4xf32>, tensor<f32>, tensor<f32>)
    %1:2 = call @expected() : () -> (tensor<4xf32>, tensor<4xf32>)
    %2:2 = call @f(%0#0, %0#1, %0#2) : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
    stablehlo.custom_call @check.expect_eq(%2#0, %1#0) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%2#1, %1#1) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    return %2#0, %2#1 : tensor<4xf32>, tensor<4xf32>
  }
  func.func private @inputs() -> (tensor<4xf32> {mhlo.layout_mode = "default"}, tensor<f32> {mhlo.layout_mode = "default"}, tensor<f32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[1.000000e+00, -2.000000e+00, 3.000000e+00, 5.000000e-01]> : tensor<4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    return %cst, %cst_0, %cst_1 : tensor<4xf32>, tensor<f32>, tensor<f32>
  }
  func.func private @expected() -> (tensor<4xf32> {mhlo.layout_mode = "default"}, tensor<4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[0.000000e+00, -3.000000e+00, 2.000000e+00, -5.000000e-01]> : tensor<4xf32>
    %cst_0 = stablehlo.constant dense<[1.000000e+00, 4.000000e+00, 9.000000e+00, 2.500000e-01]> : tensor<4xf32>
    return %cst, %cst_0 : tensor<4xf32>, tensor<4xf32>
  }
  func.func private @f(%arg0: tensor<4xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<f32> {mhlo.layout_mode = "default"}, %arg2: tensor<f32> {mhlo.layout_mode = "default"}) -> (tensor<4xf32> {mhlo.layout_mode = "default"}, tensor<4xf32> {mhlo.layout_mode = "default"}) {
    %0 = call @_cond(%arg0, %arg1) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %1 = call @_cond(%arg0, %arg2) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    return %0, %1 : tensor<4xf32>, tensor<4xf32>
  }
  func.func private @_cond(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %1 = stablehlo.compare  GT, %0, %arg1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.convert %1 : (tensor<i1>) -> tensor<i32>
    %3 = "stablehlo.case"(%2) ({
      %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %5 = stablehlo.subtract %arg0, %4 : tensor<4xf32>
      stablehlo.return %5 : tensor<4xf32>
    }, {
      %4 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
      stablehlo.return %4 : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    return %3 : tensor<4xf32>
  }
}
