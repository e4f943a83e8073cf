func.func @add_op_test_f32() {
  %lhs = stablehlo.constant dense<[1.5, -2.0, 0.25, 100.0]> : tensor<4xf32>
  %rhs = stablehlo.constant dense<[2.5, 0.5, 0.125, -0.5]> : tensor<4xf32>
  %result = stablehlo.add %lhs, %rhs : tensor<4xf32>
  check.expect_eq_const %result, dense<[4.0, -1.5, 0.375, 99.5]> : tensor<4xf32>
  func.return
}

// -----

func.func @add_op_test_i32_wrap() {
  %lhs = stablehlo.constant dense<[1, 2147483647, -2147483648, -5]> : tensor<4xi32>
  %rhs = stablehlo.constant dense<[3, 1, -1, 5]> : tensor<4xi32>
  %result = stablehlo.add %lhs, %rhs : tensor<4xi32>
  check.expect_eq_const %result, dense<[4, -2147483648, 2147483647, 0]> : tensor<4xi32>
  func.return
}

// -----

func.func @subtract_op_test_i32() {
  %lhs = stablehlo.constant dense<[10, -3, -2147483648, 0]> : tensor<4xi32>
  %rhs = stablehlo.constant dense<[4, 7, 1, -2147483647]> : tensor<4xi32>
  %result = stablehlo.subtract %lhs, %rhs : tensor<4xi32>
  check.expect_eq_const %result, dense<[6, -10, 2147483647, 2147483647]> : tensor<4xi32>
  func.return
}

// -----

func.func @multiply_op_test_i32_wrap() {
  %lhs = stablehlo.constant dense<[6, -7, 65536, 46341]> : tensor<4xi32>
  %rhs = stablehlo.constant dense<[7, 3, 65536, 46341]> : tensor<4xi32>
  %result = stablehlo.multiply %lhs, %rhs : tensor<4xi32>
  check.expect_eq_const %result, dense<[42, -21, 0, -2147479015]> : tensor<4xi32>
  func.return
}

// -----

func.func @divide_op_test_i32() {
  %lhs = stablehlo.constant dense<[7, -7, 7, -7, 0, 100]> : tensor<6xi32>
  %rhs = stablehlo.constant dense<[2, 2, -2, -2, 5, 7]> : tensor<6xi32>
  %result = stablehlo.divide %lhs, %rhs : tensor<6xi32>
  check.expect_eq_const %result, dense<[3, -3, -3, 3, 0, 14]> : tensor<6xi32>
  func.return
}

// -----

func.func @divide_op_test_f32() {
  %lhs = stablehlo.constant dense<[1.0, 3.0, -2.0, 1.0, 2.0]> : tensor<5xf32>
  %rhs = stablehlo.constant dense<[4.0, 2.0, 8.0, 3.0, 7.0]> : tensor<5xf32>
  %result = stablehlo.divide %lhs, %rhs : tensor<5xf32>
  %expected = stablehlo.constant dense<[0.25, 1.5, -0.25, 0.33333334, 0.2857143]> : tensor<5xf32>
  check.expect_close %result, %expected, max_ulp_difference = 3 : tensor<5xf32>, tensor<5xf32>
  func.return
}

// -----

func.func @remainder_op_test_i32() {
  %lhs = stablehlo.constant dense<[7, -7, 7, -7, 6]> : tensor<5xi32>
  %rhs = stablehlo.constant dense<[3, 3, -3, -3, 3]> : tensor<5xi32>
  %result = stablehlo.remainder %lhs, %rhs : tensor<5xi32>
  check.expect_eq_const %result, dense<[1, -1, 1, -1, 0]> : tensor<5xi32>
  func.return
}

// -----

func.func @remainder_op_test_f32() {
  %lhs = stablehlo.constant dense<[5.5, -5.5, 5.5, 1.0]> : tensor<4xf32>
  %rhs = stablehlo.constant dense<[2.0, 2.0, -2.0, 4.0]> : tensor<4xf32>
  %result = stablehlo.remainder %lhs, %rhs : tensor<4xf32>
  check.expect_eq_const %result, dense<[1.5, -1.5, 1.5, 1.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @maximum_minimum_op_test() {
  %a = stablehlo.constant dense<[[1.0, -2.0, 3.0], [-0.5, 7.0, 0.0]]> : tensor<2x3xf32>
  %b = stablehlo.constant dense<[[0.5, -1.0, 4.0], [-0.25, 6.0, -1.0]]> : tensor<2x3xf32>
  %max = stablehlo.maximum %a, %b : tensor<2x3xf32>
  %min = stablehlo.minimum %a, %b : tensor<2x3xf32>
  %ia = stablehlo.constant dense<[3, -8, 0, 12]> : tensor<4xi32>
  %ib = stablehlo.constant dense<[-3, -2, 5, 12]> : tensor<4xi32>
  %imax = stablehlo.maximum %ia, %ib : tensor<4xi32>
  %imin = stablehlo.minimum %ia, %ib : tensor<4xi32>
  check.expect_eq_const %max, dense<[[1.0, -1.0, 4.0], [-0.25, 7.0, 0.0]]> : tensor<2x3xf32>
  check.expect_eq_const %min, dense<[[0.5, -2.0, 3.0], [-0.5, 6.0, -1.0]]> : tensor<2x3xf32>
  check.expect_eq_const %imax, dense<[3, -2, 5, 12]> : tensor<4xi32>
  check.expect_eq_const %imin, dense<[-3, -8, 0, 12]> : tensor<4xi32>
  func.return
}

// -----

func.func @power_op_test_f32() {
  %lhs = stablehlo.constant dense<[2.0, 3.0, 4.0, 10.0, 2.0]> : tensor<5xf32>
  %rhs = stablehlo.constant dense<[3.0, 2.0, 0.5, -1.0, 0.0]> : tensor<5xf32>
  %result = stablehlo.power %lhs, %rhs : tensor<5xf32>
  check.expect_almost_eq_const %result, dense<[8.0, 9.0, 2.0, 0.1, 1.0]> : tensor<5xf32>
  func.return
}

// -----

func.func @power_op_test_i32() {
  %lhs = stablehlo.constant dense<[2, -3, 5, 1, 0, -1]> : tensor<6xi32>
  %rhs = stablehlo.constant dense<[10, 3, 0, 7, 2, 5]> : tensor<6xi32>
  %result = stablehlo.power %lhs, %rhs : tensor<6xi32>
  check.expect_eq_const %result, dense<[1024, -27, 1, 1, 0, -1]> : tensor<6xi32>
  func.return
}

// -----

func.func @atan2_op_test_f32() {
  %lhs = stablehlo.constant dense<[1.0, -1.0, 1.0, 0.0, 2.0]> : tensor<5xf32>
  %rhs = stablehlo.constant dense<[1.0, 1.0, -1.0, 1.0, 0.0]> : tensor<5xf32>
  %result = stablehlo.atan2 %lhs, %rhs : tensor<5xf32>
  check.expect_almost_eq_const %result, dense<[0.7853982, -0.7853982, 2.356194, 0.0, 1.570796]> : tensor<5xf32>
  func.return
}

// -----

func.func @add_multiply_op_test_scalar_and_splat() {
  %x = stablehlo.constant dense<2.5> : tensor<f32>
  %y = stablehlo.constant dense<-0.5> : tensor<f32>
  %s = stablehlo.add %x, %y : tensor<f32>
  %p = stablehlo.multiply %x, %y : tensor<f32>
  %ones = stablehlo.constant dense<1.0> : tensor<2x3xf32>
  %twos = stablehlo.constant dense<2.0> : tensor<2x3xf32>
  %sum = stablehlo.add %ones, %twos : tensor<2x3xf32>
  %prod = stablehlo.multiply %sum, %twos : tensor<2x3xf32>
  check.expect_eq_const %s, dense<2.0> : tensor<f32>
  check.expect_eq_const %p, dense<-1.25> : tensor<f32>
  check.expect_eq_const %sum, dense<3.0> : tensor<2x3xf32>
  check.expect_eq_const %prod, dense<[[6.0, 6.0, 6.0], [6.0, 6.0, 6.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @subtract_multiply_divide_chain_f32() {
  %a = stablehlo.constant dense<[4.0, -6.0, 1.5]> : tensor<3xf32>
  %b = stablehlo.constant dense<[2.0, 3.0, 0.5]> : tensor<3xf32>
  %d = stablehlo.subtract %a, %b : tensor<3xf32>
  %m = stablehlo.multiply %d, %a : tensor<3xf32>
  %q = stablehlo.divide %m, %b : tensor<3xf32>
  %expected = stablehlo.constant dense<[4.0, 18.0, 3.0]> : tensor<3xf32>
  check.expect_eq %q, %expected : tensor<3xf32>
  func.return
}
