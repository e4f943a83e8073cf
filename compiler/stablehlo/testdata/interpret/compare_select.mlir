func.func @compare_op_test_f32_all_directions() {
  %lhs = stablehlo.constant dense<[1.0, 2.0, -3.0, 0.0, 5.5]> : tensor<5xf32>
  %rhs = stablehlo.constant dense<[1.0, 1.0, 3.0, -0.0, 6.0]> : tensor<5xf32>
  %eq = stablehlo.compare  EQ, %lhs, %rhs,  FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %ne = stablehlo.compare  NE, %lhs, %rhs,  FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %lt = stablehlo.compare  LT, %lhs, %rhs,  FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %le = stablehlo.compare  LE, %lhs, %rhs,  FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %gt = stablehlo.compare  GT, %lhs, %rhs,  FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %ge = stablehlo.compare  GE, %lhs, %rhs,  FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %eq, dense<[true, false, false, true, false]> : tensor<5xi1>
  check.expect_eq_const %ne, dense<[false, true, true, false, true]> : tensor<5xi1>
  check.expect_eq_const %lt, dense<[false, false, true, false, true]> : tensor<5xi1>
  check.expect_eq_const %le, dense<[true, false, true, true, true]> : tensor<5xi1>
  check.expect_eq_const %gt, dense<[false, true, false, false, false]> : tensor<5xi1>
  check.expect_eq_const %ge, dense<[true, true, false, true, false]> : tensor<5xi1>
  func.return
}

// -----

func.func @compare_op_test_f32_nan() {
  %lhs = stablehlo.constant dense<[1.0, 0x7FC00000, 0x7FC00000, 2.0]> : tensor<4xf32>
  %rhs = stablehlo.constant dense<[0x7FC00000, 0x7FC00000, 1.0, 2.0]> : tensor<4xf32>
  %eq = stablehlo.compare  EQ, %lhs, %rhs,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %ne = stablehlo.compare  NE, %lhs, %rhs,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %lt = stablehlo.compare  LT, %lhs, %rhs,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %eq, dense<[false, false, false, true]> : tensor<4xi1>
  check.expect_eq_const %ne, dense<[true, true, true, false]> : tensor<4xi1>
  check.expect_eq_const %lt, dense<[false, false, false, false]> : tensor<4xi1>
  func.return
}

// -----

func.func @compare_op_test_i32_signed() {
  %lhs = stablehlo.constant dense<[-5, 3, -2147483648, 7]> : tensor<4xi32>
  %rhs = stablehlo.constant dense<[2, 3, 2147483647, -7]> : tensor<4xi32>
  %lt = stablehlo.compare  LT, %lhs, %rhs,  SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %ge = stablehlo.compare  GE, %lhs, %rhs,  SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  check.expect_eq_const %lt, dense<[true, false, true, false]> : tensor<4xi1>
  check.expect_eq_const %ge, dense<[false, true, false, true]> : tensor<4xi1>
  func.return
}

// -----

func.func @compare_op_test_ui32_unsigned() {
  %lhs = stablehlo.constant dense<[1, 4294967295, 2147483648, 0]> : tensor<4xui32>
  %rhs = stablehlo.constant dense<[2, 1, 2147483647, 0]> : tensor<4xui32>
  %gt = stablehlo.compare  GT, %lhs, %rhs,  UNSIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %le = stablehlo.compare  LE, %lhs, %rhs,  UNSIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  check.expect_eq_const %gt, dense<[false, true, true, false]> : tensor<4xi1>
  check.expect_eq_const %le, dense<[true, false, false, true]> : tensor<4xi1>
  func.return
}

// -----

func.func @compare_op_test_f32_totalorder() {
  %lhs = stablehlo.constant dense<[-0.0, 1.0, 0xFF800000, 2.0, 0.0]> : tensor<5xf32>
  %rhs = stablehlo.constant dense<[0.0, 1.0, -3.0, 0x7F800000, -0.0]> : tensor<5xf32>
  %lt = stablehlo.compare  LT, %lhs, %rhs,  TOTALORDER : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %eq = stablehlo.compare  EQ, %lhs, %rhs,  TOTALORDER : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %lt, dense<[true, false, true, true, false]> : tensor<5xi1>
  check.expect_eq_const %eq, dense<[false, true, false, false, false]> : tensor<5xi1>
  func.return
}

// -----

func.func @compare_op_test_i32_default_type() {
  %lhs = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %rhs = stablehlo.constant dense<[1, 0, 3, 5]> : tensor<4xi32>
  %eq = stablehlo.compare  EQ, %lhs, %rhs : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %ne = stablehlo.compare  NE, %lhs, %rhs : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  check.expect_eq_const %eq, dense<[true, false, true, false]> : tensor<4xi1>
  check.expect_eq_const %ne, dense<[false, true, false, true]> : tensor<4xi1>
  func.return
}

// -----

func.func @select_op_test_f32() {
  %pred = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %on_true = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %on_false = stablehlo.constant dense<[-1.0, -2.0, -3.0, -4.0]> : tensor<4xf32>
  %result = stablehlo.select %pred, %on_true, %on_false : tensor<4xi1>, tensor<4xf32>
  check.expect_eq_const %result, dense<[1.0, -2.0, 3.0, -4.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @select_op_test_scalar_pred_i32() {
  %true = stablehlo.constant dense<true> : tensor<i1>
  %false = stablehlo.constant dense<false> : tensor<i1>
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[[10, 20], [30, 40]]> : tensor<2x2xi32>
  %r0 = stablehlo.select %true, %a, %b : tensor<i1>, tensor<2x2xi32>
  %r1 = stablehlo.select %false, %a, %b : tensor<i1>, tensor<2x2xi32>
  check.expect_eq_const %r0, dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  check.expect_eq_const %r1, dense<[[10, 20], [30, 40]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @compare_then_select_max_f32() {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[4.0, 3.0, 2.0, 1.0]> : tensor<4xf32>
  %gt = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %max = stablehlo.select %gt, %a, %b : tensor<4xi1>, tensor<4xf32>
  %expected = stablehlo.maximum %a, %b : tensor<4xf32>
  check.expect_eq %max, %expected : tensor<4xf32>
  func.return
}

// -----

func.func @clamp_op_test_f32() {
  %min = stablehlo.constant dense<[0.0, 0.0, -1.0, 0.0]> : tensor<4xf32>
  %operand = stablehlo.constant dense<[-1.0, 0.5, 3.0, 2.0]> : tensor<4xf32>
  %max = stablehlo.constant dense<[1.0, 1.0, 2.0, 1.5]> : tensor<4xf32>
  %result = stablehlo.clamp %min, %operand, %max : tensor<4xf32>
  check.expect_eq_const %result, dense<[0.0, 0.5, 2.0, 1.5]> : tensor<4xf32>
  func.return
}

// -----

func.func @clamp_op_test_i32_scalar_bounds() {
  %min = stablehlo.constant dense<0> : tensor<i32>
  %operand = stablehlo.constant dense<[-300, -5, 0, 17, 255, 1000]> : tensor<6xi32>
  %max = stablehlo.constant dense<255> : tensor<i32>
  %result = stablehlo.clamp %min, %operand, %max : (tensor<i32>, tensor<6xi32>, tensor<i32>) -> tensor<6xi32>
  check.expect_eq_const %result, dense<[0, 0, 0, 17, 255, 255]> : tensor<6xi32>
  func.return
}
