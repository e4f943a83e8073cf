"""Tests of the xla_aot Python module (run with /usr/bin/python3 by CTest).

Exits 77 (CTest's skip code) with one line when numpy is missing."""
import json
import os
import sys
import unittest

try:
    import numpy as np
except ImportError:
    print("test_xla_aot: skipped: numpy is not installed (apt-get install python3-numpy)")
    sys.exit(77)

import xla_aot

SOURCE_DIR = os.environ.get("AOT_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def golden_artifact(target, version, test):
    """The artifact file of a golden test (golden/README.md): the store blob
    its version's MANIFEST.json names (format 2; binary, the build stamp
    cleared) or, in a per-file version (format 1), <test>.pbtxt (text)."""
    golden = os.path.join(SOURCE_DIR, "golden")
    version_dir = os.path.join(golden, "executables", target, version)
    manifest_path = os.path.join(version_dir, "MANIFEST.json")
    with open(manifest_path) as f:
        manifest = json.load(f)
    if manifest.get("format", 1) == 1:
        return os.path.join(version_dir, test + ".pbtxt")
    if test not in manifest.get("tests", {}):
        raise FileNotFoundError(f"{manifest_path} has no test '{test}'")
    digest = manifest["tests"][test]["artifact"]
    return os.path.join(golden, "store", "artifacts", digest[:2], digest + ".pb")


ADD_MUL = """
HloModule add_mul

ENTRY main {
  a = f32[4,8] parameter(0)
  b = f32[4,8] parameter(1)
  add = f32[4,8] add(a, b)
  mul = f32[4,8] multiply(add, a)
  ROOT sub = f32[4,8] subtract(mul, b)
}
"""

TUPLE = """
HloModule pair

ENTRY main {
  x = s32[3] parameter(0)
  neg = s32[3] negate(x)
  c = s32[] constant(0)
  sum = s32[] reduce(x, c), dimensions={0}, to_apply=add
  ROOT t = (s32[3], s32[]) tuple(neg, sum)
}

add {
  p = s32[] parameter(0)
  q = s32[] parameter(1)
  ROOT r = s32[] add(p, q)
}
"""

COLUMN_MAJOR = """
HloModule column_major, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{0,1}}

ENTRY main {
  x = f32[2,3]{0,1} parameter(0)
  ROOT y = f32[2,3]{0,1} multiply(x, x)
}
"""


class XlaAotTest(unittest.TestCase):
    def test_compile_load_and_call(self):
        blob = xla_aot.compile(ADD_MUL)
        self.assertIsInstance(blob, bytes)
        exe = xla_aot.load(blob)
        self.assertEqual(exe.parameter_shapes, [((4, 8), np.dtype(np.float32))] * 2)
        a = np.arange(32, dtype=np.float32).reshape(4, 8) / 7
        b = np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8)
        y = exe(a, b)
        self.assertEqual(y.shape, (4, 8))
        self.assertEqual(y.dtype, np.float32)
        np.testing.assert_allclose(y, (a + b) * a - b, rtol=1e-6)

    def test_compile_reads_stablehlo_as_jax_prints_it(self):
        text = """module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"}) -> (tensor<2xf32> {jax.result_info = ""}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<2x3xf32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    return %1 : tensor<2xf32>
  }
}
"""
        exe = xla_aot.load(xla_aot.compile(text))
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        np.testing.assert_allclose(exe(x), (x * x).sum(axis=1), rtol=1e-6)
        with self.assertRaises(xla_aot.Error) as unknown:
            xla_aot.compile(text.replace("stablehlo.multiply", "stablehlo.multiplyy"))
        self.assertEqual(unknown.exception.code, "INVALID_ARGUMENT")
        self.assertIn("<stablehlo_text>:4:", unknown.exception.message)
        self.assertIn("stablehlo.multiplyy", unknown.exception.message)

    def test_results_own_their_memory_and_outlive_the_executable(self):
        exe = xla_aot.load(xla_aot.compile(ADD_MUL))
        a = np.ones((4, 8), np.float32)
        y = exe(a, a)
        del exe
        # The result is a numpy array over the runtime's result buffer (no
        # copy): it owns that memory through its base.
        self.assertIsNotNone(y.base)
        self.assertFalse(y.flags.owndata)
        np.testing.assert_array_equal(y, np.ones((4, 8), np.float32))

    def test_tuple_result_and_non_contiguous_argument(self):
        exe = xla_aot.load(xla_aot.compile(TUPLE))
        x = np.arange(6, dtype=np.int32)[::2]  # not contiguous: [0, 2, 4]
        neg, total = exe(x)
        np.testing.assert_array_equal(neg, [0, -2, -4])
        self.assertEqual(int(total), 6)
        self.assertEqual(total.shape, ())

    def test_non_default_layout_round_trips_in_logical_order(self):
        exe = xla_aot.load(xla_aot.compile(COLUMN_MAJOR))
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        y = exe(x)
        self.assertEqual(y.shape, (2, 3))
        np.testing.assert_array_equal(y, x * x)

    def test_complex_arrays_with_their_emission_flag(self):
        hlo = """
HloModule spectrum

ENTRY main {
  z = c64[2,8] parameter(0)
  w = c128[2,8] convert(z)
  f = c128[2,8] fft(w), fft_type=FFT, fft_length={8}
  ROOT m = f64[2,8] abs(f)
}
"""
        with self.assertRaises(xla_aot.Error) as refused:
            xla_aot.compile(hlo)
        self.assertIn("emit_extended_element_types", str(refused.exception))
        exe = xla_aot.load(xla_aot.compile(hlo, emission_flags=["emit_extended_element_types"]))
        rng = np.random.default_rng(3)
        z = (rng.standard_normal((2, 8)) + 1j * rng.standard_normal((2, 8))).astype(np.complex64)
        m = exe(z)
        self.assertEqual(m.dtype, np.float64)
        np.testing.assert_allclose(m, np.abs(np.fft.fft(z.astype(np.complex128), axis=1)),
                                   rtol=1e-9, atol=1e-9)
        # A complex result comes back as a complex numpy array.
        loop = xla_aot.load(golden_artifact("complex_types_host", "v1", "complex_loop_state"))
        z40 = np.exp(1j * np.linspace(0, 1, 40)).astype(np.complex64)
        out = loop(z40)
        self.assertEqual(out.dtype, np.complex64)
        rotated = z40 * np.complex64(0.28 + 0.96j) ** 7
        np.testing.assert_allclose(out, rotated / np.abs(rotated), rtol=1e-5, atol=1e-5)

    def test_packed_int4_values_pass_one_per_byte(self):
        # s4 packed two per byte at the entry (E(4)): numpy passes and gets
        # one int8 per value; the packing is the runtime's.
        hlo = """
HloModule packed

ENTRY main {
  w = s4[3,5]{1,0:E(4)} parameter(0)
  ROOT n = s4[3,5]{1,0:E(4)} negate(w)
}
"""
        flags = ["emit_extended_element_types", "emit_packed_sub_byte_layouts"]
        with self.assertRaises(xla_aot.Error) as refused:
            xla_aot.compile(hlo, emission_flags=flags[:1])
        self.assertIn("emit_packed_sub_byte_layouts", str(refused.exception))
        exe = xla_aot.load(xla_aot.compile(hlo, emission_flags=flags))
        w = np.array([[-8, -7, -1, 0, 1], [2, 3, 4, 5, 6], [7, -2, -3, -4, -5]], dtype=np.int8)
        n = exe(w)
        self.assertEqual(n.dtype, np.int8)
        self.assertEqual(n.shape, (3, 5))
        np.testing.assert_array_equal(n, np.where(w == -8, -8, -w))

    def test_xla_aot_flags_dump_every_stage_without_changing_the_program(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            dumps = os.path.join(tmp, "dumps")
            os.environ["XLA_AOT_FLAGS"] = f"--xla_aot_dump_to={dumps}"
            try:
                xla_aot.compile(ADD_MUL)
            finally:
                del os.environ["XLA_AOT_FLAGS"]
            names = sorted(os.listdir(dumps))
            for suffix in (".add_mul.hlo", ".add_mul.hlo-fused.hlo", ".add_mul.ll",
                           ".add_mul.unoptimized.ll", ".add_mul.thunks.txt"):
                self.assertTrue(any(n.endswith(suffix) for n in names), (suffix, names))
        os.environ["XLA_AOT_FLAGS"] = "--xla_aot_not_a_flag"
        try:
            with self.assertRaisesRegex(Exception, "unknown flag '--xla_aot_not_a_flag'"):
                xla_aot.compile(ADD_MUL)
        finally:
            del os.environ["XLA_AOT_FLAGS"]

    def test_load_a_golden_artifact_from_a_path(self):
        exe = xla_aot.load(golden_artifact("host-x86-64-v2", "v1", "add_mul"))
        a = np.full((4, 8), 2, np.float32)
        np.testing.assert_array_equal(exe(a, a), np.full((4, 8), 6, np.float32))

    def test_errors_carry_the_status_code(self):
        exe = xla_aot.load(xla_aot.compile(ADD_MUL))
        with self.assertRaises(xla_aot.Error) as wrong_dtype:
            exe(np.ones((4, 8), np.float64), np.ones((4, 8), np.float32))
        self.assertEqual(wrong_dtype.exception.code, "INVALID_ARGUMENT")
        with self.assertRaises(xla_aot.Error) as wrong_shape:
            exe(np.ones((8, 4), np.float32), np.ones((4, 8), np.float32))
        self.assertIn("f32[4,8]", wrong_shape.exception.message)
        with self.assertRaises(xla_aot.Error) as wrong_count:
            exe(np.ones((4, 8), np.float32))
        self.assertEqual(wrong_count.exception.code, "INVALID_ARGUMENT")
        with self.assertRaises(xla_aot.Error) as garbage:
            xla_aot.load(b"\x00\x01 definitely not an executable")
        self.assertEqual(garbage.exception.code, "INVALID_ARGUMENT")
        with self.assertRaises(xla_aot.Error) as ill_typed:
            xla_aot.compile("HloModule m\nENTRY e { ROOT x = f32[2] parameter(0), junk }")
        self.assertEqual(ill_typed.exception.code, "INVALID_ARGUMENT")
        # Parsed and verified, then refused by the compiler (raised after
        # the GIL is taken back).
        with self.assertRaises(xla_aot.Error) as unknown_target:
            xla_aot.compile(ADD_MUL, target="no-such-target")
        self.assertIn("no-such-target", unknown_target.exception.message)

    def test_capability_and_abi_errors_are_failed_precondition(self):
        golden = golden_artifact("host-x86-64-v2", "v1", "add_mul")
        with open(golden, "rb") as f:
            artifact = f.read()
        if golden.endswith(".pbtxt"):
            newer = artifact.replace(b"runtime_abi_version: 1", b"runtime_abi_version: 999", 1)
            self.assertNotEqual(newer, artifact)
        else:
            # abi_version { runtime_abi_version: 999 } appended (ExecutableProto
            # field 7, AbiVersionProto field 1): parsing merges it, the last
            # value wins.
            newer = artifact + b"\x3a\x03\x08\xe7\x07"
        with self.assertRaises(xla_aot.Error) as abi:
            xla_aot.load(newer)
        self.assertEqual(abi.exception.code, "FAILED_PRECONDITION")
        self.assertIsInstance(abi.exception, RuntimeError)


if __name__ == "__main__":
    unittest.main()
