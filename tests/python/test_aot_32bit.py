"""Ahead-of-time kernels for a 32-bit target (x86-32-linux), run.

The kernel object this compiler writes for x86-32-linux is linked into a
32-bit C program (gcc -m32) with our runtime built for it from its sources
(g++ -m32); the program prints what the kernel computed, its metadata and
the answer to a bounds query, and the test checks them against NumPy and
against the pipeline's definition. The pipeline reaches the parts of the
code the pointer size changes: halide_buffer_t fields, a heap allocation
(halide_malloc's size_t), a parallel loop's closure, a float argument
passed on the stack and the metadata's pointer tables.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import BUILD, REPO

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

pytestmark = pytest.mark.nosanitize  # builds and runs a program of its own

RUNTIME_SRC = REPO / "runtime" / "src"
RUNTIME_INCLUDES = [REPO / "runtime" / "include", REPO / "runtime", BUILD / "subprojects" / "halide-runtime"]
W, H = 37, 11
TARGET = "x86-32-linux-sse41"


def _can_build_32bit(tmp: Path) -> bool:
    if shutil.which("gcc") is None or shutil.which("g++") is None:
        return False
    src = tmp / "probe.cpp"
    src.write_text("#include <atomic>\nint main() { std::atomic<int> a{0}; return a.load(); }\n")
    r = subprocess.run(["g++", "-m32", str(src), "-o", str(tmp / "probe")], capture_output=True)
    return r.returncode == 0


DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "HalideRuntime.h"
#include "k32.h"

int main(void) {
    enum { W = %(W)d, H = %(H)d };
    static unsigned char in_data[H][W + 2];
    static int out_data[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W + 2; x++) in_data[y][x] = (unsigned char)((x * 7 + y * 13) & 255);
    halide_dimension_t in_dims[2] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    halide_dimension_t out_dims[2] = {{0, W, 1, 0}, {0, H, W, 0}};
    halide_buffer_t in, out;
    memset(&in, 0, sizeof(in));
    memset(&out, 0, sizeof(out));
    in.type.code = halide_type_uint; in.type.bits = 8; in.type.lanes = 1;
    in.dimensions = 2; in.dim = in_dims;
    out.host = (unsigned char *)out_data;
    out.type.code = halide_type_int; out.type.bits = 32; out.type.lanes = 1;
    out.dimensions = 2; out.dim = out_dims;
    printf("pointer %%d buffer %%d\n", (int)sizeof(void *), (int)sizeof(halide_buffer_t));
    /* A bounds query: the input's host is NULL. */
    int rc = k32(&in, 9, 1.5f, &out);
    printf("query %%d %%d %%d %%d %%d\n", rc, in.dim[0].min, in.dim[0].extent, in.dim[1].min, in.dim[1].extent);
    in.host = (unsigned char *)in_data;
    in.dim[0].min = 0; in.dim[0].extent = W + 2; in.dim[0].stride = 1;
    in.dim[1].min = 0; in.dim[1].extent = H; in.dim[1].stride = W + 2;
    rc = k32(&in, 9, 1.5f, &out);
    printf("rc %%d\n", rc);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) printf("%%d%%c", out_data[y][x], x == W - 1 ? '\n' : ' ');
    const struct halide_filter_metadata_t *md = k32_metadata();
    printf("metadata %%d %%s %%s\n", md->num_arguments, md->name, md->target);
    for (int i = 0; i < md->num_arguments; i++)
        printf("arg %%s %%d %%d %%d %%d\n", md->arguments[i].name, md->arguments[i].kind,
               md->arguments[i].dimensions, md->arguments[i].type.code, md->arguments[i].type.bits);
    return 0;
}
"""


def _pipeline() -> tuple[hl.Func, list]:
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    offset = hl.Param(hl.UInt(8), "offset")
    scale = hl.Param(hl.Float(32), "scale")
    f, g = hl.Func("f"), hl.Func("k32")
    f[x, y] = hl.cast(hl.UInt(16), inp[x, y]) + offset
    g[x, y] = hl.cast(hl.Int(32), hl.cast(hl.Float(32), f[x, y] + f[x + 2, y]) * scale)
    f.compute_root().parallel(y)
    g.vectorize(x, 8).parallel(y)
    return g, [inp, offset, scale]


def _reference() -> np.ndarray:
    ys, xs = np.mgrid[0:H, 0 : W + 2]
    f = ((xs * 7 + ys * 13) & 255).astype(np.float32) + 9  # the input is read at [0, W + 2)
    return ((f[:, :W] + f[:, 2 : W + 2]) * np.float32(1.5)).astype(np.int32)


@pytest.fixture(scope="module")
def program_output(tmp_path_factory) -> list[str]:
    tmp = tmp_path_factory.mktemp("aot32")
    if not _can_build_32bit(tmp):
        pytest.skip("gcc/g++ cannot build 32-bit programs here (install gcc-multilib and g++-multilib)")
    g, args = _pipeline()
    g.compile_to_file(str(tmp / "k32"), args, "k32", hl.Target(TARGET))
    obj = tmp / "k32.o"
    assert obj.read_bytes()[:5] == b"\x7fELF\x01"  # ELFCLASS32
    includes = [f"-I{i}" for i in [*RUNTIME_INCLUDES, tmp]]
    runtime_objects = []
    for src in sorted(RUNTIME_SRC.glob("*.cpp")):
        o = tmp / (src.stem + ".rt.o")
        cmd = ["g++", "-m32", "-std=c++17", "-O1", "-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics"]
        subprocess.run([*cmd, *includes, "-c", str(src), "-o", str(o)], check=True)
        runtime_objects.append(str(o))
    driver = tmp / "driver.c"
    driver.write_text(DRIVER % {"W": W, "H": H})
    exe = tmp / "k32_run"
    link = ["gcc", "-m32", "-std=c11", *includes, str(driver), str(obj), *runtime_objects]
    subprocess.run([*link, "-lpthread", "-lm", "-ldl", "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.splitlines()


def test_the_program_is_32_bit(program_output):
    assert program_output[0] == "pointer 4 buffer 40"


def test_bounds_query_answer(program_output):
    # The input a W x H output reads: two more columns (f[x + 2, y]).
    assert program_output[1] == f"query 0 0 {W + 2} 0 {H}"


def test_values_match_numpy(program_output):
    assert program_output[2] == "rc 0"
    got = np.array([[int(v) for v in line.split()] for line in program_output[3 : 3 + H]], dtype=np.int32)
    np.testing.assert_array_equal(got, _reference())


def test_metadata(program_output):
    md = program_output[3 + H].split()
    assert md[:3] == ["metadata", "4", "k32"]
    assert md[3].startswith("x86-32-linux")
    # name, kind (0 scalar, 1 input, 2 output), dimensions, type code, bits
    assert program_output[4 + H : 8 + H] == [
        "arg input 1 2 1 8",
        "arg offset 0 0 1 8",
        "arg scale 0 0 2 32",
        "arg k32 2 2 0 32",
    ]
