func.func @sort_op_test_ascending_f32() {
  %operand = stablehlo.constant dense<[3.0, -1.0, 2.5, 0.0, -7.0]> : tensor<5xf32>
  %result = "stablehlo.sort"(%operand) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare  LT, %x, %y,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<5xf32>) -> tensor<5xf32>
  check.expect_eq_const %result, dense<[-7.0, -1.0, 0.0, 2.5, 3.0]> : tensor<5xf32>
  func.return
}

// -----

func.func @sort_op_test_descending_i32() {
  %operand = stablehlo.constant dense<[4, -2, 9, 0, 4, 1]> : tensor<6xi32>
  %result = "stablehlo.sort"(%operand) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %c = stablehlo.compare  GT, %x, %y,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<6xi32>) -> tensor<6xi32>
  check.expect_eq_const %result, dense<[9, 4, 4, 1, 0, -2]> : tensor<6xi32>
  func.return
}

// -----

func.func @sort_op_test_2d_both_dims() {
  %operand = stablehlo.constant dense<[[3.0, 1.0, 2.0], [-1.0, -3.0, 0.5]]> : tensor<2x3xf32>
  %rows = "stablehlo.sort"(%operand) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare  LT, %x, %y,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %cols = "stablehlo.sort"(%operand) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare  LT, %x, %y,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %rows, dense<[[1.0, 2.0, 3.0], [-3.0, -1.0, 0.5]]> : tensor<2x3xf32>
  check.expect_eq_const %cols, dense<[[-1.0, -3.0, 0.5], [3.0, 1.0, 2.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @sort_op_test_stable_key_value() {
  %keys = stablehlo.constant dense<[3, 1, 3, 2, 1, 3]> : tensor<6xi32>
  %values = stablehlo.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0, 60.0]> : tensor<6xf32>
  %result:2 = "stablehlo.sort"(%keys, %values) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%k0: tensor<i32>, %k1: tensor<i32>, %v0: tensor<f32>, %v1: tensor<f32>):
    %c = stablehlo.compare  LT, %k0, %k1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<6xi32>, tensor<6xf32>) -> (tensor<6xi32>, tensor<6xf32>)
  check.expect_eq_const %result#0, dense<[1, 1, 2, 3, 3, 3]> : tensor<6xi32>
  check.expect_eq_const %result#1, dense<[20.0, 50.0, 40.0, 10.0, 30.0, 60.0]> : tensor<6xf32>
  func.return
}

// -----

func.func @sort_op_test_argsort_descending() {
  %operand = stablehlo.constant dense<[2.5, -0.5, 7.0, 1.0]> : tensor<4xf32>
  %iota = stablehlo.iota dim = 0 : tensor<4xi32>
  %result:2 = "stablehlo.sort"(%operand, %iota) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %i0: tensor<i32>, %i1: tensor<i32>):
    %c = stablehlo.compare  GT, %a0, %a1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  check.expect_eq_const %result#0, dense<[7.0, 2.5, 1.0, -0.5]> : tensor<4xf32>
  check.expect_eq_const %result#1, dense<[2, 0, 3, 1]> : tensor<4xi32>
  func.return
}

// -----

func.func @sort_op_test_totalorder_signed_zero() {
  %operand = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, -1.0, 0xFF800000, 2.0]> : tensor<6xf32>
  %iota = stablehlo.iota dim = 0 : tensor<6xi32>
  %result:2 = "stablehlo.sort"(%operand, %iota) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %i0: tensor<i32>, %i1: tensor<i32>):
    %c = stablehlo.compare  LT, %a0, %a1,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<6xf32>, tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>)
  check.expect_eq_const %result#0, dense<[0xFF800000, -1.0, -0.0, 0.0, 2.0, 0x7F800000]> : tensor<6xf32>
  check.expect_eq_const %result#1, dense<[4, 3, 1, 0, 5, 2]> : tensor<6xi32>
  func.return
}

// -----

func.func @sort_op_test_ui32_unsigned() {
  %operand = stablehlo.constant dense<[4000000000, 5, 2147483648, 0]> : tensor<4xui32>
  %result = "stablehlo.sort"(%operand) <{dimension = 0 : i64}> ({
  ^bb0(%x: tensor<ui32>, %y: tensor<ui32>):
    %c = stablehlo.compare  LT, %x, %y,  UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xui32>) -> tensor<4xui32>
  check.expect_eq_const %result, dense<[0, 5, 2147483648, 4000000000]> : tensor<4xui32>
  func.return
}
