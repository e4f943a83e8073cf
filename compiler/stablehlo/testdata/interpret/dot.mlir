func.func @dot_general_op_test_matmul() {
  %lhs = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %rhs = stablehlo.constant dense<[[1.0, -1.0], [0.5, 2.0], [-2.0, 0.0]]> : tensor<3x2xf32>
  %result = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %result, dense<[[-4.0, 3.0], [-5.5, 6.0]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @dot_general_op_test_batch() {
  %lhs = stablehlo.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]> : tensor<2x2x3xf32>
  %rhs = stablehlo.constant dense<[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [[2.0, -1.0], [0.5, 0.5], [-1.0, 3.0]]]> : tensor<2x3x2xf32>
  %result = stablehlo.dot_general %lhs, %rhs, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x3xf32>, tensor<2x3x2xf32>) -> tensor<2x2x2xf32>
  check.expect_eq_const %result, dense<[[[4.0, 5.0], [10.0, 11.0]], [[9.0, 24.0], [13.5, 31.5]]]> : tensor<2x2x2xf32>
  func.return
}

// -----

func.func @dot_general_op_test_contract_leading_dims() {
  %lhs = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %rhs = stablehlo.constant dense<[[1.0, 2.0], [0.0, -1.0], [0.5, 0.25]]> : tensor<3x2xf32>
  %result = stablehlo.dot_general %lhs, %rhs, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %result, dense<[[3.5, 0.25], [5.0, 1.5]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @dot_general_op_test_i32_rhs_transposed() {
  %lhs = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %rhs = stablehlo.constant dense<[[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, -1, 2]]> : tensor<4x3xi32>
  %result = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x3xi32>, tensor<4x3xi32>) -> tensor<2x4xi32>
  check.expect_eq_const %result, dense<[[1, 2, 3, 5], [4, 5, 6, 11]]> : tensor<2x4xi32>
  func.return
}

// -----

func.func @dot_general_op_test_batch_dim_not_leading() {
  %lhs = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]], [[9.0, 10.0], [11.0, 12.0]]]> : tensor<3x2x2xf32>
  %rhs = stablehlo.constant dense<[[[-2.0, -1.0, 0.0], [1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]> : tensor<2x2x3xf32>
  %result = stablehlo.dot_general %lhs, %rhs, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<3x2x2xf32>, tensor<2x2x3xf32>) -> tensor<2x3x3xf32>
  check.expect_eq_const %result, dense<[[[0.0, 3.0, 6.0], [-4.0, 7.0, 18.0], [-8.0, 11.0, 30.0]], [[40.0, 47.0, 54.0], [84.0, 99.0, 114.0], [128.0, 151.0, 174.0]]]> : tensor<2x3x3xf32>
  func.return
}

// -----

func.func @dot_general_op_test_inexact_f32() {
  %lhs = stablehlo.constant dense<[[0.1, 0.2, 0.3], [-0.4, 0.5, -0.6]]> : tensor<2x3xf32>
  %rhs = stablehlo.constant dense<[[1.5, -2.5], [0.7, 0.9], [-1.1, 3.3]]> : tensor<3x2xf32>
  %result = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %expected = stablehlo.constant dense<[[-0.04, 0.92], [0.41, -0.53]]> : tensor<2x2xf32>
  check.expect_almost_eq %result, %expected : tensor<2x2xf32>
  func.return
}

// -----

func.func @dot_op_test_matrix_vector() {
  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %v = stablehlo.constant dense<[1.0, 0.0, -1.0]> : tensor<3xf32>
  %w = stablehlo.constant dense<[2.0, 3.0, 4.0]> : tensor<3xf32>
  %mv = stablehlo.dot %m, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  %vw = stablehlo.dot %v, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  check.expect_eq_const %mv, dense<[-2.0, -2.0]> : tensor<2xf32>
  check.expect_eq_const %vw, dense<-2.0> : tensor<f32>
  func.return
}

// -----

func.func @dot_op_test_matrix_matrix_i32() {
  %lhs = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %rhs = stablehlo.constant dense<[[1, 0, 2], [0, 1, -1]]> : tensor<2x3xi32>
  %result = stablehlo.dot %lhs, %rhs : (tensor<2x2xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %expected = stablehlo.constant dense<[[1, 2, 0], [3, 4, 2]]> : tensor<2x3xi32>
  check.expect_eq %result, %expected : tensor<2x3xi32>
  func.return
}
