func.func @replica_id_op_test() {
  %r = stablehlo.replica_id : tensor<ui32>
  check.expect_eq_const %r, dense<0> : tensor<ui32>
  func.return
}

// -----

func.func @partition_id_op_test() {
  %r = stablehlo.partition_id : tensor<ui32>
  check.expect_eq_const %r, dense<0> : tensor<ui32>
  func.return
}

// -----

func.func @all_reduce_op_test() {
  %a = stablehlo.constant dense<[1.0, -2.0, 3.5, 0.0]> : tensor<4xf32>
  %r = "stablehlo.all_reduce"(%a) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_eq_const %r, dense<[1.0, -2.0, 3.5, 0.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @all_gather_op_test() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %r = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @reduce_scatter_op_test() {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = "stablehlo.reduce_scatter"(%a) <{scatter_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_eq_const %r, dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @all_to_all_op_test() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = "stablehlo.all_to_all"(%a) <{split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %r, dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @collective_permute_op_test() {
  %a = stablehlo.constant dense<[7, -8, 9]> : tensor<3xi32>
  %r = "stablehlo.collective_permute"(%a) <{source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>}> : (tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %r, dense<[7, -8, 9]> : tensor<3xi32>
  func.return
}

// -----

func.func @collective_broadcast_op_test() {
  %a = stablehlo.constant dense<[[0.5, 1.5], [2.5, -3.5]]> : tensor<2x2xf32>
  %r = "stablehlo.collective_broadcast"(%a) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[0.5, 1.5], [2.5, -3.5]]> : tensor<2x2xf32>
  func.return
}
