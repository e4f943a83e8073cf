// Softmax over the last axis of a 2x3 f32 array: reduce max, subtract, exp, reduce sum, divide (with loc annotations).
module @jit_softmax attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x3xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<2x3xf32>
    %1 = call @expected() : () -> tensor<2x3xf32>
    %2 = call @softmax(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
    return %2 : tensor<2x3xf32>
  }
  func.func private @inputs() -> (tensor<2x3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [-1.000000e+00, 5.000000e-01, 2.500000e-01]]> : tensor<2x3xf32>
    return %cst : tensor<2x3xf32>
  }
  func.func private @expected() -> (tensor<2x3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[9.003057e-02, 0.24472848, 0.66524094], [0.111457475, 0.49951774, 3.890248e-01]]> : tensor<2x3xf32>
    return %cst : tensor<2x3xf32>
  }
  func.func private @softmax(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"}) -> tensor<2x3xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> loc(#loc3)
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<2xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x3xf32> loc(#loc4)
    %6 = stablehlo.exponential %5 : tensor<2x3xf32> loc(#loc5)
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> loc(#loc6)
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %10 = stablehlo.divide %6, %9 : tensor<2x3xf32> loc(#loc7)
    return %10 : tensor<2x3xf32>
  }
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("/tmp/softmax_test.py":21:0)
#loc2 = loc("/tmp/softmax_test.py":22:0)
#loc3 = loc("jit(softmax)/jit(main)/reduce_max[axes=(1,)]"(#loc1))
#loc4 = loc("jit(softmax)/jit(main)/sub"(#loc1))
#loc5 = loc("jit(softmax)/jit(main)/exp"(#loc1))
#loc6 = loc("jit(softmax)/jit(main)/reduce_sum[axes=(1,)]"(#loc2))
#loc7 = loc("jit(softmax)/jit(main)/div"(#loc2))
