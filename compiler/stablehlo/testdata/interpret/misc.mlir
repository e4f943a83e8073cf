func.func @tuple_get_tuple_element_op_test() {
  %a = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<7> : tensor<i32>
  %t = stablehlo.tuple %a, %b : tuple<tensor<2xf32>, tensor<i32>>
  %x = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  %y = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  check.expect_eq_const %x, dense<[1.5, -2.0]> : tensor<2xf32>
  check.expect_eq_const %y, dense<7> : tensor<i32>
  func.return
}

// -----

func.func @optimization_barrier_op_test() {
  %a = stablehlo.constant dense<[0.5, 3.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<-4> : tensor<i32>
  %r:2 = stablehlo.optimization_barrier %a, %b : tensor<2xf32>, tensor<i32>
  %s = stablehlo.add %r#0, %r#0 : tensor<2xf32>
  check.expect_eq_const %r#0, dense<[0.5, 3.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<-4> : tensor<i32>
  check.expect_eq_const %s, dense<[1.0, 6.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @map_op_test() {
  %a = stablehlo.constant dense<[1.0, -2.0, 3.5]> : tensor<3xf32>
  %b = stablehlo.constant dense<[4.0, 0.5, -2.0]> : tensor<3xf32>
  %r = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.multiply %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[4.0, -1.0, -7.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @map_op_test_2d_i32() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[[5, -6], [7, 0]]> : tensor<2x2xi32>
  %r = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %p = stablehlo.multiply %x, %x : tensor<i32>
    %s = stablehlo.subtract %p, %y : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[-4, 10], [2, 16]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @select_and_scatter_op_test() {
  %operand = stablehlo.constant dense<[4.0, 4.0, 1.0, 7.0]> : tensor<4xf32>
  %source = stablehlo.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %init = stablehlo.constant dense<1.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%operand, %source, %init) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare  GE, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %r, dense<[11.0, 1.0, 1.0, 21.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @select_and_scatter_op_test_overlapping() {
  %operand = stablehlo.constant dense<[1.0, 5.0, 2.0, 6.0, 3.0]> : tensor<5xf32>
  %source = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%operand, %source, %init) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare  GE, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5xf32>, tensor<4xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_eq_const %r, dense<[0.0, 3.0, 0.0, 7.0, 0.0]> : tensor<5xf32>
  func.return
}

// -----

func.func @reduce_precision_op_test() {
  %a = stablehlo.constant dense<[1.0009765625, 1.00048828125, 1.00146484375, 70000.0]> : tensor<4xf32>
  %r = stablehlo.reduce_precision %a, format = e5m10 : tensor<4xf32>
  check.expect_eq_const %r, dense<[1.0009765625, 1.0, 1.001953125, 0x7F800000]> : tensor<4xf32>
  func.return
}

// -----

func.func @reduce_precision_op_test_e8m7() {
  %a = stablehlo.constant dense<[1.00390625, 1.005859375, -3.0078125]> : tensor<3xf32>
  %r = stablehlo.reduce_precision %a, format = e8m7 : tensor<3xf32>
  check.expect_eq_const %r, dense<[1.0, 1.0078125, -3.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @after_all_create_token_op_test() {
  %t = stablehlo.create_token : !stablehlo.token
  %u = stablehlo.after_all %t : !stablehlo.token
  %v = stablehlo.after_all %t, %u : !stablehlo.token
  %a = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %r = stablehlo.multiply %a, %a : tensor<2xf32>
  check.expect_eq_const %r, dense<[4.0, 9.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @get_dimension_size_op_test_generic() {
  %a = stablehlo.constant dense<0.0> : tensor<2x5xf32>
  %n = "stablehlo.get_dimension_size"(%a) <{dimension = 1 : i64}> : (tensor<2x5xf32>) -> tensor<i32>
  check.expect_eq_const %n, dense<5> : tensor<i32>
  func.return
}

// -----

func.func @set_dimension_size_op_test_generic() {
  %a = stablehlo.constant dense<[1.0, 2.0, 4.0, 8.0]> : tensor<4xf32>
  %n = stablehlo.constant dense<2> : tensor<i32>
  %d = "stablehlo.set_dimension_size"(%a, %n) <{dimension = 0 : i64}> : (tensor<4xf32>, tensor<i32>) -> tensor<?xf32, #stablehlo.bounds<4>>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%d init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %sum, dense<3.0> : tensor<f32>
  func.return
}

// -----

func.func @dynamic_broadcast_in_dim_op_test() {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %r = stablehlo.dynamic_broadcast_in_dim %a, %shape, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  check.expect_eq_const %r, dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @dynamic_reshape_op_test() {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %r = stablehlo.dynamic_reshape %a, %shape : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  check.expect_eq_const %r, dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @dynamic_iota_op_test() {
  %shape = stablehlo.constant dense<[4]> : tensor<1xi64>
  %r = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<1xi64>) -> tensor<4xi32>
  %shape2 = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %r2 = stablehlo.dynamic_iota %shape2, dim = 1 : (tensor<2xi64>) -> tensor<2x3xf32>
  check.expect_eq_const %r, dense<[0, 1, 2, 3]> : tensor<4xi32>
  check.expect_eq_const %r2, dense<[[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @composite_op_test() {
  %a = stablehlo.constant dense<[1.5, -2.0, 3.0]> : tensor<3xf32>
  %r = stablehlo.composite "my.square" %a {decomposition = @my_square} : (tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[2.25, 4.0, 9.0]> : tensor<3xf32>
  func.return
}

func.func private @my_square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %s = stablehlo.multiply %x, %x : tensor<3xf32>
  func.return %s : tensor<3xf32>
}
