// StableHLO's semantics on i1 where HLO's opcode of the name differs or is
// undefined: add is logical or, multiply logical and; bitcast_convert
// between i1 and a wider type maps element k of the minor-most dimension to
// bit k (least significant first); chlo.top_k orders false below true.

func.func @add_op_test_i1_is_or() {
  %a = stablehlo.constant dense<[false, false, true, true]> : tensor<4xi1>
  %b = stablehlo.constant dense<[false, true, false, true]> : tensor<4xi1>
  %r = stablehlo.add %a, %b : tensor<4xi1>
  check.expect_eq_const %r, dense<[false, true, true, true]> : tensor<4xi1>
  func.return
}

// -----

func.func @multiply_op_test_i1_is_and() {
  %a = stablehlo.constant dense<[[false, false], [true, true]]> : tensor<2x2xi1>
  %b = stablehlo.constant dense<[[false, true], [false, true]]> : tensor<2x2xi1>
  %r = stablehlo.multiply %a, %b : tensor<2x2xi1>
  check.expect_eq_const %r, dense<[[false, false], [false, true]]> : tensor<2x2xi1>
  func.return
}

// -----

func.func @reduce_op_test_i1_add_region_is_any() {
  %operand = stablehlo.constant dense<[[false, false, false], [false, true, false]]> : tensor<2x3xi1>
  %init = stablehlo.constant dense<false> : tensor<i1>
  %result = stablehlo.reduce(%operand init: %init) across dimensions = [1] : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
   reducer(%x: tensor<i1>, %y: tensor<i1>)  {
    %s = stablehlo.add %x, %y : tensor<i1>
    stablehlo.return %s : tensor<i1>
  }
  check.expect_eq_const %result, dense<[false, true]> : tensor<2xi1>
  func.return
}

// -----

func.func @top_k_op_test_i1() {
  %operand = stablehlo.constant dense<[[false, true, false, true], [true, false, false, false], [false, false, false, false]]> : tensor<3x4xi1>
  %values, %indices = chlo.top_k(%operand, k = 2) : tensor<3x4xi1> -> (tensor<3x2xi1>, tensor<3x2xi32>)
  check.expect_eq_const %values, dense<[[true, true], [true, false], [false, false]]> : tensor<3x2xi1>
  check.expect_eq_const %indices, dense<[[1, 3], [0, 1], [0, 1]]> : tensor<3x2xi32>
  func.return
}

// -----

func.func @bitcast_convert_op_test_i1_to_i32() {
  %bits = stablehlo.constant dense<[[true, true, true, true, false, true, true, true, false, true, true, true, true, true, false, true, true, false, true, true, false, true, false, true, false, true, true, true, true, false, true, true], [true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false]]> : tensor<2x32xi1>
  %r = stablehlo.bitcast_convert %bits : (tensor<2x32xi1>) -> tensor<2xi32>
  check.expect_eq_const %r, dense<[-559038737, 1]> : tensor<2xi32>
  func.return
}

// -----

func.func @bitcast_convert_op_test_ui8_to_i1() {
  %x = stablehlo.constant dense<[165, 1, 128]> : tensor<3xui8>
  %r = stablehlo.bitcast_convert %x : (tensor<3xui8>) -> tensor<3x8xi1>
  check.expect_eq_const %r, dense<[[true, false, true, false, false, true, false, true], [true, false, false, false, false, false, false, false], [false, false, false, false, false, false, false, true]]> : tensor<3x8xi1>
  func.return
}

// -----

func.func @bitcast_convert_op_test_f32_to_i1() {
  %x = stablehlo.constant dense<[1.0, -0.15625]> : tensor<2xf32>
  %r = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2x32xi1>
  check.expect_eq_const %r, dense<[[false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, false, false], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, true, true, true, true, true, false, true]]> : tensor<2x32xi1>
  func.return
}

// -----

func.func @bitcast_convert_op_test_i1_to_bf16() {
  %bits = stablehlo.constant dense<[false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true]> : tensor<16xi1>
  %r = stablehlo.bitcast_convert %bits : (tensor<16xi1>) -> tensor<bf16>
  check.expect_eq_const %r, dense<-2.0> : tensor<bf16>
  func.return
}

// -----

func.func @bitcast_convert_op_test_f64_round_trip_through_i1() {
  %x = stablehlo.constant dense<[3.25, -1.0e-300]> : tensor<2xf64>
  %b = stablehlo.bitcast_convert %x : (tensor<2xf64>) -> tensor<2x64xi1>
  %y = stablehlo.bitcast_convert %b : (tensor<2x64xi1>) -> tensor<2xf64>
  check.expect_eq_const %y, dense<[3.25, -1.0e-300]> : tensor<2xf64>
  %u = stablehlo.bitcast_convert %b : (tensor<2x64xi1>) -> tensor<2xui64>
  check.expect_eq_const %u, dense<[4614500768194494464, 9341994084744098649]> : tensor<2xui64>
  func.return
}

// -----

func.func @bitcast_convert_op_test_i1_to_i1() {
  %p = stablehlo.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  %r = stablehlo.bitcast_convert %p : (tensor<2x2xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %r, dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  func.return
}
