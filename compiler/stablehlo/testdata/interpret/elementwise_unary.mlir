func.func @abs_op_test() {
  %a = stablehlo.constant dense<[-2.5, 0.0, -0.0, 2.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[-5, 0, 7, -2147483648]> : tensor<4xi32>
  %ra = stablehlo.abs %a : tensor<4xf32>
  %rb = stablehlo.abs %b : tensor<4xi32>
  check.expect_eq_const %ra, dense<[2.5, 0.0, 0.0, 2.0]> : tensor<4xf32>
  check.expect_eq_const %rb, dense<[5, 0, 7, -2147483648]> : tensor<4xi32>
  func.return
}

// -----

func.func @negate_op_test() {
  %a = stablehlo.constant dense<[-3, 0, 5, -2147483648]> : tensor<4xi32>
  %b = stablehlo.constant dense<[1.5, -0.25, 0.0]> : tensor<3xf32>
  %ra = stablehlo.negate %a : tensor<4xi32>
  %rb = stablehlo.negate %b : tensor<3xf32>
  check.expect_eq_const %ra, dense<[3, 0, -5, -2147483648]> : tensor<4xi32>
  check.expect_eq_const %rb, dense<[-1.5, 0.25, -0.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @sign_op_test() {
  %a = stablehlo.constant dense<[-2.0, 0.0, 3.5, -0.125]> : tensor<4xf32>
  %b = stablehlo.constant dense<[-7, 0, 9]> : tensor<3xi32>
  %ra = stablehlo.sign %a : tensor<4xf32>
  %rb = stablehlo.sign %b : tensor<3xi32>
  check.expect_eq_const %ra, dense<[-1.0, 0.0, 1.0, -1.0]> : tensor<4xf32>
  check.expect_eq_const %rb, dense<[-1, 0, 1]> : tensor<3xi32>
  func.return
}

// -----

func.func @sqrt_rsqrt_op_test_f32() {
  %a = stablehlo.constant dense<[0.0, 1.0, 4.0, 2.25, 2.0]> : tensor<5xf32>
  %b = stablehlo.constant dense<[1.0, 4.0, 0.25, 2.0]> : tensor<4xf32>
  %ra = stablehlo.sqrt %a : tensor<5xf32>
  %rb = stablehlo.rsqrt %b : tensor<4xf32>
  %expected = stablehlo.constant dense<[0.0, 1.0, 2.0, 1.5, 1.4142135]> : tensor<5xf32>
  check.expect_close %ra, %expected, max_ulp_difference = 3 : tensor<5xf32>, tensor<5xf32>
  check.expect_almost_eq_const %rb, dense<[1.0, 0.5, 2.0, 0.7071068]> : tensor<4xf32>
  func.return
}

// -----

func.func @cbrt_op_test_f32() {
  %operand = stablehlo.constant dense<[8.0, -27.0, 0.125, 2.0]> : tensor<4xf32>
  %result = stablehlo.cbrt %operand : tensor<4xf32>
  %expected = stablehlo.constant dense<[2.0, -3.0, 0.5, 1.259921]> : tensor<4xf32>
  check.expect_almost_eq %result, %expected : tensor<4xf32>
  func.return
}

// -----

func.func @exponential_op_test_f32() {
  %operand = stablehlo.constant dense<[0.0, 1.0, -1.0, 2.5]> : tensor<4xf32>
  %result = stablehlo.exponential %operand : tensor<4xf32>
  check.expect_almost_eq_const %result, dense<[1.0, 2.718282, 0.3678795, 12.18249]> : tensor<4xf32>
  func.return
}

// -----

func.func @exponential_minus_one_op_test_f32() {
  %operand = stablehlo.constant dense<[0.0, 1.0e-05, 1.0, -1.0]> : tensor<4xf32>
  %result = stablehlo.exponential_minus_one %operand : tensor<4xf32>
  check.expect_almost_eq_const %result, dense<[0.0, 1.000005e-05, 1.718282, -0.6321205]> : tensor<4xf32>
  func.return
}

// -----

func.func @log_op_test_f32() {
  %operand = stablehlo.constant dense<[1.0, 2.0, 10.0, 0.5]> : tensor<4xf32>
  %result = stablehlo.log %operand : tensor<4xf32>
  check.expect_almost_eq_const %result, dense<[0.0, 0.6931472, 2.302585, -0.6931472]> : tensor<4xf32>
  func.return
}

// -----

func.func @log_plus_one_op_test_f32() {
  %operand = stablehlo.constant dense<[0.0, 1.0e-05, 1.0, -0.5]> : tensor<4xf32>
  %result = stablehlo.log_plus_one %operand : tensor<4xf32>
  check.expect_almost_eq_const %result, dense<[0.0, 9.99995e-06, 0.6931472, -0.6931472]> : tensor<4xf32>
  func.return
}

// -----

func.func @logistic_op_test_f32() {
  %operand = stablehlo.constant dense<[0.0, 1.0, -1.0, 4.0]> : tensor<4xf32>
  %result = stablehlo.logistic %operand : tensor<4xf32>
  check.expect_almost_eq_const %result, dense<[0.5, 0.7310586, 0.2689414, 0.9820138]> : tensor<4xf32>
  func.return
}

// -----

func.func @sine_cosine_op_test_f32() {
  %operand = stablehlo.constant dense<[0.0, 1.0, -1.5, 3.0]> : tensor<4xf32>
  %sin = stablehlo.sine %operand : tensor<4xf32>
  %cos = stablehlo.cosine %operand : tensor<4xf32>
  check.expect_almost_eq_const %sin, dense<[0.0, 0.841471, -0.997495, 0.14112]> : tensor<4xf32>
  check.expect_almost_eq_const %cos, dense<[1.0, 0.5403023, 0.0707372, -0.9899925]> : tensor<4xf32>
  func.return
}

// -----

func.func @tan_tanh_op_test_f32() {
  %a = stablehlo.constant dense<[0.0, 0.5, -1.0, 1.25]> : tensor<4xf32>
  %b = stablehlo.constant dense<[0.0, 0.5, -2.0, 10.0]> : tensor<4xf32>
  %tan = stablehlo.tan %a : tensor<4xf32>
  %tanh = stablehlo.tanh %b : tensor<4xf32>
  check.expect_almost_eq_const %tan, dense<[0.0, 0.5463025, -1.557408, 3.00957]> : tensor<4xf32>
  check.expect_almost_eq_const %tanh, dense<[0.0, 0.4621172, -0.9640276, 1.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @floor_ceil_op_test_f32() {
  %operand = stablehlo.constant dense<[-1.5, -0.5, 0.5, 1.5, 2.0, -3.0]> : tensor<6xf32>
  %floor = stablehlo.floor %operand : tensor<6xf32>
  %ceil = stablehlo.ceil %operand : tensor<6xf32>
  check.expect_eq_const %floor, dense<[-2.0, -1.0, 0.0, 1.0, 2.0, -3.0]> : tensor<6xf32>
  check.expect_eq_const %ceil, dense<[-1.0, -0.0, 1.0, 2.0, 2.0, -3.0]> : tensor<6xf32>
  func.return
}

// -----

func.func @round_op_test_f32() {
  %operand = stablehlo.constant dense<[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.4, -2.6]> : tensor<8xf32>
  %even = stablehlo.round_nearest_even %operand : tensor<8xf32>
  %afz = stablehlo.round_nearest_afz %operand : tensor<8xf32>
  check.expect_eq_const %even, dense<[-2.0, -2.0, -0.0, 0.0, 2.0, 2.0, 2.0, -3.0]> : tensor<8xf32>
  check.expect_eq_const %afz, dense<[-3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 2.0, -3.0]> : tensor<8xf32>
  func.return
}

// -----

func.func @is_finite_op_test_f32() {
  %operand = stablehlo.constant dense<[1.0, 0x7F800000, 0xFF800000, 0x7FC00000, 0.0, -3.5]> : tensor<6xf32>
  %result = stablehlo.is_finite %operand : (tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %result, dense<[true, false, false, false, true, true]> : tensor<6xi1>
  func.return
}
