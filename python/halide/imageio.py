"""Read and write PNG and JPEG images as NumPy arrays laid out for Halide.

Colour images come back *planar*: an RGB file of W x H pixels is an array of
shape (3, H, W), so ``halide.Buffer(imread(path))`` has dimensions
(x, y, c) = (W, H, 3); grayscale is (H, W). :func:`imwrite` takes either
layout (and ``halide.Buffer``/``halide.runtime.Buffer`` objects) and writes
the pixels interleaved, as the file formats store them. This is upstream
Halide's ``halide.imageio`` convention.

PNG: 8- or 16-bit gray, gray+alpha, RGB and RGBA. JPEG: 8-bit gray and RGB.
Files are decoded with Pillow, and 16-bit colour PNG (which Pillow cannot
hold) with pypng: ``pip install "halide-runtime[imageio]"``.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

__all__ = ["copy_to_interleaved", "copy_to_planar", "imread", "imwrite", "is_interleaved"]

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_JPEG_MAGIC = b"\xff\xd8\xff"
_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
_PIL_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}

PathLike = str | os.PathLike[str]


def _pil() -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(
            'halide.imageio needs Pillow: pip install "halide-runtime[imageio]"', name="PIL"
        ) from None
    return Image


def _pypng() -> Any:
    try:
        import png  # type: ignore[import-untyped]  # pypng has no type information
    except ImportError:
        raise ImportError(
            'halide.imageio needs pypng for 16-bit colour PNG: pip install "halide-runtime[imageio]"',
            name="png",
        ) from None
    return png


def _array(im: Any) -> np.ndarray:
    if isinstance(im, np.ndarray):
        return im
    try:
        a = np.asarray(im)
    except (TypeError, ValueError, BufferError) as e:
        raise TypeError(
            f"halide.imageio: expected an array or a Halide Buffer of pixels, got {type(im).__name__} ({e})"
        ) from None
    if a.dtype == object:
        raise TypeError(f"halide.imageio: expected an array or a Halide Buffer of pixels, got {type(im).__name__}")
    return a


def is_interleaved(im: Any) -> bool:
    """Whether a 3-D array is interleaved: (H, W, C) with C <= 4 channels
    adjacent in memory."""
    a = _array(im)
    return a.ndim == 3 and a.shape[2] in (1, 2, 3, 4) and a.strides[2] == a.itemsize


def copy_to_interleaved(im: Any) -> np.ndarray:
    """A copy in (H, W, C) order of a planar (C, H, W) array; other arrays
    are returned unchanged."""
    a = _array(im)
    if a.ndim == 3 and not is_interleaved(a):
        return np.ascontiguousarray(np.moveaxis(a, 0, 2))
    return a


def copy_to_planar(im: Any) -> np.ndarray:
    """A C-contiguous (C, H, W) copy of an interleaved (H, W, C) array, which
    halide.Buffer sees as (x, y, c); other arrays are returned unchanged."""
    a = _array(im)
    if is_interleaved(a):
        return np.ascontiguousarray(np.moveaxis(a, 2, 0))
    return a


def _sniff(path: PathLike) -> str:
    try:
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError as e:
        raise OSError(e.errno, f"halide.imageio.imread: cannot read {os.fspath(path)!r}: {e.strerror}") from None
    if head.startswith(_PNG_MAGIC):
        return "PNG"
    if head.startswith(_JPEG_MAGIC):
        return "JPEG"
    raise ValueError(
        f"halide.imageio.imread: {os.fspath(path)!r} is not a PNG or JPEG file "
        f"(it starts with {head!r}); only PNG and JPEG are supported"
    )


def _png_header(path: PathLike) -> tuple[int, int]:
    """(bit depth, colour type) from a PNG's IHDR."""
    with open(path, "rb") as f:
        head = f.read(26)
    if len(head) < 26 or head[12:16] != b"IHDR":
        raise ValueError(f"halide.imageio.imread: {os.fspath(path)!r} is a damaged PNG file (no IHDR)")
    return head[24], head[25]


def _read_png16_color(path: PathLike) -> np.ndarray:
    png = _pypng()
    try:
        width, height, rows, info = png.Reader(filename=os.fspath(path)).asDirect()
        pixels = np.vstack([np.asarray(row, dtype=np.uint16) for row in rows])
    except png.Error as e:
        raise ValueError(f"halide.imageio.imread: {os.fspath(path)!r} is not a readable PNG file: {e}") from None
    channels = info["planes"]
    pixels = pixels.reshape(height, width, channels)
    return pixels[:, :, 0] if channels == 1 else pixels


def imread(uri: PathLike, format: str | None = None, **kwargs: Any) -> np.ndarray:
    """The pixels of a PNG or JPEG file: (H, W) for gray, planar (C, H, W)
    for gray+alpha, RGB and RGBA; uint8, or uint16 for 16-bit PNG.

    ``format`` ("PNG" or "JPEG") must match the file if given; further
    keyword arguments are passed to Pillow's ``Image.open``."""
    kind = _sniff(uri)
    if format is not None and format.upper().replace("JPG", "JPEG") != kind:
        raise ValueError(f"halide.imageio.imread: {os.fspath(uri)!r} is a {kind} file, not {format}")
    if kind == "PNG":
        depth, color_type = _png_header(uri)
        if depth == 16 and color_type != 0:
            return copy_to_planar(_read_png16_color(uri))
    Image = _pil()
    try:
        with Image.open(uri, **kwargs) as image:
            image.load()
            if image.mode in ("P", "PA", "1", "CMYK", "YCbCr", "LAB", "HSV"):
                image = image.convert("RGBA" if "transparency" in image.info or image.mode == "PA" else "RGB")
            pixels = np.asarray(image)
    except OSError as e:
        raise ValueError(f"halide.imageio.imread: {os.fspath(uri)!r} cannot be decoded: {e}") from None
    if pixels.dtype.kind not in "ub" and not (pixels.dtype.kind == "i" and pixels.dtype.itemsize <= 2):
        raise ValueError(f"halide.imageio.imread: {os.fspath(uri)!r} has {pixels.dtype} pixels, not 8 or 16 bits")
    if pixels.dtype == np.bool_:
        pixels = pixels.astype(np.uint8) * 255
    return copy_to_planar(pixels)


def _format_of(uri: PathLike, format: str | None) -> str:
    if format is not None:
        kind = format.upper().replace("JPG", "JPEG")
        if kind not in ("PNG", "JPEG"):
            raise ValueError(f"halide.imageio.imwrite: format {format!r} is not supported (use PNG or JPEG)")
        return kind
    ext = os.path.splitext(os.fspath(uri))[1].lower()
    if ext not in _FORMATS:
        raise ValueError(
            f"halide.imageio.imwrite: cannot tell the format of {os.fspath(uri)!r} from its extension "
            "(use .png, .jpg or .jpeg, or pass format=)"
        )
    return _FORMATS[ext]


def imwrite(uri: PathLike, im: Any, format: str | None = None, **kwargs: Any) -> None:
    """Writes an (H, W) gray image or a planar (C, H, W) / interleaved
    (H, W, C) image with 1 to 4 channels (gray, gray+alpha, RGB, RGBA) as PNG
    (uint8 or uint16) or JPEG (uint8, gray or RGB). The format comes from
    the extension unless ``format`` is given; further keyword arguments go to
    Pillow's ``Image.save`` (``quality=`` for JPEG, for instance)."""
    kind = _format_of(uri, format)
    pixels = copy_to_interleaved(_array(im))
    if pixels.ndim == 3 and pixels.shape[2] == 1:
        pixels = pixels[:, :, 0]
    if pixels.ndim not in (2, 3) or (pixels.ndim == 3 and pixels.shape[2] not in _PIL_MODES):
        raise ValueError(
            f"halide.imageio.imwrite: expected a (H, W) image or one with 1 to 4 channels as (C, H, W) or "
            f"(H, W, C), got shape {pixels.shape}"
        )
    if pixels.size == 0:
        raise ValueError(f"halide.imageio.imwrite: the image is empty (shape {pixels.shape})")
    if pixels.dtype == np.bool_:
        pixels = pixels.astype(np.uint8) * 255
    if pixels.dtype not in (np.uint8, np.uint16):
        raise TypeError(
            f"halide.imageio.imwrite: {pixels.dtype} pixels cannot be written; convert to uint8 "
            "(or uint16 for PNG) first"
        )
    channels = 1 if pixels.ndim == 2 else pixels.shape[2]
    if kind == "JPEG":
        if pixels.dtype != np.uint8:
            raise TypeError("halide.imageio.imwrite: JPEG holds 8-bit pixels only; write uint16 images as PNG")
        if channels not in (1, 3):
            raise ValueError(
                f"halide.imageio.imwrite: JPEG holds gray or RGB images, not {channels} channels; use PNG"
            )
    pixels = np.ascontiguousarray(pixels)
    if pixels.dtype == np.uint16 and channels > 1:
        png = _pypng()
        height, width = pixels.shape[:2]
        writer = png.Writer(width, height, greyscale=channels <= 2, alpha=channels in (2, 4), bitdepth=16)
        with open(uri, "wb") as f:
            writer.write(f, pixels.reshape(height, width * channels))
        return
    Image = _pil()
    mode = "I;16" if pixels.dtype == np.uint16 else _PIL_MODES[channels]
    image = Image.frombuffer(mode, (pixels.shape[1], pixels.shape[0]), pixels.tobytes(), "raw", mode, 0, 1)
    image.save(uri, format=kind, **kwargs)
