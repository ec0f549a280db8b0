"""Tutorial, input images: read a PNG, brighten it, write it back (upstream's lesson 2, written for this project).

halide.imageio.imread gives a planar (C, H, W) array, which hl.Buffer sees as
(x, y, c); a Func reads the Buffer with b[x, y, c]; the result written with
imwrite and read again matches NumPy's brightening of the same pixels.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
pytest.importorskip("PIL", reason="halide.imageio needs Pillow")
import halide as hl  # noqa: E402
import halide.imageio as imageio  # noqa: E402

W, H = 67, 45


def make_png(path: Path) -> np.ndarray:
    rng = np.random.default_rng(2)
    planar = rng.integers(0, 256, size=(3, H, W), dtype=np.uint8)
    imageio.imwrite(str(path), planar)
    return planar


def brighten(input: hl.Buffer) -> hl.Func:
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    brighter = hl.Func("brighter")
    value = hl.f32(input[x, y, c]) * 1.5
    value = hl.min(value, 255.0)
    brighter[x, y, c] = hl.u8(value)
    return brighter


def numpy_brighten(a: np.ndarray) -> np.ndarray:
    return np.minimum(a.astype(np.float32) * np.float32(1.5), np.float32(255)).astype(np.uint8)


def test_brighten_a_png(tmp_path: Path) -> None:
    pixels = make_png(tmp_path / "in.png")
    loaded = imageio.imread(str(tmp_path / "in.png"))
    assert loaded.shape == (3, H, W) and loaded.dtype == np.uint8
    np.testing.assert_array_equal(loaded, pixels)

    input = hl.Buffer(loaded)
    assert (input.width(), input.height(), input.channels()) == (W, H, 3)
    assert input[5, 7, 2] == pixels[2, 7, 5]

    brighter = brighten(input)
    output = brighter.realize([input.width(), input.height(), input.channels()])
    assert output.type() == hl.UInt(8)
    imageio.imwrite(str(tmp_path / "out.png"), output)
    np.testing.assert_array_equal(imageio.imread(str(tmp_path / "out.png")), numpy_brighten(pixels))


def test_gray_png_and_interleaved_copies(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    gray = rng.integers(0, 256, size=(H, W), dtype=np.uint8)
    imageio.imwrite(str(tmp_path / "gray.png"), gray)
    loaded = imageio.imread(str(tmp_path / "gray.png"))
    assert loaded.shape == (H, W)
    x, y = hl.Var("x"), hl.Var("y")
    input = hl.Buffer(loaded)
    darker = hl.Func("darker")
    darker[x, y] = hl.u8(hl.u16(input[x, y]) * 3 // 4)
    out = darker.realize([W, H])
    np.testing.assert_array_equal(np.asarray(out), (gray.astype(np.uint16) * 3 // 4).astype(np.uint8))
    # The planar result, and its interleaved (H, W, C) copy.
    planar = np.stack([gray, gray // 2, 255 - gray])
    planar_buffer = hl.Buffer(planar)  # kept alive while the pipeline reads it
    rgb = brighten(planar_buffer).realize([W, H, 3])
    interleaved = imageio.copy_to_interleaved(np.asarray(rgb))
    assert interleaved.shape == (H, W, 3)
    np.testing.assert_array_equal(interleaved, np.moveaxis(np.asarray(rgb), 0, 2))
    imageio.imwrite(str(tmp_path / "rgb.png"), rgb)
    np.testing.assert_array_equal(imageio.imread(str(tmp_path / "rgb.png")), numpy_brighten(planar))


def test_reading_outside_the_input_is_an_error() -> None:
    input = hl.Buffer(np.zeros((3, 10, 10), np.uint8))
    brighter = brighten(input)
    with pytest.raises(hl.HalideError):
        brighter.realize([11, 10, 3])  # one column past the input's right edge
