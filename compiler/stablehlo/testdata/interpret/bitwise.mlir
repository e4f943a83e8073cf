func.func @and_or_xor_op_test_i32() {
  %lhs = stablehlo.constant dense<[12, -1, 252645135, 0]> : tensor<4xi32>
  %rhs = stablehlo.constant dense<[10, 305419896, -252645136, -1]> : tensor<4xi32>
  %and = stablehlo.and %lhs, %rhs : tensor<4xi32>
  %or = stablehlo.or %lhs, %rhs : tensor<4xi32>
  %xor = stablehlo.xor %lhs, %rhs : tensor<4xi32>
  check.expect_eq_const %and, dense<[8, 305419896, 0, 0]> : tensor<4xi32>
  check.expect_eq_const %or, dense<[14, -1, -1, -1]> : tensor<4xi32>
  check.expect_eq_const %xor, dense<[6, -305419897, -1, -1]> : tensor<4xi32>
  func.return
}

// -----

func.func @and_or_xor_not_op_test_i1() {
  %lhs = stablehlo.constant dense<[true, true, false, false]> : tensor<4xi1>
  %rhs = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %and = stablehlo.and %lhs, %rhs : tensor<4xi1>
  %or = stablehlo.or %lhs, %rhs : tensor<4xi1>
  %xor = stablehlo.xor %lhs, %rhs : tensor<4xi1>
  %not = stablehlo.not %lhs : tensor<4xi1>
  check.expect_eq_const %and, dense<[true, false, false, false]> : tensor<4xi1>
  check.expect_eq_const %or, dense<[true, true, true, false]> : tensor<4xi1>
  check.expect_eq_const %xor, dense<[false, true, true, false]> : tensor<4xi1>
  check.expect_eq_const %not, dense<[false, false, true, true]> : tensor<4xi1>
  func.return
}

// -----

func.func @not_op_test_i32_ui8() {
  %a = stablehlo.constant dense<[0, -1, 5, 2147483647]> : tensor<4xi32>
  %u = stablehlo.constant dense<[0, 255, 15, 128]> : tensor<4xui8>
  %na = stablehlo.not %a : tensor<4xi32>
  %nu = stablehlo.not %u : tensor<4xui8>
  check.expect_eq_const %na, dense<[-1, 0, -6, -2147483648]> : tensor<4xi32>
  check.expect_eq_const %nu, dense<[255, 0, 240, 127]> : tensor<4xui8>
  func.return
}

// -----

func.func @shift_left_op_test_i32() {
  %lhs = stablehlo.constant dense<[1, 1, -1, 3, 7, 1]> : tensor<6xi32>
  %rhs = stablehlo.constant dense<[0, 31, 4, 30, 32, 33]> : tensor<6xi32>
  %result = stablehlo.shift_left %lhs, %rhs : tensor<6xi32>
  check.expect_eq_const %result, dense<[1, -2147483648, -16, -1073741824, 0, 0]> : tensor<6xi32>
  func.return
}

// -----

func.func @shift_right_logical_op_test_i32() {
  %lhs = stablehlo.constant dense<[-16, -16, 256, -1, -1, 12345]> : tensor<6xi32>
  %rhs = stablehlo.constant dense<[2, 31, 4, 0, 32, 40]> : tensor<6xi32>
  %result = stablehlo.shift_right_logical %lhs, %rhs : tensor<6xi32>
  check.expect_eq_const %result, dense<[1073741820, 1, 16, -1, 0, 0]> : tensor<6xi32>
  func.return
}

// -----

func.func @shift_right_arithmetic_op_test_i32() {
  %lhs = stablehlo.constant dense<[-16, -16, 256, -1, -1, 12345]> : tensor<6xi32>
  %rhs = stablehlo.constant dense<[2, 31, 4, 0, 32, 40]> : tensor<6xi32>
  %result = stablehlo.shift_right_arithmetic %lhs, %rhs : tensor<6xi32>
  check.expect_eq_const %result, dense<[-4, -1, 16, -1, -1, 0]> : tensor<6xi32>
  func.return
}

// -----

func.func @shift_op_test_i8() {
  %lhs = stablehlo.constant dense<[1, -128, 64, -1, 100]> : tensor<5xi8>
  %rhs = stablehlo.constant dense<[7, 1, 1, 3, 8]> : tensor<5xi8>
  %shl = stablehlo.shift_left %lhs, %rhs : tensor<5xi8>
  %lshr = stablehlo.shift_right_logical %lhs, %rhs : tensor<5xi8>
  %ashr = stablehlo.shift_right_arithmetic %lhs, %rhs : tensor<5xi8>
  check.expect_eq_const %shl, dense<[-128, 0, -128, -8, 0]> : tensor<5xi8>
  check.expect_eq_const %lshr, dense<[0, 64, 32, 31, 0]> : tensor<5xi8>
  check.expect_eq_const %ashr, dense<[0, -64, 32, -1, 0]> : tensor<5xi8>
  func.return
}

// -----

func.func @popcnt_op_test_i32() {
  %operand = stablehlo.constant dense<[0, 1, -1, 255, -2147483648, 1431655765]> : tensor<6xi32>
  %result = stablehlo.popcnt %operand : tensor<6xi32>
  check.expect_eq_const %result, dense<[0, 1, 32, 8, 1, 16]> : tensor<6xi32>
  func.return
}

// -----

func.func @popcnt_op_test_i64() {
  %operand = stablehlo.constant dense<[0, 1, -1, 1099511627776, -9223372036854775808]> : tensor<5xi64>
  %result = stablehlo.popcnt %operand : tensor<5xi64>
  check.expect_eq_const %result, dense<[0, 1, 64, 1, 1]> : tensor<5xi64>
  func.return
}

// -----

func.func @count_leading_zeros_op_test() {
  %a = stablehlo.constant dense<[0, 1, -1, 256, 2147483647, 65535]> : tensor<6xi32>
  %b = stablehlo.constant dense<[0, 1, 127, -1, 16]> : tensor<5xi8>
  %ra = stablehlo.count_leading_zeros %a : tensor<6xi32>
  %rb = stablehlo.count_leading_zeros %b : tensor<5xi8>
  check.expect_eq_const %ra, dense<[32, 31, 0, 23, 1, 16]> : tensor<6xi32>
  check.expect_eq_const %rb, dense<[8, 7, 1, 0, 3]> : tensor<5xi8>
  func.return
}

// -----

func.func @xor_and_shift_op_test_ui32() {
  %lhs = stablehlo.constant dense<[4026531840, 251658240, 2852126720, 4278190080]> : tensor<4xui32>
  %rhs = stablehlo.constant dense<[60, 255, 85, 1]> : tensor<4xui32>
  %shift = stablehlo.constant dense<24> : tensor<4xui32>
  %down = stablehlo.shift_right_logical %lhs, %shift : tensor<4xui32>
  %xor = stablehlo.xor %down, %rhs : tensor<4xui32>
  %up = stablehlo.shift_left %xor, %shift : tensor<4xui32>
  check.expect_eq_const %down, dense<[240, 15, 170, 255]> : tensor<4xui32>
  check.expect_eq_const %xor, dense<[204, 240, 255, 254]> : tensor<4xui32>
  check.expect_eq_const %up, dense<[3422552064, 4026531840, 4278190080, 4261412864]> : tensor<4xui32>
  func.return
}
