// jnp.argmax along axis 1: a two-operand reduce (values and iota indices) whose reducer keeps the first maximum on ties.
module @jit_argmax attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3xi32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<3x4xf32>
    %1 = call @expected() : () -> tensor<3xi32>
    %2 = call @argmax(%0) : (tensor<3x4xf32>) -> tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    return %2 : tensor<3xi32>
  }
  func.func private @inputs() -> (tensor<3x4xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[5.000000e-01, 3.000000e+00, -1.000000e+00, 3.000000e+00], [-2.000000e+00, -7.000000e+00, -5.000000e-01, -1.000000e+00], [1.000000e+00, 2.000000e+00, 4.000000e+00, 8.000000e+00]]> : tensor<3x4xf32>
    return %cst : tensor<3x4xf32>
  }
  func.func private @expected() -> (tensor<3xi32> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
    return %c : tensor<3xi32>
  }
  func.func private @argmax(%arg0: tensor<3x4xf32> {mhlo.layout_mode = "default"}) -> tensor<3xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<3x4xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare  GT, %arg1, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare  NE, %arg1, %arg1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare  EQ, %arg1, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare  LT, %arg2, %arg4,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<3xi32>
  }
}
