// interpreter.run_parallel: the programs of a replicas x partitions grid
// run as one program, their collectives as the data flow they compute.

module @sum_over_two_replicas {
  func.func @reduce(%x : tensor<3xf32>) -> tensor<3xf32> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = stablehlo.maximum %a, %b : tensor<f32>
        stablehlo.return %m : tensor<f32>
    }) {
      replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>
    } : (tensor<3xf32>) -> tensor<3xf32>
    return %r : tensor<3xf32>
  }
  func.func @main() {
    %x0 = stablehlo.constant dense<[1.0, 7.0, -2.0]> : tensor<3xf32>
    %x1 = stablehlo.constant dense<[4.0, -1.0, -3.0]> : tensor<3xf32>
    %r:2 = "interpreter.run_parallel"(%x0, %x1) {
      programs = [[@reduce], [@reduce]]
    } : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
    check.expect_eq_const %r#0, dense<[4.0, 7.0, -2.0]> : tensor<3xf32>
    check.expect_eq_const %r#1, dense<[4.0, 7.0, -2.0]> : tensor<3xf32>
    func.return
  }
}

// -----

// A 2 x 2 grid: ids, an all_gather across partitions (channel > 0 without
// global ids: cross_replica_and_partition over replica group {0, 1} takes
// every participant, partitions outer), a flattened-ids reduce_scatter.
module @grid_of_four {
  func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
    %r = stablehlo.replica_id : tensor<ui32>
    %p = stablehlo.partition_id : tensor<ui32>
    return %r, %p : tensor<ui32>, tensor<ui32>
  }
  func.func @gather(%x : tensor<1xi32>) -> tensor<4xi32> {
    %g = "stablehlo.all_gather"(%x) {
      all_gather_dim = 0 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 3, type = 0>
    } : (tensor<1xi32>) -> tensor<4xi32>
    return %g : tensor<4xi32>
  }
  func.func @scatter(%x : tensor<4xi32>) -> tensor<2xi32> {
    %s = "stablehlo.reduce_scatter"(%x) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %t = stablehlo.add %a, %b : tensor<i32>
        stablehlo.return %t : tensor<i32>
    }) {
      scatter_dimension = 0 : i64,
      replica_groups = dense<[[3, 0], [1, 2]]> : tensor<2x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 4, type = 0>,
      use_global_device_ids
    } : (tensor<4xi32>) -> tensor<2xi32>
    return %s : tensor<2xi32>
  }
  func.func @main() {
    %ids:8 = "interpreter.run_parallel"() {
      programs = [[@ids, @ids], [@ids, @ids]]
    } : () -> (tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>,
               tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>)
    check.expect_eq_const %ids#4, dense<1> : tensor<ui32>
    check.expect_eq_const %ids#3, dense<1> : tensor<ui32>
    check.expect_eq_const %ids#5, dense<0> : tensor<ui32>
    %a = stablehlo.constant dense<[10]> : tensor<1xi32>
    %b = stablehlo.constant dense<[20]> : tensor<1xi32>
    %c = stablehlo.constant dense<[30]> : tensor<1xi32>
    %d = stablehlo.constant dense<[40]> : tensor<1xi32>
    %g:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {
      programs = [[@gather, @gather], [@gather, @gather]]
    } : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>)
      -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
    check.expect_eq_const %g#0, dense<[10, 30, 20, 40]> : tensor<4xi32>
    check.expect_eq_const %g#3, dense<[10, 30, 20, 40]> : tensor<4xi32>
    %v = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
    %w = stablehlo.constant dense<[100, 200, 300, 400]> : tensor<4xi32>
    %s:4 = "interpreter.run_parallel"(%v, %w, %v, %w) {
      programs = [[@scatter, @scatter], [@scatter, @scatter]]
    } : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
      -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
    // Group {3, 0}: participant 3 holds the first half, 0 the second.
    check.expect_eq_const %s#3, dense<[101, 202]> : tensor<2xi32>
    check.expect_eq_const %s#0, dense<[303, 404]> : tensor<2xi32>
    // Group {1, 2}: 1 first, 2 second.
    check.expect_eq_const %s#1, dense<[101, 202]> : tensor<2xi32>
    check.expect_eq_const %s#2, dense<[303, 404]> : tensor<2xi32>
    func.return
  }
}

// -----

module @exchanges {
  func.func @swap(%x : tensor<2x2xi64>) -> tensor<2x2xi64> {
    %y = "stablehlo.all_to_all"(%x) {
      split_dimension = 0 : i64,
      concat_dimension = 1 : i64,
      split_count = 2 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<2x2xi64>) -> tensor<1x4xi64>
    %z = stablehlo.reshape %y : (tensor<1x4xi64>) -> tensor<2x2xi64>
    return %z : tensor<2x2xi64>
  }
  func.func @shift(%x : tensor<2xf64>) -> tensor<2xf64> {
    %y = "stablehlo.collective_permute"(%x) {
      source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>
    } : (tensor<2xf64>) -> tensor<2xf64>
    return %y : tensor<2xf64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
    %b = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
    %r:2 = "interpreter.run_parallel"(%a, %b) {
      programs = [[@swap], [@swap]]
    } : (tensor<2x2xi64>, tensor<2x2xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>)
    check.expect_eq_const %r#0, dense<[[1, 2], [5, 6]]> : tensor<2x2xi64>
    check.expect_eq_const %r#1, dense<[[3, 4], [7, 8]]> : tensor<2x2xi64>
    %x0 = stablehlo.constant dense<[1.5, 2.5]> : tensor<2xf64>
    %x1 = stablehlo.constant dense<[3.5, 4.5]> : tensor<2xf64>
    %x2 = stablehlo.constant dense<[5.5, 6.5]> : tensor<2xf64>
    %p:3 = "interpreter.run_parallel"(%x0, %x1, %x2) {
      programs = [[@shift], [@shift], [@shift]]
    } : (tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2xf64>, tensor<2xf64>, tensor<2xf64>)
    check.expect_eq_const %p#0, dense<[0.0, 0.0]> : tensor<2xf64>
    check.expect_eq_const %p#1, dense<[1.5, 2.5]> : tensor<2xf64>
    check.expect_eq_const %p#2, dense<[3.5, 4.5]> : tensor<2xf64>
    func.return
  }
}

// -----

module @broadcasts_and_roots {
  func.func @from_group_head(%x : tensor<2xi16>) -> tensor<2xi16> {
    %y = "stablehlo.collective_broadcast"(%x) {
      replica_groups = dense<[[2, 0]]> : tensor<1x2xi64>
    } : (tensor<2xi16>) -> tensor<2xi16>
    return %y : tensor<2xi16>
  }
  func.func @from_root(%x : tensor<2xi16>, %root : tensor<1xi32>) -> tensor<2xi16> {
    %y = "stablehlo.collective_broadcast"(%x, %root) {
      replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>,
      has_dynamic_root
    } : (tensor<2xi16>, tensor<1xi32>) -> tensor<2xi16>
    return %y : tensor<2xi16>
  }
  func.func @to_head(%x : tensor<2xi16>) -> tensor<2xi16> {
    %y = "stablehlo.collective_reduce"(%x) ({
      ^bb0(%a: tensor<i16>, %b: tensor<i16>):
        %m = stablehlo.multiply %a, %b : tensor<i16>
        stablehlo.return %m : tensor<i16>
    }) {
      replica_groups = dense<[[1, 2, 0]]> : tensor<1x3xi64>
    } : (tensor<2xi16>) -> tensor<2xi16>
    return %y : tensor<2xi16>
  }
  func.func @main() {
    %x0 = stablehlo.constant dense<[1, 2]> : tensor<2xi16>
    %x1 = stablehlo.constant dense<[3, 4]> : tensor<2xi16>
    %x2 = stablehlo.constant dense<[5, 6]> : tensor<2xi16>
    %b:3 = "interpreter.run_parallel"(%x0, %x1, %x2) {
      programs = [[@from_group_head], [@from_group_head], [@from_group_head]]
    } : (tensor<2xi16>, tensor<2xi16>, tensor<2xi16>) -> (tensor<2xi16>, tensor<2xi16>, tensor<2xi16>)
    check.expect_eq_const %b#0, dense<[5, 6]> : tensor<2xi16>
    check.expect_eq_const %b#1, dense<[0, 0]> : tensor<2xi16>
    check.expect_eq_const %b#2, dense<[5, 6]> : tensor<2xi16>
    %root = stablehlo.constant dense<[1]> : tensor<1xi32>
    %d:3 = "interpreter.run_parallel"(%x0, %root, %x1, %root, %x2, %root) {
      programs = [[@from_root], [@from_root], [@from_root]]
    } : (tensor<2xi16>, tensor<1xi32>, tensor<2xi16>, tensor<1xi32>, tensor<2xi16>, tensor<1xi32>)
      -> (tensor<2xi16>, tensor<2xi16>, tensor<2xi16>)
    check.expect_eq_const %d#0, dense<[3, 4]> : tensor<2xi16>
    check.expect_eq_const %d#2, dense<[3, 4]> : tensor<2xi16>
    %c:3 = "interpreter.run_parallel"(%x0, %x1, %x2) {
      programs = [[@to_head], [@to_head], [@to_head]]
    } : (tensor<2xi16>, tensor<2xi16>, tensor<2xi16>) -> (tensor<2xi16>, tensor<2xi16>, tensor<2xi16>)
    check.expect_eq_const %c#1, dense<[15, 48]> : tensor<2xi16>
    check.expect_eq_const %c#0, dense<[0, 0]> : tensor<2xi16>
    check.expect_eq_const %c#2, dense<[0, 0]> : tensor<2xi16>
    func.return
  }
}

// -----

module @channels_and_feeds {
  func.func @producer(%x : tensor<3xui8>, %t : !stablehlo.token) -> !stablehlo.token {
    %t1 = "stablehlo.send"(%x, %t) {
      channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>
    } : (tensor<3xui8>, !stablehlo.token) -> !stablehlo.token
    %y = stablehlo.add %x, %x : tensor<3xui8>
    %t2 = "stablehlo.send"(%y, %t1) {
      channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>
    } : (tensor<3xui8>, !stablehlo.token) -> !stablehlo.token
    return %t2 : !stablehlo.token
  }
  func.func @consumer(%t : !stablehlo.token) -> (tensor<3xui8>, tensor<3xui8>, tensor<2xf32>) {
    %a, %t1 = "stablehlo.recv"(%t) {
      channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>
    } : (!stablehlo.token) -> (tensor<3xui8>, !stablehlo.token)
    %b, %t2 = "stablehlo.recv"(%t1) {
      channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>
    } : (!stablehlo.token) -> (tensor<3xui8>, !stablehlo.token)
    %f, %t3 = "stablehlo.infeed"(%t2) : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    %t4 = "stablehlo.outfeed"(%f, %t3) : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
    return %a, %b, %f : tensor<3xui8>, tensor<3xui8>, tensor<2xf32>
  }
  func.func private @feed() -> tensor<2xf32> {
    %v = stablehlo.constant dense<[0.25, -8.0]> : tensor<2xf32>
    return %v : tensor<2xf32>
  }
  func.func @main() {
    %x = stablehlo.constant dense<[1, 2, 250]> : tensor<3xui8>
    %t = stablehlo.after_all : !stablehlo.token
    %r:4 = "interpreter.run_parallel"(%t, %x, %t) {
      infeed = [@feed],
      programs = [[@consumer, @producer]]
    } : (!stablehlo.token, tensor<3xui8>, !stablehlo.token)
      -> (tensor<3xui8>, tensor<3xui8>, tensor<2xf32>, !stablehlo.token)
    check.expect_eq_const %r#0, dense<[1, 2, 250]> : tensor<3xui8>
    check.expect_eq_const %r#1, dense<[2, 4, 244]> : tensor<3xui8>
    check.expect_eq_const %r#2, dense<[0.25, -8.0]> : tensor<2xf32>
    func.return
  }
}
