"""Linking a C driver with Halide kernel objects, with or without our
runtime (libhalide_runtime.a), for the tests that run upstream-built kernels
under our runtime."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import BUILD
from upstream_api import UPSTREAM_PY

RUNTIME_LIB = BUILD / "subprojects" / "halide-runtime" / "libhalide_runtime.a"
RUNTIME_GEN = BUILD / "subprojects" / "halide-runtime"  # HalideRuntimeVersion.h

# The marks of a test module that needs upstream Halide 21 and a C compiler.
# Not under the sanitizers: the C drivers link the runtime library, which
# those builds instrument, and these tests check the ABI, not memory.
NEEDS_UPSTREAM_AND_CC = [
    pytest.mark.nosanitize,
    pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 venv (build/upstream21) is not set up"),
    pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler"),
]


def link_driver(exe: Path, sources: list[Path], includes: list[Path], extra: list[str], runtime: bool) -> Path:
    """Compiles and links `sources` (C files and objects) into `exe`, with
    our runtime library when `runtime` is set."""
    cmd = ["cc", "-std=c11", *(f"-I{i}" for i in [*includes, RUNTIME_GEN]), *extra, *map(str, sources)]
    if runtime:
        assert RUNTIME_LIB.exists(), f"{RUNTIME_LIB} was not built"
        cmd.append(str(RUNTIME_LIB))
    cmd += ["-lpthread", "-lm", "-ldl", "-o", str(exe)]
    subprocess.run(cmd, check=True)
    return exe


# C for the drivers: a 2-D int32 halide_buffer_t over `data` with `dims`.
C_INT32_BUFFER = r"""
static halide_buffer_t int32_buffer(int *data, halide_dimension_t *dims) {
    halide_buffer_t b;
    memset(&b, 0, sizeof(b));
    b.host = (unsigned char *)data;
    b.type.code = halide_type_int;
    b.type.bits = 32;
    b.type.lanes = 1;
    b.dimensions = 2;
    b.dim = dims;
    return b;
}
"""
