// In the form jax.jit(f, in_shardings=..., out_shardings=...).lower(...)
// prints it for a 4x2 mesh ('x', 'y'): x split by rows over 'x' and
// replicated over 'y' (partial replication), w split by columns over 'y' and
// replicated over 'x', a with_sharding_constraint on the product (the
// Sharding custom call), the result split over both axes.
module @jit_sharded_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"}, %arg1: tensor<32x64xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}) -> (tensor<16x64xf32> {jax.result_info = "", mhlo.layout_mode = "default", mhlo.sharding = "{devices=[4,2]<=[8]}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32> loc(#loc2)
    %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "", mhlo.sharding = "{devices=[4,2]<=[8]}"} : (tensor<16x64xf32>) -> tensor<16x64xf32> loc(#loc3)
    %2 = stablehlo.tanh %1 : tensor<16x64xf32> loc(#loc4)
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<16x64xf32>
    return %4 : tensor<16x64xf32>
  }
}
#loc1 = loc("mlp.py":10:0)
#loc2 = loc("jit(f)/dot_general"(#loc1))
#loc3 = loc("jit(f)/sharding_constraint"(#loc1))
#loc4 = loc("jit(f)/tanh"(#loc1))
