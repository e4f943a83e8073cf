func.func @complex_op_test() {
  %re = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %im = stablehlo.constant dense<[3.0, -4.0]> : tensor<2xf32>
  %result = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>
  check.expect_eq_const %result, dense<[(1.0, 3.0), (2.0, -4.0)]> : tensor<2xcomplex<f32>>
  func.return
}

// -----

func.func @real_imag_op_test() {
  %operand = stablehlo.constant dense<[(1.5, -2.0), (0.0, 1.0), (-3.0, 0.25)]> : tensor<3xcomplex<f32>>
  %re = stablehlo.real %operand : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %im = stablehlo.imag %operand : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  check.expect_eq_const %re, dense<[1.5, 0.0, -3.0]> : tensor<3xf32>
  check.expect_eq_const %im, dense<[-2.0, 1.0, 0.25]> : tensor<3xf32>
  func.return
}

// -----

func.func @abs_op_test_complex() {
  %operand = stablehlo.constant dense<[(3.0, 4.0), (0.0, -2.0), (1.0, 1.0), (-5.0, 12.0)]> : tensor<4xcomplex<f32>>
  %result = stablehlo.abs %operand : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  check.expect_almost_eq_const %result, dense<[5.0, 2.0, 1.414214, 13.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @add_subtract_op_test_complex() {
  %lhs = stablehlo.constant dense<[(1.0, 2.0), (-0.5, 4.0)]> : tensor<2xcomplex<f32>>
  %rhs = stablehlo.constant dense<[(3.0, -1.0), (0.5, 0.25)]> : tensor<2xcomplex<f32>>
  %add = stablehlo.add %lhs, %rhs : tensor<2xcomplex<f32>>
  %sub = stablehlo.subtract %lhs, %rhs : tensor<2xcomplex<f32>>
  check.expect_eq_const %add, dense<[(4.0, 1.0), (0.0, 4.25)]> : tensor<2xcomplex<f32>>
  check.expect_eq_const %sub, dense<[(-2.0, 3.0), (-1.0, 3.75)]> : tensor<2xcomplex<f32>>
  func.return
}

// -----

func.func @multiply_op_test_complex() {
  %lhs = stablehlo.constant dense<[(1.0, 2.0), (0.0, 1.0), (2.0, -3.0)]> : tensor<3xcomplex<f32>>
  %rhs = stablehlo.constant dense<[(3.0, -1.0), (0.0, 1.0), (-1.0, 0.5)]> : tensor<3xcomplex<f32>>
  %result = stablehlo.multiply %lhs, %rhs : tensor<3xcomplex<f32>>
  %re = stablehlo.real %result : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %im = stablehlo.imag %result : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  check.expect_eq_const %re, dense<[5.0, -1.0, -0.5]> : tensor<3xf32>
  check.expect_eq_const %im, dense<[5.0, 0.0, 4.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @divide_op_test_complex() {
  %lhs = stablehlo.constant dense<[(1.0, 2.0), (4.0, 2.0), (1.0, 0.0)]> : tensor<3xcomplex<f32>>
  %rhs = stablehlo.constant dense<[(1.0, -1.0), (2.0, 0.0), (0.0, 1.0)]> : tensor<3xcomplex<f32>>
  %result = stablehlo.divide %lhs, %rhs : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %result, dense<[(-0.5, 1.5), (2.0, 1.0), (0.0, -1.0)]> : tensor<3xcomplex<f32>>
  func.return
}

// -----

func.func @negate_op_test_complex() {
  %operand = stablehlo.constant dense<[(1.0, -2.0), (0.0, 0.5)]> : tensor<2xcomplex<f32>>
  %result = stablehlo.negate %operand : tensor<2xcomplex<f32>>
  %expected = stablehlo.constant dense<[(-1.0, 2.0), (-0.0, -0.5)]> : tensor<2xcomplex<f32>>
  check.expect_eq %result, %expected : tensor<2xcomplex<f32>>
  func.return
}

// -----

func.func @complex_op_test_f64() {
  %re = stablehlo.constant dense<[0.1, -2.0]> : tensor<2xf64>
  %im = stablehlo.constant dense<[0.001, 0.3]> : tensor<2xf64>
  %c = stablehlo.complex %re, %im : tensor<2xcomplex<f64>>
  %sq = stablehlo.multiply %c, %c : tensor<2xcomplex<f64>>
  %r = stablehlo.real %sq : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %i = stablehlo.imag %sq : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  check.expect_almost_eq_const %r, dense<[0.009999, 3.91]> : tensor<2xf64>
  check.expect_almost_eq_const %i, dense<[0.0002, -1.2]> : tensor<2xf64>
  func.return
}

// -----

func.func @exponential_op_test_complex() {
  %operand = stablehlo.constant dense<[(0.0, 0.0), (1.0, 0.0), (0.0, 1.5707964), (0.5, -1.0)]> : tensor<4xcomplex<f32>>
  %result = stablehlo.exponential %operand : tensor<4xcomplex<f32>>
  check.expect_almost_eq_const %result, dense<[(1.0, 0.0), (2.718282, 0.0), (-4.371139e-08, 1.0), (0.8908079, -1.387351)]> : tensor<4xcomplex<f32>>
  func.return
}
