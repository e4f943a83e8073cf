// jax.nn.logsumexp over axis 1: max with an is_finite guard, exp of the shifted values, sum, log, add back the max.
module @jit_logsumexp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @inputs() : () -> tensor<2x3xf32>
    %1 = call @expected() : () -> tensor<2xf32>
    %2 = call @logsumexp(%0) : (tensor<2x3xf32>) -> tensor<2xf32>
    stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    return %2 : tensor<2xf32>
  }
  func.func private @inputs() -> (tensor<2x3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [5.000000e-01, 4.000000e+00, -1.000000e+00]]> : tensor<2x3xf32>
    return %cst : tensor<2x3xf32>
  }
  func.func private @expected() -> (tensor<2xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[3.407606e+00, 4.0362697]> : tensor<2xf32>
    return %cst : tensor<2xf32>
  }
  func.func private @logsumexp(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"}) -> tensor<2xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> loc(#loc2)
    %1 = stablehlo.is_finite %0 : (tensor<2xf32>) -> tensor<2xi1> loc(#loc3)
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %3 = stablehlo.select %1, %0, %2 : tensor<2xi1>, tensor<2xf32> loc(#loc4)
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x3xf32>
    %6 = stablehlo.exponential %5 : tensor<2x3xf32> loc(#loc5)
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %8 = stablehlo.log %7 : tensor<2xf32> loc(#loc6)
    %9 = stablehlo.add %8, %3 : tensor<2xf32>
    return %9 : tensor<2xf32>
  }
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("/tmp/lse.py":5:0)
#loc2 = loc("jit(logsumexp)/jit(main)/reduce_max[axes=(1,)]"(#loc1))
#loc3 = loc("jit(logsumexp)/jit(main)/is_finite"(#loc1))
#loc4 = loc("jit(logsumexp)/jit(main)/select_n"(#loc1))
#loc5 = loc("jit(logsumexp)/jit(main)/exp"(#loc1))
#loc6 = loc("jit(logsumexp)/jit(main)/log"(#loc1))
