"""JIT compile time of tutorial-style pipelines from Python: ours, upstream
Halide 21's and Halide 14's (Debian's python3-halide) in one run. Not a test: it prints a table (Markdown with
--report FILE, appended to that file, as ./run bench does).

    PYTHONPATH=build/dev/install/site .venv/bin/python benchmarks/jit_compile_time.py

Each pipeline is defined afresh and compiled with compile_jit() REPEAT times
(a new definition each time, so nothing is cached); the figure is the
median. A trivial pipeline is compiled first on both sides so that
one-time LLVM set-up is not charged to the first pipeline. Upstream 21 runs
under build/upstream21/bin/python (set UPSTREAM_PYTHON to use another) and
Halide 14 under /usr/bin/python3 (HALIDE14_PYTHON), each in a child process
with the same code; a side that is not installed is left out.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
UPSTREAMS = {
    "upstream 21": Path(os.environ.get("UPSTREAM_PYTHON", REPO / "build" / "upstream21" / "bin" / "python")),
    "Halide 14": Path(os.environ.get("HALIDE14_PYTHON", "/usr/bin/python3")),
}
REPEAT = 5


def pipelines(hl: Any) -> dict[str, Callable[[], Any]]:
    """Builders of the tutorials' pipelines, each returning a Func to compile."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")

    def basics() -> Any:  # lesson 1
        f = hl.Func("gradient")
        f[x, y] = x + y
        return f

    def brighten() -> Any:  # lesson 2: an 8-bit RGB input, float math
        im = hl.ImageParam(hl.UInt(8), 3, "input")
        f = hl.Func("brighter")
        f[x, y, c] = hl.u8(hl.min(hl.f32(im[x, y, c]) * 1.5, 255.0))
        return f

    def scheduled() -> Any:  # lesson 5: tiles, fused, parallel, vectorized, unrolled
        xo, yo, xi, yi, t = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi"), hl.Var("t")
        f = hl.Func("gradient_fast")
        f[x, y] = x * 3 + y * 5
        f.tile(x, y, xo, yo, xi, yi, 64, 64).fuse(xo, yo, t).parallel(t)
        xii, xij, yii = hl.Var("xii"), hl.Var("xij"), hl.Var("yii")
        f.split(xi, xii, xij, 4).vectorize(xij).split(yi, yi, yii, 2).unroll(yii)
        return f

    def multi_stage() -> Any:  # lessons 7 and 8: a two-pass blur, producer per tile
        im = hl.ImageParam(hl.UInt(8), 3, "input")
        wide, bx, by = hl.Func("wide"), hl.Func("blur_x"), hl.Func("blur_y")
        wide[x, y, c] = hl.u16(im[x, y, c])
        bx[x, y, c] = wide[x, y, c] + wide[x + 1, y, c] + wide[x + 2, y, c]
        by[x, y, c] = hl.u8((bx[x, y, c] + bx[x, y + 1, c] + bx[x, y + 2, c]) // 9)
        tx, ty, txi, tyi = hl.Var("tx"), hl.Var("ty"), hl.Var("txi"), hl.Var("tyi")
        by.tile(x, y, tx, ty, txi, tyi, 64, 32).parallel(ty).vectorize(txi, 16)
        bx.compute_at(by, tx).vectorize(x, 16)
        return by

    def reduction() -> Any:  # lesson 9: a histogram and a sum over it
        im = hl.ImageParam(hl.UInt(8), 2, "input")
        r = hl.RDom([(0, im.width()), (0, im.height())])
        hist = hl.Func("hist")
        hist[x] = 0
        hist[hl.i32(im[r.x, r.y])] += 1
        cdf = hl.Func("cdf")
        k = hl.RDom([(0, 256)])
        cdf[x] = hl.sum(hl.select(k.x <= x, hist[k.x], 0))
        hist.compute_root()
        return cdf

    def types() -> Any:  # lesson 14: mixed types, casts and saturation
        im = hl.ImageParam(hl.UInt(16), 2, "input")
        f = hl.Func("mixed")
        v = hl.f32(im[x, y]) * 0.5 + hl.i8(x) - hl.u8(y) / 3
        f[x, y] = hl.u8_sat(v) + hl.i16(hl.round(v)) % 7
        f.vectorize(x, 8)
        return f

    return {
        "basics (lesson 1)": basics,
        "input image (lesson 2)": brighten,
        "scheduling (lesson 5)": scheduled,
        "multi-stage blur (lessons 7-8)": multi_stage,
        "histogram reduction (lesson 9)": reduction,
        "types (lesson 14)": types,
    }


def measure() -> dict[str, float]:
    """Median milliseconds of compile_jit() per pipeline."""
    import halide as hl

    warm = hl.Func("warm_up")
    warm[hl.Var("x")] = 0
    warm.compile_jit()
    result = {}
    for name, build in pipelines(hl).items():
        times = []
        for _ in range(REPEAT):
            f = build()
            start = time.perf_counter()
            f.compile_jit()
            times.append((time.perf_counter() - start) * 1e3)
        result[name] = statistics.median(times)
    return result


def run_upstream(label: str, python: Path) -> dict[str, float] | None:
    if not python.exists():
        print(f"{label}: Python {python} not found, left out", file=sys.stderr)
        return None
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    out = subprocess.run([str(python), __file__, "--worker"], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        print(f"{label} run failed:", out.stderr.strip()[-500:], file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def table(ours: dict[str, float], others: dict[str, dict[str, float]]) -> list[str]:
    """One row per pipeline: ours, then each other side's time and ours/theirs."""
    header = "| pipeline | ours |" + "".join(f" {label} | ours/{label} |" for label in others)
    rows = [header, "|---|---|" + "---|---|" * len(others)]

    def cells(mine: float, theirs: float | None) -> str:
        return f" {theirs:.1f} ms | {mine / theirs:.2f} |" if theirs else " n/a | n/a |"

    for name, ms in ours.items():
        rows.append(f"| {name} | {ms:.1f} ms |" + "".join(cells(ms, t.get(name)) for t in others.values()))
    total = sum(ours.values())
    totals = {label: sum(t[n] for n in ours) if all(n in t for n in ours) else None for label, t in others.items()}
    rows.append(f"| **all** | {total:.1f} ms |" + "".join(cells(total, totals[label]) for label in others))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--report", type=Path, help="append the table, in Markdown, to this file")
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(measure()))
        return
    ours = measure()
    others = {label: r for label, python in UPSTREAMS.items() if (r := run_upstream(label, python)) is not None}
    lines = [
        "",
        "## JIT compile time from Python vs upstream Halide 21 and Halide 14",
        "",
        f"`benchmarks/jit_compile_time.py`: the tutorials' pipelines defined from Python, median of {REPEAT} "
        "first `compile_jit()` calls of fresh definitions, after one warm-up compile, in one process per side. "
        "Ratio ours/theirs, lower is better; issue 10's target: ≤ 1 against Halide 14.",
        "",
        *table(ours, others),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.report:
        with args.report.open("a") as f:
            f.write(text)


if __name__ == "__main__":
    main()
