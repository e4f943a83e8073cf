func.func @erf_inv_op_test_f32() {
  %x = stablehlo.constant dense<[-0.89999997615814209, -0.5, 0, 0.10000000149011612, 0.5, 0.99000000953674316, 0.99999898672103882, 1]> : tensor<8xf32>
  %r = chlo.erf_inv %x : tensor<8xf32> -> tensor<8xf32>
  check.expect_almost_eq_const %r, dense<[-1.16308707e+00, -4.76936276e-01, 0.00000000e+00, 8.88559918e-02, 4.76936276e-01, 1.82138660e+00, 3.45707473e+00, 0x7F800000]> : tensor<8xf32>
  func.return
}

// -----

func.func @erf_inv_op_test_f64() {
  %x = stablehlo.constant dense<[-0.75, 0.25, 0.90000000000000002]> : tensor<3xf64>
  %r = chlo.erf_inv %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const %r, dense<[-8.13419848e-01, 2.25312055e-01, 1.16308715e+00]> : tensor<3xf64>
  func.return
}

// -----

func.func @lgamma_op_test_f32() {
  %x = stablehlo.constant dense<[0.5, 1, 2, 3.5, 10, 0.10000000149011612, -0.5, -2.5]> : tensor<8xf32>
  %r = chlo.lgamma %x : tensor<8xf32> -> tensor<8xf32>
  check.expect_almost_eq_const %r, dense<[5.72364943e-01, 0.00000000e+00, 0.00000000e+00, 1.20097360e+00, 1.28018275e+01, 2.25271264e+00, 1.26551212e+00, -5.62437165e-02]> : tensor<8xf32>
  func.return
}

// -----

func.func @lgamma_op_test_f64() {
  %x = stablehlo.constant dense<[1.5, 7.25, -1.5]> : tensor<3xf64>
  %r = chlo.lgamma %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const %r, dense<[-1.20782238e-01, 7.05218545e+00, 8.60047015e-01]> : tensor<3xf64>
  func.return
}

// -----

func.func @digamma_op_test_f32() {
  %x = stablehlo.constant dense<[0.5, 1, 2, 3.5, 10, 0.10000000149011612, -0.5, -2.5]> : tensor<8xf32>
  %r = chlo.digamma %x : tensor<8xf32> -> tensor<8xf32>
  check.expect_almost_eq_const %r, dense<[-1.96351003e+00, -5.77215665e-01, 4.22784335e-01, 1.10315664e+00, 2.25175259e+00, -1.04237548e+01, 3.64899740e-02, 1.10315664e+00]> : tensor<8xf32>
  func.return
}

// -----

func.func @digamma_op_test_f64() {
  %x = stablehlo.constant dense<[1.5, 7.25, -1.5]> : tensor<3xf64>
  %r = chlo.digamma %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const %r, dense<[3.64899740e-02, 1.91045353e+00, 7.03156641e-01]> : tensor<3xf64>
  func.return
}

// -----

func.func @lgamma_op_test_poles() {
  %x = stablehlo.constant dense<[0.0, -1.0, -4.0, 0x7F800000, 0xFF800000]> : tensor<5xf32>
  %r = chlo.lgamma %x : tensor<5xf32> -> tensor<5xf32>
  check.expect_eq_const %r, dense<0x7F800000> : tensor<5xf32>
  func.return
}

// -----

func.func @digamma_op_test_poles_are_nan() {
  %x = stablehlo.constant dense<[0.0, -1.0, -3.0]> : tensor<3xf32>
  %r = chlo.digamma %x : tensor<3xf32> -> tensor<3xf32>
  %ne = stablehlo.compare  NE, %r, %r,  FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %ne, dense<true> : tensor<3xi1>
  func.return
}

// -----

func.func @lgamma_op_test_bf16() {
  %x = stablehlo.constant dense<[2.5, 5.0]> : tensor<2xbf16>
  %r = chlo.lgamma %x : tensor<2xbf16> -> tensor<2xbf16>
  %f = stablehlo.convert %r : (tensor<2xbf16>) -> tensor<2xf32>
  check.expect_almost_eq_const %f, dense<[2.84765625e-01, 3.17187500e+00]>, tolerance = 1.0e-2 : tensor<2xf32>
  func.return
}

// -----

func.func @rng_bit_generator_op_test_deterministic() {
  %state = stablehlo.constant dense<[42, 7]> : tensor<2xui64>
  %s1, %bits1 = stablehlo.rng_bit_generator %state, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  %s2, %bits2 = stablehlo.rng_bit_generator %state, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  check.expect_eq %bits1, %bits2 : tensor<4x4xui32>
  check.expect_eq %s1, %s2 : tensor<2xui64>
  %same = stablehlo.compare  EQ, %s1, %state,  UNSIGNED : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %all = stablehlo.reduce(%same init: %t) applies stablehlo.and across dimensions = [0] : (tensor<2xi1>, tensor<i1>) -> tensor<i1>
  check.expect_eq_const %all, dense<false> : tensor<i1>
  func.return
}

// -----

func.func @bessel_i1e_op_test_f32() {
  %x = stablehlo.constant dense<[-20, -3, -0.5, 0, 0.25, 1, 7.5, 14, 16, 40]> : tensor<10xf32>
  %r = chlo.bessel_i1e %x : tensor<10xf32> -> tensor<10xf32>
  check.expect_almost_eq_const %r, dense<[-8.75062222e-02, -1.96826713e-01, -1.56420803e-01, 0.00000000e+00, 9.81126287e-02, 2.07910415e-01, 1.38041212e-01, 1.03697667e-01, 9.73496148e-02, 6.24822291e-02]> : tensor<10xf32>
  func.return
}

// -----

func.func @bessel_i1e_op_test_f64() {
  %x = stablehlo.constant dense<[0.75, 12, 30]> : tensor<3xf64>
  %r = chlo.bessel_i1e %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const %r, dense<[1.89887793e-01, 1.11464299e-01, 7.19163306e-02]> : tensor<3xf64>
  func.return
}
