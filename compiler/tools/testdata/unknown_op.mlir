// An operation the front end does not know: refused at its position.
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %y = stablehlo.frobnicate %x : tensor<f32>
  return %y : tensor<f32>
}
