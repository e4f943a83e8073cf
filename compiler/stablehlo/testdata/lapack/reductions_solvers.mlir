// JAX's CPU LAPACK custom calls as JAX's exports write them: Hessenberg
// (gehrd) and tridiagonal (sytrd / hetrd) reductions, the Schur form
// (gees), the tridiagonal solver (gtsv) and QR with column pivoting
// (geqp3), values worked out by hand or checked by their defining property.

// One reflector on column 1 (beta = -5, tau = 1.6, v = (1, 0.5)): H = Q^T A Q
// = [[1, 0, 0], [-5, 1, 0], [0, 0, 1]], v's tail below H's subdiagonal.
func.func @dgehrd() {
  %a = stablehlo.constant dense<[[[1.0, 0.0, 0.0], [3.0, 1.0, 0.0], [4.0, 0.0, 1.0]]]> : tensor<1x3x3xf64>
  %r:3 = stablehlo.custom_call @lapack_dgehrd_ffi(%a) {mhlo.backend_config = {high = 3 : i32, low = 1 : i32}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<1x3x3xf64>) -> (tensor<1x3x3xf64>, tensor<1x2xf64>, tensor<1xi32>)
  check.expect_almost_eq_const %r#0, dense<[[[1.0, 0.0, 0.0], [-5.0, 1.0, 0.0], [0.5, 0.0, 1.0]]]> : tensor<1x3x3xf64>
  check.expect_almost_eq_const %r#1, dense<[[1.6, 0.0]]> : tensor<1x2xf64>
  check.expect_eq_const %r#2, dense<[0]> : tensor<1xi32>
  func.return
}

// -----

// The same reflector makes the symmetric A tridiagonal: d = (1, 1, 1), e =
// (-5, 0); the upper triangle is A's.
func.func @ssytrd_lower() {
  %a = stablehlo.constant dense<[[1.0, 3.0, 4.0], [3.0, 1.0, 0.0], [4.0, 0.0, 1.0]]> : tensor<3x3xf32>
  %r:5 = stablehlo.custom_call @lapack_ssytrd_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<i32>)
  check.expect_almost_eq_const %r#0, dense<[[1.0, 3.0, 4.0], [-5.0, 1.0, 0.0], [0.5, 0.0, 1.0]]> : tensor<3x3xf32>
  check.expect_almost_eq_const %r#1, dense<[1.0, 1.0, 1.0]> : tensor<3xf32>
  check.expect_almost_eq_const %r#2, dense<[-5.0, 0.0]> : tensor<2xf32>
  check.expect_almost_eq_const %r#3, dense<[1.6, 0.0]> : tensor<2xf32>
  check.expect_eq_const %r#4, dense<0> : tensor<i32>
  func.return
}

// -----

// Hermitian: d and e are real.
func.func @chetrd_lower() {
  %a = stablehlo.constant dense<[[(1.0, 0.0), (3.0, 0.0), (4.0, 0.0)], [(3.0, 0.0), (1.0, 0.0), (0.0, 0.0)], [(4.0, 0.0), (0.0, 0.0), (1.0, 0.0)]]> : tensor<3x3xcomplex<f32>>
  %r:5 = stablehlo.custom_call @lapack_chetrd_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<i32>)
  check.expect_almost_eq_const %r#1, dense<[1.0, 1.0, 1.0]> : tensor<3xf32>
  check.expect_almost_eq_const %r#2, dense<[-5.0, 0.0]> : tensor<2xf32>
  check.expect_almost_eq_const %r#3, dense<[(1.6, 0.0), (0.0, 0.0)]> : tensor<2xcomplex<f32>>
  check.expect_eq_const %r#4, dense<0> : tensor<i32>
  func.return
}

// -----

// Z T Z^T = A with T upper triangular; the eigenvalues on T's diagonal.
func.func @dgees() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [0.0, 3.0]]> : tensor<2x2xf64>
  %r:6 = stablehlo.custom_call @lapack_dgees_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<i32>, tensor<i32>)
  %zt = stablehlo.dot_general %r#1, %r#0, contracting_dims = [1] x [0] : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %ztz = stablehlo.dot_general %zt, %r#1, contracting_dims = [1] x [1] : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  check.expect_almost_eq_const %ztz, dense<[[1.0, 2.0], [0.0, 3.0]]> : tensor<2x2xf64>
  check.expect_almost_eq_const %r#2, dense<[1.0, 3.0]> : tensor<2xf64>
  check.expect_almost_eq_const %r#3, dense<[0.0, 0.0]> : tensor<2xf64>
  check.expect_eq_const %r#4, dense<0> : tensor<i32>
  check.expect_eq_const %r#5, dense<0> : tensor<i32>
  func.return
}

// -----

// Complex: T's diagonal holds the eigenvalues (1 + i, 3).
func.func @cgees() {
  %a = stablehlo.constant dense<[[(1.0, 1.0), (2.0, 0.0)], [(0.0, 0.0), (3.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  %r:5 = stablehlo.custom_call @lapack_cgees_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<i32>, tensor<i32>)
  check.expect_almost_eq_const %r#2, dense<[(1.0, 1.0), (3.0, 0.0)]> : tensor<2xcomplex<f32>>
  %zt = stablehlo.dot_general %r#1, %r#0, contracting_dims = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  %zre = stablehlo.real %r#1 : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
  %zim = stablehlo.imag %r#1 : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
  %nim = stablehlo.negate %zim : tensor<2x2xf32>
  %zc = stablehlo.complex %zre, %nim : tensor<2x2xcomplex<f32>>
  %ztz = stablehlo.dot_general %zt, %zc, contracting_dims = [1] x [1] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  check.expect_almost_eq_const %ztz, dense<[[(1.0, 1.0), (2.0, 0.0)], [(0.0, 0.0), (3.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  check.expect_eq_const %r#4, dense<0> : tensor<i32>
  func.return
}

// -----

// T = [[2, 1, 0], [1, 2, 1], [0, 1, 2]] (dl[0] and du[2] are not read), T x
// = (3, 4, 3) for x = (1, 1, 1).
func.func @sgtsv() {
  %dl = stablehlo.constant dense<[77.0, 1.0, 1.0]> : tensor<3xf32>
  %d = stablehlo.constant dense<[2.0, 2.0, 2.0]> : tensor<3xf32>
  %du = stablehlo.constant dense<[1.0, 1.0, -77.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[[3.0], [4.0], [3.0]]> : tensor<3x1xf32>
  %r:5 = stablehlo.custom_call @lapack_sgtsv_ffi(%dl, %d, %du, %b) {mhlo.backend_config = {}, operand_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x1xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x1xf32>, tensor<i32>)
  check.expect_almost_eq_const %r#3, dense<[[1.0], [1.0], [1.0]]> : tensor<3x1xf32>
  check.expect_eq_const %r#4, dense<0> : tensor<i32>
  func.return
}

// -----

// A batch of two: T x = b for T = [[2i, 1], [1, 2]] and x = (1, 0.5 + i);
// the second system is singular (info 1).
func.func @zgtsv_batch_info() {
  %dl = stablehlo.constant dense<[[(0.0, 0.0), (1.0, 0.0)], [(0.0, 0.0), (0.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %d = stablehlo.constant dense<[[(0.0, 2.0), (2.0, 0.0)], [(0.0, 0.0), (0.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %du = stablehlo.constant dense<[[(1.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (0.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %b = stablehlo.constant dense<[[[(0.5, 3.0)], [(2.0, 2.0)]], [[(1.0, 0.0)], [(1.0, 0.0)]]]> : tensor<2x2x1xcomplex<f64>>
  %r:5 = stablehlo.custom_call @lapack_zgtsv_ffi(%dl, %d, %du, %b) {mhlo.backend_config = {}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<2x2x1xcomplex<f64>>) -> (tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<2x2x1xcomplex<f64>>, tensor<2xi32>)
  %x = stablehlo.slice %r#3 [0:1, 0:2, 0:1] : (tensor<2x2x1xcomplex<f64>>) -> tensor<1x2x1xcomplex<f64>>
  check.expect_almost_eq_const %x, dense<[[[(1.0, 0.0)], [(0.5, 1.0)]]]> : tensor<1x2x1xcomplex<f64>>
  check.expect_eq_const %r#4, dense<[0, 1]> : tensor<2xi32>
  func.return
}

// -----

// The column of the larger norm first (jpvt 1-based): R = [[-2, 0], [0,
// -1]] with the reflector (1, 1) below it.
func.func @dgeqp3() {
  %a = stablehlo.constant dense<[[1.0, 0.0], [0.0, 2.0]]> : tensor<2x2xf64>
  %p = stablehlo.constant dense<[0, 0]> : tensor<2xi32>
  %r:3 = stablehlo.custom_call @lapack_dgeqp3_ffi(%a, %p) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x2xf64>, tensor<2xi32>) -> (tensor<2x2xf64>, tensor<2xi32>, tensor<2xf64>)
  check.expect_almost_eq_const %r#0, dense<[[-2.0, 0.0], [1.0, -1.0]]> : tensor<2x2xf64>
  check.expect_eq_const %r#1, dense<[2, 1]> : tensor<2xi32>
  check.expect_almost_eq_const %r#2, dense<[1.0, 0.0]> : tensor<2xf64>
  func.return
}
