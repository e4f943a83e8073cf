func.func @convolution_op_test_valid_nhwc() {
  %lhs = stablehlo.constant dense<[[[[-2.0], [5.0], [1.0], [-3.0]], [[4.0], [0.0], [-4.0], [3.0]], [[-1.0], [-5.0], [2.0], [-2.0]], [[5.0], [1.0], [-3.0], [4.0]]]]> : tensor<1x4x4x1xf32>
  %rhs = stablehlo.constant dense<[[[[1.0]], [[0.0]]], [[[2.0]], [[-1.0]]]]> : tensor<2x2x1x1xf32>
  %result = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  check.expect_eq_const %result, dense<[[[[6.0], [9.0], [-10.0]], [[7.0], [-12.0], [2.0]], [[8.0], [0.0], [-8.0]]]]> : tensor<1x3x3x1xf32>
  func.return
}

// -----

func.func @convolution_op_test_same_padding() {
  %lhs = stablehlo.constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %rhs = stablehlo.constant dense<[[[[0.0]], [[1.0]], [[0.0]]], [[[1.0]], [[-4.0]], [[1.0]]], [[[0.0]], [[1.0]], [[0.0]]]]> : tensor<3x3x1x1xf32>
  %result = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x3x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32>
  check.expect_eq_const %result, dense<[[[[2.0], [1.0], [-4.0]], [[-3.0], [0.0], [-7.0]], [[-16.0], [-11.0], [-22.0]]]]> : tensor<1x3x3x1xf32>
  func.return
}

// -----

func.func @convolution_op_test_stride_2() {
  %lhs = stablehlo.constant dense<[[[[-2.0], [3.0], [-1.0], [4.0], [0.0]], [[-4.0], [1.0], [-3.0], [2.0], [-2.0]], [[3.0], [-1.0], [4.0], [0.0], [-4.0]], [[1.0], [-3.0], [2.0], [-2.0], [3.0]], [[-1.0], [4.0], [0.0], [-4.0], [1.0]]]]> : tensor<1x5x5x1xf32>
  %rhs = stablehlo.constant dense<[[[[1.0]], [[2.0]], [[0.0]]], [[[-1.0]], [[1.0]], [[0.0]]], [[[0.0]], [[3.0]], [[1.0]]]]> : tensor<3x3x1x1xf32>
  %result = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  check.expect_eq_const %result, dense<[[[[10.0], [8.0]], [[9.0], [-11.0]]]]> : tensor<1x2x2x1xf32>
  func.return
}

// -----

func.func @convolution_op_test_multi_feature() {
  %lhs = stablehlo.constant dense<[[[[-2.0, 0.0], [2.0, -1.0], [1.0, -2.0]], [[0.0, 2.0], [-1.0, 1.0], [-2.0, 0.0]], [[2.0, -1.0], [1.0, -2.0], [0.0, 2.0]]]]> : tensor<1x3x3x2xf32>
  %rhs = stablehlo.constant dense<[[[[-1.0, 2.0, 1.0], [0.0, -1.0, 2.0]], [[1.0, 0.0, -1.0], [2.0, 1.0, 0.0]]], [[[-1.0, 2.0, 1.0], [0.0, -1.0, 2.0]], [[1.0, 0.0, -1.0], [2.0, 1.0, 0.0]]]]> : tensor<2x2x2x3xf32>
  %result = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x3x2xf32>, tensor<2x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  check.expect_eq_const %result, dense<[[[[3.0, -6.0, 1.0], [-6.0, 0.0, 2.0]], [[-4.0, 2.0, 4.0], [2.0, 3.0, 0.0]]]]> : tensor<1x2x2x3xf32>
  func.return
}

// -----

func.func @convolution_op_test_1d_batch_2() {
  %lhs = stablehlo.constant dense<[[[1.0], [2.0], [3.0], [4.0], [5.0]], [[-1.0], [0.0], [1.0], [0.0], [-1.0]]]> : tensor<2x5x1xf32>
  %rhs = stablehlo.constant dense<[[[1.0]], [[2.0]], [[3.0]]]> : tensor<3x1x1xf32>
  %result = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x1xf32>, tensor<3x1x1xf32>) -> tensor<2x3x1xf32>
  check.expect_eq_const %result, dense<[[[14.0], [20.0], [26.0]], [[2.0], [2.0], [-2.0]]]> : tensor<2x3x1xf32>
  func.return
}

// -----

func.func @convolution_op_test_nchw_oihw() {
  %lhs = stablehlo.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %rhs = stablehlo.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %result = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  check.expect_eq_const %result, dense<[[[[37.0, 47.0], [67.0, 77.0]]]]> : tensor<1x1x2x2xf32>
  func.return
}

// -----

func.func @convolution_op_test_lhs_dilation_transposed() {
  %lhs = stablehlo.constant dense<[[[1.0], [2.0], [3.0]]]> : tensor<1x3x1xf32>
  %rhs = stablehlo.constant dense<[[[1.0]], [[10.0]], [[100.0]]]> : tensor<3x1x1xf32>
  %result = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[2, 2]], lhs_dilate = [2], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1xf32>, tensor<3x1x1xf32>) -> tensor<1x7x1xf32>
  check.expect_eq_const %result, dense<[[[100.0], [10.0], [201.0], [20.0], [302.0], [30.0], [3.0]]]> : tensor<1x7x1xf32>
  func.return
}

// -----

func.func @convolution_op_test_rhs_dilation() {
  %lhs = stablehlo.constant dense<[[[[-2.0], [1.0], [-3.0], [0.0], [3.0]], [[-1.0], [2.0], [-2.0], [1.0], [-3.0]], [[0.0], [3.0], [-1.0], [2.0], [-2.0]], [[1.0], [-3.0], [0.0], [3.0], [-1.0]], [[2.0], [-2.0], [1.0], [-3.0], [0.0]]]]> : tensor<1x5x5x1xf32>
  %rhs = stablehlo.constant dense<[[[[1.0]], [[-1.0]]], [[[2.0]], [[3.0]]]]> : tensor<2x2x1x1xf32>
  %result = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  check.expect_eq_const %result, dense<[[[[-2.0], [13.0], [-14.0]], [[3.0], [4.0], [-2.0]], [[8.0], [-12.0], [3.0]]]]> : tensor<1x3x3x1xf32>
  func.return
}

// -----

func.func @convolution_op_test_depthwise_feature_groups() {
  %lhs = stablehlo.constant dense<[[[[-2.0, 3.0], [1.0, -1.0], [-3.0, 2.0]], [[0.0, -2.0], [3.0, 1.0], [-1.0, -3.0]], [[2.0, 0.0], [-2.0, 3.0], [1.0, -1.0]]]]> : tensor<1x3x3x2xf32>
  %rhs = stablehlo.constant dense<[[[[1.0, -1.0]], [[0.0, 2.0]]], [[[0.0, 1.0]], [[-1.0, 0.0]]]]> : tensor<2x2x1x2xf32>
  %result = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x3x3x2xf32>, tensor<2x2x1x2xf32>) -> tensor<1x2x2x2xf32>
  check.expect_eq_const %result, dense<[[[[-5.0, -7.0], [2.0, 6.0]], [[2.0, 4.0], [2.0, -4.0]]]]> : tensor<1x2x2x2xf32>
  func.return
}
