"""Histogram equalization 1920x1080 uint8 against Halide 21, Halide 14 and OpenCV (issue 12). Not a test: a report.

Compiles benchmarks/histeq/histeq.cpp unchanged against ours, upstream
Halide 21 and Debian's Halide 14 (benchmarks/common/harness.py: compilers,
flags and Halide 14's JIT target), writes the
imaging demo's generated image (plugins/imaging/examples/reference.py), then
in each sweep runs every build at 1 and 2 threads (HL_NUM_THREADS), one
process per run, and OpenCV's `equalizeHist` in this process at the same
thread counts (`cv2.setNumThreads`, into a preallocated output). Times are
wall time and process CPU time (on a machine shared with other jobs, the
time the process actually ran). Keeps the best of every figure over the
sweeps, compares every build's output with the NumPy reference (exactly)
and OpenCV's with it (largest difference), and prints a Markdown section
(with --report FILE, also appended to FILE).

    .venv/bin/python benchmarks/histeq/bench_histeq.py [--ours-prefix DIR] [--rounds 3] [--dump DIR]
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "benchmarks" / "common"))
sys.path.insert(0, str(REPO / "plugins" / "imaging" / "examples"))
import harness  # noqa: E402
import reference as ref  # noqa: E402 - the imaging plugin's NumPy versions

SOURCE = HERE / "histeq.cpp"
BUILDS, THREADS, log = harness.BUILDS, harness.THREADS, harness.log
LABELS = {**harness.LABELS, "cv2": "OpenCV"}


def time_opencv(cv2: Any, img: np.ndarray, threads: int, runs: int, budget: float) -> tuple[dict[str, float], Any]:
    """Best wall and process CPU time of `cv2.equalizeHist` at `threads` threads, and its output."""
    cv2.setNumThreads(threads)
    dst = np.empty_like(img)
    cv2.equalizeHist(img, dst)  # warm-up
    best, best_cpu, start, n = 1e30, 1e30, time.perf_counter(), 0
    while n < runs and not (n >= 3 and time.perf_counter() - start > budget):
        w, c = time.perf_counter(), time.process_time()
        cv2.equalizeHist(img, dst)
        best_cpu = min(best_cpu, time.process_time() - c)
        best = min(best, time.perf_counter() - w)
        n += 1
    return {"run_s": best, "cpu_s": best_cpu}, dst


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    harness.common_args(ap, "histeq", runs=50, budget=5.0, rounds=3)
    ap.add_argument("--width", type=int, default=1920)
    ap.add_argument("--height", type=int, default=1080)
    ap.add_argument("--report", type=Path, help="append the Markdown section to this file")
    ap.add_argument("--dump", type=Path, help="write each build's lowered statement and assembly here")
    args = ap.parse_args()

    try:
        import cv2
    except ImportError:
        cv2 = None
        log("OpenCV (cv2) not installed: its rows stay empty")

    binaries = harness.build(args.ours_prefix, args.build_dir, SOURCE)
    img = ref.sample_image(args.height, args.width)
    want = ref.equalize(img)
    work = Path(tempfile.mkdtemp(prefix="bench-histeq-"))
    image = work / "input.raw"
    img.tofile(image)
    targets = {"ours": None, "h21": None, "h14": harness.h14_target()}
    load_before = harness.load_average()
    started = datetime.datetime.now()
    mismatches: list[str] = []
    cv_times: dict[tuple[str, int], dict[str, Any]] = {}
    cv_diffs: list[int] = []

    def command(side: str, threads: int, rnd: int) -> list[str]:
        cmd = ["--input", str(image), "--width", str(args.width), "--height", str(args.height)]
        cmd += ["--runs", str(args.runs), "--budget", str(args.budget), "--out", str(work / f"{side}.{threads}.raw")]
        return cmd + (harness.dump_args(args.dump, f"histeq.{side}") if rnd == 0 and threads == 1 else [])

    def check(side: str, threads: int) -> None:
        out = np.fromfile(work / f"{side}.{threads}.raw", dtype=np.uint8).reshape(args.height, args.width)
        if not np.array_equal(out, want):
            bad = int(np.count_nonzero(out != want))
            mismatches.append(f"{LABELS[side]}, {threads} thread(s): {bad} pixels differ from NumPy")

    def opencv(rnd: int, threads: int) -> None:
        if cv2 is None:
            return
        res, cv_out = time_opencv(cv2, img, threads, args.runs, args.budget)
        cv_diffs.append(int(np.abs(cv_out.astype(np.int16) - want).max()))
        harness.keep(cv_times, ("cv2", threads), res)
        log(f"round {rnd + 1} {threads}T cv2  {res['run_s'] * 1e3:.3f} ms, CPU {res['cpu_s'] * 1e3:.3f} ms")

    try:
        results, errors = harness.sweep(binaries, targets, args.rounds, command, check, opencv)
        results.update(cv_times)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load_after = harness.load_average()
    cv_version = cv2.__version__ if cv2 is not None else None
    cv_diff = cv_diffs[-1] if cv_diffs else None
    text = markdown(args, results, errors, mismatches, targets, cv_version, cv_diff, load_before, load_after, started)
    harness.write_report(text, args.report)
    return 1 if mismatches else 0


def markdown(args, results, errors, mismatches, targets, cv_version, cv_diff, load_before, load_after, started) -> str:
    out = [f"## Histogram equalization {args.width}x{args.height} uint8 against Halide 21, Halide 14 and OpenCV", ""]
    out.append(harness.machine_line(started, load_before, load_after))
    out.append("")
    out.append(
        "`benchmarks/histeq/bench_histeq.py`: one C++ source (`benchmarks/histeq/histeq.cpp`) compiled unchanged "
        "against ours, upstream Halide 21 and Debian's Halide 14 (`benchmarks/common/harness.py`'s build); the "
        "imaging plugin's `equalize` algorithm and schedule on every build (four partial histograms per strip of "
        "32 rows, one per x % 4, `rfactor` over the strips in parallel, merged, scanned, the table, the lookup "
        "rows in parallel and vectorized), the imaging demo's generated image; JIT for the host; each figure the "
        f"best of up to {args.runs} realizations into a preallocated output after one warm-up, in each of "
        f"{args.rounds} sweep(s), one process per build and thread count; OpenCV {cv_version or '(not installed)'}'s "
        "`equalizeHist` timed the same way in the script's process (`cv2.setNumThreads`). Wall and process CPU "
        "time each the best over all runs. Ratios ours/theirs (lower is better)."
    )
    out.append("")
    tgt = {s: (results.get((s, 1)) or {}).get("target", "?") for s in BUILDS}
    out.append(harness.targets_line(tgt, targets))
    out.append("")
    out.append("| threads | build | wall time | CPU time | ours/this (wall) | ours/this (CPU) |")
    out.append("|---|---|---:|---:|---:|---:|")
    out += harness.wall_cpu_rows(results, errors, (*BUILDS, "cv2"), LABELS, ".3f")
    out.append("")
    out.append("At 2 threads the CPU time counts both threads (spinning or waiting workers add to it).")
    out.append("")
    if mismatches:
        out.append("Output mismatches against the NumPy reference:")
        out += [f"- {m}" for m in mismatches]
    else:
        out.append("Outputs: every build's output at 1 and 2 threads equals the NumPy reference's exactly.")
    if cv_diff is not None:
        out.append(f"OpenCV's output differs from the NumPy reference by at most {cv_diff}.")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
