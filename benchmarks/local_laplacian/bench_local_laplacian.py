"""Local Laplacian 1536x2560 RGB uint16 against Halide 21 and Halide 14 (issue 12). Not a test: a report.

Compiles benchmarks/local_laplacian/local_laplacian.cpp unchanged against ours, upstream Halide 21 and
Debian's Halide 14 and runs each at 1 and 2 threads, outputs compared (benchmarks/common/image_bench.py).

    .venv/bin/python benchmarks/local_laplacian/bench_local_laplacian.py [--rounds 3] [--report FILE] [--dump DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "common"))
import image_bench  # noqa: E402

SPEC = image_bench.Spec(
    name="local_laplacian",
    source=HERE / "local_laplacian.cpp",
    title="Local Laplacian 1536x2560 RGB uint16 against Halide 21 and Halide 14 (issue 12)",
    about="The algorithm of `examples/local_laplacian.py` (8 intensity levels, 8 pyramid levels, alpha = beta "
    "= 1) on its generated test image at 1536x2560, with the shape of upstream's local_laplacian app's CPU "
    "schedule on every build: the lookup table at the root; the output in parallel strips of 64 rows, "
    "vectorized by 8; the luminance and the first 4 levels of every pyramid at the root, rows in parallel "
    "(strips of 32 rows, 8 for the remapped pyramid, stored and looped with the intensity levels inside each "
    "row), vectorized by 8; the deeper levels at the root, the remapped pyramid's in parallel over the "
    "intensity levels.",
    dtype=np.uint16,
    size_args=["--width", "1536", "--height", "2560"],
    runs=5,
    tolerance=2,
)

if __name__ == "__main__":
    sys.exit(image_bench.main(SPEC, __doc__))
