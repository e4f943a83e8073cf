func.func @gather_op_test_rows() {
  %operand = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %indices = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %result = "stablehlo.gather"(%operand, %indices) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<3x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  check.expect_eq_const %result, dense<[[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @gather_op_test_points() {
  %operand = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %indices = stablehlo.constant dense<[[0, 1], [2, 2], [1, 0]]> : tensor<3x2xi32>
  %result = "stablehlo.gather"(%operand, %indices) <{dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<3x3xf32>, tensor<3x2xi32>) -> tensor<3xf32>
  check.expect_eq_const %result, dense<[2.0, 9.0, 4.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @gather_op_test_windows_clamped() {
  %operand = stablehlo.constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]> : tensor<4x5xi32>
  %indices = stablehlo.constant dense<[[1, 1], [3, 4], [-1, 2]]> : tensor<3x2xi32>
  %result = "stablehlo.gather"(%operand, %indices) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 3>}> : (tensor<4x5xi32>, tensor<3x2xi32>) -> tensor<3x2x3xi32>
  check.expect_eq_const %result, dense<[[[7, 8, 9], [12, 13, 14]], [[13, 14, 15], [18, 19, 20]], [[3, 4, 5], [8, 9, 10]]]> : tensor<3x2x3xi32>
  func.return
}

// -----

func.func @gather_op_test_take_1d_implicit_index_dim() {
  %operand = stablehlo.constant dense<[10.0, 11.0, 12.0, 13.0, 14.0]> : tensor<5xf32>
  %indices = stablehlo.constant dense<[4, 0, 0, 2]> : tensor<4xi32>
  %result = "stablehlo.gather"(%operand, %indices) <{dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<5xf32>, tensor<4xi32>) -> tensor<4xf32>
  check.expect_eq_const %result, dense<[14.0, 10.0, 10.0, 12.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @gather_op_test_index_vector_dim_0() {
  %operand = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : tensor<2x3x2xi32>
  %indices = stablehlo.constant dense<[[2, 0], [0, 1]]> : tensor<2x2xi32>
  %result = "stablehlo.gather"(%operand, %indices) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 0>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 2>}> : (tensor<2x3x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @scatter_op_test_add_rows_duplicate_indices() {
  %operand = stablehlo.constant dense<[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]> : tensor<3x3xf32>
  %indices = stablehlo.constant dense<[[2], [2]]> : tensor<2x1xi32>
  %updates = stablehlo.constant dense<[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]> : tensor<2x3xf32>
  %result = "stablehlo.scatter"(%operand, %indices, %updates) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  check.expect_eq_const %result, dense<[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [12.0, 23.0, 34.0]]> : tensor<3x3xf32>
  func.return
}

// -----

func.func @scatter_op_test_replace_unique() {
  %operand = stablehlo.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %indices = stablehlo.constant dense<[[3], [0]]> : tensor<2x1xi32>
  %updates = stablehlo.constant dense<[-7, -8]> : tensor<2xi32>
  %result = "stablehlo.scatter"(%operand, %indices, %updates) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    stablehlo.return %y : tensor<i32>
  }) : (tensor<5xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<5xi32>
  check.expect_eq_const %result, dense<[-8, 1, 2, -7, 4]> : tensor<5xi32>
  func.return
}

// -----

func.func @scatter_op_test_segment_sum() {
  %operand = stablehlo.constant dense<[0.0, 0.0, 0.0, 0.0]> : tensor<4xf32>
  %indices = stablehlo.constant dense<[0, 1, 0, 3, 3, 3]> : tensor<6xi32>
  %updates = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %result = "stablehlo.scatter"(%operand, %indices, %updates) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<6xi32>, tensor<6xf32>) -> tensor<4xf32>
  check.expect_eq_const %result, dense<[4.0, 2.0, 0.0, 15.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @scatter_op_test_max_points() {
  %operand = stablehlo.constant dense<[[0, 5, 0], [9, 0, 1]]> : tensor<2x3xi32>
  %indices = stablehlo.constant dense<[[0, 1], [1, 2], [0, 1]]> : tensor<3x2xi32>
  %updates = stablehlo.constant dense<[3, 4, 8]> : tensor<3xi32>
  %result = "stablehlo.scatter"(%operand, %indices, %updates) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %m = stablehlo.maximum %x, %y : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<2x3xi32>, tensor<3x2xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %result, dense<[[0, 8, 0], [9, 0, 4]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @scatter_op_test_window_2d() {
  %operand = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  %indices = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %updates = stablehlo.constant dense<[[[100.0, 200.0], [300.0, 400.0]]]> : tensor<1x2x2xf32>
  %result = "stablehlo.scatter"(%operand, %indices, %updates) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x4xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>) -> tensor<3x4xf32>
  check.expect_eq_const %result, dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 107.0, 208.0], [9.0, 10.0, 311.0, 412.0]]> : tensor<3x4xf32>
  func.return
}
