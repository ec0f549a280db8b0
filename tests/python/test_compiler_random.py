"""hl.random_float, hl.random_int, hl.random_uint: uniform (statistics
computed with NumPy from the realized values), independent between calls,
the same at the same point whatever the schedule, different per seed. The
values themselves differ from upstream's (another hash); the seed type
error is upstream 21's."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")
N = 256


def test_float_uniform_in_unit_interval():
    f = hl.Func("rnd_f")
    f[x, y] = hl.random_float()
    a = np.asarray(f.realize([N, N]))
    assert a.dtype == np.float32
    assert a.min() >= 0 and a.max() < 1
    assert abs(a.mean() - 0.5) < 5 * 0.2887 / N
    counts, _ = np.histogram(a, bins=16, range=(0, 1))
    expected = a.size / 16
    assert ((counts - expected) ** 2 / expected).sum() < 50  # chi-square, 15 dof: p < 1e-5


def test_ints_every_bit_half_set():
    f = hl.Func("rnd_i")
    f[x, y] = (hl.random_int(), hl.random_uint())
    a, b = (np.asarray(r) for r in f.realize([N, N]))
    assert a.dtype == np.int32 and b.dtype == np.uint32
    for arr in (a.view(np.uint32), b):
        bits = (arr[..., None] >> np.arange(32, dtype=np.uint32)) & 1
        assert np.all(np.abs(bits.mean(axis=(0, 1)) - 0.5) < 5 * 0.5 / N)


def test_calls_independent_one_call_one_value():
    r = hl.random_float()
    f = hl.Func("rnd_ind")
    f[x, y] = (hl.random_float(), hl.random_float(), r - r)
    a, b, z = (np.asarray(v) for v in f.realize([N, N]))
    assert abs(np.corrcoef(a.ravel(), b.ravel())[0, 1]) < 5 / N
    assert abs(np.corrcoef(a[:, 1:].ravel(), a[:, :-1].ravel())[0, 1]) < 10 / N
    assert not z.any()


def test_deterministic_across_runs_and_schedules():
    f = hl.Func("rnd_det")
    f[x, y] = hl.random_float(hl.i32(5))
    first = np.asarray(f.realize([N, N])).copy()
    xi, yi = hl.Var("xi"), hl.Var("yi")
    f.tile(x, y, xi, yi, 16, 8).vectorize(xi, 8).parallel(y)
    np.testing.assert_array_equal(np.asarray(f.realize([N, N])), first)
    g = hl.Func("rnd_shift")
    g[x, y] = f[x + 1, y]
    np.testing.assert_array_equal(np.asarray(g.realize([N - 1, N])), first[:, 1:])


def test_seeds():
    seed = hl.Param(hl.Int(32), "rnd_seed", 1)
    f = hl.Func("rnd_seeded")
    f[x] = hl.random_float(seed)
    a = np.asarray(f.realize([1000])).copy()
    seed.set(2)
    b = np.asarray(f.realize([1000])).copy()
    seed.set(1)
    np.testing.assert_array_equal(np.asarray(f.realize([1000])), a)
    assert (a == b).sum() < 3


def test_seed_type_error_is_upstreams():
    # Upstream 21, word for word.
    with pytest.raises(hl.HalideError, match=r"The seed passed to random_float must have type Int\(32\), but "
                       r"instead is \(uint8\)3 of type uint8"):
        hl.random_float(hl.u8(3))
    with pytest.raises(hl.HalideError, match=r"The seed passed to random_int must have type Int\(32\) or UInt\(32\)"):
        hl.random_uint(hl.u8(3))
