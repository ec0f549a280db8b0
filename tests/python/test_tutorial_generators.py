"""Tutorial: Generators (upstream's lessons 15 and 16, written for this project).

Lesson 15 packages a pipeline as a Generator: compile-time GeneratorParams,
Inputs and Outputs, then either JIT-compiled (compile_to_callable) or
compiled ahead of time by `hl.main()` (here called in-process with an argv).
Lesson 16 writes an RGB generator whose schedule depends on a
GeneratorParam and on the target, and checks it against NumPy.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")


# ---------------------------------------------------------------- lesson 15


@hl.generator(name="tutorial_brighten")
class Brighten:
    """The first generator: add an offset to a grayscale image."""

    input = hl.InputBuffer(hl.UInt(8), 2)
    offset = hl.InputScalar(hl.UInt(8))
    brighter = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        g.brighter[x, y] = g.input[x, y] + g.offset
        g.brighter.vectorize(x, 16).parallel(y)


@hl.generator(name="tutorial_second")
class Second:
    """GeneratorParams choose types and the schedule at compile time."""

    parallel = hl.GeneratorParam(True)
    scale = hl.GeneratorParam(1.0)
    output_type = hl.GeneratorParam(hl.UInt(8))
    rotation = hl.GeneratorParam("none")  # none, cw: a string used like an enum

    input = hl.InputBuffer(hl.UInt(8), 2)
    output = hl.OutputBuffer(None, 2)  # its type is output.type, given with output_type below

    def generate(g):
        brighter = hl.Func("brighter")
        brighter[x, y] = g.input[x, y] * g.scale
        rotated = hl.Func("rotated")
        if g.rotation == "cw":
            rotated[x, y] = brighter[y, g.input.height() - 1 - x]
        else:
            rotated[x, y] = brighter[x, y]
        g.output[x, y] = hl.cast(g.output_type, rotated[x, y])
        g.output.vectorize(x, g.natural_vector_size(g.output_type))
        if g.parallel:
            g.output.parallel(y)


def test_lesson_15_jit():
    a = (np.arange(48 * 40) % 200).astype(np.uint8).reshape(40, 48)
    out = np.empty_like(a)
    Brighten().compile_to_callable()(a, 30, out)
    np.testing.assert_array_equal(out, a + 30)

    params = {"scale": 0.5, "output_type": "float32", "output.type": "float32", "rotation": "cw"}
    rotate = Second(params).compile_to_callable()
    square = a[:40, :40].copy()
    result = np.empty((40, 40), np.float32)
    rotate(square, result)
    # (x, y) reads (y, H - 1 - x): NumPy's [row, col] = [y, x].
    np.testing.assert_allclose(result, np.rot90(square.astype(np.float32) * 0.5, k=-1))


def test_lesson_15_aot(tmp_path: Path):
    hlr = pytest.importorskip("halide.runtime")
    # What a build system runs: `python gens.py -g NAME -o DIR target=... k=v`.
    hl.main(["gens.py", "-g", "tutorial_brighten", "-o", str(tmp_path), "-e", "c_header,shared_library", "target=host"])
    hl.main(
        [
            "gens.py",
            "-g",
            "tutorial_second",
            "-o",
            str(tmp_path),
            "-f",
            "second_u16",
            "-e",
            "c_header,shared_library",
            "target=host",
            "parallel=false",
            "scale=3.0",
            "output_type=uint16",
            "output.type=uint16",
        ]
    )
    header = (tmp_path / "second_u16.h").read_text()
    assert "int second_u16(" in header and "second_u16_metadata" in header
    a = (np.arange(64 * 8) % 251).astype(np.uint8).reshape(8, 64)
    brighten = hlr.load(str(tmp_path / "tutorial_brighten.so"), "tutorial_brighten")
    np.testing.assert_array_equal(brighten(a, 5, output_shape=a.shape), a + 5)
    second = hlr.load(str(tmp_path / "second_u16.so"), "second_u16")
    np.testing.assert_array_equal(second(a, output_shape=a.shape), a.astype(np.uint16) * 3)


# ---------------------------------------------------------------- lesson 16


@hl.generator(name="tutorial_rgb_brighten")
class RgbBrighten:
    """Brighten a planar RGB image (x, y, c) with a per-channel gain; the
    schedule depends on `layout` and on the target's vector width."""

    layout = hl.GeneratorParam("planar")  # planar: vectorize x; chunky: unroll c

    input = hl.InputBuffer(hl.UInt(8), 3)
    gain = hl.InputBuffer(hl.Float(32), 1)
    brighter = hl.OutputBuffer(hl.UInt(8), 3)

    def generate(g):
        g.brighter[x, y, c] = hl.u8_sat(hl.f32(g.input[x, y, c]) * g.gain[c])
        if g.layout == "planar":
            g.brighter.reorder(x, y, c).vectorize(x, g.natural_vector_size(hl.UInt(8))).parallel(c)
        else:
            g.brighter.reorder(c, x, y).unroll(c, 3).vectorize(x, 8).parallel(y)


@pytest.mark.parametrize("layout", ["planar", "chunky"])
def test_lesson_16_rgb(layout: str):
    rng = np.random.default_rng(16)
    image = rng.integers(0, 256, size=(3, 30, 70), dtype=np.uint8)  # (c, y, x): planar
    gain = np.array([0.5, 1.0, 2.5], np.float32)
    fn = RgbBrighten({"layout": layout}).compile_to_callable()
    out = np.empty_like(image)
    fn(image, gain, out)
    expected = np.clip(image.astype(np.float32) * gain[:, None, None], 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(out, expected)


def test_lesson_16_per_target():
    # One generator, several targets: the vector width follows the target.
    widths = {}
    for target in ("x86-64-linux-sse41", "x86-64-linux-avx2-fma", "x86-64-linux-avx512_skylake-avx2-fma"):
        with hl.GeneratorContext(hl.Target(target)):
            g = RgbBrighten()
        widths[target] = g.natural_vector_size(hl.UInt(8))
    assert list(widths.values()) == [16, 32, 64]
