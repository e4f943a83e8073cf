# A data file in the form of JAX's back-compat test data (written for this
# project's tests): decompositions that JAX's tests check by their
# properties, since another LAPACK may return other, equally right,
# eigenvectors. The expected eigenvectors below are a rotated basis of the
# repeated eigenvalue's plane and a flipped sign, not what LAPACK returns
# for this diagonal matrix; the Schur form and the eigenvectors of the
# general matrix are other valid ones (columns negated or swapped). The
# "wrong" data sets expect an eigenvalue that is not one, and must fail.

import datetime
import numpy as np

array = np.array
float64 = np.float64
complex128 = np.complex128

data_2026_12_08 = {}

data_2026_12_08["eigh"] = dict(
    testdata_version=1,
    platform='cpu',
    custom_call_targets=['lapack_dsyevd_ffi'],
    serialized_date=datetime.date(2026, 12, 8),
    inputs=(array([[1. , 0. , 0. ], [0. , 1. , 0. ], [0. , 0. , 1.5]], dtype=float64),),
    expected_outputs=(array([[0.7071067811865476, 0.7071067811865476, 0. ],
                             [0.7071067811865476, -0.7071067811865476, 0. ],
                             [0. , 0. , -1. ]], dtype=float64),
                      array([2., 2., 3.], dtype=float64)),
    mlir_module_text=r"""
module @jit_eigh attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<3x3xf64>
    %1:3 = stablehlo.custom_call @lapack_dsyevd_ffi(%0) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>, tensor<i32>)
    return %1#0, %1#1 : tensor<3x3xf64>, tensor<3xf64>
  }
}
""",
    mlir_module_serialized=b"ML\xefR\x01StableHLO_v1.0.0\x00",
    xla_call_module_version=9,
    nr_devices=1,
)  # End paste

data_2026_12_08["eigh_wrong"] = dict(
    testdata_version=1,
    platform='cpu',
    custom_call_targets=['lapack_dsyevd_ffi'],
    serialized_date=datetime.date(2026, 12, 8),
    inputs=(array([[1. , 0. , 0. ], [0. , 1. , 0. ], [0. , 0. , 1.5]], dtype=float64),),
    expected_outputs=(array([[1., 0., 0.], [0., 1., 0.], [0., 0., 1.]], dtype=float64),
                      array([2., 2., 4.], dtype=float64)),
    mlir_module_text=r"""
module @jit_eigh attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<3x3xf64>
    %1:3 = stablehlo.custom_call @lapack_dsyevd_ffi(%0) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>, tensor<i32>)
    return %1#0, %1#1 : tensor<3x3xf64>, tensor<3xf64>
  }
}
""",
    mlir_module_serialized=b"ML\xefR\x01StableHLO_v1.0.0\x00",
    xla_call_module_version=9,
    nr_devices=1,
)  # End paste

data_2026_12_08["schur"] = dict(
    testdata_version=1, platform='cpu', custom_call_targets=['lapack_dgees_ffi'],
    serialized_date=datetime.date(2026, 12, 8),
    inputs=(array([[1., 2.], [3., 4.]], dtype=float64),),
    expected_outputs=(array([[-0.3722813232690143, 1.], [0., 5.372281323269014]], dtype=float64),
                      array([[-0.8245648401323938, 0.5657674649689923],
                             [0.5657674649689923, 0.8245648401323938]], dtype=float64)),
    mlir_module_text=r"""
module @jit_schur attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>) {
    %0:6 = stablehlo.custom_call @lapack_dgees_ffi(%arg0) {mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<i32>, tensor<i32>)
    return %0#0, %0#1 : tensor<2x2xf64>, tensor<2x2xf64>
  }
}
""",
    mlir_module_serialized=b"ML\xefR\x01StableHLO_v1.0.0\x00", xla_call_module_version=9, nr_devices=1,
)  # End paste
data_2026_12_08["eig"] = dict(
    testdata_version=1, platform='cpu', custom_call_targets=['lapack_zgeev_ffi'],
    serialized_date=datetime.date(2026, 12, 8),
    inputs=(array([[1.+0.j, 2.+0.j], [3.+0.j, 4.+0.j]], dtype=complex128),),
    expected_outputs=(array([5.372281323269014+0.j, -0.3722813232690143+0.j], dtype=complex128),
                      array([[-0.5657674649689923+0.j, -0.9093767091321241+0.j],
                             [-0.8245648401323938+0.j, 0.4159735579192842+0.j]], dtype=complex128),
                      array([[-0.4159735579192843+0.j, -0.8245648401323938+0.j],
                             [-0.9093767091321241+0.j, 0.5657674649689923+0.j]], dtype=complex128)),
    mlir_module_text=r"""
module @jit_eig attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x2xcomplex<f64>>) -> (tensor<2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>) {
    %0:4 = stablehlo.custom_call @lapack_zgeev_ffi(%arg0) {mhlo.backend_config = {compute_left = 86 : ui8, compute_right = 86 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xcomplex<f64>>) -> (tensor<2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<i32>)
    return %0#0, %0#1, %0#2 : tensor<2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>
  }
}
""",
    mlir_module_serialized=b"ML\xefR\x01StableHLO_v1.0.0\x00", xla_call_module_version=9, nr_devices=1,
)  # End paste

data_2026_12_08["eig_wrong"] = dict(
    testdata_version=1, platform='cpu', custom_call_targets=['lapack_zgeev_ffi'],
    serialized_date=datetime.date(2026, 12, 8),
    inputs=(array([[1.+0.j, 2.+0.j], [3.+0.j, 4.+0.j]], dtype=complex128),),
    expected_outputs=(array([5.872281323269014+0.j, -0.3722813232690143+0.j], dtype=complex128),
                      array([[-0.5657674649689923+0.j, -0.9093767091321241+0.j],
                             [-0.8245648401323938+0.j, 0.4159735579192842+0.j]], dtype=complex128),
                      array([[-0.4159735579192843+0.j, -0.8245648401323938+0.j],
                             [-0.9093767091321241+0.j, 0.5657674649689923+0.j]], dtype=complex128)),
    mlir_module_text=r"""
module @jit_eig attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x2xcomplex<f64>>) -> (tensor<2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>) {
    %0:4 = stablehlo.custom_call @lapack_zgeev_ffi(%arg0) {mhlo.backend_config = {compute_left = 86 : ui8, compute_right = 86 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xcomplex<f64>>) -> (tensor<2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<i32>)
    return %0#0, %0#1, %0#2 : tensor<2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>
  }
}
""",
    mlir_module_serialized=b"ML\xefR\x01StableHLO_v1.0.0\x00", xla_call_module_version=9, nr_devices=1,
)  # End paste
