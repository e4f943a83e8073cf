func.func @reduce_op_test_sum_applies() {
  %operand = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]]> : tensor<2x3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %result = stablehlo.reduce(%operand init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %result, dense<[6.0, 15.5]> : tensor<2xf32>
  func.return
}

// -----

func.func @reduce_op_test_max_region() {
  %operand = stablehlo.constant dense<[[1.0, -2.0, 7.0], [4.0, -5.0, 6.0]]> : tensor<2x3xf32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %result = stablehlo.reduce(%operand init: %init) across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
   reducer(%x: tensor<f32>, %y: tensor<f32>)  {
    %m = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }
  check.expect_eq_const %result, dense<[4.0, -2.0, 7.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @reduce_op_test_all_dims_i32() {
  %operand = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %result = stablehlo.reduce(%operand init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x4xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %result, dense<78> : tensor<i32>
  func.return
}

// -----

func.func @reduce_op_test_product_i32() {
  %operand = stablehlo.constant dense<[[1, 2, 3, 4], [-1, 5, -2, 3]]> : tensor<2x4xi32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %result = stablehlo.reduce(%operand init: %one) applies stablehlo.multiply across dimensions = [1] : (tensor<2x4xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %result, dense<[24, 30]> : tensor<2xi32>
  func.return
}

// -----

func.func @reduce_op_test_min_two_dims() {
  %operand = stablehlo.constant dense<[[[3.0, -1.0], [4.0, 1.0], [5.0, 9.0]], [[2.0, 6.0], [-5.0, 3.0], [5.0, 8.0]]]> : tensor<2x3x2xf32>
  %init = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %result = stablehlo.reduce(%operand init: %init) across dimensions = [0, 2] : (tensor<2x3x2xf32>, tensor<f32>) -> tensor<3xf32>
   reducer(%lhs: tensor<f32>, %rhs: tensor<f32>)  {
    %m = stablehlo.minimum %lhs, %rhs : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }
  check.expect_eq_const %result, dense<[-1.0, -5.0, 5.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @reduce_op_test_i1_all_any() {
  %operand = stablehlo.constant dense<[[true, true, true], [true, false, true], [false, false, false]]> : tensor<3x3xi1>
  %true = stablehlo.constant dense<true> : tensor<i1>
  %false = stablehlo.constant dense<false> : tensor<i1>
  %all = stablehlo.reduce(%operand init: %true) applies stablehlo.and across dimensions = [1] : (tensor<3x3xi1>, tensor<i1>) -> tensor<3xi1>
  %any = stablehlo.reduce(%operand init: %false) applies stablehlo.or across dimensions = [1] : (tensor<3x3xi1>, tensor<i1>) -> tensor<3xi1>
  check.expect_eq_const %all, dense<[true, false, false]> : tensor<3xi1>
  check.expect_eq_const %any, dense<[true, true, false]> : tensor<3xi1>
  func.return
}

// -----

func.func @reduce_op_test_variadic_argmax_generic() {
  %operand = stablehlo.constant dense<[[1.0, 5.0, 5.0], [7.0, -1.0, 2.0], [-3.0, -2.0, -2.5]]> : tensor<3x3xf32>
  %iota = stablehlo.iota dim = 1 : tensor<3x3xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %result:2 = "stablehlo.reduce"(%operand, %iota, %ninf, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%v0: tensor<f32>, %i0: tensor<i32>, %v1: tensor<f32>, %i1: tensor<i32>):
    %gt = stablehlo.compare  GT, %v0, %v1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = stablehlo.compare  EQ, %v0, %v1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = stablehlo.compare  LT, %i0, %i1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %first = stablehlo.or %gt, %tie : tensor<i1>
    %v = stablehlo.select %first, %v0, %v1 : tensor<i1>, tensor<f32>
    %i = stablehlo.select %first, %i0, %i1 : tensor<i1>, tensor<i32>
    stablehlo.return %v, %i : tensor<f32>, tensor<i32>
  }) : (tensor<3x3xf32>, tensor<3x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
  check.expect_eq_const %result#0, dense<[5.0, 7.0, -2.0]> : tensor<3xf32>
  check.expect_eq_const %result#1, dense<[1, 0, 1]> : tensor<3xi32>
  func.return
}

// -----

func.func @reduce_window_op_test_sum_1d() {
  %operand = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %result = "stablehlo.reduce_window"(%operand, %zero) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %result, dense<[3.0, 5.0, 7.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @reduce_window_op_test_max_pool_2d() {
  %operand = stablehlo.constant dense<[[1.0, 3.0, -1.0, 0.0], [2.0, 0.5, 4.0, 6.0], [-7.0, -8.0, 1.5, 1.25], [-9.0, -6.0, 2.0, 0.75]]> : tensor<4x4xf32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %result = "stablehlo.reduce_window"(%operand, %init) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
  check.expect_eq_const %result, dense<[[3.0, 6.0], [-6.0, 2.0]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @reduce_window_op_test_padded_cumsum_i32() {
  %operand = stablehlo.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %result = "stablehlo.reduce_window"(%operand, %zero) <{padding = dense<[[4, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 5>, window_strides = array<i64: 1>}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
  check.expect_eq_const %result, dense<[1, 3, 6, 10, 15]> : tensor<5xi32>
  func.return
}

// -----

func.func @reduce_window_op_test_dilations() {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %b = stablehlo.constant dense<[1.0, 10.0, 100.0]> : tensor<3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r0 = "stablehlo.reduce_window"(%a, %zero) <{window_dilations = array<i64: 2>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6xf32>, tensor<f32>) -> tensor<4xf32>
  %r1 = "stablehlo.reduce_window"(%b, %zero) <{base_dilations = array<i64: 2>, window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %r0, dense<[4.0, 6.0, 8.0, 10.0]> : tensor<4xf32>
  check.expect_eq_const %r1, dense<[1.0, 10.0, 10.0, 100.0]> : tensor<4xf32>
  func.return
}
