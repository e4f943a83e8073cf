func.func @i1_constant_and_logic() {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %v = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %b = stablehlo.broadcast_in_dim %t, dims = [] : (tensor<i1>) -> tensor<3xi1>
  %x = stablehlo.xor %v, %b : tensor<3xi1>
  check.expect_eq_const %x, dense<[false, true, false]> : tensor<3xi1>
  check.expect_eq_const %t, dense<true> : tensor<i1>
  func.return
}

// -----

func.func @i8_arithmetic_wrap() {
  %lhs = stablehlo.constant dense<[100, -100, 127, -128]> : tensor<4xi8>
  %rhs = stablehlo.constant dense<[100, -100, 1, 3]> : tensor<4xi8>
  %add = stablehlo.add %lhs, %rhs : tensor<4xi8>
  %multiply = stablehlo.multiply %lhs, %rhs : tensor<4xi8>
  %divide = stablehlo.divide %lhs, %rhs : tensor<4xi8>
  check.expect_eq_const %add, dense<[-56, 56, -128, -125]> : tensor<4xi8>
  check.expect_eq_const %multiply, dense<[16, 16, 127, -128]> : tensor<4xi8>
  check.expect_eq_const %divide, dense<[1, 1, 127, -42]> : tensor<4xi8>
  func.return
}

// -----

func.func @i16_arithmetic_wrap() {
  %lhs = stablehlo.constant dense<[300, -32768, 1000, 32767]> : tensor<4xi16>
  %rhs = stablehlo.constant dense<[300, 1, -7, 2]> : tensor<4xi16>
  %multiply = stablehlo.multiply %lhs, %rhs : tensor<4xi16>
  %subtract = stablehlo.subtract %lhs, %rhs : tensor<4xi16>
  %remainder = stablehlo.remainder %lhs, %rhs : tensor<4xi16>
  check.expect_eq_const %multiply, dense<[24464, -32768, -7000, -2]> : tensor<4xi16>
  check.expect_eq_const %subtract, dense<[0, 32767, 1007, 32765]> : tensor<4xi16>
  check.expect_eq_const %remainder, dense<[0, 0, 6, 1]> : tensor<4xi16>
  func.return
}

// -----

func.func @i32_arithmetic() {
  %lhs = stablehlo.constant dense<[123456, -98765, 2147483647]> : tensor<3xi32>
  %rhs = stablehlo.constant dense<[654321, 4321, -2147483647]> : tensor<3xi32>
  %add = stablehlo.add %lhs, %rhs : tensor<3xi32>
  %multiply = stablehlo.multiply %lhs, %rhs : tensor<3xi32>
  check.expect_eq_const %add, dense<[777777, -94444, 0]> : tensor<3xi32>
  check.expect_eq_const %multiply, dense<[-824525248, -426763565, -1]> : tensor<3xi32>
  func.return
}

// -----

func.func @i64_arithmetic() {
  %lhs = stablehlo.constant dense<[1099511627776, -4611686018427387904, 9223372036854775807]> : tensor<3xi64>
  %rhs = stablehlo.constant dense<[1, -4611686018427387904, 1]> : tensor<3xi64>
  %add = stablehlo.add %lhs, %rhs : tensor<3xi64>
  %multiply = stablehlo.multiply %lhs, %rhs : tensor<3xi64>
  check.expect_eq_const %add, dense<[1099511627777, -9223372036854775808, -9223372036854775808]> : tensor<3xi64>
  check.expect_eq_const %multiply, dense<[1099511627776, 0, 9223372036854775807]> : tensor<3xi64>
  func.return
}

// -----

func.func @ui8_arithmetic_wrap() {
  %lhs = stablehlo.constant dense<[200, 0, 255, 17]> : tensor<4xui8>
  %rhs = stablehlo.constant dense<[100, 1, 255, 5]> : tensor<4xui8>
  %add = stablehlo.add %lhs, %rhs : tensor<4xui8>
  %subtract = stablehlo.subtract %lhs, %rhs : tensor<4xui8>
  %divide = stablehlo.divide %lhs, %rhs : tensor<4xui8>
  %maximum = stablehlo.maximum %lhs, %rhs : tensor<4xui8>
  check.expect_eq_const %add, dense<[44, 1, 254, 22]> : tensor<4xui8>
  check.expect_eq_const %subtract, dense<[100, 255, 0, 12]> : tensor<4xui8>
  check.expect_eq_const %divide, dense<[2, 0, 1, 3]> : tensor<4xui8>
  check.expect_eq_const %maximum, dense<[200, 1, 255, 17]> : tensor<4xui8>
  func.return
}

// -----

func.func @ui32_arithmetic_wrap() {
  %lhs = stablehlo.constant dense<[1, 4294967295, 3000000000, 7]> : tensor<4xui32>
  %rhs = stablehlo.constant dense<[2, 2, 7, 3000000000]> : tensor<4xui32>
  %subtract = stablehlo.subtract %lhs, %rhs : tensor<4xui32>
  %divide = stablehlo.divide %lhs, %rhs : tensor<4xui32>
  %remainder = stablehlo.remainder %lhs, %rhs : tensor<4xui32>
  %minimum = stablehlo.minimum %lhs, %rhs : tensor<4xui32>
  check.expect_eq_const %subtract, dense<[4294967295, 4294967293, 2999999993, 1294967303]> : tensor<4xui32>
  check.expect_eq_const %divide, dense<[0, 2147483647, 428571428, 0]> : tensor<4xui32>
  check.expect_eq_const %remainder, dense<[1, 1, 4, 7]> : tensor<4xui32>
  check.expect_eq_const %minimum, dense<[1, 2, 7, 7]> : tensor<4xui32>
  func.return
}

// -----

func.func @f16_arithmetic() {
  %lhs = stablehlo.constant dense<[1.5, 2048.0, 0.0999755859375, -65504.0]> : tensor<4xf16>
  %rhs = stablehlo.constant dense<[0.25, 1.0, 0.199951171875, 1.0]> : tensor<4xf16>
  %add = stablehlo.add %lhs, %rhs : tensor<4xf16>
  %mul = stablehlo.multiply %lhs, %rhs : tensor<4xf16>
  check.expect_eq_const %add, dense<[1.75, 2048.0, 0.2998046875, -65504.0]> : tensor<4xf16>
  check.expect_eq_const %mul, dense<[0.375, 2048.0, 0.019989013671875, -65504.0]> : tensor<4xf16>
  func.return
}

// -----

func.func @bf16_arithmetic() {
  %lhs = stablehlo.constant dense<[1.5, 256.0, 3.0, -0.5]> : tensor<4xbf16>
  %rhs = stablehlo.constant dense<[2.0, 1.0, 0.375, 0.0078125]> : tensor<4xbf16>
  %add = stablehlo.add %lhs, %rhs : tensor<4xbf16>
  %mul = stablehlo.multiply %lhs, %rhs : tensor<4xbf16>
  check.expect_eq_const %add, dense<[3.5, 256.0, 3.375, -0.4921875]> : tensor<4xbf16>
  check.expect_eq_const %mul, dense<[3.0, 256.0, 1.125, -0.00390625]> : tensor<4xbf16>
  func.return
}

// -----

func.func @f64_arithmetic() {
  %lhs = stablehlo.constant dense<[0.1, 1.0e+300, 1.0]> : tensor<3xf64>
  %rhs = stablehlo.constant dense<[0.2, 10000000000.0, 1.0e-16]> : tensor<3xf64>
  %add = stablehlo.add %lhs, %rhs : tensor<3xf64>
  %mul = stablehlo.multiply %lhs, %rhs : tensor<3xf64>
  check.expect_eq_const %add, dense<[0.30000000000000004, 1.0e+300, 1.0]> : tensor<3xf64>
  check.expect_eq_const %mul, dense<[0.020000000000000004, 0x7FF0000000000000, 1.0e-16]> : tensor<3xf64>
  func.return
}

// -----

func.func @f64_transcendental() {
  %operand = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %exp = stablehlo.exponential %operand : tensor<2xf64>
  %log = stablehlo.log %operand : tensor<2xf64>
  check.expect_almost_eq_const %exp, dense<[2.71828182846, 7.38905609893]> : tensor<2xf64>
  check.expect_almost_eq_const %log, dense<[0.0, 0.69314718056]> : tensor<2xf64>
  func.return
}

// -----

func.func @mixed_width_constants() {
  %a = stablehlo.constant dense<-5> : tensor<i8>
  %b = stablehlo.constant dense<[65535, 0]> : tensor<2xui16>
  %c = stablehlo.constant dense<[[1, -1]]> : tensor<1x2xi64>
  %d = stablehlo.constant dense<[0.5, -0.25]> : tensor<2xf16>
  %e = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xbf16>
  %f = stablehlo.constant dense<1.0e-300> : tensor<f64>
  %g = stablehlo.constant dense<255> : tensor<ui8>
  %a32 = stablehlo.convert %a : (tensor<i8>) -> tensor<i32>
  %b32 = stablehlo.convert %b : (tensor<2xui16>) -> tensor<2xi32>
  %c32 = stablehlo.convert %c : (tensor<1x2xi64>) -> tensor<1x2xi32>
  %d32 = stablehlo.convert %d : (tensor<2xf16>) -> tensor<2xf32>
  %e32 = stablehlo.convert %e : (tensor<2x2xbf16>) -> tensor<2x2xf32>
  %fw = stablehlo.convert %f : (tensor<f64>) -> tensor<f32>
  %g32 = stablehlo.convert %g : (tensor<ui8>) -> tensor<i32>
  check.expect_eq_const %a32, dense<-5> : tensor<i32>
  check.expect_eq_const %b32, dense<[65535, 0]> : tensor<2xi32>
  check.expect_eq_const %c32, dense<[[1, -1]]> : tensor<1x2xi32>
  check.expect_eq_const %d32, dense<[0.5, -0.25]> : tensor<2xf32>
  check.expect_eq_const %e32, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  check.expect_eq_const %fw, dense<0.0> : tensor<f32>
  check.expect_eq_const %g32, dense<255> : tensor<i32>
  func.return
}
