"""Upstream's schedule directives and accessors bound in Python: align_extent,
bound_extent and align_storage (regions seen through trace_realizations),
values, Stage.unscheduled and dump_argument_list, copy_to_host /
copy_to_device, prefetch with hl.PrefetchBoundStrategy, ring_buffer,
Func.atomic / allow_race_conditions / clone_in, debug_to_file (.tiff refused). Values
against NumPy; messages as upstream 21's."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def realized_regions(text: str, name: str) -> list[tuple[int, ...]]:
    """The (min, extent, ...) of each "Begin realization <name>.0(...)" trace line."""
    found = re.findall(r"Begin realization " + re.escape(name) + r"\.0\(([^)]*)\)", text)
    return [tuple(int(v) for v in f.split(",")) for f in found]


def consumer_of_producer(name: str):
    x = hl.Var("x")
    g, f = hl.Func(name), hl.Func(name + "_out")
    g[x] = x * 2
    f[x] = g[x + 1] + g[x + 3]
    g.compute_root().trace_realizations()
    return x, g, f


def expected(w: int) -> np.ndarray:
    i = np.arange(w, dtype=np.int32)
    return (i + 1) * 2 + (i + 3) * 2


@pytest.mark.parametrize("modulus", [None, 4, 5])
def test_align_extent_rounds_the_extent_up_keeping_the_min(capfd, modulus):
    x, g, f = consumer_of_producer(f"ga{modulus}")
    if modulus:
        assert g.align_extent(x, modulus) is g
    np.testing.assert_array_equal(np.asarray(f.realize([5])), expected(5))
    extent = 7 if modulus is None else -(-7 // modulus) * modulus
    assert realized_regions(capfd.readouterr().out, g.name()) == [(1, extent)]


def test_bound_extent_fixes_the_extent(capfd):
    x, g, f = consumer_of_producer("gb")
    g.bound_extent(x, 12)
    np.testing.assert_array_equal(np.asarray(f.realize([5])), expected(5))
    assert realized_regions(capfd.readouterr().out, "gb") == [(1, 12)]
    x, g, f = consumer_of_producer("gc")
    g.bound_extent(x, 4)
    message = f"Bounds given for {g.name()} in x (from 1 to 4) do not cover required region (from 1 to 7)"
    with pytest.raises(hl.HalideError, match=re.escape(message)):
        f.realize([5])


def test_bound_extent_of_an_output():
    x = hl.Var("x")
    h = hl.Func("h")
    h[x] = x * 5
    h.bound_extent(x, 4)
    out = hl.Buffer(np.zeros(4, dtype=np.int32))
    h.realize(out)
    np.testing.assert_array_equal(np.asarray(out), [0, 5, 10, 15])
    np.testing.assert_array_equal(np.asarray(h.realize([3])), [0, 5, 10])
    # As upstream: a buffer wider than the bound is an error (and never a crash).
    message = f"Bounds given for {h.name()} in x (from 0 to 3) do not cover required region (from 0 to 7)"
    with pytest.raises(hl.HalideError, match=re.escape(message)):
        h.realize(hl.Buffer(np.zeros(8, dtype=np.int32)))
    with pytest.raises(hl.HalideError):
        h.realize([8])


def test_align_storage_keeps_the_values():
    x, y = hl.Var("x"), hl.Var("y")
    g, f = hl.Func("g"), hl.Func("f")
    g[x, y] = x + y * 7
    f[x, y] = g[x, y] * 2 + g[x + 1, y]
    assert g.compute_root().align_storage(x, 16) is g
    yy, xx = np.mgrid[0:4, 0:13].astype(np.int32)
    np.testing.assert_array_equal(np.asarray(f.realize([13, 4])), (xx + yy * 7) * 2 + (xx + 1 + yy * 7))


def test_values_of_the_pure_definition():
    x = hl.Var("x")
    t, u = hl.Func("t"), hl.Func("u")
    t[x] = (x, hl.f32(x) * 2.0)
    u[x] = x * 3
    vt, vu = t.values(), u.values()
    assert isinstance(vt, tuple) and len(vt) == 2
    assert vt[0].type() == hl.Int(32) and vt[1].type() == hl.Float(32)
    assert isinstance(vu, tuple) and len(vu) == 1 and str(vu[0]) == str(u.value())
    with pytest.raises(hl.HalideError, match=r"Can't call Func::values\(\) on an undefined Func"):
        hl.Func("v").values()


def test_unscheduled_update_warns_as_upstream(capfd):
    x = hl.Var("x")
    f = hl.Func("fw")
    f[x] = x
    f[x] += 1
    f.vectorize(x, 4)
    np.testing.assert_array_equal(np.asarray(f.realize([8])), np.arange(8) + 1)
    # On sys.stdout, as upstream's module prints warnings.
    out = capfd.readouterr().out
    assert (
        f"Warning: Update definition 0 of function {f.name()} has not been scheduled, even though some other "
        "definitions have been. You may have forgotten to schedule it. If this was intentional, call "
        f"{f.name()}.update(0).unscheduled() to suppress this warning." in out
    )
    g = hl.Func("gw")
    g[x] = x
    g[x] += 2
    g.vectorize(x, 4)
    assert g.update(0).unscheduled() is None
    np.testing.assert_array_equal(np.asarray(g.realize([8])), np.arange(8) + 2)
    assert "Warning" not in capfd.readouterr().out
    with pytest.raises(hl.HalideError, match="Stage::unscheduled called on an update definition with a schedule"):
        g.update(0).unscheduled()


def test_dump_argument_list():
    x, y, yo, yi = hl.Var("x"), hl.Var("y"), hl.Var("yo"), hl.Var("yi")
    f = hl.Func("f")
    f[x, y] = x + y
    f[x, y] += 1
    assert f.update(0).dump_argument_list() == "Vars: x y __outermost\n"
    f.split(y, yo, yi, 2)
    assert hl.Stage(f).dump_argument_list() == "Vars: x yi yo __outermost\n"


def test_debug_to_file_tiff_is_a_runtime_error(tmp_path):
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = x
    f.debug_to_file(str(tmp_path / "f.tiff"))
    with pytest.raises(hl.HalideError, match="TIFF"):
        f.realize([4])


def copy_chain():
    """c[x] = b[x] + 1 where b is a plain copy of a[x] = x * 3."""
    x = hl.Var("x")
    a, b, c = hl.Func("a"), hl.Func("b"), hl.Func("c")
    a[x] = x * 3
    b[x] = a[x]
    c[x] = b[x] + 1
    return x, a, b, c


def test_copy_to_host_of_a_plain_copy():
    x, a, b, c = copy_chain()
    assert isinstance(b.copy_to_host(), hl.Func)
    message = f"Func {a.name()} cannot be scheduled to be computed inline, because it is used in the "
    with pytest.raises(hl.HalideError, match=re.escape(message + f"externally-computed function {b.name()}")):
        c.realize([4])
    a.compute_root()
    b.compute_root()
    np.testing.assert_array_equal(np.asarray(c.realize([6])), np.arange(6) * 3 + 1)
    d = hl.Func("d")
    d[x] = x * 3
    with pytest.raises(hl.HalideError, match="is scheduled as copy_to_host/device, but has value"):
        d.copy_to_host()


def test_copy_to_device_is_refused_for_the_host():
    _, a, b, c = copy_chain()
    b.copy_to_device()
    a.compute_root()
    b.compute_root()
    with pytest.raises(
        hl.HalideError,
        match="has an extern definition that may leave the output with a dirty <Default_GPU> device allocation, but no "
        "compatible target feature is enabled in target",
    ):
        c.realize([4])


def test_prefetch_changes_no_result():
    assert list(hl.PrefetchBoundStrategy.__members__) == ["Clamp", "GuardWithIf", "NonFaulting"]
    x, y = hl.Var("x"), hl.Var("y")
    p, q = hl.Func("p"), hl.Func("q")
    p[x, y] = x + y * 10
    q[x, y] = p[x, y] * 2 + p[x + 1, y]
    p.compute_root()
    assert q.prefetch(p, y, y, 2, hl.PrefetchBoundStrategy.NonFaulting) is q
    yy, xx = np.mgrid[0:3, 0:5].astype(np.int32)
    np.testing.assert_array_equal(np.asarray(q.realize([5, 3])), (xx + yy * 10) * 2 + (xx + 1 + yy * 10))
    im = hl.ImageParam(hl.Int(32), 2, "im")
    r = hl.Func("r")
    r[x, y] = im[x, y] + 1
    r.prefetch(im, y, y)
    hl.Stage(r).prefetch(im, x, y, offset=3, strategy=hl.PrefetchBoundStrategy.Clamp)
    data = np.arange(16, dtype=np.int32).reshape(4, 4)
    im.set(hl.Buffer(data))
    np.testing.assert_array_equal(np.asarray(r.realize([4, 4])), data + 1)


def test_ring_buffer_needs_a_hoisted_storage_level():
    x = hl.Var("x")
    r, o = hl.Func("r"), hl.Func("o")
    r[x] = x * 7
    o[x] = r[x] + r[x + 1]
    assert r.compute_at(o, x).ring_buffer(2) is r
    message = f'Func "{r.name()}" is scheduled with ring_buffer(), but has matching store_at and hoist_storage levels'
    with pytest.raises(hl.HalideError, match=re.escape(message)):
        o.realize([4])
    r.hoist_storage_root()
    i = np.arange(6)
    np.testing.assert_array_equal(np.asarray(o.realize([6])), i * 7 + (i + 1) * 7)


def test_func_atomic_allow_race_conditions_and_clone_in():
    x = hl.Var("x")
    r = hl.RDom([(0, 10)])
    f = hl.Func("f")
    f[x] = 0
    f[r.x % 3] += 1
    assert f.atomic() is f and f.allow_race_conditions() is f
    assert f.atomic(override_associativity_test=True) is f
    f.update(0).unscheduled()  # the pure definition counts as scheduled now
    np.testing.assert_array_equal(np.asarray(f.realize([3])), [4, 3, 3])
    a, b, c = hl.Func("a"), hl.Func("b"), hl.Func("c")
    a[x] = x * 2
    b[x] = a[x] + 1
    c[x] = a[x] * b[x]
    clone = a.clone_in(c)
    assert clone.name().startswith("a_clone_in_c")
    assert a.clone_in([c]).name() == clone.name()
    clone.compute_root()
    i = np.arange(5)
    np.testing.assert_array_equal(np.asarray(c.realize([5])), i * 2 * (i * 2 + 1))


def test_a_wrapper_for_a_consumer_that_does_not_call_the_func_is_an_error():
    # Upstream 21 raises the same (its names carry a "$0" suffix there).
    x = hl.Var("x")
    f0, h, f1 = hl.Func("wf0"), hl.Func("wh"), hl.Func("wf1")
    f0[x] = x
    h[x] = f0[x] + 1
    f1[x] = h[x] * 2
    f0.in_(f1).compute_root()
    message = 'Cannot wrap "wf0" in "wf1" because "wf1" does not call "wf0"\nDirect callees of "wf1" are:\n  wh\n'
    with pytest.raises(hl.HalideError, match=re.escape(message)):
        f1.realize([4])


def test_logical_not_and_funcref_size():
    x = hl.Var("x")
    f, t = hl.Func("f"), hl.Func("t")
    f[x] = x % 3 == 0
    t[x] = (x, x * 2)
    assert f[x].size() == 1 and t[x].size() == 2
    g = hl.Func("g")
    g[x] = hl.select((x > 2).logical_not(), 1, 0) + hl.select(f[x].logical_not(), 100, 0)
    i = np.arange(6)
    want = np.where(i <= 2, 1, 0) + np.where(i % 3 != 0, 100, 0)
    np.testing.assert_array_equal(np.asarray(g.realize([6])), want)
    # As upstream: the argument must be a bool.
    with pytest.raises(hl.HalideError):
        x.logical_not()
    with pytest.raises(hl.HalideError):
        hl.Expr(x + 1).logical_not()
