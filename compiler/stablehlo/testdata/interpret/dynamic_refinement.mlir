// Dynamic operations whose sizes are constants: the unbounded result types
// (tensor<?x...>) are refined from the constant shape operands, and the
// same-shape operations after them from their operands.
func.func @refine_dynamic_broadcast_in_dim() {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %b = stablehlo.dynamic_broadcast_in_dim %a, %shape, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %c = stablehlo.add %b, %b : tensor<?x?xf32>
  %r = stablehlo.reshape %c : (tensor<?x?xf32>) -> tensor<6xf32>
  check.expect_eq_const %r, dense<[2.0, 4.0, 6.0, 2.0, 4.0, 6.0]> : tensor<6xf32>
  func.return
}

// -----

func.func @refine_dynamic_reshape_and_iota() {
  %a = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %shape = stablehlo.constant dense<[3, 2]> : tensor<2xi32>
  %b = stablehlo.dynamic_reshape %a, %shape : (tensor<6xi32>, tensor<2xi32>) -> tensor<?x2xi32>
  %n = stablehlo.constant dense<[3]> : tensor<1xi64>
  %i = stablehlo.dynamic_iota %n, dim = 0 : (tensor<1xi64>) -> tensor<?xi32>
  %ib = stablehlo.broadcast_in_dim %i, dims = [0] : (tensor<?xi32>) -> tensor<3x2xi32>
  %s = stablehlo.multiply %b, %ib : (tensor<?x2xi32>, tensor<3x2xi32>) -> tensor<?x2xi32>
  check.expect_eq_const %s, dense<[[0, 0], [3, 4], [10, 12]]> : tensor<3x2xi32>
  func.return
}
