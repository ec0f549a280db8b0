"""Per-call cost of a JIT-compiled hl.Callable on a 16x16 kernel, called
with NumPy arrays and with hl.Buffers: ours and upstream Halide 21's in one
run. Not a test: it prints a table.

    PYTHONPATH=build/dev/install/site .venv/bin/python benchmarks/callable_call_overhead.py

Upstream runs under build/upstream21/bin/python (set UPSTREAM_PYTHON to
use another), in a child process with the same code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
UPSTREAM = Path(os.environ.get("UPSTREAM_PYTHON", REPO / "build" / "upstream21" / "bin" / "python"))
N = 16


def measure() -> dict[str, float]:
    """Microseconds per call, best of several repeats."""
    import halide as hl
    import numpy as np

    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "inp")
    k = hl.Param(hl.UInt(8), "k")
    f = hl.Func("f")
    f[x, y] = inp[x, y] + k
    c = f.compile_to_callable([inp, k])

    a_in = np.arange(N * N, dtype=np.uint8).reshape(N, N)
    a_out = np.zeros((N, N), dtype=np.uint8)
    b_in, b_out = hl.Buffer(a_in), hl.Buffer(a_out)
    c(a_in, 3, a_out)
    assert (a_out == a_in + 3).all()
    result = {}
    for label, args in [("numpy", (a_in, 3, a_out)), ("hl.Buffer", (b_in, 3, b_out))]:
        number = 20000
        best = min(timeit.repeat(lambda args=args: c(*args), number=number, repeat=7))
        result[label] = best / number * 1e6
    return result


def main() -> None:
    if "--worker" in sys.argv:
        print(json.dumps(measure()))
        return
    ours = measure()
    upstream = None
    if UPSTREAM.exists():
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
        out = subprocess.run([str(UPSTREAM), __file__, "--worker"], capture_output=True, text=True, env=env)
        if out.returncode == 0:
            upstream = json.loads(out.stdout.strip().splitlines()[-1])
        else:
            print("upstream run failed:", out.stderr.strip()[-500:], file=sys.stderr)
    print(f"hl.Callable call on a {N}x{N} uint8 kernel (us per call, best of 7)")
    print(f"{'arguments':<12}{'ours':>10}{'upstream 21':>14}")
    for label, value in ours.items():
        up = f"{upstream[label]:.2f}" if upstream else "n/a"
        print(f"{label:<12}{value:>10.2f}{up:>14}")


if __name__ == "__main__":
    main()
