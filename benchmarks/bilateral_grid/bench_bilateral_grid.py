"""Bilateral grid 1536x2560 float32 against Halide 21 and Halide 14 (issue 12). Not a test: a report.

Compiles benchmarks/bilateral_grid/bilateral_grid.cpp unchanged against ours, upstream Halide 21 and
Debian's Halide 14 and runs each at 1 and 2 threads, outputs compared (benchmarks/common/image_bench.py).

    .venv/bin/python benchmarks/bilateral_grid/bench_bilateral_grid.py [--rounds 3] [--report FILE] [--dump DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "common"))
import image_bench  # noqa: E402

SPEC = image_bench.Spec(
    name="bilateral_grid",
    source=HERE / "bilateral_grid.cpp",
    title="Bilateral grid 1536x2560 float32 against Halide 21 and Halide 14 (issue 12)",
    about="The algorithm of `examples/bilateral_grid.py` (cells of 8x8 pixels, r_sigma = 0.1, a [1 4 6 4 1] "
    "blur along z, x and y, trilinear interpolation) on a generated 1536x2560 image, with the shape of "
    "upstream's bilateral_grid app's CPU schedule on every build: the z blur at the root, rows of cells in "
    "parallel, vectorized by 8 across cells, the grid computed per row of it; the x and y blurs at the root, "
    "in parallel over bins, vectorized by 8; the output rows in parallel, vectorized by 8.",
    dtype=np.float32,
    size_args=["--width", "1536", "--height", "2560"],
)

if __name__ == "__main__":
    sys.exit(image_bench.main(SPEC, __doc__))
