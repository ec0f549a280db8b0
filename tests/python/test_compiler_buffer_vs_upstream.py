"""hl.Buffer's members exercised by one script under upstream Halide 21's
Python and under ours: the same output (values, shapes, reprs, exception
classes)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")

from upstream_api import UPSTREAM_PY  # noqa: E402

SCRIPT = r"""
import numpy as np
import halide as hl

def shape(b):
    return [(b.dim(i).min(), b.dim(i).extent(), b.dim(i).stride()) for i in range(b.dimensions())]

a = np.arange(60, dtype=np.int32).reshape(3, 4, 5)
b = hl.Buffer(a)
print(repr(b), shape(b), b.width(), b.height(), b.channels(), b.number_of_elements(), b.size_in_bytes())
print(shape(hl.Buffer(a, reverse_axes=False)), shape(hl.Buffer(a[:, ::2, 1:])))
print(b[1, 2, 0], b[(4, 3, 2)], b[[0, 1, 2]], b.__setitem__((0, 0, 0), 7), a[0, 0, 0])
print(shape(b.cropped(0, 1, 3)), shape(b.cropped([(1, 2), (1, 2)])), np.asarray(b.cropped(0, 1, 3)).tolist()[0][0])
print(shape(b.sliced(2, 1)), shape(b.sliced(0)), shape(b.embedded(1, 3)), shape(b.embedded(0)))
print(shape(b.translated(0, 5)), shape(b.translated([1, 2, 3])), shape(b.transposed(0, 2)))
print(shape(b.transposed([2, 0, 1])), shape(b.reverse_axes()), np.asarray(b.reverse_axes()).shape)
c = b.copy()
c.crop(0, 1, 2); c.translate(1, 4); c.set_min([9, 9, 9])
print(shape(c), c.contains([9, 9, 9]), c.contains([8, 9, 9]), c.left(), c.right(), c.top(), c.bottom())
c.slice(2, 10); print(shape(c)); c.add_dimension(); print(shape(c)); c.embed(0, 2); print(shape(c))
s = hl.Buffer(hl.UInt(16), [4, 3], [1, 0], "s")
print(repr(s), shape(s), s.name(), s.type())
s.fill(3); print(s.all_equal(3), s.all_equal(4), np.asarray(s).tolist())
seen = []
s.for_each_element(lambda p: seen.append(list(p)))
print(seen)
print(shape(hl.Buffer.make_interleaved(hl.UInt(8), 5, 4, 3)), shape(hl.Buffer.make_scalar(hl.Float(32))))
print(shape(hl.Buffer.make_bounds_query(hl.Int(8), [2, 3])), shape(hl.Buffer.make_with_shape_of(s)))
d = hl.Buffer(hl.Int(32), [3, 3])
d.fill(0)
small = hl.Buffer(np.full((2, 2), 5, np.int32))
small.set_min([1, 1])
d.copy_from(small)
print(np.asarray(d).tolist(), d.same_as(d), d.same_as(d.copy()))
print(d.host_dirty(), d.device_dirty(), d.has_device_allocation(), d.copy_to_host(), d.device_sync())
d.set_host_dirty(False); print(d.host_dirty())
z = hl.Buffer.make_scalar(hl.Int(16)); z[()] = -4; print(z[()])
f = hl.Buffer(np.array([0.5, 1.5], np.float64)); f[1] = 3; print(f[0], f[1])
q = hl.Buffer(np.array([True, False])); print(q[0], q[1])
for bad in ["b[0]", "b[5, 0, 0]", "hl.Buffer(np.zeros(2, np.complex64))"]:
    try:
        eval(bad)
    except Exception as e:
        print(bad, "raises", type(e).__name__)
"""


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 venv (build/upstream21) is not set up")
def test_buffer_members_print_the_same_as_upstream(tmp_path):
    script = tmp_path / "buffer_side_by_side.py"
    script.write_text(SCRIPT)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    upstream = subprocess.run([str(UPSTREAM_PY), str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert upstream.returncode == 0, upstream.stderr
    ours = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout.splitlines() == upstream.stdout.splitlines()
