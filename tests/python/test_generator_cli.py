"""hl.main(): a Python generator's command line, the C++ driver's flags.

Each test runs a generator script as a subprocess and uses what it wrote: a
static library + header linked into a C program (gcc), a shared library
loaded by halide.runtime, a standalone runtime, a multitarget library, and
the errors (exit code 1, message on stderr).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

GENERATORS = textwrap.dedent(
    '''
    import halide as hl

    x, y = hl.Var("x"), hl.Var("y")
    _OPS = {"xor": lambda a, b: a ^ b, "and": lambda a, b: a & b, "or": lambda a, b: a | b}


    @hl.alias(and_filter={"op": "and"})
    @hl.generator(name="logical_op")
    class LogicalOp:
        op = hl.GeneratorParam("xor")
        input = hl.InputBuffer(hl.UInt(8), 2)
        mask = hl.InputScalar(hl.UInt(8))
        output = hl.OutputBuffer(hl.UInt(8), 2)

        def generate(g):
            g.output[x, y] = _OPS[g.op](g.input[x, y], g.mask)
            g.output.vectorize(x, g.natural_vector_size(hl.UInt(8)))


    @hl.generator(name="scale")
    class Scale:
        """Types left open: set with input.type/output.type on the command line."""

        factor = hl.GeneratorParam(2)
        input = hl.InputBuffer(None, 2)
        offset = hl.InputScalar(float)
        output = hl.OutputBuffer(None, 2)

        def generate(g):
            g.output[x, y] = hl.f32(g.input[x, y]) * g.factor + g.offset


    @hl.generator(name="pair")
    class Pair:
        input = hl.InputBuffer(hl.Int(16), 1)
        sum = hl.OutputBuffer([hl.Int(16), hl.Float(32)], 1)

        def generate(g):
            g.sum[x] = (g.input[x] + 1, hl.f32(g.input[x]) * 0.5)


    if __name__ == "__main__":
        hl.main()
    '''
)

C_PROGRAM = textwrap.dedent(
    """
    #include <stdio.h>
    #include <stdint.h>
    #include <string.h>
    #include "logical_op.h"

    enum { W = 100, H = 7 };

    int main(void) {
        static uint8_t in[H][W], out[H][W];
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) in[y][x] = (uint8_t)(x * 7 + y * 13);
        halide_dimension_t din[2] = {{0, W, 1, 0}, {0, H, W, 0}};
        halide_dimension_t dout[2] = {{0, W, 1, 0}, {0, H, W, 0}};
        halide_buffer_t bin, bout;
        memset(&bin, 0, sizeof bin);
        bin.host = &in[0][0];
        bin.type.code = halide_type_uint;
        bin.type.bits = 8;
        bin.type.lanes = 1;
        bin.dimensions = 2;
        bin.dim = din;
        bout = bin;
        bout.host = &out[0][0];
        bout.dim = dout;
        int r = logical_op(&bin, 0x5a, &bout);
        if (r != 0) return 2;
        fwrite(out, 1, sizeof out, stdout);
        return 0;
    }
    """
)


def _input() -> np.ndarray:
    yy, xx = np.mgrid[0:7, 0:100]
    return (xx * 7 + yy * 13).astype(np.uint8)


@pytest.fixture(scope="module")
def script(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("gens") / "my_generators.py"
    path.write_text(GENERATORS)
    return path


def run(script: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    # The subprocess imports the same halide as this test.
    package_root = str(Path(hl.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([package_root, env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, env=env, timeout=300)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def include_dir() -> str:
    import halide.runtime

    return str(halide.runtime.get_include())


needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


@needs_gcc
def test_static_library_and_header_in_a_c_program(script, tmp_path):
    run(script, "-g", "logical_op", "-o", str(tmp_path), "-e", "static_library,c_header", "target=host", "op=or")
    assert (tmp_path / "logical_op.a").exists() and (tmp_path / "logical_op.h").exists()
    (tmp_path / "main.c").write_text(C_PROGRAM)
    exe = tmp_path / "main"
    subprocess.run(
        [
            "gcc",
            "-O1",
            "-o",
            str(exe),
            str(tmp_path / "main.c"),
            str(tmp_path / "logical_op.a"),
            "-I",
            str(tmp_path),
            "-I",
            include_dir(),
            "-lstdc++",
            "-lpthread",
            "-ldl",
            "-lm",
        ],
        check=True,
    )
    out = subprocess.run([str(exe)], capture_output=True, check=True).stdout
    got = np.frombuffer(out, np.uint8).reshape(7, 100)
    np.testing.assert_array_equal(got, _input() | 0x5A)


def test_default_emits_and_registration(script, tmp_path):
    run(script, "-g", "and_filter", "-o", str(tmp_path), "target=host")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["and_filter.a", "and_filter.h", "and_filter.registration.cpp"]
    text = (tmp_path / "and_filter.registration.cpp").read_text()
    assert "halide_register_argv_and_metadata(::and_filter_argv, ::and_filter_metadata(), extra)" in text


def test_shared_library_loaded_by_halide_runtime(script, tmp_path):
    hlr = pytest.importorskip("halide.runtime")
    run(script, "-g", "logical_op", "-o", str(tmp_path), "-e", "shared_library", "-n", "liblogic", "target=host")
    kernel = hlr.load(str(tmp_path / "liblogic.so"), "logical_op")
    a = _input()
    out = kernel(a, 0x33, output_shape=a.shape)
    np.testing.assert_array_equal(np.asarray(out), a ^ 0x33)
    assert list(kernel.argument_names) == ["input", "mask", "output"]


def test_autoscheduler_applied_ahead_of_time(script, tmp_path):
    # scale leaves its schedule open: autoscheduler=Li2018 (built in) schedules it.
    hlr = pytest.importorskip("halide.runtime")
    args = ["-g", "scale", "-o", str(tmp_path), "-e", "shared_library,stmt", "-f", "scale_auto", "target=host"]
    run(script, *args, "input.type=uint8", "output.type=float32", "autoscheduler=Li2018")
    assert "parallel" in (tmp_path / "scale_auto.stmt").read_text()
    kernel = hlr.load(str(tmp_path / "scale_auto.so"), "scale_auto")
    a = (np.arange(2000) % 251).astype(np.uint8).reshape(40, 50)
    out = kernel(a, 0.5, output_shape=a.shape)
    np.testing.assert_allclose(np.asarray(out), a.astype(np.float32) * 2 + 0.5)


def test_types_from_the_command_line_and_tuple_outputs(script, tmp_path):
    hlr = pytest.importorskip("halide.runtime")
    run(
        script,
        "-g",
        "scale",
        "-o",
        str(tmp_path),
        "-e",
        "shared_library",
        "-f",
        "scale_u16",
        "target=host",
        "input.type=uint16",
        "output.type=float32",
        "factor=3",
    )
    kernel = hlr.load(str(tmp_path / "scale_u16.so"), "scale_u16")
    a = (np.arange(60, dtype=np.uint16) * 1000).reshape(6, 10)
    out = kernel(a, 0.25, output_shape=a.shape)
    np.testing.assert_allclose(np.asarray(out), a.astype(np.float32) * 3 + 0.25)

    run(script, "-g", "pair", "-o", str(tmp_path), "-e", "shared_library", "target=host")
    pair = hlr.load(str(tmp_path / "pair.so"), "pair")
    data = np.arange(-5, 5, dtype=np.int16)
    s0, s1 = np.empty_like(data), np.empty(10, np.float32)
    pair(data, s0, s1)
    np.testing.assert_array_equal(s0, data + 1)
    np.testing.assert_array_equal(s1, data.astype(np.float32) * 0.5)
    assert list(pair.argument_names) == ["input", "sum.0", "sum.1"]


def test_other_emit_kinds(script, tmp_path):
    run(
        script,
        "-g",
        "logical_op",
        "-o",
        str(tmp_path),
        "-e",
        "object,assembly,llvm_assembly,stmt,python_extension,c_source",
        "target=host",
    )
    for suffix in (".o", ".s", ".ll", ".stmt", ".py.cpp", ".halide_generated.cpp"):
        assert (tmp_path / f"logical_op{suffix}").stat().st_size > 0
    assert "logical_op" in (tmp_path / "logical_op.py.cpp").read_text()
    assert "int logical_op_argv(void **args)" in (tmp_path / "logical_op.halide_generated.cpp").read_text()


def test_cplusplus_names(script, tmp_path):
    run(
        script,
        "-g",
        "logical_op",
        "-o",
        str(tmp_path),
        "-e",
        "static_library,c_header,registration",
        "-f",
        "imaging::filters::logic",
        "target=host-c_plus_plus_name_mangling",
    )
    header = (tmp_path / "logic.h").read_text()
    assert "namespace imaging" in header and "namespace filters" in header
    assert "::imaging::filters::logic_argv" in (tmp_path / "logic.registration.cpp").read_text()
    proc = run(script, "-g", "logical_op", "-o", str(tmp_path), "-f", "ns::logic", "target=host", check=False)
    assert proc.returncode == 1 and "Namespace qualifiers not allowed" in proc.stderr


@needs_gcc
def test_multitarget_library_and_standalone_runtime(script, tmp_path):
    run(script, "-r", "halide_rt", "-o", str(tmp_path), "-e", "static_library", "target=host")
    run(
        script,
        "-g",
        "logical_op",
        "-o",
        str(tmp_path),
        "-e",
        "static_library,c_header",
        "target=x86-64-linux-sse41-no_runtime,x86-64-linux-no_runtime",
        "op=and",
    )
    (tmp_path / "main.c").write_text(C_PROGRAM)
    exe = tmp_path / "main"
    subprocess.run(
        [
            "gcc",
            "-O1",
            "-o",
            str(exe),
            str(tmp_path / "main.c"),
            str(tmp_path / "logical_op.a"),
            str(tmp_path / "halide_rt.a"),
            "-I",
            str(tmp_path),
            "-I",
            include_dir(),
            "-lstdc++",
            "-lpthread",
            "-ldl",
            "-lm",
        ],
        check=True,
    )
    for disabled in ("", "sse41"):
        env = dict(os.environ, HL_DISABLE_FEATURES=disabled)
        out = subprocess.run([str(exe)], capture_output=True, check=True, env=env).stdout
        np.testing.assert_array_equal(np.frombuffer(out, np.uint8).reshape(7, 100), _input() & 0x5A)


def test_help_lists_generators(script):
    proc = run(script, "-help")
    assert "-g GENERATOR" in proc.stdout
    assert "and_filter, logical_op, pair, scale" in proc.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-g", "nope", "-o", "{out}", "target=host"], "There is no generator named 'nope'; registered: and_filter"),
        (["-g", "logical_op", "target=host"], "no output directory: give -o DIR"),
        (["-g", "logical_op", "-o", "{out}"], "no target: give target=host"),
        (["-g", "logical_op", "-o", "{out}", "-e", "bogus", "target=host"], "unknown emit kind 'bogus'"),
        (["-g", "logical_op", "-o", "{out}", "-e", "cpp_stub", "target=host"], "emit kind 'cpp_stub' is not supported"),
        (["-g", "logical_op", "-o", "{out}", "-x", "1", "target=host"], "unknown flag '-x'"),
        (["-g", "logical_op", "-o", "{out}", "target=host", "stray"], "unexpected argument 'stray'"),
        (["-g", "logical_op", "-o", "{out}", "target=host", "bogus=1"], "has no GeneratorParam(s) named: ['bogus']"),
        (
            ["-g", "scale", "-o", "{out}", "target=host", "input.type=uint8", "output.type=float32", "factor=x"],
            "invalid literal for int()",
        ),
        (
            ["-g", "scale", "-o", "{out}", "target=host", "input.type=uint7", "output.type=float32"],
            "The value uint7 cannot be parsed as a Type.",
        ),
        (["-g", "scale", "-o", "{out}", "target=host", "output.type=float32"], "No type has been specified for input."),
        (
            ["-g", "logical_op", "-o", "{out}", "target=host", "mask.type=uint16"],
            "Cannot set the GeneratorParam mask.type for logical_op because the value is explicitly specified",
        ),
        (["-r", "rt", "-o", "{out}", "-e", "c_header", "target=host"], "-r writes a runtime: emit o or static_library"),
        (
            ["-g", "logical_op", "-o", "{out}", "target=host", "autoscheduler=NoSuch", "autoscheduler.x=1"],
            "Unknown autoscheduler name 'NoSuch'; known names are:",
        ),
    ],
)
def test_errors_exit_1(script, tmp_path, args, message):
    proc = run(script, *[a.format(out=tmp_path) for a in args], check=False)
    assert proc.returncode == 1
    assert message in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
