# A shape-polymorphic export in the form of JAX's back-compat data (written
# for this project's tests): `b` rows, fixed by the actual argument; the
# shape assertion JAX adds, a wrapped function specialized at its call, a
# dynamic top_k and a dynamic broadcast whose sizes follow from `b`.

import datetime
import numpy as np

array = np.array
float32 = np.float32

data_2026_12_07 = dict(
    testdata_version=1,
    platform='cpu',
    custom_call_targets=['shape_assertion', 'stablehlo.dynamic_top_k'],
    serialized_date=datetime.date(2026, 12, 7),
    inputs=(array([[ 1.,  5.,  3.],
       [ 0., -1.,  2.],
       [ 7.,  7.,  1.],
       [-3., -2., -1.]], dtype=float32),),
    expected_outputs=(array([[ 5.5,  3.5],
       [ 2.5,  0.5],
       [ 7.5,  7.5],
       [-0.5, -1.5]], dtype=float32),),
    mlir_module_text=r"""
module @jit_f attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x3xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<?x2xf32> {jax.result_info = ""}) {
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
    %1 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.compare  GE, %0, %1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%2, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Found {0}.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %3 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
    %4 = call @_wrapped_jax_export_main(%3, %arg0) : (tensor<i64>, tensor<?x3xf32>) -> tensor<?x2xf32>
    return %4 : tensor<?x2xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<?x3xf32>) -> tensor<?x2xf32> {
    %c = stablehlo.constant dense<2> : tensor<i32>
    %v:2 = stablehlo.custom_call @stablehlo.dynamic_top_k(%arg1, %c) {api_version = 2 : i32} : (tensor<?x3xf32>, tensor<i32>) -> (tensor<?x2xf32>, tensor<?x2xi32>)
    %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.constant dense<2> : tensor<1xi32>
    %3 = stablehlo.concatenate %1, %2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %4 = stablehlo.dynamic_broadcast_in_dim %cst, %3, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>
    %5 = stablehlo.add %v#0, %4 : tensor<?x2xf32>
    return %5 : tensor<?x2xf32>
  }
}
""",
    mlir_module_serialized=b"",
    xla_call_module_version=9,
    nr_devices=1,
)
