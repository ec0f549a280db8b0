"""One script run by upstream Halide 21's Python and by ours: same output."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")

from upstream_api import UPSTREAM_PY  # noqa: E402

# Only what both print the same way: values, types, shapes, Buffer and Type
# reprs, exception classes (the compiler's messages and Expr text differ).
SCRIPT = r"""
import numpy as np
import halide as hl

x, y = hl.Var("x"), hl.Var("y")
g = hl.Func("g")
g[x, y] = hl.u8_sat(x * 40 - y * 3) + hl.u8(1)
f = hl.Func("f")
f[x, y] = hl.f32(g[x, y]) / 2 + hl.select(x % 3 == 0, hl.f32(y) ** 2, hl.sqrt(hl.f32(x)))
g.compute_at(f, y).vectorize(x, 4)
f.split(x, hl.Var("xo"), hl.Var("xi"), 4).parallel(y)
b = f.realize([9, 5])
print(repr(b), b.width(), b.height(), b.type(), b.dimensions())
print(np.round(np.asarray(b), 4).tolist())
print(repr(hl.Int(32)), repr(hl.UInt(8).with_bits(16)), hl.Float(64), hl.Bool() == hl.UInt(1))
print((hl.u8(x) + 7).type(), (x + 2**40).type(), (hl.u8(x) + 1.5).type(), hl.Expr(2**40).type())
print([(x // 2).type(), (hl.f32(x) // 2).type(), (x ** 2).type(), (2 ** x).type(), hl.abs(x).type()])
for bad in ["hl.u8(x) + 256", "bool(x < 1)", "f.realize([1, 2, 3])"]:
    try:
        eval(bad)
    except Exception as e:
        print(bad, "raises", type(e).__name__)
arr = np.arange(12, dtype=np.int16).reshape(3, 4)
ib = hl.Buffer(arr)
h = hl.Func("h")
h[x, y] = ib[x, y] * 2 + ib[3 - x, y]
print(ib.width(), ib.height(), ib[1, 2], np.shares_memory(np.asarray(ib), arr))
print(np.asarray(h.realize([4, 3])).tolist())
z = hl.Func("z")
z[()] = hl.Expr(5) * 3
print(z.realize([])[()])
print(hl.Target("x86-64-linux-sse41").has_feature(hl.TargetFeature.SSE41), hl.get_host_target().bits)
"""


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 venv (build/upstream21) is not set up")
def test_same_output_as_upstream(tmp_path):
    script = tmp_path / "side_by_side.py"
    script.write_text(SCRIPT)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    upstream = subprocess.run([str(UPSTREAM_PY), str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert upstream.returncode == 0, upstream.stderr
    ours = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == upstream.stdout
