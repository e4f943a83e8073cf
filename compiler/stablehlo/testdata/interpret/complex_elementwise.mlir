// StableHLO's semantics of elementwise ops on complex values where HLO's
// opcode of the name differs or is undefined: maximum and minimum compare
// (real, imag) lexicographically, atan2 is -i log((x + i y) / sqrt(x^2 +
// y^2)), iota counts in the real part, convert to a real, integer or i1
// type takes the real part.

func.func @maximum_op_test_complex_lexicographic() {
  %a = stablehlo.constant dense<[(2.0, -9.0), (1.0, 5.0), (-3.0, 0.5), (4.0, 4.0), (0.0, -1.0)]> : tensor<5xcomplex<f32>>
  %b = stablehlo.constant dense<[(1.0, 9.0), (1.0, 6.0), (-3.0, 0.25), (4.5, -8.0), (-0.5, 7.0)]> : tensor<5xcomplex<f32>>
  %r = stablehlo.maximum %a, %b : tensor<5xcomplex<f32>>
  check.expect_eq_const %r, dense<[(2.0, -9.0), (1.0, 6.0), (-3.0, 0.5), (4.5, -8.0), (0.0, -1.0)]> : tensor<5xcomplex<f32>>
  func.return
}

// -----

func.func @minimum_op_test_complex_lexicographic() {
  %a = stablehlo.constant dense<[(2.0, -9.0), (1.0, 5.0), (-3.0, 0.5), (4.0, 4.0), (0.0, -1.0)]> : tensor<5xcomplex<f64>>
  %b = stablehlo.constant dense<[(1.0, 9.0), (1.0, 6.0), (-3.0, 0.25), (4.5, -8.0), (-0.5, 7.0)]> : tensor<5xcomplex<f64>>
  %r = stablehlo.minimum %a, %b : tensor<5xcomplex<f64>>
  check.expect_eq_const %r, dense<[(1.0, 9.0), (1.0, 5.0), (-3.0, 0.25), (4.0, 4.0), (-0.5, 7.0)]> : tensor<5xcomplex<f64>>
  func.return
}

// -----

func.func @iota_op_test_complex() {
  %r = stablehlo.iota dim = 1 : tensor<2x3xcomplex<f32>>
  check.expect_eq_const %r, dense<[[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)], [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]]> : tensor<2x3xcomplex<f32>>
  %s = stablehlo.iota dim = 0 : tensor<3xcomplex<f64>>
  check.expect_eq_const %s, dense<[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]> : tensor<3xcomplex<f64>>
  func.return
}

// -----

func.func @convert_op_test_complex_to_real() {
  %z = stablehlo.constant dense<[(2.5, 7.0), (-3.75, -1.0), (0.0, 4.0), (1.0, 0.0)]> : tensor<4xcomplex<f32>>
  %f = stablehlo.convert %z : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  check.expect_eq_const %f, dense<[2.5, -3.75, 0.0, 1.0]> : tensor<4xf32>
  %d = stablehlo.convert %z : (tensor<4xcomplex<f32>>) -> tensor<4xf64>
  check.expect_eq_const %d, dense<[2.5, -3.75, 0.0, 1.0]> : tensor<4xf64>
  %i = stablehlo.convert %z : (tensor<4xcomplex<f32>>) -> tensor<4xi32>
  check.expect_eq_const %i, dense<[2, -3, 0, 1]> : tensor<4xi32>
  %p = stablehlo.convert %z : (tensor<4xcomplex<f32>>) -> tensor<4xi1>
  check.expect_eq_const %p, dense<[true, true, false, true]> : tensor<4xi1>
  %w = stablehlo.constant dense<[(200.0, -1.0), (0.5, 3.0)]> : tensor<2xcomplex<f64>>
  %u = stablehlo.convert %w : (tensor<2xcomplex<f64>>) -> tensor<2xui8>
  check.expect_eq_const %u, dense<[200, 0]> : tensor<2xui8>
  %h = stablehlo.convert %w : (tensor<2xcomplex<f64>>) -> tensor<2xf16>
  check.expect_eq_const %h, dense<[200.0, 0.5]> : tensor<2xf16>
  func.return
}

// -----

func.func @atan2_op_test_c64() {
  %y = stablehlo.constant dense<[(1.000000000e+00, 5.000000000e-01), (-2.000000000e+00, 2.500000000e-01), (5.000000000e-01, -1.500000000e+00), (3.000000000e+00, 0.000000000e+00)]> : tensor<4xcomplex<f32>>
  %x = stablehlo.constant dense<[(2.000000000e+00, -1.000000000e+00), (5.000000000e-01, 5.000000000e-01), (-1.000000000e+00, 2.000000000e+00), (-4.000000000e+00, 0.000000000e+00)]> : tensor<4xcomplex<f32>>
  %r = stablehlo.atan2 %y, %x : tensor<4xcomplex<f32>>
  check.expect_almost_eq_const %r, dense<[(3.373704711e-01, 3.790868723e-01), (-1.342493591e+00, 2.701074924e-01), (2.527706460e+00, 6.706599665e-02), (2.498091545e+00, -2.775557562e-17)]>, tolerance = 1.0e-06 : tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @atan2_op_test_c128() {
  %y = stablehlo.constant dense<[(1.00000000000000000e+00, 5.00000000000000000e-01), (-2.00000000000000000e+00, 2.50000000000000000e-01), (5.00000000000000000e-01, -1.50000000000000000e+00), (3.00000000000000000e+00, 0.00000000000000000e+00)]> : tensor<4xcomplex<f64>>
  %x = stablehlo.constant dense<[(2.00000000000000000e+00, -1.00000000000000000e+00), (5.00000000000000000e-01, 5.00000000000000000e-01), (-1.00000000000000000e+00, 2.00000000000000000e+00), (-4.00000000000000000e+00, 0.00000000000000000e+00)]> : tensor<4xcomplex<f64>>
  %r = stablehlo.atan2 %y, %x : tensor<4xcomplex<f64>>
  check.expect_almost_eq_const %r, dense<[(3.37370471111776316e-01, 3.79086872342022152e-01), (-1.34249359084864972e+00, 2.70107492396229887e-01), (2.52770646040269664e+00, 6.70659966486697734e-02), (2.49809154479650886e+00, -2.77555756156289135e-17)]>, tolerance = 1.0e-13 : tensor<4xcomplex<f64>>
  func.return
}
