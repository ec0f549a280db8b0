"""halide.imageio and the PNG that Jupyter shows for a Buffer (_repr_png_).

Files are checked against NumPy arrays and decoded with Pillow/pypng, which
are independent of our code."""

from __future__ import annotations

import importlib.util
import io

import numpy as np
import pytest

PIL = pytest.importorskip("PIL", reason="Pillow is not installed (halide-runtime[imageio])")
pytest.importorskip("png", reason="pypng is not installed (halide-runtime[imageio])")
from halide import imageio  # noqa: E402
from PIL import Image  # noqa: E402

HAVE_COMPILER = importlib.util.find_spec("halide._compiler") is not None


def pixels(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, np.iinfo(dtype).max, shape, endpoint=True).astype(dtype)


# --- imread / imwrite --------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("channels", [1, 2, 3, 4])
def test_png_round_trip(tmp_path, dtype, channels):
    interleaved = pixels((5, 7, channels), dtype)
    path = tmp_path / "im.png"
    imageio.imwrite(path, interleaved)
    got = imageio.imread(path)
    want = interleaved[:, :, 0] if channels == 1 else np.moveaxis(interleaved, 2, 0)
    assert got.dtype == dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    if channels > 1:
        assert got.flags.c_contiguous  # planar: halide.Buffer sees (x, y, c)


def test_png_written_is_what_pillow_reads(tmp_path):
    planar = pixels((3, 4, 6), np.uint8)  # (c, y, x)
    imageio.imwrite(tmp_path / "p.png", planar)
    np.testing.assert_array_equal(np.asarray(Image.open(tmp_path / "p.png")), np.moveaxis(planar, 0, 2))


def test_png_read_from_pillow_file(tmp_path):
    rgb = pixels((4, 5, 3), np.uint8)
    Image.fromarray(rgb).save(tmp_path / "x.png")
    np.testing.assert_array_equal(imageio.imread(tmp_path / "x.png"), np.moveaxis(rgb, 2, 0))


def test_palette_png_reads_as_rgb(tmp_path):
    rgb = np.zeros((2, 3, 3), np.uint8)
    rgb[0, 1] = (255, 0, 0)
    Image.fromarray(rgb).convert("P").save(tmp_path / "p.png")
    got = imageio.imread(tmp_path / "p.png")
    assert got.shape == (3, 2, 3) and got.dtype == np.uint8
    np.testing.assert_array_equal(got[:, 0, 1], [255, 0, 0])


@pytest.mark.parametrize("channels", [1, 3])
def test_jpeg_round_trip_is_close(tmp_path, channels):
    # A smooth image: JPEG is lossy, so compare within a tolerance.
    yy, xx = np.mgrid[0:32, 0:48]
    gray = (xx * 4 + yy * 2).astype(np.uint8)
    image = gray if channels == 1 else np.stack([gray, 255 - gray, gray // 2])
    path = tmp_path / "im.jpg"
    imageio.imwrite(path, image, quality=95)
    got = imageio.imread(path)
    assert got.shape == image.shape and got.dtype == np.uint8
    assert np.abs(got.astype(int) - image.astype(int)).mean() < 3


def test_buffers_are_written(tmp_path):
    import halide.runtime as hlr

    planar = pixels((3, 4, 5), np.uint8)
    imageio.imwrite(tmp_path / "r.png", hlr.Buffer(planar))
    np.testing.assert_array_equal(imageio.imread(tmp_path / "r.png"), planar)
    if HAVE_COMPILER:
        import halide as hl

        imageio.imwrite(tmp_path / "c.png", hl.Buffer(planar))
        np.testing.assert_array_equal(imageio.imread(tmp_path / "c.png"), planar)


@pytest.mark.skipif(not HAVE_COMPILER, reason="the compiler module is not built")
def test_read_into_a_pipeline_and_write_back(tmp_path):
    import halide as hl

    rgb = pixels((6, 8, 3), np.uint8)
    Image.fromarray(rgb).save(tmp_path / "in.png")
    inp = hl.Buffer(imageio.imread(tmp_path / "in.png"))
    assert (inp.width(), inp.height(), inp.channels()) == (8, 6, 3)
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    f = hl.Func("invert")
    f[x, y, c] = 255 - inp[x, y, c]
    imageio.imwrite(tmp_path / "out.png", f.realize([8, 6, 3]))
    np.testing.assert_array_equal(np.asarray(Image.open(tmp_path / "out.png")), 255 - rgb)


def test_unsupported_files(tmp_path):
    (tmp_path / "x.gif").write_bytes(b"GIF89a" + bytes(20))
    with pytest.raises(ValueError, match="not a PNG or JPEG"):
        imageio.imread(tmp_path / "x.gif")
    (tmp_path / "bad.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(30))
    with pytest.raises(ValueError, match="PNG"):
        imageio.imread(tmp_path / "bad.png")
    with pytest.raises(OSError, match="cannot read"):
        imageio.imread(tmp_path / "missing.png")
    png = tmp_path / "ok.png"
    imageio.imwrite(png, np.zeros((2, 2), np.uint8))
    with pytest.raises(ValueError, match="not JPEG"):
        imageio.imread(png, format="JPEG")


def test_unsupported_images(tmp_path):
    with pytest.raises(ValueError, match="extension"):
        imageio.imwrite(tmp_path / "x.bmp", np.zeros((2, 2), np.uint8))
    with pytest.raises(ValueError, match="format"):
        imageio.imwrite(tmp_path / "x.png", np.zeros((2, 2), np.uint8), format="TIFF")
    with pytest.raises(TypeError, match="float32"):
        imageio.imwrite(tmp_path / "x.png", np.zeros((2, 2), np.float32))
    with pytest.raises(TypeError, match="8-bit"):
        imageio.imwrite(tmp_path / "x.jpg", np.zeros((2, 2), np.uint16))
    with pytest.raises(ValueError, match="JPEG"):
        imageio.imwrite(tmp_path / "x.jpg", np.zeros((4, 2, 2), np.uint8))
    with pytest.raises(ValueError, match="shape"):
        imageio.imwrite(tmp_path / "x.png", np.zeros((2, 2, 2, 2), np.uint8))
    with pytest.raises(ValueError, match="empty"):
        imageio.imwrite(tmp_path / "x.png", np.zeros((0, 2), np.uint8))
    with pytest.raises(TypeError, match="expected an array"):
        imageio.imwrite(tmp_path / "x.png", object())


def test_layout_helpers():
    inter = np.zeros((4, 5, 3), np.uint16)
    assert imageio.is_interleaved(inter)
    planar = imageio.copy_to_planar(inter)
    assert planar.shape == (3, 4, 5) and not imageio.is_interleaved(planar)
    assert imageio.copy_to_interleaved(planar).shape == (4, 5, 3)
    gray = np.zeros((4, 5), np.uint8)
    assert imageio.copy_to_planar(gray) is gray


# --- _repr_png_ --------------------------------------------------------------


def buffer_classes():
    import halide.runtime as hlr

    classes = [pytest.param(hlr.Buffer, id="runtime")]
    if HAVE_COMPILER:
        import halide as hl

        classes.append(pytest.param(hl.Buffer, id="compiler"))
    return classes


def decode(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)))


@pytest.mark.parametrize("Buffer", buffer_classes())
@pytest.mark.parametrize("shape", [(5, 7), (3, 5, 7), (4, 5, 7), (1, 5, 7)])
def test_repr_png_of_uint8(Buffer, shape):
    a = pixels(shape, np.uint8)
    got = decode(Buffer(a)._repr_png_())
    want = a if a.ndim == 2 else np.moveaxis(a, 0, 2)
    np.testing.assert_array_equal(got, want[:, :, 0] if want.ndim == 3 and want.shape[2] == 1 else want)


@pytest.mark.parametrize("Buffer", buffer_classes())
def test_repr_png_of_uint16_gray(Buffer):
    a = pixels((5, 7), np.uint16)
    np.testing.assert_array_equal(decode(Buffer(a)._repr_png_()), a)


@pytest.mark.parametrize("Buffer", buffer_classes())
def test_repr_png_of_uint16_rgb(Buffer, tmp_path):
    import png

    a = pixels((3, 5, 7), np.uint16)
    (tmp_path / "x.png").write_bytes(Buffer(a)._repr_png_())
    width, height, rows, info = png.Reader(filename=str(tmp_path / "x.png")).asDirect()
    assert info["bitdepth"] == 16
    got = np.vstack([np.asarray(r, np.uint16) for r in rows]).reshape(height, width, 3)
    np.testing.assert_array_equal(got, np.moveaxis(a, 0, 2))


@pytest.mark.parametrize("Buffer", buffer_classes())
def test_repr_png_of_float(Buffer):
    a = np.linspace(-0.5, 1.5, 35, dtype=np.float32).reshape(5, 7)
    want = np.round(np.clip(a.astype(np.float64), 0, 1) * 255).astype(np.uint8)
    np.testing.assert_array_equal(decode(Buffer(a)._repr_png_()), want)


@pytest.mark.parametrize("Buffer", buffer_classes())
def test_repr_png_of_interleaved_memory(Buffer):
    inter = pixels((5, 7, 3), np.uint8)
    b = Buffer(inter, reverse_axes=False)  # dims (y, x, c): transpose to (x, y, c)
    b.transpose(0, 1)
    np.testing.assert_array_equal(decode(b._repr_png_()), inter)


@pytest.mark.parametrize("Buffer", buffer_classes())
def test_no_png_for_non_images(Buffer):
    assert Buffer(np.zeros(5, np.uint8))._repr_png_() is None  # 1-D
    assert Buffer(np.zeros((6, 2, 2), np.uint8))._repr_png_() is None  # 6 channels
    assert Buffer(np.zeros((2, 2), np.int32))._repr_png_() is None
    assert Buffer(np.zeros((0, 2), np.uint8))._repr_png_() is None
    assert Buffer()._repr_png_() is None
