"""XLA-style AOT compiler and runtime.

    import numpy as np
    import xla_aot

    exe = xla_aot.load(xla_aot.compile(hlo_text))
    y = exe(np.ones((4, 8), np.float32), np.ones((4, 8), np.float32))

compile(hlo_text, target=None) -> bytes     the serialized executable
load(bytes_or_path, platform=None) -> Executable
Executable(*arrays) -> array, or a tuple of arrays for a tuple result
Error                                        .code ('FAILED_PRECONDITION', ...), .message
"""
from ._xla_aot import Error, Executable, compile, load  # noqa: F401

__all__ = ["Error", "Executable", "compile", "load"]
