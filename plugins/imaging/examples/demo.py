"""Calls every kernel of the imaging plugin and checks it against NumPy.

Run it where halide-runtime and halide-kernels-imaging are installed::

    python plugins/imaging/examples/demo.py

Prints the installed kernels, then one line per kernel with its largest error
against an independent NumPy reference; exits with status 1 on any mismatch.
"""

from __future__ import annotations

import sys

import halide.runtime as hlr
import numpy as np

failures: list[str] = []


def report(name: str, got: np.ndarray, want: np.ndarray, tolerance: float) -> None:
    """Prints the max error of `got` against `want`; records a mismatch."""
    if got.shape != want.shape:
        failures.append(name)
        print(f"{name:<18} FAIL: shape {got.shape}, expected {want.shape}")
        return
    error = float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)), initial=0.0))
    ok = error <= tolerance
    if not ok:
        failures.append(name)
    print(f"{name:<18} {'ok  ' if ok else 'FAIL'}  shape {got.shape}  max error {error:.3g} (tolerance {tolerance:g})")


def demo_invert(rng: np.random.Generator) -> None:
    invert = hlr.kernel("imaging.invert")
    image = rng.integers(0, 256, size=(480, 640), dtype=np.uint8)
    out = invert(image, output_shape=image.shape)
    want = (255 - image.astype(np.int32)).astype(np.uint8)
    report("imaging.invert", out, want, 0)


def demo_box_blur(rng: np.random.Generator) -> None:
    box_blur = hlr.kernel("imaging.box_blur")
    shape = (240, 320)  # NumPy order: rows (y), columns (x)
    # The bounds query says which input region a call for this output reads:
    # ((min, extent) per NumPy axis), here one pixel more on every side.
    region = box_blur.bounds(output_shape=shape)["input"]
    print(f"box_blur bounds for output {shape}: input needs {region}")
    padded = rng.random(tuple(extent for _, extent in region), dtype=np.float32)
    # Wrap the padded array so that its first element sits at the region's
    # min (-1, -1): the output's pixel (0, 0) then lines up with padded[1, 1].
    # Halide dimension d is NumPy axis ndim-1-d.
    source = hlr.Buffer(padded, "input")
    for axis, (lo, _) in enumerate(region):
        source.translate(padded.ndim - 1 - axis, lo)
    out = box_blur(source, output_shape=shape)

    ref = padded.astype(np.float64)
    h, w = shape
    taps = (ref[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1))
    want = sum(taps, np.zeros(shape)) / 9.0
    report("imaging.box_blur", out, want, 1e-6)

    # An input no larger than the output lacks the border: the kernel
    # refuses it (access out of bounds, -4) and a HalideError is raised.
    try:
        box_blur(np.zeros(shape, np.float32), output_shape=shape)
    except hlr.HalideError as e:
        print(f"box_blur on a too-small input raised HalideError as expected: code {e.code}: {e}")
        if e.code != -4:
            failures.append("imaging.box_blur (error code)")
    else:
        failures.append("imaging.box_blur (no error)")
        print("box_blur on a too-small input did not raise HalideError")


def demo_gradient() -> None:
    gradient = hlr.kernel("imaging.gradient")
    shape = (100, 150)
    # Defaults (ax=1, ay=0): output(x, y) = x.
    out = gradient(output_shape=shape)
    ys, xs = np.mgrid[0 : shape[0], 0 : shape[1]].astype(np.float64)
    report("imaging.gradient", out, np.broadcast_to(xs, shape), 0)

    # An output whose coordinates start at x = 10, y = -20: the kernel
    # computes the values of those coordinates.
    ax, ay = 0.5, -3.25
    array = np.empty(shape, np.float32)
    target = hlr.Buffer(array, "output")
    target.translate(0, 10)  # x (NumPy axis 1) starts at 10
    target.translate(1, -20)  # y (NumPy axis 0) starts at -20
    gradient(ax, ay, target)
    want = ax * (xs + 10) + ay * (ys - 20)
    report("imaging.gradient+min", array, want, 1e-4)


def main() -> int:
    print(hlr.kernels())
    for info in hlr.kernels().infos():
        print(f"  {info.signature_text()}  [{info.distribution} {info.source.version}, {info.target}]")
    rng = np.random.default_rng(20261130)
    demo_invert(rng)
    demo_box_blur(rng)
    demo_gradient()
    if failures:
        print(f"MISMATCH in {', '.join(failures)}")
        return 1
    print("all kernels match NumPy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
