func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.multiply %a, %a : tensor<2xi32>
  check.expect_eq_const %b, dense<[1, 5]> : tensor<2xi32>
  func.return
}
