func.func @cholesky_op_test_lower() {
  %a = stablehlo.constant dense<[[4.0, 2.0, -2.0], [2.0, 10.0, 5.0], [-2.0, 5.0, 21.0]]> : tensor<3x3xf32>
  %l = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  %row = stablehlo.iota dim = 0 : tensor<3x3xi32>
  %col = stablehlo.iota dim = 1 : tensor<3x3xi32>
  %mask = stablehlo.compare  GE, %row, %col,  SIGNED : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  %zero = stablehlo.constant dense<0.0> : tensor<3x3xf32>
  %masked = stablehlo.select %mask, %l, %zero : tensor<3x3xi1>, tensor<3x3xf32>
  check.expect_almost_eq_const %masked, dense<[[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, 2.0, 4.0]]> : tensor<3x3xf32>
  func.return
}

// -----

func.func @cholesky_op_test_upper() {
  %a = stablehlo.constant dense<[[4.0, 2.0, -2.0], [2.0, 10.0, 5.0], [-2.0, 5.0, 21.0]]> : tensor<3x3xf32>
  %u = stablehlo.cholesky %a, lower = false : tensor<3x3xf32>
  %row = stablehlo.iota dim = 0 : tensor<3x3xi32>
  %col = stablehlo.iota dim = 1 : tensor<3x3xi32>
  %mask = stablehlo.compare  LE, %row, %col,  SIGNED : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  %zero = stablehlo.constant dense<0.0> : tensor<3x3xf32>
  %masked = stablehlo.select %mask, %u, %zero : tensor<3x3xi1>, tensor<3x3xf32>
  check.expect_almost_eq_const %masked, dense<[[2.0, 1.0, -1.0], [0.0, 3.0, 2.0], [0.0, 0.0, 4.0]]> : tensor<3x3xf32>
  func.return
}

// -----

func.func @triangular_solve_op_test_left_lower() {
  %a = stablehlo.constant dense<[[2.0, 0.0, 0.0], [1.0, 4.0, 0.0], [3.0, -1.0, 5.0]]> : tensor<3x3xf32>
  %b = stablehlo.constant dense<[[2.0, 4.0], [-3.0, 4.0], [14.0, -9.5]]> : tensor<3x2xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  check.expect_almost_eq_const %x, dense<[[1.0, 2.0], [-1.0, 0.5], [2.0, -3.0]]> : tensor<3x2xf32>
  func.return
}

// -----

func.func @triangular_solve_op_test_right_transpose() {
  %a = stablehlo.constant dense<[[2.0, 0.0, 0.0], [1.0, 4.0, 0.0], [3.0, -1.0, 5.0]]> : tensor<3x3xf32>
  %b = stablehlo.constant dense<[[2.0, -7.0, 7.5], [6.0, 7.0, 3.0]]> : tensor<2x3xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const %x, dense<[[1.0, -2.0, 0.5], [3.0, 1.0, -1.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @triangular_solve_op_test_upper_transpose() {
  %a = stablehlo.constant dense<[[2.0, 1.0, -1.0], [0.0, 4.0, 2.0], [0.0, 0.0, 5.0]]> : tensor<3x3xf32>
  %b = stablehlo.constant dense<[[2.0], [9.0], [-2.0]]> : tensor<3x1xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  check.expect_almost_eq_const %x, dense<[[1.0], [2.0], [-1.0]]> : tensor<3x1xf32>
  func.return
}

// -----

func.func @triangular_solve_op_test_unit_diagonal() {
  %a = stablehlo.constant dense<[[7.0, 0.0], [3.0, -9.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[1.0, 2.0], [5.0, 0.0]]> : tensor<2x2xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %x, dense<[[1.0, 2.0], [2.0, -6.0]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @fft_op_test_fft() {
  %a = stablehlo.constant dense<[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]> : tensor<4xcomplex<f32>>
  %r = stablehlo.fft %a, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %re = stablehlo.real %r : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %im = stablehlo.imag %r : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  check.expect_almost_eq_const %re, dense<[10.0, -2.0, -2.0, -2.0]> : tensor<4xf32>
  check.expect_almost_eq_const %im, dense<[0.0, 2.0, 0.0, -2.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @fft_op_test_fft_ifft() {
  %a = stablehlo.constant dense<[(1.0, 1.0), (2.0, -1.0), (0.0, 0.5), (-1.0, 0.0)]> : tensor<4xcomplex<f32>>
  %f = stablehlo.fft %a, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %i = stablehlo.fft %a, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %fre = stablehlo.real %f : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %fim = stablehlo.imag %f : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %ire = stablehlo.real %i : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %iim = stablehlo.imag %i : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  check.expect_almost_eq_const %fre, dense<[2.0, 0.0, 0.0, 2.0]> : tensor<4xf32>
  check.expect_almost_eq_const %fim, dense<[0.5, -2.5, 2.5, 3.5]> : tensor<4xf32>
  check.expect_almost_eq_const %ire, dense<[0.5, 0.5, 0.0, 0.0]> : tensor<4xf32>
  check.expect_almost_eq_const %iim, dense<[0.125, 0.875, 0.625, -0.625]> : tensor<4xf32>
  func.return
}

// -----

func.func @fft_op_test_rfft_irfft() {
  %a = stablehlo.constant dense<[1.0, -2.0, 0.5, 3.0]> : tensor<4xf32>
  %f = stablehlo.fft %a, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
  %back = stablehlo.fft %f, type = IRFFT, length = [4] : (tensor<3xcomplex<f32>>) -> tensor<4xf32>
  %re = stablehlo.real %f : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %im = stablehlo.imag %f : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  check.expect_almost_eq_const %re, dense<[2.5, 0.5, 0.5]> : tensor<3xf32>
  check.expect_almost_eq_const %im, dense<[0.0, 5.0, 0.0]> : tensor<3xf32>
  check.expect_almost_eq_const %back, dense<[1.0, -2.0, 0.5, 3.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @batch_norm_inference_op_test() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, -1.0, 0.5]]> : tensor<2x3xf32>
  %scale = stablehlo.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %offset = stablehlo.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %mean = stablehlo.constant dense<[2.0, 0.0, 1.0]> : tensor<3xf32>
  %var = stablehlo.constant dense<[1.0, 4.0, 0.25]> : tensor<3xf32>
  %r = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %var) <{epsilon = 1.0e-3 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const %r, dense<[[-0.9995004, 2.99975, 0.996012], [1.999001, 0.0001249766, -1.499003]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @batch_norm_training_op_test() {
  %x = stablehlo.constant dense<[[1.0, 2.0, -3.0], [3.0, -2.0, 1.0]]> : tensor<2x3xf32>
  %scale = stablehlo.constant dense<[1.0, 0.5, 2.0]> : tensor<3xf32>
  %offset = stablehlo.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %r:3 = "stablehlo.batch_norm_training"(%x, %scale, %offset) <{epsilon = 1.0e-3 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  check.expect_almost_eq_const %r#0, dense<[[-0.9995004, 1.499938, -2.99975], [0.9995004, 0.5000625, 0.99975]]> : tensor<2x3xf32>
  check.expect_almost_eq_const %r#1, dense<[2.0, 0.0, -1.0]> : tensor<3xf32>
  check.expect_almost_eq_const %r#2, dense<[1.0, 4.0, 4.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @batch_norm_training_op_test_3d() {
  %x = stablehlo.constant dense<[[[1.0, 2.0], [0.5, -1.0]], [[3.0, -2.0], [1.5, 4.0]]]> : tensor<2x2x2xf32>
  %scale = stablehlo.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %offset = stablehlo.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %r:3 = "stablehlo.batch_norm_training"(%x, %scale, %offset) <{epsilon = 1.0e-2 : f32, feature_index = 1 : i64}> : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const %r#0, dense<[[[0.5, 1.567521], [-0.9114611, -1.734383]], [[2.635042, -2.702563], [-0.3628463, 1.008691]]]> : tensor<2x2x2xf32>
  check.expect_almost_eq_const %r#1, dense<[1.0, 1.25]> : tensor<2xf32>
  check.expect_almost_eq_const %r#2, dense<[3.5, 3.3125]> : tensor<2xf32>
  func.return
}

// -----

func.func @batch_norm_grad_op_test() {
  %x = stablehlo.constant dense<[[1.0, 2.0, -3.0], [3.0, -2.0, 1.0]]> : tensor<2x3xf32>
  %scale = stablehlo.constant dense<[1.0, 0.5, 2.0]> : tensor<3xf32>
  %mean = stablehlo.constant dense<[1.5, 0.5, -1.0]> : tensor<3xf32>
  %var = stablehlo.constant dense<[1.0, 3.0, 2.0]> : tensor<3xf32>
  %gy = stablehlo.constant dense<[[0.5, -1.0, 2.0], [1.5, 1.0, -1.0]]> : tensor<2x3xf32>
  %r:3 = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %gy) <{epsilon = 1.0e-3 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  check.expect_almost_eq_const %r#0, dense<[[-0.0004992509, -0.00009617695, -2.11867], [-0.9980026, -0.1922577, 2.11867]]> : tensor<2x3xf32>
  check.expect_almost_eq_const %r#1, dense<[1.999001, -2.309016, -4.24158]> : tensor<3xf32>
  check.expect_almost_eq_const %r#2, dense<[2.0, 0.0, 1.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @batch_norm_grad_op_test_feature_index_0() {
  %x = stablehlo.constant dense<[[1.0, 3.0], [-2.0, 0.0], [4.0, 2.0]]> : tensor<3x2xf32>
  %scale = stablehlo.constant dense<[2.0, -1.0, 0.5]> : tensor<3xf32>
  %mean = stablehlo.constant dense<[1.5, -1.0, 2.5]> : tensor<3xf32>
  %var = stablehlo.constant dense<[0.5, 1.0, 2.0]> : tensor<3xf32>
  %gy = stablehlo.constant dense<[[1.0, -1.0], [0.5, 2.0], [-0.5, 1.5]]> : tensor<3x2xf32>
  %r:3 = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %gy) <{epsilon = 1.0e-2 : f32, feature_index = 0 : i64}> : (tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>)
  check.expect_almost_eq_const %r#0, dense<[[0.05491294, 5.436382], [0.00738889, -0.00738889], [-0.1552813, 0.2868756]]> : tensor<3x2xf32>
  check.expect_almost_eq_const %r#1, dense<[-2.80056, 1.492556, -1.058018]> : tensor<3xf32>
  check.expect_almost_eq_const %r#2, dense<[0.0, 2.5, 1.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @batch_norm_grad_op_test_3d() {
  %x = stablehlo.constant dense<[[[1.0, 2.0], [0.5, -1.0]], [[3.0, -2.0], [1.5, 4.0]]]> : tensor<2x2x2xf32>
  %scale = stablehlo.constant dense<[1.5, -0.5]> : tensor<2xf32>
  %mean = stablehlo.constant dense<[0.5, 1.0]> : tensor<2xf32>
  %var = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %gy = stablehlo.constant dense<[[[1.0, -0.5], [2.0, 0.25]], [[0.0, 1.0], [-1.0, 0.5]]]> : tensor<2x2x2xf32>
  %r:3 = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %gy) <{epsilon = 1.0e-2 : f32, feature_index = 1 : i64}> : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const %r#0, dense<[[[0.8422037, -0.3829395], [-0.4443209, 0.07797308]], [[0.5079541, -0.2434495], [0.4082965, -0.05391692]]]> : tensor<2x2x2xf32>
  check.expect_almost_eq_const %r#1, dense<[-1.9397, -0.2881952]> : tensor<2xf32>
  check.expect_almost_eq_const %r#2, dense<[1.5, 1.75]> : tensor<2xf32>
  func.return
}
