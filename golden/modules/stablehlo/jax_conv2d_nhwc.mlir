// lax.conv_general_dilated with NHWC/HWIO layouts, a 2x2 kernel, 2 in and 2 out features and SAME padding (pad only on the high side).
module @jit_conv2d attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<1x3x3x2xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<1x3x3x2xf32>, tensor<2x2x2x2xf32>)
    %1 = call @expected() : () -> tensor<1x3x3x2xf32>
    %2 = call @conv2d(%0#0, %0#1) : (tensor<1x3x3x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) -> ()
    return %2 : tensor<1x3x3x2xf32>
  }
  func.func private @inputs() -> (tensor<1x3x3x2xf32> {mhlo.layout_mode = "default"}, tensor<2x2x2x2xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[[[0.000000e+00, -2.000000e+00], [3.000000e+00, 1.000000e+00], [-1.000000e+00, -3.000000e+00]], [[2.000000e+00, 0.000000e+00], [-2.000000e+00, 3.000000e+00], [1.000000e+00, -1.000000e+00]], [[-3.000000e+00, 2.000000e+00], [0.000000e+00, -2.000000e+00], [3.000000e+00, 1.000000e+00]]]]> : tensor<1x3x3x2xf32>
    %cst_0 = stablehlo.constant dense<[[[[1.000000e+00, -1.000000e+00], [5.000000e-01, 2.000000e+00]], [[0.000000e+00, 1.000000e+00], [-2.000000e+00, 2.500000e-01]]], [[[1.500000e+00, 0.000000e+00], [-1.000000e+00, 1.000000e+00]], [[2.000000e+00, -5.000000e-01], [0.000000e+00, 1.000000e+00]]]]> : tensor<2x2x2x2xf32>
    return %cst, %cst_0 : tensor<1x3x3x2xf32>, tensor<2x2x2x2xf32>
  }
  func.func private @expected() -> (tensor<1x3x3x2xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[[[-4.000000e+00, 3.250000e+00], [5.500000e+00, -1.250000e+00], [0.000000e+00, -6.000000e+00]], [[-1.050000e+01, -3.250000e+00], [9.500000e+00, 6.250000e+00], [4.000000e+00, -2.000000e+00]], [[2.000000e+00, 6.500000e+00], [-3.000000e+00, -7.500000e-01], [3.500000e+00, -1.000000e+00]]]]> : tensor<1x3x3x2xf32>
    return %cst : tensor<1x3x3x2xf32>
  }
  func.func private @conv2d(%arg0: tensor<1x3x3x2xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<2x2x2x2xf32> {mhlo.layout_mode = "default"}) -> tensor<1x3x3x2xf32> {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x3x3x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
    return %0 : tensor<1x3x3x2xf32>
  }
}
