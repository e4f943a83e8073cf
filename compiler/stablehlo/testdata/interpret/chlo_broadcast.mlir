func.func @broadcast_and_op_test() {
  %m = stablehlo.constant dense<[[true, false, true], [false, true, true]]> : tensor<2x3xi1>
  %row = stablehlo.constant dense<[true, true, false]> : tensor<3xi1>
  %a = stablehlo.constant dense<[12, 10]> : tensor<2xi32>
  %b = stablehlo.constant dense<[[10, 6, -1], [3, 0, 8]]> : tensor<2x3xi32>
  %r0 = chlo.broadcast_and %m, %row : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %r1 = chlo.broadcast_and %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r0, dense<[[true, false, false], [false, true, false]]> : tensor<2x3xi1>
  check.expect_eq_const %r1, dense<[[8, 4, 12], [2, 0, 8]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @broadcast_atan2_op_test() {
  %y = stablehlo.constant dense<[1.0, -1.0, 0.5]> : tensor<3xf32>
  %x = stablehlo.constant dense<[[1.0, 1.0, -2.0], [-1.0, 0.0, 3.0]]> : tensor<2x3xf32>
  %r = chlo.broadcast_atan2 %y, %x {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const %r, dense<[[0.7853982, -0.7853982, 2.896614], [2.356194, -1.570796, 0.1651487]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_compare_op_test_numpy_style() {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[[0.0, 2.0, 4.0], [1.5, 1.5, 3.5]]> : tensor<2x3xf32>
  %r = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction GT>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  check.expect_eq_const %r, dense<[[true, false, false], [false, true, false]]> : tensor<2x3xi1>
  func.return
}

// -----

func.func @broadcast_compare_op_test_compare_type() {
  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %col = stablehlo.constant dense<[2.0, 5.0]> : tensor<2xf32>
  %le = chlo.broadcast_compare %m, %col {broadcast_dimensions = array<i64: 0>, comparison_direction = #chlo<comparison_direction LE>, compare_type = #chlo<comparison_type FLOAT>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xi1>
  %ne = chlo.broadcast_compare %m, %col {broadcast_dimensions = array<i64: 0>, comparison_direction = #chlo<comparison_direction NE>, compare_type = #chlo<comparison_type FLOAT>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xi1>
  check.expect_eq_const %le, dense<[[true, true, false], [true, true, false]]> : tensor<2x3xi1>
  check.expect_eq_const %ne, dense<[[true, false, true], [true, false, true]]> : tensor<2x3xi1>
  func.return
}

// -----

func.func @broadcast_complex_op_test() {
  %re = stablehlo.constant dense<[[1.0, 2.0, 3.0], [-4.0, 0.5, 0.0]]> : tensor<2x3xf32>
  %im = stablehlo.constant dense<[10.0, -20.0, 0.25]> : tensor<3xf32>
  %c = chlo.broadcast_complex %re, %im : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xcomplex<f32>>
  %r = stablehlo.real %c : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  %i = stablehlo.imag %c : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  check.expect_eq_const %r, dense<[[1.0, 2.0, 3.0], [-4.0, 0.5, 0.0]]> : tensor<2x3xf32>
  check.expect_eq_const %i, dense<[[10.0, -20.0, 0.25], [10.0, -20.0, 0.25]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_divide_op_test() {
  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [-4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = stablehlo.constant dense<4.0> : tensor<f32>
  %num = stablehlo.constant dense<[[7, -7, 9], [-9, 8, 1]]> : tensor<2x3xi32>
  %den = stablehlo.constant dense<[2, -3]> : tensor<2xi32>
  %r0 = chlo.broadcast_divide %m, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %r1 = chlo.broadcast_divide %num, %den {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r0, dense<[[0.25, 0.5, 0.75], [-1.0, 1.25, 1.5]]> : tensor<2x3xf32>
  check.expect_eq_const %r1, dense<[[3, -3, 4], [3, -2, 0]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @broadcast_maximum_op_test() {
  %m = stablehlo.constant dense<[[1.0, -2.0, 3.0], [4.0, -5.0, 0.5]]> : tensor<2x3xf32>
  %row = stablehlo.constant dense<[[2.0, -3.0, 0.0]]> : tensor<1x3xf32>
  %a = stablehlo.constant dense<[5, -1]> : tensor<2xi32>
  %b = stablehlo.constant dense<[[1, 7], [-3, 0]]> : tensor<2x2xi32>
  %r0 = chlo.broadcast_maximum %m, %row : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %r1 = chlo.broadcast_maximum %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r0, dense<[[2.0, -2.0, 3.0], [4.0, -3.0, 0.5]]> : tensor<2x3xf32>
  check.expect_eq_const %r1, dense<[[5, 7], [-1, 0]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @broadcast_minimum_op_test() {
  %m = stablehlo.constant dense<[[1.0, -2.0, 3.0], [4.0, -5.0, 0.5]]> : tensor<2x3xf32>
  %row = stablehlo.constant dense<[[2.0, -3.0, 0.0]]> : tensor<1x3xf32>
  %a = stablehlo.constant dense<[5, -1]> : tensor<2xi32>
  %b = stablehlo.constant dense<[[1, 7], [-3, 0]]> : tensor<2x2xi32>
  %r0 = chlo.broadcast_minimum %m, %row : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %r1 = chlo.broadcast_minimum %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r0, dense<[[1.0, -3.0, 0.0], [2.0, -5.0, 0.0]]> : tensor<2x3xf32>
  check.expect_eq_const %r1, dense<[[1, 5], [-3, -1]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @broadcast_or_op_test() {
  %m = stablehlo.constant dense<[[true, false, true], [false, false, true]]> : tensor<2x3xi1>
  %col = stablehlo.constant dense<[false, true]> : tensor<2xi1>
  %a = stablehlo.constant dense<[[1, 2], [4, 8]]> : tensor<2x2xi32>
  %s = stablehlo.constant dense<3> : tensor<i32>
  %r0 = chlo.broadcast_or %m, %col {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi1>, tensor<2xi1>) -> tensor<2x3xi1>
  %r1 = chlo.broadcast_or %s, %a : (tensor<i32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r0, dense<[[true, false, true], [true, true, true]]> : tensor<2x3xi1>
  check.expect_eq_const %r1, dense<[[3, 3], [7, 11]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @broadcast_power_op_test() {
  %base = stablehlo.constant dense<[2.0, -3.0, 0.5]> : tensor<3xf32>
  %exp = stablehlo.constant dense<[[2.0], [3.0]]> : tensor<2x1xf32>
  %ib = stablehlo.constant dense<[2, -3, 1, 5]> : tensor<4xi32>
  %ie = stablehlo.constant dense<3> : tensor<i32>
  %r0 = chlo.broadcast_power %base, %exp : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %r1 = chlo.broadcast_power %ib, %ie : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_almost_eq_const %r0, dense<[[4.0, 9.0, 0.25], [8.0, -27.0, 0.125]]> : tensor<2x3xf32>
  check.expect_eq_const %r1, dense<[8, -27, 1, 125]> : tensor<4xi32>
  func.return
}

// -----

func.func @broadcast_remainder_op_test() {
  %a = stablehlo.constant dense<[[5.5, -5.5], [7.0, -1.25]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[2.0, -3.0]> : tensor<2xf32>
  %ia = stablehlo.constant dense<[[7, -7, 6], [5, -5, 0]]> : tensor<2x3xi32>
  %ib = stablehlo.constant dense<[3, -4]> : tensor<2xi32>
  %r0 = chlo.broadcast_remainder %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %r1 = chlo.broadcast_remainder %ia, %ib {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_almost_eq_const %r0, dense<[[1.5, -1.5], [1.0, -1.25]]> : tensor<2x2xf32>
  check.expect_eq_const %r1, dense<[[1, -1, 0], [1, -1, 0]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @broadcast_select_op_test() {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = stablehlo.constant dense<[[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]]> : tensor<2x3xf32>
  %r0 = chlo.broadcast_select %t, %a, %b : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r1 = chlo.broadcast_select %f, %a, %b : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %r0, dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  check.expect_eq_const %r1, dense<[[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_select_op_test_elementwise_pred() {
  %p = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = stablehlo.constant dense<0.0> : tensor<f32>
  %r = chlo.broadcast_select %p, %a, %b : (tensor<3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  check.expect_eq_const %r, dense<[[1.0, 0.0, 3.0], [4.0, 0.0, 6.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_shift_left_op_test() {
  %a = stablehlo.constant dense<[1, -3, 5, 7]> : tensor<4xi32>
  %s = stablehlo.constant dense<[[0], [4]]> : tensor<2x1xi32>
  %r = chlo.broadcast_shift_left %a, %s : (tensor<4xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  check.expect_eq_const %r, dense<[[1, -3, 5, 7], [16, -48, 80, 112]]> : tensor<2x4xi32>
  func.return
}

// -----

func.func @broadcast_shift_right_arithmetic_op_test() {
  %a = stablehlo.constant dense<[[-16, 16, -1], [100, -100, 7]]> : tensor<2x3xi32>
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %r = chlo.broadcast_shift_right_arithmetic %a, %s {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[-4, 4, -1], [12, -13, 0]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @broadcast_shift_right_logical_op_test() {
  %a = stablehlo.constant dense<[[-16, 16, -1], [100, -100, 7]]> : tensor<2x3xi32>
  %s = stablehlo.constant dense<[28, 3]> : tensor<2xi32>
  %r = chlo.broadcast_shift_right_logical %a, %s {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[15, 0, 15], [12, 536870899, 0]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @broadcast_xor_op_test() {
  %m = stablehlo.constant dense<[[true, false, true], [false, false, true]]> : tensor<2x3xi1>
  %row = stablehlo.constant dense<[true, false, false]> : tensor<3xi1>
  %a = stablehlo.constant dense<[[1, 2], [12, -1]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[3, 10]> : tensor<2xi32>
  %r0 = chlo.broadcast_xor %m, %row : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %r1 = chlo.broadcast_xor %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<2x2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r0, dense<[[false, false, true], [true, false, true]]> : tensor<2x3xi1>
  check.expect_eq_const %r1, dense<[[2, 1], [6, -11]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @constant_op_test() {
  %c = chlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %i = chlo.constant dense<[[3, -4], [5, 6]]> : tensor<2x2xi32>
  check.expect_eq_const %c, dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_eq_const %i, dense<[[3, -4], [5, 6]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @constant_like_op_test() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %c = "chlo.constant_like"(%a) {value = 3.0 : f32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %sum = stablehlo.add %a, %c : tensor<2x2xf32>
  check.expect_eq_const %c, dense<3.0> : tensor<2x2xf32>
  check.expect_eq_const %sum, dense<[[4.0, 5.0], [6.0, 7.0]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @is_neg_inf_op_test() {
  %a = stablehlo.constant dense<[0xFF800000, 0x7F800000, -1.0, 0x7FC00000]> : tensor<4xf32>
  %r = chlo.is_neg_inf %a : tensor<4xf32> -> tensor<4xi1>
  check.expect_eq_const %r, dense<[true, false, false, false]> : tensor<4xi1>
  func.return
}

// -----

func.func @is_pos_inf_op_test() {
  %a = stablehlo.constant dense<[0xFF800000, 0x7F800000, 3.0e+38, 0x7FC00000]> : tensor<4xf32>
  %r = chlo.is_pos_inf %a : tensor<4xf32> -> tensor<4xi1>
  check.expect_eq_const %r, dense<[false, true, false, false]> : tensor<4xi1>
  func.return
}

// -----

func.func @square_op_test() {
  %a = stablehlo.constant dense<[1.5, -2.0, 0.0]> : tensor<3xf32>
  %r = chlo.square %a : tensor<3xf32> -> tensor<3xf32>
  %i = stablehlo.constant dense<[-3, 4]> : tensor<2xi32>
  %ri = chlo.square %i : tensor<2xi32> -> tensor<2xi32>
  check.expect_eq_const %r, dense<[2.25, 4.0, 0.0]> : tensor<3xf32>
  check.expect_eq_const %ri, dense<[9, 16]> : tensor<2xi32>
  func.return
}
