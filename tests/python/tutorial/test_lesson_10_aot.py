"""Tutorial, ahead-of-time compilation (upstream's lesson 10, written for this project).

A pipeline compiled with compile_to_* runs without the compiler: as a
static library linked into a C program, as a Python extension module built
from the generated .py.cpp, and as a shared library loaded by
halide.runtime. Each result is checked against NumPy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from conftest import run_python

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
import halide.runtime as hlr  # noqa: E402

pytestmark = pytest.mark.nosanitize  # builds and runs programs and interpreters of its own

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("g++") is None, reason="needs gcc")


def brighter_pipeline() -> tuple[hl.Func, list[hl.Argument]]:
    x, y = hl.Var("x"), hl.Var("y")
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    offset = hl.Param(hl.UInt(8), "offset")
    brighter = hl.Func("brighter")
    brighter[x, y] = input[x, y] + offset
    brighter.vectorize(x, 16).parallel(y)
    return brighter, [hl.Argument(input), hl.Argument(offset)]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lesson_10")
    brighter, args = brighter_pipeline()
    brighter.compile_to_static_library(str(out / "lesson_10_halide"), args, "lesson_10_halide")
    hl.Pipeline(brighter).compile_to(
        {
            hl.OutputFileType.python_extension: str(out / "lesson_10_ext.py.cpp"),
            hl.OutputFileType.static_library: str(out / "lesson_10_ext.a"),
            hl.OutputFileType.shared_library: str(out / "liblesson_10.so"),
        },
        args,
        "lesson_10_ext",
    )
    return out


def reference(a: np.ndarray, offset: int) -> np.ndarray:
    return (a.astype(np.uint16) + offset).astype(np.uint8)  # wraps around, as uint8 addition does


C_PROGRAM = r"""
#include <stdio.h>
#include <stdint.h>
#include "HalideBuffer.h"
#include "lesson_10_halide.h"

int main(void) {
    Halide::Runtime::Buffer<uint8_t> input(640, 480), output(640, 480);
    for (int y = 0; y < 480; y++)
        for (int x = 0; x < 640; x++) input(x, y) = (uint8_t)(x ^ (y + 1));
    int error = lesson_10_halide(input, 150, output);
    if (error) { printf("error %d\n", error); return 1; }
    for (int y = 0; y < 480; y++)
        for (int x = 0; x < 640; x++)
            if (output(x, y) != (uint8_t)(input(x, y) + 150)) { printf("wrong at %d %d\n", x, y); return 1; }
    printf("Success!\n");
    return 0;
}
"""


@needs_gcc
def test_static_library_in_a_cpp_program(compiled: Path) -> None:
    header = (compiled / "lesson_10_halide.h").read_text()
    assert "int lesson_10_halide(struct halide_buffer_t *_input_buffer, uint8_t _offset" in header.replace("\n", " ")
    (compiled / "run.cpp").write_text(C_PROGRAM)
    exe = compiled / "run"
    subprocess.run(
        ["g++", "-O1", "-std=c++17", "-I", str(compiled), "-I", hlr.get_include(), str(compiled / "run.cpp"),
         str(compiled / "lesson_10_halide.a"), "-o", str(exe), "-lpthread", "-ldl"],
        check=True, timeout=120,
    )
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "Success!", proc.stdout + proc.stderr


@needs_gcc
def test_python_extension_module(compiled: Path) -> None:
    ext = compiled / ("lesson_10_ext" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(
        ["g++", "-shared", "-fPIC", "-O1", "-I", sysconfig.get_paths()["include"], "-I", hlr.get_include(),
         str(compiled / "lesson_10_ext.py.cpp"), str(compiled / "lesson_10_ext.a"), "-o", str(ext), "-lpthread",
         "-ldl"],
        check=True, timeout=120,
    )
    # A fresh interpreter with only the module's folder on the path: neither halide package is needed.
    code = f"""
import sys
sys.path.insert(0, {str(compiled)!r})
import numpy as np
import lesson_10_ext
a = (np.arange(48 * 64) * 7 % 256).astype(np.uint8).reshape(48, 64)
out = np.zeros_like(a)
assert lesson_10_ext.lesson_10_ext(a, 200, out) is None
np.save({str(compiled / "ext_out.npy")!r}, out)
assert not any(m.startswith("halide") for m in sys.modules), sorted(sys.modules)
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    numpy_site = str(Path(np.__file__).resolve().parents[1])
    run_python(code, env={**env, "PYTHONPATH": numpy_site}, isolated=False)
    a = (np.arange(48 * 64) * 7 % 256).astype(np.uint8).reshape(48, 64)
    np.testing.assert_array_equal(np.load(compiled / "ext_out.npy"), reference(a, 200))


def test_shared_library_through_halide_runtime(compiled: Path) -> None:
    kernel = hlr.load(str(compiled / "liblesson_10.so"))
    assert kernel.name == "lesson_10_ext"
    assert list(kernel.argument_names) == ["input", "offset", "brighter"]
    a = np.random.default_rng(10).integers(0, 256, size=(31, 77), dtype=np.uint8)
    out = kernel(a, 99, output_shape=a.shape)
    np.testing.assert_array_equal(np.asarray(out), reference(a, 99))
    # By keyword, into an existing array, with a compiler Buffer as the input.
    out2 = np.zeros_like(a)
    kernel(input=hl.Buffer(a), offset=1, brighter=out2)
    np.testing.assert_array_equal(out2, reference(a, 1))
    with pytest.raises(hlr.KernelArgumentError):
        kernel(a.astype(np.float32), 1, output_shape=a.shape)  # the input must be uint8


def test_jit_and_aot_agree(compiled: Path) -> None:
    brighter, args = brighter_pipeline()
    a = np.random.default_rng(11).integers(0, 256, size=(20, 33), dtype=np.uint8)
    jit_out = np.zeros_like(a)
    brighter.compile_to_callable(args)(a, 77, jit_out)
    aot_out = hlr.load(str(compiled / "liblesson_10.so"))(a, 77, output_shape=a.shape)
    np.testing.assert_array_equal(jit_out, np.asarray(aot_out))
    np.testing.assert_array_equal(jit_out, reference(a, 77))
