"""Benchmark (not a test): upstream Halide 14's JIT on the pipelines of
tests/bench/compiler_bench.cpp -- same algorithms, schedules, sizes and input
pattern. Prints one JSON object with the first compile_jit() time and the
best-of-N run time per pipeline; with --out-dir DIR also writes each output's
elements (x fastest) to DIR/<pipeline>.raw.

Run with Debian's interpreter, which has the halide 14 bindings (no NumPy):
    HL_NUM_THREADS=1 /usr/bin/python3 tests/bench/upstream_bench.py [--runs N] [--out-dir DIR]
The thread count is read from HL_NUM_THREADS when halide's runtime starts,
so run once per thread count (--threads N sets it before importing halide).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

W, H = 1536, 2560


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--budget", type=float, default=20.0,
                   help="stop timing a pipeline after this many seconds (at least 3 runs)")
    p.add_argument("--threads", type=int, help="set HL_NUM_THREADS before importing halide")
    p.add_argument("--out-dir")
    return p.parse_args()


ARGS = parse_args()
if ARGS.threads is not None:
    os.environ["HL_NUM_THREADS"] = str(ARGS.threads)

import halide as hl  # noqa: E402  (after HL_NUM_THREADS is set)


def pattern(i: hl.Expr, j: hl.Expr) -> hl.Expr:
    """The input pattern of compiler_bench.cpp, over buffer-relative (i, j)."""
    u32 = hl.UInt(32)
    v = (hl.cast(u32, i) * hl.cast(u32, 1103515245)) ^ (hl.cast(u32, j) * hl.cast(u32, 40503) + hl.cast(u32, 12345))
    v = v ^ (v >> 15)
    return v & hl.cast(u32, 16383)


def fill(buf: hl.Buffer, value) -> None:
    """Fills buf with value(i, j) (buffer-relative coordinates), using halide itself."""
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("fill")
    f[x, y] = value(x - buf.dim(0).min(), y - buf.dim(1).min())
    f.realize(buf)


def time_pipeline(out_func: hl.Func, out: hl.Buffer) -> dict:
    t0 = time.perf_counter()
    out_func.compile_jit()
    compile_s = time.perf_counter() - t0
    out_func.realize(out)  # warm-up
    best, done, start = float("inf"), 0, time.perf_counter()
    while done < ARGS.runs and not (done >= 3 and time.perf_counter() - start > ARGS.budget):
        t = time.perf_counter()
        out_func.realize(out)
        best = min(best, time.perf_counter() - t)
        done += 1
    return {"compile_s": compile_s, "run_s": best, "runs": done}


def checksum(buf: hl.Buffer) -> float:
    m = memoryview(buf)
    return float(sum(memoryview(m.tobytes(order="F")).cast(m.format)))


def write_raw(buf: hl.Buffer, name: str) -> None:
    if ARGS.out_dir:
        with open(os.path.join(ARGS.out_dir, name + ".raw"), "wb") as f:
            f.write(memoryview(buf).tobytes(order="F"))  # x fastest, as in memory


def measure(out_func: hl.Func, t: hl.Type, name: str) -> dict:
    """Times out_func into a W x H buffer of type t; checksum and raw output too."""
    out = hl.Buffer(t, [W, H])
    r = time_pipeline(out_func, out)
    r["checksum"] = checksum(out)
    write_raw(out, name)
    return r


def bench_blur() -> dict:
    inp = hl.Buffer(hl.UInt(16), [W + 2, H + 2])
    inp.set_min([-1, -1])
    fill(inp, lambda i, j: hl.cast(hl.UInt(16), pattern(i, j)))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    input_.set(inp)
    blur_x, blur_y = hl.Func("blur_x"), hl.Func("blur_y")
    x, y, xi, yi = hl.Var("x"), hl.Var("y"), hl.Var("xi"), hl.Var("yi")
    blur_x[x, y] = (input_[x - 1, y] + input_[x, y] + input_[x + 1, y]) / 3
    blur_y[x, y] = (blur_x[x, y - 1] + blur_x[x, y] + blur_x[x, y + 1]) / 3
    blur_y.tile(x, y, xi, yi, 256, 32).vectorize(xi, 8).parallel(y)
    blur_x.compute_at(blur_y, x).vectorize(x, 8)

    return measure(blur_y, hl.UInt(16), "blur_u16")


def bench_gauss() -> dict:
    inp = hl.Buffer(hl.Float(32), [W, H])
    fill(inp, lambda i, j: hl.cast(hl.Float(32), pattern(i, j)) * hl.f32(0.015625))
    input_ = hl.ImageParam(hl.Float(32), 2, "input")
    input_.set(inp)
    clamped, gx, gy = hl.Func("clamped"), hl.Func("gx"), hl.Func("gy")
    x, y, xi, yi = hl.Var("x"), hl.Var("y"), hl.Var("xi"), hl.Var("yi")
    clamped[x, y] = input_[hl.clamp(x, 0, W - 1), hl.clamp(y, 0, H - 1)]
    gx[x, y] = (clamped[x - 2, y] + clamped[x - 1, y] * hl.f32(4) + clamped[x, y] * hl.f32(6)
                + clamped[x + 1, y] * hl.f32(4) + clamped[x + 2, y]) / hl.f32(16)
    gy[x, y] = (gx[x, y - 2] + gx[x, y - 1] * hl.f32(4) + gx[x, y] * hl.f32(6)
                + gx[x, y + 1] * hl.f32(4) + gx[x, y + 2]) / hl.f32(16)
    gy.tile(x, y, xi, yi, 256, 32).vectorize(xi, 8).parallel(y)
    gx.compute_at(gy, x).vectorize(x, 8)

    return measure(gy, hl.Float(32), "gauss_f32")


def main() -> int:
    result = {
        "side": "upstream",
        "halide_version": "14",
        "target": str(hl.get_jit_target_from_environment()),
        "threads": os.environ.get("HL_NUM_THREADS", "default"),
        "runs": ARGS.runs,
        "width": W,
        "height": H,
        "pipelines": {"blur_u16": bench_blur(), "gauss_f32": bench_gauss()},
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
