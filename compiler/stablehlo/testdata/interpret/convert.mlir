func.func @convert_op_test_f32_to_i32() {
  %operand = stablehlo.constant dense<[-2.75, -0.5, 0.5, 2.75, 3.0, -100.25]> : tensor<6xf32>
  %result = stablehlo.convert %operand : (tensor<6xf32>) -> tensor<6xi32>
  check.expect_eq_const %result, dense<[-2, 0, 0, 2, 3, -100]> : tensor<6xi32>
  func.return
}

// -----

func.func @convert_op_test_i32_to_f32() {
  %operand = stablehlo.constant dense<[-3, 0, 16777217, 2147483647, 100]> : tensor<5xi32>
  %result = stablehlo.convert %operand : (tensor<5xi32>) -> tensor<5xf32>
  check.expect_eq_const %result, dense<[-3.0, 0.0, 16777216.0, 2147483648.0, 100.0]> : tensor<5xf32>
  func.return
}

// -----

func.func @convert_op_test_i32_to_i8_wrap() {
  %operand = stablehlo.constant dense<[127, 128, 255, 256, -129, -1]> : tensor<6xi32>
  %result = stablehlo.convert %operand : (tensor<6xi32>) -> tensor<6xi8>
  check.expect_eq_const %result, dense<[127, -128, -1, 0, 127, -1]> : tensor<6xi8>
  func.return
}

// -----

func.func @convert_op_test_i8_to_i32_sign_extend() {
  %operand = stablehlo.constant dense<[-1, 127, -128, 5]> : tensor<4xi8>
  %result = stablehlo.convert %operand : (tensor<4xi8>) -> tensor<4xi32>
  check.expect_eq_const %result, dense<[-1, 127, -128, 5]> : tensor<4xi32>
  func.return
}

// -----

func.func @convert_op_test_ui8_to_i32_zero_extend() {
  %operand = stablehlo.constant dense<[255, 0, 128, 7]> : tensor<4xui8>
  %result = stablehlo.convert %operand : (tensor<4xui8>) -> tensor<4xi32>
  check.expect_eq_const %result, dense<[255, 0, 128, 7]> : tensor<4xi32>
  func.return
}

// -----

func.func @convert_op_test_f32_to_f16() {
  %operand = stablehlo.constant dense<[1.0, 0.1, 65504.0, 0.33333334, -0.0025]> : tensor<5xf32>
  %result = stablehlo.convert %operand : (tensor<5xf32>) -> tensor<5xf16>
  check.expect_eq_const %result, dense<[1.0, 0.0999755859375, 65504.0, 0.333251953125, -0.0025005340576171875]> : tensor<5xf16>
  func.return
}

// -----

func.func @convert_op_test_f32_to_bf16() {
  %operand = stablehlo.constant dense<[1.0, 3.1415927, 0.1, -258.5, 10000000000.0]> : tensor<5xf32>
  %result = stablehlo.convert %operand : (tensor<5xf32>) -> tensor<5xbf16>
  check.expect_eq_const %result, dense<[1.0, 3.140625, 0.10009765625, -258.0, 9999220736.0]> : tensor<5xbf16>
  func.return
}

// -----

func.func @convert_op_test_f32_f64_round_trip() {
  %operand = stablehlo.constant dense<[0.1, -3.5, 10000000000.0]> : tensor<3xf64>
  %narrow = stablehlo.convert %operand : (tensor<3xf64>) -> tensor<3xf32>
  %wide = stablehlo.convert %narrow : (tensor<3xf32>) -> tensor<3xf64>
  check.expect_eq_const %narrow, dense<[0.1, -3.5, 10000000000.0]> : tensor<3xf32>
  check.expect_eq_const %wide, dense<[0.10000000149011612, -3.5, 10000000000.0]> : tensor<3xf64>
  func.return
}

// -----

func.func @convert_op_test_i1() {
  %bools = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %ints = stablehlo.constant dense<[0, 1, -3, 2]> : tensor<4xi32>
  %floats = stablehlo.constant dense<[0.0, -0.5, 2.0]> : tensor<3xf32>
  %b2i = stablehlo.convert %bools : (tensor<3xi1>) -> tensor<3xi32>
  %b2f = stablehlo.convert %bools : (tensor<3xi1>) -> tensor<3xf32>
  %i2b = stablehlo.convert %ints : (tensor<4xi32>) -> tensor<4xi1>
  %f2b = stablehlo.convert %floats : (tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %b2i, dense<[1, 0, 1]> : tensor<3xi32>
  check.expect_eq_const %b2f, dense<[1.0, 0.0, 1.0]> : tensor<3xf32>
  check.expect_eq_const %i2b, dense<[false, true, true, true]> : tensor<4xi1>
  check.expect_eq_const %f2b, dense<[false, true, true]> : tensor<3xi1>
  func.return
}

// -----

func.func @convert_op_test_f64_to_i64() {
  %operand = stablehlo.constant dense<[10000000000.0, -3.5, 9007199254740992.0]> : tensor<3xf64>
  %result = stablehlo.convert %operand : (tensor<3xf64>) -> tensor<3xi64>
  check.expect_eq_const %result, dense<[10000000000, -3, 9007199254740992]> : tensor<3xi64>
  func.return
}

// -----

func.func @convert_op_test_ui32_to_f32() {
  %operand = stablehlo.constant dense<[4294967295, 0, 3000000000]> : tensor<3xui32>
  %result = stablehlo.convert %operand : (tensor<3xui32>) -> tensor<3xf32>
  check.expect_eq_const %result, dense<[4294967296.0, 0.0, 3000000000.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @bitcast_convert_op_test_f32_i32() {
  %operand = stablehlo.constant dense<[1.0, -2.0, 0.0, 0.5]> : tensor<4xf32>
  %bits = stablehlo.bitcast_convert %operand : (tensor<4xf32>) -> tensor<4xi32>
  %back = stablehlo.bitcast_convert %bits : (tensor<4xi32>) -> tensor<4xf32>
  check.expect_eq_const %bits, dense<[1065353216, -1073741824, 0, 1056964608]> : tensor<4xi32>
  check.expect_eq %back, %operand : tensor<4xf32>
  func.return
}

// -----

func.func @bitcast_convert_op_test_hex_constant() {
  %operand = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %bits = stablehlo.bitcast_convert %operand : (tensor<2xf32>) -> tensor<2xui32>
  check.expect_eq_const %operand, dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_eq_const %bits, dense<[1065353216, 1073741824]> : tensor<2xui32>
  func.return
}
