// Forms StableHLO's printer and its interpreter suite write: attributes on
// the lines after an op's operands, a check whose expected value starts on
// the next line, attributes after the signature, struct attributes with
// their default fields left out, and dynamic ops with constant sizes.

func.func @convolution_attributes_on_later_lines() {
  %lhs = stablehlo.constant dense<[[[[1.0], [2.0], [3.0]],
                                    [[4.0], [5.0], [6.0]],
                                    [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %rhs = stablehlo.constant dense<[[[[1.0]], [[-1.0]]],
                                   [[[0.5]], [[2.0]]]]> : tensor<2x2x1x1xf32>
  %result = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {
      stride = [1, 2],
      pad = [[0, 0], [0, 1]]
    } {
      batch_group_count = 1 : i64,
      feature_group_count = 1 : i64
    } : (tensor<1x3x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x1xf32>
  check.expect_almost_eq_const %result,
      dense<[[[[11.0], [6.0]], [[18.5], [10.5]]]]> : tensor<1x2x2x1xf32>
  func.return
}

// -----

func.func @dot_general_attributes_on_later_lines() {
  %lhs = stablehlo.constant dense<[[[1, 2], [3, 4]]]> : tensor<1x2x2xi32>
  %rhs = stablehlo.constant dense<[[[5, 6], [7, 8]]]> : tensor<1x2x2xi32>
  %result = stablehlo.dot_general %lhs, %rhs,
    batching_dims = [0] x [0],
    contracting_dims = [2] x [1],
    precision = [DEFAULT, HIGHEST],
    algorithm = <
      lhs_precision_type = f32,
      rhs_precision_type = f32,
      accumulation_type = f32,
      lhs_component_count = 1,
      rhs_component_count = 1,
      num_primitive_operations = 1,
      allow_imprecise_accumulation = false
    >
    : (tensor<1x2x2xi32>, tensor<1x2x2xi32>) -> tensor<1x2x2xi32>
  check.expect_eq_const %result, dense<[[[19, 22], [43, 50]]]> : tensor<1x2x2xi32>
  func.return
}

// -----

func.func @check_attributes_after_the_signature() {
  %x = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf64>
  check.expect_almost_eq_const %x, dense<[2.2, 2.75]> : tensor<2xf64> {tolerance = 0.1 : f64}
  %h = stablehlo.constant dense<[3.0, -0.5]> : tensor<2xf16>
  %k = stablehlo.constant dense<[3.005, -0.5]> : tensor<2xf16>
  check.expect_close %h, %k, max_ulp_difference = 3 : tensor<2xf16>, tensor<2xf16>
  func.return
}

// -----

func.func @scatter_and_gather_defaults_left_out() {
  %operand = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  // index_vector_dim left out: 0, the index vectors along the first
  // dimension (one element each here).
  %indices = stablehlo.constant dense<[[3, 0]]> : tensor<1x2xi32>
  %updates = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %s = "stablehlo.scatter"(%operand, %indices, %updates) <{
    scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>
  }> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) : (tensor<4xi32>, tensor<1x2xi32>, tensor<2xi32>) -> tensor<4xi32>
  check.expect_eq_const %s, dense<[21, 2, 3, 14]> : tensor<4xi32>
  %g = "stablehlo.gather"(%operand, %indices) <{
    dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0]>,
    slice_sizes = array<i64: 1>
  }> : (tensor<4xi32>, tensor<1x2xi32>) -> tensor<2xi32>
  check.expect_eq_const %g, dense<[4, 1]> : tensor<2xi32>
  func.return
}

// -----

func.func @dynamic_ops_with_constant_sizes() {
  %x = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %low = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %high = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %interior = stablehlo.constant dense<0> : tensor<2xi64>
  %p = stablehlo.dynamic_pad %x, %zero, %low, %high, %interior
    : (tensor<2x2xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<3x3xi64>
  check.expect_eq_const %p, dense<[[0, 1, 2], [0, 3, 4], [0, 0, 0]]> : tensor<3x3xi64>
  %idx = stablehlo.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %sizes = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %g = "stablehlo.dynamic_gather"(%x, %idx, %sizes) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
                                          start_index_map = [0], index_vector_dim = 1>
  } : (tensor<2x2xi64>, tensor<2x1xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  check.expect_eq_const %g, dense<[[3, 4], [1, 2]]> : tensor<2x2xi64>
  %lhs = stablehlo.constant dense<[[[1], [2], [3]]]> : tensor<1x3x1xi64>
  %rhs = stablehlo.constant dense<1> : tensor<2x1x1xi64>
  %pad = stablehlo.constant dense<1> : tensor<1x2xi64>
  %c = "stablehlo.dynamic_conv"(%lhs, %rhs, %pad) {
    dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
    batch_group_count = 1 : i64,
    feature_group_count = 1 : i64
  } : (tensor<1x3x1xi64>, tensor<2x1x1xi64>, tensor<1x2xi64>) -> tensor<1x4x1xi64>
  check.expect_eq_const %c, dense<[[[1], [3], [5], [3]]]> : tensor<1x4x1xi64>
  func.return
}

// -----

// Non-finite floats as MLIR writes them, by their bits: the sign of a NaN
// survives (a total order puts -NaN below -inf).
func.func @nan_sign_from_hex_bits() {
  %x = stablehlo.constant dense<[0x7F800000, 0x7FC00000, 0xFFC00000, 0xFF800000, 3.0]> : tensor<5xf32>
  %v, %i = chlo.top_k(%x, k = 5) : tensor<5xf32> -> (tensor<5xf32>, tensor<5xi32>)
  check.expect_eq_const %i, dense<[1, 0, 4, 3, 2]> : tensor<5xi32>
  %b = stablehlo.bitcast_convert %v : (tensor<5xf32>) -> tensor<5xui32>
  check.expect_eq_const %b, dense<[2143289344, 2139095040, 1077936128, 4286578688, 4290772992]> : tensor<5xui32>
  func.return
}
