"""Benchmark report (not a test): our JIT against upstream Halide 14 on the
same pipelines, schedules, sizes and inputs.

Runs tests/bench/compiler_bench (ours, C++) and tests/bench/upstream_bench.py
(upstream, through Debian's python3-halide) once per thread count
(HL_NUM_THREADS=1 and 2), checks that every output equals upstream's, and
appends a Markdown section "Compiler vs upstream Halide 14" to --report.

    python3 tests/bench/compiler_report.py --report build/bench/report.md \
        [--ours build/dev/tests/bench/compiler_bench] [--upstream-python /usr/bin/python3] \
        [--runs 20] [--budget 10]
"""

from __future__ import annotations

import argparse
import array
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BUILD = Path(os.environ.get("HALIDE_TEST_BUILD", REPO / "build" / "dev"))
TARGET_RATIO = 1.2
THREADS = (1, 2)
PIPELINES = {
    "blur_u16": ("separable 3x3 box blur, uint16, 1536x2560", "H", True),
    "gauss_f32": ("5x5 separable Gaussian, float32, clamped edge, 1536x2560", "f", False),
}
FLOAT_REL_TOL = 1e-4


def run_json(cmd: list[str], threads: int) -> dict:
    env = dict(os.environ, HL_NUM_THREADS=str(threads))
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout)


def load_raw(path: Path, fmt: str) -> array.array:
    a = array.array(fmt)
    a.frombytes(path.read_bytes())
    return a


def compare(ours: Path, ref: Path, fmt: str) -> tuple[float, float, int]:
    """(max abs difference, max relative difference, element count)."""
    a, b = load_raw(ours, fmt), load_raw(ref, fmt)
    if len(a) != len(b):
        return float("inf"), float("inf"), len(b)
    try:
        import numpy as np
        na, nb = np.frombuffer(a, dtype=a.typecode).astype(np.float64), np.frombuffer(b, dtype=b.typecode).astype(
            np.float64)
        diff = np.abs(na - nb)
        rel = diff / np.maximum(np.abs(nb), 1e-30)
        return float(diff.max()), float(rel.max()), len(b)
    except ImportError:
        max_abs = max_rel = 0.0
        for u, v in zip(a, b, strict=True):
            d = abs(float(u) - float(v))
            if d > max_abs:
                max_abs = d
            if d:
                max_rel = max(max_rel, d / max(abs(float(v)), 1e-30))
        return max_abs, max_rel, len(b)


def fmt_time(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms" if seconds < 10 else f"{seconds:.2f} s"


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--report", type=Path, required=True, help="Markdown file to append to")
    p.add_argument("--ours", type=Path, default=BUILD / "tests" / "bench" / "compiler_bench",
                   help="the compiler_bench executable")
    p.add_argument("--upstream-python", default="/usr/bin/python3",
                   help="an interpreter with upstream halide 14's bindings")
    p.add_argument("--runs", type=int, default=20, help="best of this many realizations")
    p.add_argument("--budget", type=float, default=10.0,
                   help="seconds of timing per pipeline before stopping early (at least 3 runs)")
    args = p.parse_args()
    if not args.ours.exists():
        raise SystemExit(f"{args.ours} not found: build it (meson, tests/bench) or pass --ours")

    results: dict[tuple[str, int], dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        dirs = {}
        for threads in THREADS:
            for side in ("ours", "upstream"):
                d = Path(tmp) / f"{side}{threads}"
                d.mkdir()
                dirs[side, threads] = d
                common = ["--runs", str(args.runs), "--budget", str(args.budget), "--out-dir", str(d)]
                if side == "ours":
                    cmd = [str(args.ours)] + common
                else:
                    cmd = [args.upstream_python, str(HERE / "upstream_bench.py")] + common
                print(f"running {side}, HL_NUM_THREADS={threads} ...", file=sys.stderr)
                results[side, threads] = run_json(cmd, threads)

        checks = {}
        for name, (_, fmt, exact) in PIPELINES.items():
            worst_abs = worst_rel = 0.0
            count = 0
            ref = dirs["upstream", 1] / f"{name}.raw"
            for (side, threads), d in dirs.items():
                if (side, threads) == ("upstream", 1):
                    continue
                a, r, count = compare(d / f"{name}.raw", ref, fmt)
                worst_abs, worst_rel = max(worst_abs, a), max(worst_rel, r)
            ok = worst_abs == 0 if exact else worst_rel <= FLOAT_REL_TOL
            checks[name] = (ok, worst_abs, worst_rel, count)

    up = results["upstream", 1]
    lines = [
        "",
        "## Compiler vs upstream Halide 14",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores. Date: {time.strftime('%Y-%m-%d')}. "
        f"Upstream: Debian's libHalide 14 through python3-halide, JIT target `{up.get('target', '?')}`; "
        "ours: libhalide's JIT for the host, driven from C++ (tests/bench/compiler_bench.cpp).",
        "Same algorithm, schedule (`tile(x, y, xi, yi, 256, 32).vectorize(xi, 8).parallel(y)` on the output, "
        "the producer `compute_at(out, x).vectorize(x, 8)`), size and input values on both sides. "
        "Compile time: the first `compile_jit()` (in the single-threaded process). "
        f"Run time: best of up to {args.runs} realizations into a preallocated output after one warm-up "
        f"(fewer when a pipeline has used {args.budget:g} s; the count is shown), "
        "thread count from `HL_NUM_THREADS` on both sides. Ratio is ours/upstream (lower is better); "
        f"target: ratio ≤ {TARGET_RATIO}.",
    ]
    for name, (title, _, exact) in PIPELINES.items():
        lines += ["", f"### {title}", "",
                  "| measurement | ours | upstream | ours/upstream | target | |",
                  "|---|---|---|---|---|---|"]
        rows = [("JIT compile (first `compile_jit`)",
                 results["ours", 1]["pipelines"][name]["compile_s"],
                 results["upstream", 1]["pipelines"][name]["compile_s"],
                 "", "")]
        for threads in THREADS:
            o, u = results["ours", threads]["pipelines"][name], results["upstream", threads]["pipelines"][name]
            rows.append((f"run, {threads} thread{'s' if threads > 1 else ''}", o["run_s"], u["run_s"],
                         f" (best of {o['runs']})", f" (best of {u['runs']})"))
        for label, o, u, on, un in rows:
            ratio = o / u
            verdict = "met" if ratio <= TARGET_RATIO else f"**missed** ({ratio:.1f}x slower)" if ratio > 1 else \
                "**missed**"
            lines.append(f"| {label} | {fmt_time(o)}{on} | {fmt_time(u)}{un} | {ratio:.2f} | ≤ {TARGET_RATIO} | "
                         f"{verdict} |")
        ok, max_abs, max_rel, count = checks[name]
        if exact:
            lines += ["", f"Outputs {'match' if ok else '**do not match**'}: our {count} uint16 values at 1 and 2 "
                      f"threads against upstream's, max abs difference {max_abs:g} (exact match required)."]
        else:
            lines += ["", f"Outputs {'match' if ok else '**do not match**'}: our {count} float32 values at 1 and 2 "
                      f"threads against upstream's, max abs difference {max_abs:g}, max relative difference "
                      f"{max_rel:g} (tolerance {FLOAT_REL_TOL:g} relative)."]
    all_ok = all(c[0] for c in checks.values())
    lines += ["", f"All outputs {'match upstream' if all_ok else '**do not all match upstream**'}.", ""]
    args.report.parent.mkdir(parents=True, exist_ok=True)
    with args.report.open("a") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
