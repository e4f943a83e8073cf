func.func @reshape_op_test_1d_to_2d() {
  %operand = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %result = stablehlo.reshape %operand : (tensor<6xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %result, dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @reshape_op_test_3d_to_2d_and_scalar() {
  %operand = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : tensor<2x3x2xi32>
  %result = stablehlo.reshape %operand : (tensor<2x3x2xi32>) -> tensor<4x3xi32>
  %one = stablehlo.constant dense<[[7]]> : tensor<1x1xi32>
  %scalar = stablehlo.reshape %one : (tensor<1x1xi32>) -> tensor<i32>
  check.expect_eq_const %result, dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]> : tensor<4x3xi32>
  check.expect_eq_const %scalar, dense<7> : tensor<i32>
  func.return
}

// -----

func.func @transpose_op_test_2d() {
  %operand = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %result = stablehlo.transpose %operand, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %result, dense<[[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]> : tensor<3x2xf32>
  func.return
}

// -----

func.func @transpose_op_test_3d() {
  %operand = stablehlo.constant dense<[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], [[13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 24]]]> : tensor<2x3x4xi32>
  %result = stablehlo.transpose %operand, dims = [2, 0, 1] : (tensor<2x3x4xi32>) -> tensor<4x2x3xi32>
  check.expect_eq_const %result, dense<[[[1, 5, 9], [13, 17, 21]], [[2, 6, 10], [14, 18, 22]], [[3, 7, 11], [15, 19, 23]], [[4, 8, 12], [16, 20, 24]]]> : tensor<4x2x3xi32>
  func.return
}

// -----

func.func @broadcast_in_dim_op_test_vector() {
  %operand = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %rows = stablehlo.broadcast_in_dim %operand, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %cols = stablehlo.broadcast_in_dim %operand, dims = [0] : (tensor<3xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %rows, dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  check.expect_eq_const %cols, dense<[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]> : tensor<3x2xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_op_test_scalar_and_degenerate() {
  %scalar = stablehlo.constant dense<4> : tensor<i32>
  %splat = stablehlo.broadcast_in_dim %scalar, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
  %operand = stablehlo.constant dense<[[5], [6]]> : tensor<2x1xi32>
  %result = stablehlo.broadcast_in_dim %operand, dims = [1, 2] : (tensor<2x1xi32>) -> tensor<3x2x4xi32>
  check.expect_eq_const %splat, dense<4> : tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[[5, 5, 5, 5], [6, 6, 6, 6]], [[5, 5, 5, 5], [6, 6, 6, 6]], [[5, 5, 5, 5], [6, 6, 6, 6]]]> : tensor<3x2x4xi32>
  func.return
}

// -----

func.func @slice_op_test_strided() {
  %operand = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %result = stablehlo.slice %operand [1:3, 0:4:2] : (tensor<4x4xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %result, dense<[[5.0, 7.0], [9.0, 11.0]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @slice_op_test_1d() {
  %operand = stablehlo.iota dim = 0 : tensor<10xi32>
  %strided = stablehlo.slice %operand [2:9:3] : (tensor<10xi32>) -> tensor<3xi32>
  %tail = stablehlo.slice %operand [7:10] : (tensor<10xi32>) -> tensor<3xi32>
  check.expect_eq_const %strided, dense<[2, 5, 8]> : tensor<3xi32>
  check.expect_eq_const %tail, dense<[7, 8, 9]> : tensor<3xi32>
  func.return
}

// -----

func.func @concatenate_op_test() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0, 5.0]> : tensor<3xf32>
  %r0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  %p = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %q = stablehlo.constant dense<[[9], [8]]> : tensor<2x1xi32>
  %s = stablehlo.constant dense<[[10, 11, 12], [13, 14, 15]]> : tensor<2x3xi32>
  %r1 = stablehlo.concatenate %p, %q, %s, dim = 1 : (tensor<2x2xi32>, tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<2x6xi32>
  check.expect_eq_const %r0, dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  check.expect_eq_const %r1, dense<[[1, 2, 9, 10, 11, 12], [3, 4, 8, 13, 14, 15]]> : tensor<2x6xi32>
  func.return
}

// -----

func.func @pad_op_test_interior() {
  %operand = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %value = stablehlo.constant dense<0.0> : tensor<f32>
  %result = stablehlo.pad %operand, %value, low = [1], high = [2], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<8xf32>
  %m = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %fill = stablehlo.constant dense<-1> : tensor<i32>
  %r2 = stablehlo.pad %m, %fill, low = [0, 1], high = [1, 0], interior = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<3x6xi32>
  check.expect_eq_const %result, dense<[0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 0.0]> : tensor<8xf32>
  check.expect_eq_const %r2, dense<[[-1, 1, -1, 2, -1, 3], [-1, 4, -1, 5, -1, 6], [-1, -1, -1, -1, -1, -1]]> : tensor<3x6xi32>
  func.return
}

// -----

func.func @pad_op_test_negative() {
  %operand = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %value = stablehlo.constant dense<9.0> : tensor<f32>
  %r0 = stablehlo.pad %operand, %value, low = [-1], high = [-2], interior = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<3xf32>
  %r1 = stablehlo.pad %operand, %value, low = [-1], high = [2], interior = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<7xf32>
  check.expect_eq_const %r0, dense<[2.0, 3.0, 4.0]> : tensor<3xf32>
  check.expect_eq_const %r1, dense<[2.0, 3.0, 4.0, 5.0, 6.0, 9.0, 9.0]> : tensor<7xf32>
  func.return
}

// -----

func.func @reverse_op_test() {
  %operand = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r0 = stablehlo.reverse %operand, dims = [1] : tensor<2x3xi32>
  %r1 = stablehlo.reverse %operand, dims = [0, 1] : tensor<2x3xi32>
  check.expect_eq_const %r0, dense<[[3, 2, 1], [6, 5, 4]]> : tensor<2x3xi32>
  check.expect_eq_const %r1, dense<[[6, 5, 4], [3, 2, 1]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @iota_op_test() {
  %r0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %r1 = stablehlo.iota dim = 1 : tensor<2x3xf32>
  %r2 = stablehlo.iota dim = 0 : tensor<3x2xi64>
  check.expect_eq_const %r0, dense<[0, 1, 2, 3]> : tensor<4xi32>
  check.expect_eq_const %r1, dense<[[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]> : tensor<2x3xf32>
  check.expect_eq_const %r2, dense<[[0, 0], [1, 1], [2, 2]]> : tensor<3x2xi64>
  func.return
}

// -----

func.func @dynamic_slice_op_test() {
  %operand = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %i = stablehlo.constant dense<1> : tensor<i32>
  %j = stablehlo.constant dense<2> : tensor<i32>
  %r0 = stablehlo.dynamic_slice %operand, %i, %j, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  %k = stablehlo.constant dense<3> : tensor<i32>
  %m = stablehlo.constant dense<-1> : tensor<i32>
  %r1 = stablehlo.dynamic_slice %operand, %k, %m, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  check.expect_eq_const %r0, dense<[[7.0, 8.0], [11.0, 12.0]]> : tensor<2x2xf32>
  check.expect_eq_const %r1, dense<[[9.0, 10.0], [13.0, 14.0]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @dynamic_update_slice_op_test() {
  %operand = stablehlo.constant dense<0.0> : tensor<4x4xf32>
  %update = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = stablehlo.constant dense<1> : tensor<i32>
  %j = stablehlo.constant dense<2> : tensor<i32>
  %r0 = stablehlo.dynamic_update_slice %operand, %update, %i, %j : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
  %k = stablehlo.constant dense<5> : tensor<i32>
  %m = stablehlo.constant dense<-2> : tensor<i32>
  %r1 = stablehlo.dynamic_update_slice %operand, %update, %k, %m : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
  check.expect_eq_const %r0, dense<[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 2.0], [0.0, 0.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0]]> : tensor<4x4xf32>
  check.expect_eq_const %r1, dense<[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [1.0, 2.0, 0.0, 0.0], [3.0, 4.0, 0.0, 0.0]]> : tensor<4x4xf32>
  func.return
}
