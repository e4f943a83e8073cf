// JAX's CPU LAPACK custom calls as JAX's exports write them: QR (geqrf,
// orgqr / ungqr) and the triangular solve (trsm), values worked out by hand
// or checked by their defining property.

// One Householder reflector: beta = -5, tau = 1.6, v = (1, 0.5); R = [[-5,
// -2.2], [0, 0.4]]. Q from it (orgqr) = I - tau v v^T.
func.func @sgeqrf_sorgqr() {
  %a = stablehlo.constant dense<[[3.0, 1.0], [4.0, 2.0]]> : tensor<2x2xf32>
  %r:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%a) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const %r#0, dense<[[-5.0, -2.2], [0.5, 0.4]]> : tensor<2x2xf32>
  check.expect_almost_eq_const %r#1, dense<[1.6, 0.0]> : tensor<2xf32>
  %q = stablehlo.custom_call @lapack_sorgqr_ffi(%r#0, %r#1) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %q, dense<[[-0.6, -0.8], [-0.8, 0.6]]> : tensor<2x2xf32>
  func.return
}

// -----

// Complex, 3 x 2 (a batch of one): Q R = A with Q from ungqr and R the upper
// triangle of geqrf's result.
func.func @zgeqrf_zungqr_qr_is_a() {
  %a = stablehlo.constant dense<[[[(1.0, 1.0), (2.0, 0.0)], [(0.0, 3.0), (1.0, -1.0)], [(2.0, 0.0), (0.0, 1.0)]]]> : tensor<1x3x2xcomplex<f64>>
  %r:2 = stablehlo.custom_call @lapack_zgeqrf_ffi(%a) {mhlo.backend_config = {}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>]} : (tensor<1x3x2xcomplex<f64>>) -> (tensor<1x3x2xcomplex<f64>>, tensor<1x2xcomplex<f64>>)
  %q = stablehlo.custom_call @lapack_zungqr_ffi(%r#0, %r#1) {mhlo.backend_config = {}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<1x3x2xcomplex<f64>>, tensor<1x2xcomplex<f64>>) -> tensor<1x3x2xcomplex<f64>>
  %top = stablehlo.slice %r#0 [0:1, 0:2, 0:2] : (tensor<1x3x2xcomplex<f64>>) -> tensor<1x2x2xcomplex<f64>>
  %row = stablehlo.iota dim = 1 : tensor<1x2x2xi32>
  %col = stablehlo.iota dim = 2 : tensor<1x2x2xi32>
  %upper = stablehlo.compare LE, %row, %col, SIGNED : (tensor<1x2x2xi32>, tensor<1x2x2xi32>) -> tensor<1x2x2xi1>
  %zero = stablehlo.constant dense<(0.0, 0.0)> : tensor<1x2x2xcomplex<f64>>
  %rr = stablehlo.select %upper, %top, %zero : tensor<1x2x2xi1>, tensor<1x2x2xcomplex<f64>>
  %qr = stablehlo.dot_general %q, %rr, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<1x3x2xcomplex<f64>>, tensor<1x2x2xcomplex<f64>>) -> tensor<1x3x2xcomplex<f64>>
  check.expect_almost_eq_const %qr, dense<[[[(1.0, 1.0), (2.0, 0.0)], [(0.0, 3.0), (1.0, -1.0)], [(2.0, 0.0), (0.0, 1.0)]]]> : tensor<1x3x2xcomplex<f64>>
  func.return
}

// -----

// L X = B, L lower triangular.
func.func @strsm_left_lower() {
  %a = stablehlo.constant dense<[[2.0, 0.0], [1.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[2.0, 4.0], [5.0, 6.0]]> : tensor<2x2xf32>
  %x = stablehlo.custom_call @lapack_strsm_ffi(%a, %b) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %x, dense<[[1.0, 2.0], [1.0, 1.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// X op(A) = B with op(A) the transpose of A's upper triangle, unit diagonal
// (A's diagonal and lower triangle are not read): op(A) = [[1, 0], [3, 1]].
func.func @dtrsm_right_upper_transposed_unit() {
  %a = stablehlo.constant dense<[[9.0, 3.0], [5.0, 9.0]]> : tensor<2x2xf64>
  %b = stablehlo.constant dense<[[7.0, 2.0]]> : tensor<1x2xf64>
  %x = stablehlo.custom_call @lapack_dtrsm_ffi(%a, %b) {mhlo.backend_config = {diag = 85 : ui8, side = 82 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
  check.expect_almost_eq_const %x, dense<[[1.0, 2.0]]> : tensor<1x2xf64>
  func.return
}

// -----

// A^H X = B: A^H = [[2, -i], [0, 1]].
func.func @ctrsm_left_lower_adjoint() {
  %a = stablehlo.constant dense<[[(2.0, 0.0), (0.0, 0.0)], [(0.0, 1.0), (1.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  %b = stablehlo.constant dense<[[(2.0, -1.0)], [(1.0, 0.0)]]> : tensor<2x1xcomplex<f32>>
  %x = stablehlo.custom_call @lapack_ctrsm_ffi(%a, %b) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 67 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
  check.expect_almost_eq_const %x, dense<[[(1.0, 0.0)], [(1.0, 0.0)]]> : tensor<2x1xcomplex<f32>>
  func.return
}

// -----

// A batch of two upper triangular systems.
func.func @ztrsm_batch() {
  %a = stablehlo.constant dense<[[[(1.0, 0.0), (1.0, 0.0)], [(0.0, 0.0), (2.0, 0.0)]], [[(0.0, 1.0), (0.0, 0.0)], [(0.0, 0.0), (1.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  %b = stablehlo.constant dense<[[[(3.0, 0.0)], [(4.0, 0.0)]], [[(0.0, 2.0)], [(5.0, 0.0)]]]> : tensor<2x2x1xcomplex<f64>>
  %x = stablehlo.custom_call @lapack_ztrsm_ffi(%a, %b) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 85 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<2x2x2xcomplex<f64>>, tensor<2x2x1xcomplex<f64>>) -> tensor<2x2x1xcomplex<f64>>
  check.expect_almost_eq_const %x, dense<[[[(1.0, 0.0)], [(2.0, 0.0)]], [[(2.0, 0.0)], [(5.0, 0.0)]]]> : tensor<2x2x1xcomplex<f64>>
  func.return
}
