// JAX's CPU LAPACK custom calls as JAX's exports write them (typed FFI, the
// attributes in mhlo.backend_config, column-major operand_layouts), with
// values worked out by hand: Cholesky and LU.

// L L^T = A: the factor in the lower triangle, the upper one A's.
func.func @spotrf_lower() {
  %a = stablehlo.constant dense<[[4.0, 2.0, 2.0], [2.0, 5.0, 3.0], [2.0, 3.0, 6.0]]> : tensor<3x3xf32>
  %r:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  check.expect_almost_eq_const %r#0, dense<[[2.0, 2.0, 2.0], [1.0, 2.0, 3.0], [1.0, 1.0, 2.0]]> : tensor<3x3xf32>
  check.expect_eq_const %r#1, dense<0> : tensor<i32>
  func.return
}

// -----

// U^T U = A: the factor in the upper triangle, the lower one A's.
func.func @dpotrf_upper() {
  %a = stablehlo.constant dense<[[4.0, 2.0, 2.0], [2.0, 5.0, 3.0], [2.0, 3.0, 6.0]]> : tensor<3x3xf64>
  %r:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a) {mhlo.backend_config = {uplo = 85 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)
  check.expect_almost_eq_const %r#0, dense<[[2.0, 1.0, 1.0], [2.0, 2.0, 1.0], [2.0, 3.0, 2.0]]> : tensor<3x3xf64>
  check.expect_eq_const %r#1, dense<0> : tensor<i32>
  func.return
}

// -----

// Hermitian: L = [[2, 0], [-i, 2]].
func.func @cpotrf_lower() {
  %a = stablehlo.constant dense<[[(4.0, 0.0), (0.0, 2.0)], [(0.0, -2.0), (5.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  %r:2 = stablehlo.custom_call @lapack_cpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<i32>)
  check.expect_almost_eq_const %r#0, dense<[[(2.0, 0.0), (0.0, 2.0)], [(0.0, -1.0), (2.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  check.expect_eq_const %r#1, dense<0> : tensor<i32>
  func.return
}

// -----

// A batch of two: the second is not positive definite (its second leading
// minor is 1 - 4).
func.func @zpotrf_batch_info() {
  %a = stablehlo.constant dense<[[[(4.0, 0.0), (2.0, 0.0)], [(2.0, 0.0), (5.0, 0.0)]], [[(1.0, 0.0), (2.0, 0.0)], [(2.0, 0.0), (1.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  %r:2 = stablehlo.custom_call @lapack_zpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x2x2xcomplex<f64>>) -> (tensor<2x2x2xcomplex<f64>>, tensor<2xi32>)
  %l = stablehlo.slice %r#0 [0:1, 0:2, 0:2] : (tensor<2x2x2xcomplex<f64>>) -> tensor<1x2x2xcomplex<f64>>
  check.expect_almost_eq_const %l, dense<[[[(2.0, 0.0), (2.0, 0.0)], [(1.0, 0.0), (2.0, 0.0)]]]> : tensor<1x2x2xcomplex<f64>>
  check.expect_eq_const %r#1, dense<[0, 2]> : tensor<2xi32>
  func.return
}

// -----

// P L U = A: rows 1 and 2 swapped (ipiv 1-based), L's unit diagonal
// implicit.
func.func @sgetrf() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %r:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xi32>, tensor<i32>)
  check.expect_almost_eq_const %r#0, dense<[[3.0, 4.0], [0.33333334, 0.6666667]]> : tensor<2x2xf32>
  check.expect_eq_const %r#1, dense<[2, 2]> : tensor<2xi32>
  check.expect_eq_const %r#2, dense<0> : tensor<i32>
  func.return
}

// -----

// A singular matrix: U(1, 1) = 0, info 1.
func.func @dgetrf_singular() {
  %a = stablehlo.constant dense<[[0.0, 1.0], [0.0, 2.0]]> : tensor<2x2xf64>
  %r:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%a) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xi32>, tensor<i32>)
  check.expect_eq_const %r#2, dense<1> : tensor<i32>
  func.return
}

// -----

// |2i| > |1| pivots: U = [[2i, 1], [0, 1.5i]], l21 = 1 / 2i.
func.func @zgetrf() {
  %a = stablehlo.constant dense<[[(1.0, 0.0), (0.0, 1.0)], [(0.0, 2.0), (1.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %r:3 = stablehlo.custom_call @lapack_zgetrf_ffi(%a) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xcomplex<f64>>) -> (tensor<2x2xcomplex<f64>>, tensor<2xi32>, tensor<i32>)
  check.expect_almost_eq_const %r#0, dense<[[(0.0, 2.0), (1.0, 0.0)], [(0.0, -0.5), (0.0, 1.5)]]> : tensor<2x2xcomplex<f64>>
  check.expect_eq_const %r#1, dense<[2, 2]> : tensor<2xi32>
  check.expect_eq_const %r#2, dense<0> : tensor<i32>
  func.return
}
