"""The imaging plugin's demo: every kernel on one image, each result checked
against NumPy, each timed against NumPy and OpenCV, the outputs written as
PNG files and one contact sheet.

Run it where halide-runtime and halide-kernels-imaging are installed (./run
demo makes such a venv), with the packages of requirements.txt beside this
file (Pillow writes the PNG files; without OpenCV its column stays empty)::

    python plugins/imaging/examples/demo.py [--out DIR] [--image PHOTO] [--size WxH]

The image is generated (a gradient, a zone plate, discs, a checkerboard and
noise, in a low-contrast range) unless --image names one (read as grayscale).
Prints the installed kernels, then one line per kernel: its time, NumPy's
and OpenCV's for the same operation (best of repeated calls, and how many
times faster the Halide kernel is), its largest difference from NumPy's
result (which must be within the kernel's tolerance) and from OpenCV's.
Writes DIR/input.png, DIR/<kernel>.png and DIR/contact_sheet.png. Exits with
status 1 if a kernel's result does not match NumPy's. --markdown FILE
appends the timing table to FILE (./run bench's report).
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import halide.runtime as hlr
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference as ref  # noqa: E402 - the NumPy versions beside this file

cv2: Any  # OpenCV, or None when it is not installed (its column is left empty)
try:
    cv2 = importlib.import_module("cv2")
except ImportError:
    cv2 = None


@dataclass
class Case:
    """One kernel on the demo image and the same operation in NumPy and OpenCV."""

    kernel: str
    what: str
    halide: Callable[[], np.ndarray]
    numpy: Callable[[], np.ndarray]
    opencv: Callable[[], np.ndarray] | None
    tolerance: float  # largest allowed difference from NumPy's result


@dataclass
class Result:
    case: Case
    output: np.ndarray
    error: float
    opencv_error: float | None
    seconds: dict[str, float]

    @property
    def ok(self) -> bool:
        return self.error <= self.case.tolerance  # inf when the shapes differ


def read_gray(path: Path) -> np.ndarray:
    from PIL import Image

    with Image.open(path) as im:
        return np.asarray(im.convert("L")).copy()


def seconds_per_call(fn: Callable[[], Any], budget: float) -> float:
    """The best time of one call: at least 3 calls, more until `budget`
    seconds (at most 50), after one call that is not timed. The best rather
    than the median, as other processes sharing the CPU only ever add time."""
    fn()
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < budget and len(times) < 50):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def max_difference(a: np.ndarray, b: np.ndarray) -> float:
    if a.shape != b.shape:
        return float("inf")
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)), initial=0.0))


def to_uint8(a: np.ndarray) -> np.ndarray:
    return a if a.dtype == np.uint8 else np.clip(np.rint(a), 0, 255).astype(np.uint8)


def cases(img: np.ndarray) -> list[Case]:
    """Every kernel of the imaging plugin, with its arguments for this image."""
    k = hlr.kernel
    h, w = img.shape
    shape = img.shape
    replicate = cv2.BORDER_REPLICATE if cv2 else 0

    # box_blur has no boundary handling: its bounds query says which input
    # region an output needs (one pixel more on every side, from -1); the
    # padded image is given as a Buffer whose first pixel sits there.
    box_blur = k("imaging.box_blur")
    region = box_blur.bounds(output_shape=shape)["input"]
    print(f"imaging.box_blur: an output of {shape} reads the input region {region} ((min, extent) per axis)")
    img_f = img.astype(np.float32)
    padded = np.pad(img_f, 1, mode="edge")
    source = hlr.Buffer(padded, "input")
    for axis, (lo, _) in enumerate(region):
        source.translate(padded.ndim - 1 - axis, lo)  # Halide dimension d is NumPy axis ndim-1-d

    ax, ay = 180 / max(w - 1, 1), 75 / max(h - 1, 1)
    small = (h * 2 // 5, w * 2 // 5)  # resize: 2.5 input pixels per output pixel
    sx, sy = w / small[1], h / small[0]
    g = 0.5

    return [
        Case("imaging.invert", "255 - input", lambda: k("imaging.invert")(img, output_shape=shape),
             lambda: ref.invert(img), cv2 and (lambda: cv2.bitwise_not(img)), 0),
        Case("imaging.box_blur", "3x3 mean, float32", lambda: box_blur(source, output_shape=shape),
             lambda: ref.box_blur(padded),
             cv2 and (lambda: cv2.blur(img_f, (3, 3), borderType=replicate)), 1e-4),
        Case("imaging.gradient", "ax*x + ay*y, float32",
             lambda: k("imaging.gradient")(ax, ay, output_shape=shape), lambda: ref.gradient(shape, ax, ay),
             None, 1e-3),
        Case("imaging.brighten", "input + 50, saturated", lambda: k("imaging.brighten")(img, 50, output_shape=shape),
             lambda: ref.brighten(img, 50), cv2 and (lambda: cv2.add(img, 50)), 0),
        Case("imaging.gaussian5x5", "5x5 Gaussian", lambda: k("imaging.gaussian5x5")(img, output_shape=shape),
             lambda: ref.gauss(img),
             cv2 and (lambda: cv2.GaussianBlur(img, (5, 5), 0, borderType=replicate)), 0),
        Case("imaging.sobel", "Sobel magnitude", lambda: k("imaging.sobel")(img, output_shape=shape),
             lambda: ref.sobel(img), cv2 and (lambda: opencv_sobel(img)), 0),
        Case("imaging.gamma", f"gamma {g} through a table", lambda: k("imaging.gamma")(img, g, output_shape=shape),
             lambda: ref.gamma(img, g), cv2 and (lambda: cv2.LUT(img, ref.gamma_table(g))), 1),
        Case("imaging.resize_bilinear", f"bilinear to {small[1]}x{small[0]}",
             lambda: k("imaging.resize_bilinear")(img, sx, sy, output_shape=small),
             lambda: ref.resize(img, small, sx, sy),
             cv2 and (lambda: cv2.resize(img, (small[1], small[0]), interpolation=cv2.INTER_LINEAR)), 1),
        Case("imaging.unsharp", "unsharp mask, amount 1.5",
             lambda: k("imaging.unsharp")(img, 1.5, output_shape=shape), lambda: ref.unsharp(img, 1.5),
             cv2 and (lambda: opencv_unsharp(img, 1.5)), 1),
        Case("imaging.equalize", "histogram equalization", lambda: k("imaging.equalize")(img, output_shape=shape),
             lambda: ref.equalize(img), cv2 and (lambda: cv2.equalizeHist(img)), 0),
    ]


def opencv_sobel(img: np.ndarray) -> np.ndarray:
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3, borderType=cv2.BORDER_REPLICATE)
    return cv2.min(cv2.magnitude(gx, gy), 255.0).astype(np.uint8)


def opencv_unsharp(img: np.ndarray, amount: float) -> np.ndarray:
    blurred = cv2.GaussianBlur(img, (5, 5), 0, borderType=cv2.BORDER_REPLICATE)
    return cv2.addWeighted(img, 1 + amount, blurred, -amount, 0)


def run(case: Case, budget: float) -> Result:
    output = case.halide()
    want = case.numpy()
    cv_out = case.opencv() if case.opencv else None
    seconds = {"halide": seconds_per_call(case.halide, budget), "numpy": seconds_per_call(case.numpy, budget)}
    if case.opencv:
        seconds["opencv"] = seconds_per_call(case.opencv, budget)
    return Result(case, output, max_difference(output, want),
                  None if cv_out is None else max_difference(output, cv_out), seconds)


def ms(s: float) -> str:
    return f"{s * 1e3:8.2f} ms"


def speedup(r: Result, other: str) -> str:
    """How many times faster the Halide kernel is than `other`."""
    return f"{r.seconds[other] / r.seconds['halide']:5.1f}x" if other in r.seconds else ""


def print_table(results: list[Result]) -> None:
    print(f"\n{'kernel':<24} {'Halide':>11} {'NumPy':>11} {'':>6} {'OpenCV':>11} {'':>6}  vs NumPy   vs OpenCV")
    for r in results:
        cv = ms(r.seconds["opencv"]) if "opencv" in r.seconds else f"{'-':>11}"
        cv_err = "-" if r.opencv_error is None else f"{r.opencv_error:.3g}"
        verdict = "ok" if r.ok else f"FAIL (tolerance {r.case.tolerance:g})"
        print(f"{r.case.kernel:<24} {ms(r.seconds['halide'])} {ms(r.seconds['numpy'])} {speedup(r, 'numpy'):>6} "
              f"{cv} {speedup(r, 'opencv'):>6}  {r.error:<6.3g} {verdict:<4} {cv_err}")
    print("(times: best of repeated calls; Nx: how many times faster the Halide kernel is; "
          "vs NumPy/OpenCV: the largest difference of the Halide kernel's output from theirs)")


def markdown(results: list[Result], img: np.ndarray, level: str) -> str:
    cv_version = cv2.__version__ if cv2 else "not installed"
    lines = [
        "## Imaging plugin vs NumPy and OpenCV",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, CPU level {level}. "
        f"Python {platform.python_version()}, NumPy {np.__version__}, OpenCV {cv_version}"
        f"{f' ({cv2.getNumThreads()} threads)' if cv2 else ''}. Date: {time.strftime('%Y-%m-%d')}.",
        "The demo's measurements (`plugins/imaging/examples/demo.py --markdown`, which `./run bench` runs), "
        f"one run: each kernel of `halide-kernels-imaging` on a {img.shape[1]}x{img.shape[0]} 8-bit image, "
        "the best time of repeated calls (outputs allocated by each call on every side), against the same "
        "operation in NumPy (`examples/reference.py`, single-threaded) and OpenCV (`opencv-python-headless`, "
        "edges replicated as the kernels do). Speed-up: the other's time / the Halide kernel's "
        "(higher is better for Halide).",
        "",
        "| kernel | operation | Halide | NumPy | vs NumPy | OpenCV | vs OpenCV | max diff vs OpenCV |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        s = r.seconds
        cv = f"{s['opencv'] * 1e3:.2f} ms" if "opencv" in s else "-"
        cv_err = "-" if r.opencv_error is None else f"{r.opencv_error:.3g}"
        lines.append(f"| `{r.case.kernel}` | {r.case.what} | {s['halide'] * 1e3:.2f} ms | {s['numpy'] * 1e3:.2f} ms "
                     f"| {speedup(r, 'numpy').strip()} | {cv} | {speedup(r, 'opencv').strip() or '-'} | {cv_err} |")
    return "\n".join(lines) + "\n"


def contact_sheet(tiles: list[tuple[str, str, np.ndarray]], path: Path, tile_width: int = 320) -> None:
    """One PNG: every image scaled to tile_width, in rows of four, each
    captioned with its two lines of text."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=13)
    caption = 36
    height = max(round(a.shape[0] * tile_width / a.shape[1]) for _, _, a in tiles)
    cols = 4
    rows = (len(tiles) + cols - 1) // cols
    pad = 8
    sheet = Image.new("L", (cols * (tile_width + pad) + pad, rows * (height + caption + pad) + pad), 255)
    draw = ImageDraw.Draw(sheet)
    for i, (title, note, pixels) in enumerate(tiles):
        x0 = pad + (i % cols) * (tile_width + pad)
        y0 = pad + (i // cols) * (height + caption + pad)
        im = Image.fromarray(pixels, "L")
        th = round(pixels.shape[0] * tile_width / pixels.shape[1])
        sheet.paste(im.resize((tile_width, th), Image.Resampling.BOX), (x0, y0))
        draw.text((x0, y0 + height + 3), title, fill=0, font=font)
        draw.text((x0, y0 + height + 19), note, fill=90, font=font)
    sheet.save(path)


def write_images(img: np.ndarray, results: list[Result], out: Path) -> None:
    try:
        from PIL import Image
    except ImportError:
        print("\nPillow is not installed: no PNG files written (pip install pillow, then run again)")
        return
    out.mkdir(parents=True, exist_ok=True)
    Image.fromarray(img, "L").save(out / "input.png")
    tiles = [("input", f"{img.shape[1]}x{img.shape[0]}, values {img.min()}-{img.max()}", img)]
    for r in results:
        name = r.case.kernel.split(".", 1)[1]
        pixels = to_uint8(r.output)
        Image.fromarray(pixels, "L").save(out / f"{name}.png")
        note = f"{r.seconds['halide'] * 1e3:.2f} ms, {speedup(r, 'numpy').strip()} NumPy"
        if "opencv" in r.seconds:
            note += f", {speedup(r, 'opencv').strip()} OpenCV"
        tiles.append((r.case.kernel, note, pixels))
    contact_sheet(tiles, out / "contact_sheet.png")
    print(f"\nwrote {out}/input.png, {len(results)} outputs (<kernel>.png) and {out}/contact_sheet.png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("halide-demo"), help="folder for the PNG files")
    parser.add_argument("--image", type=Path, help="an image file to use (as grayscale) instead of the generated one")
    parser.add_argument("--size", default="1920x1080", help="the generated image's WIDTHxHEIGHT")
    parser.add_argument("--budget", type=float, default=0.3, help="seconds of repeated calls per measurement")
    parser.add_argument("--markdown", type=Path, help="append the timings as a Markdown section to this file")
    args = parser.parse_args(argv)

    registry = hlr.kernels()
    print(registry)
    for info in registry.infos():
        print(f"  {info.signature_text()}  [{info.distribution} {info.source.version}, {info.cpu_level}]")
    if args.image:
        img = read_gray(args.image)
    else:
        width, _, height = args.size.partition("x")
        img = ref.sample_image(int(height), int(width))
    level = registry.info("imaging.invert").cpu_level
    print(f"\nimage: {img.shape[1]}x{img.shape[0]} uint8; CPU level {level}; "
          f"OpenCV {cv2.__version__ + f' ({cv2.getNumThreads()} threads)' if cv2 else 'not installed'}")

    results = [run(case, args.budget) for case in cases(img)]
    print_table(results)

    # An input without the border box_blur reads is refused: a HalideError
    # with the kernel's error code (-4, access out of bounds).
    try:
        hlr.kernel("imaging.box_blur")(np.zeros((8, 8), np.float32), output_shape=(8, 8))
        print("\nbox_blur on a too-small input did not raise HalideError")
        refused = False
    except hlr.HalideError as e:
        print(f"\nbox_blur on an input without its border: HalideError {e.code}: {e}")
        refused = e.code == -4

    write_images(img, results, args.out)
    if args.markdown:
        with args.markdown.open("a", encoding="utf-8") as f:
            f.write("\n" + markdown(results, img, level))
        print(f"timings appended to {args.markdown}")
    failures = [r.case.kernel for r in results if not r.ok] + ([] if refused else ["imaging.box_blur (error)"])
    if failures:
        print(f"MISMATCH in {', '.join(failures)}")
        return 1
    print("every kernel matches NumPy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
