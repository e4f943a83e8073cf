# A data file in the form of JAX's back-compat test data (written for this
# project's tests): two data sets of one exported function, its inputs and
# expected outputs as numpy prints them.

import datetime
import numpy as np

array = np.array
float32 = np.float32
int32 = np.int32
complex64 = np.complex64

data_2026_12_07 = {}

data_2026_12_07["f32"] = dict(
    testdata_version=1,
    platform='cpu',
    custom_call_targets=[],
    serialized_date=datetime.date(2026, 12, 7),
    inputs=(array([[1. , 2.5], [-3. , 0. ]], dtype=float32), array([2, -1], dtype=int32)),
    expected_outputs=(array([[2. , 5. ], [-6. , 0. ]], dtype=float32),
                      array([ 4,  1], dtype=int32),
                      array(True)),
    mlir_module_text=r"""
#loc = loc(unknown)
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x2xf32> {mhlo.layout_mode = "default"} loc(unknown), %arg1: tensor<2xi32> loc(unknown)) -> (tensor<2x2xf32> {jax.result_info = "[0]"}, tensor<2xi32>, tensor<i1>) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<2x2xf32> loc(#loc)
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<2xi32> loc(#loc)
    %c = stablehlo.constant dense<true> : tensor<i1> loc(#loc)
    return %0, %1, %c : tensor<2x2xf32>, tensor<2xi32>, tensor<i1> loc(#loc)
  } loc(#loc)
} loc(#loc)
""",
    mlir_module_serialized=b"ML\xefR\x01StableHLO_v1.0.0\x00",
    xla_call_module_version=9,
    nr_devices=1,
)  # End paste

data_2026_12_07["c64"] = dict(
    testdata_version=1,
    platform='cpu',
    custom_call_targets=[],
    serialized_date=datetime.date(2026, 12, 7),
    inputs=(array([1.5 -2.j , -0. +0.5j, nan+0.j ], dtype=complex64),),
    expected_outputs=(array([ 3. -4.j , -0. +1.j , nan+0.j ], dtype=complex64),),
    mlir_module_text=r"""
module @jit_g {
  func.func public @main(%arg0: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<3xcomplex<f32>>
    return %0 : tensor<3xcomplex<f32>>
  }
}
""",
    mlir_module_serialized=b"",
    xla_call_module_version=9,
    nr_devices=1,
)

data_2026_12_07["cuda"] = dict(
    platform='cuda', inputs=(), expected_outputs=(),
    mlir_module_text=r"""module @m { func.func public @main() { return } }""")
