// CHLO's erfc (Cephes' rational approximations, in f64) and next_after
// (one step of the bits toward the second operand); the expected values are
// Python's math.erfc rounded to the element type, and the bit patterns of
// IEEE's nextafter.

func.func @erfc_op_test_f32() {
  %x = stablehlo.constant dense<[-3.50000000e+00, -1.00000000e+00, -5.00000000e-01, 0.00000000e+00, 2.50000000e-01, 8.75000000e-01, 1.00000000e+00, 1.50000000e+00, 4.00000000e+00, 9.00000000e+00, 1.05000000e+01, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<14xf32>
  %r = chlo.erfc %x : tensor<14xf32> -> tensor<14xf32>
  %e = stablehlo.constant dense<[1.99999928e+00, 1.84270084e+00, 1.52049983e+00, 1.00000000e+00, 7.23673582e-01, 2.15924934e-01, 1.57299206e-01, 3.38948518e-02, 1.54172586e-08, 4.13703171e-37, 0.00000000e+00, 0.00000000e+00, 2.00000000e+00, 0x7FC00000]> : tensor<14xf32>
  check.expect_close %r, %e, max_ulp_difference = 3 : tensor<14xf32>, tensor<14xf32>
  func.return
}

// -----

func.func @erfc_op_test_f64() {
  %x = stablehlo.constant dense<[-5.5000000000000000e+00, -1.0000000000000000e+00, 1.2500000000000000e-01, 7.5000000000000000e-01, 1.0000000000000000e+00, 2.2500000000000000e+00, 7.7500000000000000e+00, 8.0000000000000000e+00, 1.2000000000000000e+01, 2.6000000000000000e+01, 3.0000000000000000e+01, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<13xf64>
  %r = chlo.erfc %x : tensor<13xf64> -> tensor<13xf64>
  %e = stablehlo.constant dense<[1.9999999999999927e+00, 1.8427007929497150e+00, 8.5968379519866622e-01, 2.8884436634648486e-01, 1.5729920705028513e-01, 1.4627165866811518e-03, 5.9397478595171460e-28, 1.1224297172982928e-29, 1.3562611692059042e-64, 5.6631924088561432e-296, 0.0000000000000000e+00, 0.0000000000000000e+00, 0x7FF8000000000000]> : tensor<13xf64>
  check.expect_close %r, %e, max_ulp_difference = 3 : tensor<13xf64>, tensor<13xf64>
  func.return
}

// -----

func.func @erfc_op_test_f16() {
  %x = stablehlo.constant dense<[-2.00000000e+00, -5.00000000e-01, 0.00000000e+00, 7.50000000e-01, 1.25000000e+00, 2.50000000e+00, 3.00000000e+00, 4.50000000e+00]> : tensor<8xf16>
  %r = chlo.erfc %x : tensor<8xf16> -> tensor<8xf16>
  %e = stablehlo.constant dense<[1.99511719e+00, 1.52050781e+00, 1.00000000e+00, 2.88818359e-01, 7.70874023e-02, 4.06980515e-04, 2.21133232e-05, 0.00000000e+00]> : tensor<8xf16>
  check.expect_close %r, %e, max_ulp_difference = 3 : tensor<8xf16>, tensor<8xf16>
  func.return
}

// -----

func.func @erfc_op_test_bf16() {
  %x = stablehlo.constant dense<[-1.50000000e+00, 5.00000000e-01, 2.00000000e+00, 5.00000000e+00, 8.50000000e+00, 1.10000000e+01]> : tensor<6xbf16>
  %r = chlo.erfc %x : tensor<6xbf16> -> tensor<6xbf16>
  %e = stablehlo.constant dense<[1.96875000e+00, 4.80468750e-01, 4.66918945e-03, 1.53477231e-12, 2.75648723e-33, 0.00000000e+00]> : tensor<6xbf16>
  check.expect_close %r, %e, max_ulp_difference = 3 : tensor<6xbf16>, tensor<6xbf16>
  func.return
}

// -----

func.func @next_after_op_test_f32() {
  %x = stablehlo.constant dense<[1.00000000e+00, 1.00000000e+00, -1.00000000e+00, -1.00000000e+00, 0.00000000e+00, 0.00000000e+00, -0.00000000e+00, 0.00000000e+00, 2.50000000e+00, 0x7F800000, 3.40282347e+38, 1.40129846e-45, -1.40129846e-45, 0xFF800000, 0x7FC00000, 1.00000000e+00]> : tensor<16xf32>
  %y = stablehlo.constant dense<[2.00000000e+00, 0.00000000e+00, -2.00000000e+00, 5.00000000e+00, 1.00000000e+00, -1.00000000e+00, 0.00000000e+00, -0.00000000e+00, 2.50000000e+00, 0.00000000e+00, 0x7F800000, 0.00000000e+00, 1.00000000e+00, 0xFF800000, 1.00000000e+00, 0x7FC00000]> : tensor<16xf32>
  %r = chlo.next_after %x, %y : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  %nan = stablehlo.compare NE, %r, %r : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
  %bits = stablehlo.bitcast_convert %r : (tensor<16xf32>) -> tensor<16xi32>
  %zero = stablehlo.constant dense<0> : tensor<16xi32>
  %kept = stablehlo.select %nan, %zero, %bits : tensor<16xi1>, tensor<16xi32>
  check.expect_eq_const %kept, dense<[1065353217, 1065353215, -1082130431, -1082130433, 1, -2147483647, 0, -2147483648, 1075838976, 2139095039, 2139095040, 0, -2147483648, -8388608, 0, 0]> : tensor<16xi32>
  check.expect_eq_const %nan, dense<[false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true]> : tensor<16xi1>
  func.return
}

// -----

func.func @next_after_op_test_f64() {
  %x = stablehlo.constant dense<[1.0000000000000000e+00, 1.0000000000000000e+00, 0.0000000000000000e+00, -0.0000000000000000e+00, -4.0000000000000000e+00, -1.0000000000000001e+300, 0x7FF8000000000000]> : tensor<7xf64>
  %y = stablehlo.constant dense<[2.0000000000000000e+00, -3.0000000000000000e+00, -1.0000000000000000e+00, 7.0000000000000000e+00, -4.0000000000000000e+00, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<7xf64>
  %r = chlo.next_after %x, %y : tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
  %nan = stablehlo.compare NE, %r, %r : (tensor<7xf64>, tensor<7xf64>) -> tensor<7xi1>
  %bits = stablehlo.bitcast_convert %r : (tensor<7xf64>) -> tensor<7xi64>
  %zero = stablehlo.constant dense<0> : tensor<7xi64>
  %kept = stablehlo.select %nan, %zero, %bits : tensor<7xi1>, tensor<7xi64>
  check.expect_eq_const %kept, dense<[4607182418800017409, 4607182418800017407, -9223372036854775807, 1, -4607182418800017408, -128383115725867619, 0]> : tensor<7xi64>
  check.expect_eq_const %nan, dense<[false, false, false, false, false, false, true]> : tensor<7xi1>
  func.return
}

// -----

func.func @next_after_op_test_f16() {
  %x = stablehlo.constant dense<[1.00000000e+00, 0.00000000e+00, -2.00000000e+00, 6.55040000e+04, -0.00000000e+00, 5.00000000e-01]> : tensor<6xf16>
  %y = stablehlo.constant dense<[2.00000000e+00, 1.00000000e+00, 0.00000000e+00, 0x7C00, -0.00000000e+00, 0x7E00]> : tensor<6xf16>
  %r = chlo.next_after %x, %y : tensor<6xf16>, tensor<6xf16> -> tensor<6xf16>
  %nan = stablehlo.compare NE, %r, %r : (tensor<6xf16>, tensor<6xf16>) -> tensor<6xi1>
  %bits = stablehlo.bitcast_convert %r : (tensor<6xf16>) -> tensor<6xi16>
  %zero = stablehlo.constant dense<0> : tensor<6xi16>
  %kept = stablehlo.select %nan, %zero, %bits : tensor<6xi1>, tensor<6xi16>
  check.expect_eq_const %kept, dense<[15361, 1, -16385, 31744, -32768, 0]> : tensor<6xi16>
  check.expect_eq_const %nan, dense<[false, false, false, false, false, true]> : tensor<6xi1>
  func.return
}

// -----

func.func @next_after_op_test_bf16() {
  %x = stablehlo.constant dense<[1.00000000e+00, -0.00000000e+00, -3.00000000e+00, 0.00000000e+00, 0x7FC0]> : tensor<5xbf16>
  %y = stablehlo.constant dense<[0.00000000e+00, 1.00000000e+00, -8.00000000e+00, -0.00000000e+00, 2.00000000e+00]> : tensor<5xbf16>
  %r = chlo.next_after %x, %y : tensor<5xbf16>, tensor<5xbf16> -> tensor<5xbf16>
  %nan = stablehlo.compare NE, %r, %r : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<5xi1>
  %bits = stablehlo.bitcast_convert %r : (tensor<5xbf16>) -> tensor<5xi16>
  %zero = stablehlo.constant dense<0> : tensor<5xi16>
  %kept = stablehlo.select %nan, %zero, %bits : tensor<5xi1>, tensor<5xi16>
  check.expect_eq_const %kept, dense<[16255, 1, -16319, -32768, 0]> : tensor<5xi16>
  check.expect_eq_const %nan, dense<[false, false, false, false, true]> : tensor<5xi1>
  func.return
}

// -----

func.func @next_after_op_test_broadcast() {
  %x = stablehlo.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %y = stablehlo.constant dense<[[2.0, 0.0], [0.0, -2.0]]> : tensor<2x2xf32>
  %r = chlo.next_after %x, %y : tensor<2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %bits = stablehlo.bitcast_convert %r : (tensor<2x2xf32>) -> tensor<2x2xi32>
  check.expect_eq_const %bits, dense<[[1065353217, -1082130433], [1065353215, -1082130431]]> : tensor<2x2xi32>
  func.return
}
