func.func @erf_op_test() {
  %operand = stablehlo.constant dense<[-1.0, 0.0, 0.5, 2.0, -0.25]> : tensor<5xf32>
  %erf = chlo.erf %operand : tensor<5xf32> -> tensor<5xf32>
  check.expect_almost_eq_const %erf, dense<[-0.8427008, 0.0, 0.5204999, 0.9953223, -0.2763264]> : tensor<5xf32>
  func.return
}

// -----

func.func @tan_op_test() {
  %operand = stablehlo.constant dense<[0.0, 0.5, -1.0, 1.5]> : tensor<4xf32>
  %tan = chlo.tan %operand : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %tan, dense<[0.0, 0.5463025, -1.557408, 14.10142]> : tensor<4xf32>
  func.return
}

// -----

func.func @sinh_cosh_op_test() {
  %operand = stablehlo.constant dense<[0.0, 1.0, -2.0, 0.5]> : tensor<4xf32>
  %sinh = chlo.sinh %operand : tensor<4xf32> -> tensor<4xf32>
  %cosh = chlo.cosh %operand : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %sinh, dense<[0.0, 1.175201, -3.62686, 0.5210953]> : tensor<4xf32>
  check.expect_almost_eq_const %cosh, dense<[1.0, 1.543081, 3.762196, 1.127626]> : tensor<4xf32>
  func.return
}

// -----

func.func @asin_acos_op_test() {
  %operand = stablehlo.constant dense<[0.0, 0.5, -1.0, 1.0, 0.25]> : tensor<5xf32>
  %asin = chlo.asin %operand : tensor<5xf32> -> tensor<5xf32>
  %acos = chlo.acos %operand : tensor<5xf32> -> tensor<5xf32>
  check.expect_almost_eq_const %asin, dense<[0.0, 0.5235988, -1.570796, 1.570796, 0.2526802]> : tensor<5xf32>
  check.expect_almost_eq_const %acos, dense<[1.570796, 1.047198, 3.141593, 0.0, 1.318116]> : tensor<5xf32>
  func.return
}

// -----

func.func @atan_op_test() {
  %operand = stablehlo.constant dense<[0.0, 1.0, -1.0, 10.0]> : tensor<4xf32>
  %atan = chlo.atan %operand : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %atan, dense<[0.0, 0.7853982, -0.7853982, 1.471128]> : tensor<4xf32>
  func.return
}

// -----

func.func @asinh_op_test() {
  %operand = stablehlo.constant dense<[0.0, 1.0, -2.0, 0.5]> : tensor<4xf32>
  %asinh = chlo.asinh %operand : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %asinh, dense<[0.0, 0.8813736, -1.443635, 0.4812118]> : tensor<4xf32>
  func.return
}

// -----

func.func @atanh_op_test() {
  %operand = stablehlo.constant dense<[0.0, 0.5, -0.5, 0.9]> : tensor<4xf32>
  %atanh = chlo.atanh %operand : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %atanh, dense<[0.0, 0.5493062, -0.5493062, 1.472219]> : tensor<4xf32>
  func.return
}

// -----

func.func @acosh_op_test() {
  %operand = stablehlo.constant dense<[1.0, 2.0, 10.0, 1.5]> : tensor<4xf32>
  %acosh = chlo.acosh %operand : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %acosh, dense<[0.0, 1.316958, 2.993223, 0.9624236]> : tensor<4xf32>
  func.return
}

// -----

func.func @broadcast_add_op_test_same_shape() {
  %lhs = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %rhs = stablehlo.constant dense<[[0.5, -2.0, 1.0], [0.0, 0.25, -6.0]]> : tensor<2x3xf32>
  %result = chlo.broadcast_add %lhs, %rhs : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %result, dense<[[1.5, 0.0, 4.0], [4.0, 5.25, 0.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_add_op_test_broadcast_dimensions() {
  %row = stablehlo.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %col = stablehlo.constant dense<[100.0, 200.0]> : tensor<2xf32>
  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r0 = chlo.broadcast_add %row, %m {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r1 = chlo.broadcast_add %m, %col {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %r0, dense<[[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]> : tensor<2x3xf32>
  check.expect_eq_const %r1, dense<[[101.0, 102.0, 103.0], [204.0, 205.0, 206.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_multiply_op_test_numpy_style() {
  %lhs = stablehlo.constant dense<[[[1, 2, 3]], [[4, 5, 6]]]> : tensor<2x1x3xi32>
  %rhs = stablehlo.constant dense<[[10], [-1]]> : tensor<2x1xi32>
  %result = chlo.broadcast_multiply %lhs, %rhs : (tensor<2x1x3xi32>, tensor<2x1xi32>) -> tensor<2x2x3xi32>
  check.expect_eq_const %result, dense<[[[10, 20, 30], [-1, -2, -3]], [[40, 50, 60], [-4, -5, -6]]]> : tensor<2x2x3xi32>
  func.return
}

// -----

func.func @broadcast_subtract_op_test() {
  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = stablehlo.constant dense<1.5> : tensor<f32>
  %col = stablehlo.constant dense<[100.0, 200.0]> : tensor<2xf32>
  %r0 = chlo.broadcast_subtract %m, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %r1 = chlo.broadcast_subtract %col, %m {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %r0, dense<[[-0.5, 0.5, 1.5], [2.5, 3.5, 4.5]]> : tensor<2x3xf32>
  check.expect_eq_const %r1, dense<[[99.0, 98.0, 97.0], [196.0, 195.0, 194.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @is_inf_op_test() {
  %operand = stablehlo.constant dense<[1.0, 0x7F800000, 0xFF800000, 0x7FC00000, 0.0, -3.0e+38]> : tensor<6xf32>
  %result = chlo.is_inf %operand : tensor<6xf32> -> tensor<6xi1>
  check.expect_eq_const %result, dense<[false, true, true, false, false, false]> : tensor<6xi1>
  func.return
}

// -----

func.func @top_k_op_test() {
  %operand = stablehlo.constant dense<[3.0, -1.0, 7.5, 2.0, 5.0]> : tensor<5xf32>
  %values, %indices = chlo.top_k(%operand, k = 2) : tensor<5xf32> -> (tensor<2xf32>, tensor<2xi32>)
  %m = stablehlo.constant dense<[[1, 9, 3, 7], [-5, -2, -8, 0]]> : tensor<2x4xi32>
  %mv, %mi = chlo.top_k(%m, k = 3) : tensor<2x4xi32> -> (tensor<2x3xi32>, tensor<2x3xi32>)
  check.expect_eq_const %values, dense<[7.5, 5.0]> : tensor<2xf32>
  check.expect_eq_const %indices, dense<[2, 4]> : tensor<2xi32>
  check.expect_eq_const %mv, dense<[[9, 7, 3], [0, -2, -5]]> : tensor<2x3xi32>
  check.expect_eq_const %mi, dense<[[1, 3, 2], [3, 1, 0]]> : tensor<2x3xi32>
  func.return
}
