// JAX's CPU LAPACK custom calls as JAX's exports write them: symmetric /
// Hermitian and general eigendecompositions (syevd / heevd, geev) and the
// SVD (gesdd). Eigen- and singular vectors are unique up to sign (phase),
// so their magnitudes are checked.

// Eigenvalues 1 and 3 (ascending), eigenvectors (1, -1) / sqrt(2) and
// (1, 1) / sqrt(2).
func.func @ssyevd() {
  %a = stablehlo.constant dense<[[2.0, 1.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %r:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<i32>)
  %v = stablehlo.abs %r#0 : tensor<2x2xf32>
  check.expect_almost_eq_const %v, dense<0.70710677> : tensor<2x2xf32>
  check.expect_almost_eq_const %r#1, dense<[1.0, 3.0]> : tensor<2xf32>
  check.expect_eq_const %r#2, dense<0> : tensor<i32>
  func.return
}

// -----

// [[2, i], [-i, 2]] from its upper triangle (the lower one is not read):
// eigenvalues 1 and 3, real; mode 'N' computes no vectors.
func.func @cheevd_upper_values_only() {
  %a = stablehlo.constant dense<[[(2.0, 0.0), (0.0, 1.0)], [(9.0, 9.0), (2.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  %r:3 = stablehlo.custom_call @lapack_cheevd_ffi(%a) {mhlo.backend_config = {mode = 78 : ui8, uplo = 85 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>, tensor<i32>)
  check.expect_almost_eq_const %r#1, dense<[1.0, 3.0]> : tensor<2xf32>
  check.expect_eq_const %r#2, dense<0> : tensor<i32>
  func.return
}

// -----

// A rotation: eigenvalues +-i (the pair with the positive imaginary part
// first), eigenvectors (1, -+i) / sqrt(2) as complex vectors.
func.func @sgeev_conjugate_pair() {
  %a = stablehlo.constant dense<[[0.0, -1.0], [1.0, 0.0]]> : tensor<2x2xf32>
  %r:5 = stablehlo.custom_call @lapack_sgeev_ffi(%a) {mhlo.backend_config = {compute_left = 86 : ui8, compute_right = 86 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<i32>)
  check.expect_almost_eq_const %r#0, dense<[0.0, 0.0]> : tensor<2xf32>
  check.expect_almost_eq_const %r#1, dense<[1.0, -1.0]> : tensor<2xf32>
  %vr = stablehlo.abs %r#3 : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %vr, dense<0.70710677> : tensor<2x2xf32>
  %vl = stablehlo.abs %r#2 : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %vl, dense<0.70710677> : tensor<2x2xf32>
  check.expect_eq_const %r#4, dense<0> : tensor<i32>
  func.return
}

// -----

// Upper triangular: eigenvalues 1 and 3 along the diagonal, right
// eigenvectors (1, 0) and (1, 1) / sqrt(2); no left ones asked for (zeros).
func.func @dgeev_right_only() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [0.0, 3.0]]> : tensor<2x2xf64>
  %r:5 = stablehlo.custom_call @lapack_dgeev_ffi(%a) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf64>) -> (tensor<2xf64>, tensor<2xf64>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<i32>)
  check.expect_almost_eq_const %r#0, dense<[1.0, 3.0]> : tensor<2xf64>
  check.expect_almost_eq_const %r#1, dense<[0.0, 0.0]> : tensor<2xf64>
  %vr = stablehlo.abs %r#3 : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xf64>
  check.expect_almost_eq_const %vr, dense<[[1.0, 0.70710678118654746], [0.0, 0.70710678118654746]]> : tensor<2x2xf64>
  check.expect_almost_eq_const %r#2, dense<(0.0, 0.0)> : tensor<2x2xcomplex<f64>>
  check.expect_eq_const %r#4, dense<0> : tensor<i32>
  func.return
}

// -----

// Complex diagonal: eigenvalues along it, eigenvectors the unit vectors. A
// matrix with a NaN is not decomposed: info -4, as JAX's kernel.
func.func @zgeev_diagonal_and_nan() {
  %a = stablehlo.constant dense<[[[(1.0, 1.0), (0.0, 0.0)], [(0.0, 0.0), (2.0, -1.0)]], [[(0x7FF8000000000000, 0.0), (0.0, 0.0)], [(0.0, 0.0), (1.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  %r:4 = stablehlo.custom_call @lapack_zgeev_ffi(%a) {mhlo.backend_config = {compute_left = 86 : ui8, compute_right = 86 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x2x2xcomplex<f64>>) -> (tensor<2x2xcomplex<f64>>, tensor<2x2x2xcomplex<f64>>, tensor<2x2x2xcomplex<f64>>, tensor<2xi32>)
  %w = stablehlo.slice %r#0 [0:1, 0:2] : (tensor<2x2xcomplex<f64>>) -> tensor<1x2xcomplex<f64>>
  check.expect_almost_eq_const %w, dense<[[(1.0, 1.0), (2.0, -1.0)]]> : tensor<1x2xcomplex<f64>>
  %v = stablehlo.slice %r#2 [0:1, 0:2, 0:2] : (tensor<2x2x2xcomplex<f64>>) -> tensor<1x2x2xcomplex<f64>>
  %av = stablehlo.abs %v : (tensor<1x2x2xcomplex<f64>>) -> tensor<1x2x2xf64>
  check.expect_almost_eq_const %av, dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf64>
  check.expect_eq_const %r#3, dense<[0, -4]> : tensor<2xi32>
  func.return
}

// -----

// Singular values 4 and 3 (descending); U and V^T swap the axes.
func.func @sgesdd_full() {
  %a = stablehlo.constant dense<[[3.0, 0.0], [0.0, 4.0]]> : tensor<2x2xf32>
  %r:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {mhlo.backend_config = {mode = 65 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<i32>)
  check.expect_almost_eq_const %r#1, dense<[4.0, 3.0]> : tensor<2xf32>
  %u = stablehlo.abs %r#2 : tensor<2x2xf32>
  check.expect_almost_eq_const %u, dense<[[0.0, 1.0], [1.0, 0.0]]> : tensor<2x2xf32>
  %vt = stablehlo.abs %r#3 : tensor<2x2xf32>
  check.expect_almost_eq_const %vt, dense<[[0.0, 1.0], [1.0, 0.0]]> : tensor<2x2xf32>
  check.expect_eq_const %r#4, dense<0> : tensor<i32>
  func.return
}

// -----

// 2 x 3, economy (mode 'S'): U 2 x 2, V^T 2 x 3.
func.func @dgesdd_economy() {
  %a = stablehlo.constant dense<[[[3.0, 0.0, 0.0], [0.0, 4.0, 0.0]]]> : tensor<1x2x3xf64>
  %r:5 = stablehlo.custom_call @lapack_dgesdd_ffi(%a) {mhlo.backend_config = {mode = 83 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<1x2x3xf64>) -> (tensor<1x2x3xf64>, tensor<1x2xf64>, tensor<1x2x2xf64>, tensor<1x2x3xf64>, tensor<1xi32>)
  check.expect_almost_eq_const %r#1, dense<[[4.0, 3.0]]> : tensor<1x2xf64>
  %u = stablehlo.abs %r#2 : tensor<1x2x2xf64>
  check.expect_almost_eq_const %u, dense<[[[0.0, 1.0], [1.0, 0.0]]]> : tensor<1x2x2xf64>
  %vt = stablehlo.abs %r#3 : tensor<1x2x3xf64>
  check.expect_almost_eq_const %vt, dense<[[[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]]> : tensor<1x2x3xf64>
  check.expect_eq_const %r#4, dense<0> : tensor<1xi32>
  func.return
}

// -----

// Singular values alone (mode 'N'): |3i| and 4.
func.func @cgesdd_values_only() {
  %a = stablehlo.constant dense<[[(0.0, 3.0), (0.0, 0.0)], [(0.0, 0.0), (4.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  %r:5 = stablehlo.custom_call @lapack_cgesdd_ffi(%a) {mhlo.backend_config = {mode = 78 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<i32>)
  check.expect_almost_eq_const %r#1, dense<[4.0, 3.0]> : tensor<2xf32>
  check.expect_eq_const %r#4, dense<0> : tensor<i32>
  func.return
}
