"""hl.require(condition, value, *args): the value where the condition holds
(against NumPy), upstream 21's run-time error where it fails and its
compile-time errors (the same probe run under upstream's Python)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import UPSTREAM_PY, probe_both  # noqa: E402

x = hl.Var("x")


def test_value_where_condition_holds():
    p = hl.Param(hl.Int(32), "rq_p", 100)
    f = hl.Func("rq_f")
    f[x] = hl.require(x < p, x * 2, "x is", x)
    np.testing.assert_array_equal(np.asarray(f.realize([50])), np.arange(50) * 2)


PROBE = r"""
import json, halide as hl
x = hl.Var("x")
p = hl.Param(hl.Int(32), "p", 3)
out = {}
def err(fn):
    try:
        fn()
        return None
    except Exception as e:
        return str(e).replace("Error: ", "").strip()
f = hl.Func("f"); f[x] = hl.require(x < p, x * 2, x, p)
out["scalar"] = err(lambda: f.realize([5]))
out["ok"] = err(lambda: f.realize([3]))
g = hl.Func("g"); g[x] = hl.require(x < 6, x * 2); g.vectorize(x, 4)
out["vector"] = err(lambda: g.realize([8]))
out["not bool"] = err(lambda: hl.require(x, x))
print(json.dumps(out))
"""


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 is not built")
def test_errors_match_upstream():
    ours, theirs = probe_both(PROBE)
    assert theirs["scalar"] == "Requirement Failed: (false) 6 3 3"
    assert ours.keys() == theirs.keys()
    assert ours == theirs


def test_require_in_a_boundary_conditions_extent():
    # The clamp the require() bounds is dropped where the loop is
    # partitioned; its check is still made (upstream 21's require.cpp).
    p1, p2 = hl.Param(hl.Int(32), "rq_p1", 16), hl.Param(hl.Int(32), "rq_p2", 15)
    data = (np.arange(64)[None, :] + 100 * np.arange(64)[:, None]).astype(np.int32)
    inp = hl.Buffer(data)
    clamped = hl.BoundaryConditions.repeat_edge(inp, [(0, 64), (0, hl.require(p1 == p2, p1))])
    with pytest.raises(hl.HalideError, match=r"Requirement Failed: \(false\) 16"):
        clamped.realize([64, 3])
    p2.set(16)
    out = np.asarray(clamped.realize([70, 20]))
    ys, xs = np.meshgrid(np.arange(20), np.arange(70), indexing="ij")
    np.testing.assert_array_equal(out, np.minimum(xs, 63) + 100 * np.minimum(ys, 15))
