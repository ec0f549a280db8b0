"""Func.bound with update stages, and the illegal reduction schedules and
RDom.where uses upstream refuses, with upstream 21's words (issue 12).
Values are checked against NumPy; the messages are the ones upstream 21's
Python bindings give for the same code."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


# --- bound() of a Func with updates ------------------------------------------


def test_bound_wider_than_consumers_read_runs_the_scan_from_its_start():
    r = hl.RDom([(1, 15)], "r")
    g, f = hl.Func("g"), hl.Func("f")
    g[x] = x
    g[r.x] = g[r.x] + g[r.x - 1]
    g.compute_root().bound(x, 0, 16)
    f[x] = g[x + 8]
    np.testing.assert_array_equal(np.asarray(f.realize([8])), np.cumsum(np.arange(16))[8:])


def test_update_writing_outside_the_bound_fails():
    r = hl.RDom([(0, 20)], "r")
    g, f = hl.Func("g"), hl.Func("f")
    g[x] = 0
    g[r.x] = g[r.x] + 1
    g.compute_root().bound(x, 0, 10)
    f[x] = g[x]
    match = (
        rf"Bounds given for {re.escape(g.name())} in x \(from 0 to 9\) do not cover required region "
        r"\(from 0 to 19\)"
    )
    with pytest.raises(hl.HalideError, match=match):
        f.realize([10])


def test_bound_with_a_param_min_on_an_updated_func():
    lo = hl.Param(hl.Int(32), "lo", 2)
    r = hl.RDom([(0, 3)], "r")
    g, f = hl.Func("g"), hl.Func("f")
    g[x] = x
    g[x] += r.x
    g.compute_root().bound(x, lo, 6)
    f[x] = g[x + 2]
    np.testing.assert_array_equal(np.asarray(f.realize([6])), np.arange(6) + 2 + 3)
    lo.set(5)
    match = rf"Bounds given for {re.escape(g.name())} in x \(from 5 to 10\) do not cover"
    with pytest.raises(hl.HalideError, match=match):
        f.realize([6])


def test_bound_of_an_output_with_an_update():
    r = hl.RDom([(0, 4)], "r")
    f = hl.Func("f")
    f[x, y] = x + y
    f[x, y] += r.x * y
    f.bound(x, 0, 8)
    yy, xx = np.mgrid[0:3, 0:8]
    np.testing.assert_array_equal(np.asarray(f.realize([8, 3])), xx + yy + 6 * yy)


def test_set_estimates_on_funcs_with_updates_change_nothing_computed():
    r = hl.RDom([(0, 4)], "r")
    g, f = hl.Func("g"), hl.Func("f")
    g[x, y] = x + y
    g[x, y] += r.x * y
    g.compute_root().set_estimates([hl.Range(0, 1000), hl.Range(0, 1000)])
    f[x, y] = g[x, y]
    f[x, y] += 1
    assert f.set_estimates([hl.Range(0, 1000), hl.Range(0, 1000)]) is f
    yy, xx = np.mgrid[0:3, 0:8]
    np.testing.assert_array_equal(np.asarray(f.realize([8, 3])), xx + yy + 6 * yy + 1)


# --- RDom.where ----------------------------------------------------------------


def test_where_with_the_rvars_of_another_rdom():
    r, q = hl.RDom([(0, 10)], "wr"), hl.RDom([(0, 5)], "wq")
    with pytest.raises(
        hl.HalideError,
        match=r"An RDom's predicate may only refer to its own RVars,  not the RVars of some other RDom\. "
        r"Cannot set the predicate to : ",
    ):
        r.where(q.x < 3)


@pytest.mark.parametrize("use", ["update", "inline"])
def test_where_after_the_rdom_was_used(use):
    r = hl.RDom([(0, 10)], "wu")
    if use == "update":
        f = hl.Func("f")
        f[x] = 0
        f[x] += r.x
    else:
        hl.sum(r.x)
    message = (
        rf"RDom\(\n  {re.escape(r.x.name())}\(0, 10\)\n\) cannot be given a new predicate, because it has "
        r"already been used in the update definition of some function\."
    )
    with pytest.raises(hl.HalideError, match=message):
        r.where(r.x < 3)


def test_where_on_a_single_rvar_is_not_there():
    # where() belongs to RDom; an RVar has none (as upstream's bindings).
    r = hl.RDom([(0, 10)], "wv")
    with pytest.raises(AttributeError, match="where"):
        r.x.where(r.x < 3)


# --- illegal schedules of updates -------------------------------------------------


def _histogram(name: str) -> tuple[hl.Func, hl.RDom]:
    r = hl.RDom([(0, 30)], "r")
    f = hl.Func(name)
    f[x] = 0
    f[r.x % 3] += 1
    return f, r


# Vectorizing splits the loop: upstream names the split's inner variable.
RACE = (
    r"In schedule for {name}\.update\(0\), marking var {var} as parallel or vectorized may introduce a race "
    r"condition resulting in incorrect output"
)


@pytest.mark.parametrize("how", ["parallel", "vectorize"])
def test_racy_rvar_loops(how):
    f, r = _histogram("racy_" + how)
    var = re.escape(r.x.name()) if how == "parallel" else r"\S+"
    # Upstream refuses when scheduled, we when compiled.
    with pytest.raises(hl.HalideError, match=RACE.format(name=f.name(), var=var)):
        if how == "parallel":
            f.update(0).parallel(r.x)
        else:
            f.update(0).vectorize(r.x, 4)
        f.realize([3])


@pytest.mark.parametrize("how", ["parallel", "vectorize"])
def test_carried_rvar_of_a_scan(how):
    q = hl.RDom([(1, 9)], "q")
    s = hl.Func("scan_" + how)
    s[x] = x
    s[q.x] = s[q.x - 1] + s[q.x]
    var = re.escape(q.x.name()) if how == "parallel" else r"\S+"
    with pytest.raises(hl.HalideError, match=RACE.format(name=s.name(), var=var)):
        if how == "parallel":
            s.update(0).parallel(q.x)
        else:
            s.update(0).vectorize(q.x, 4)
        s.realize([10])


def test_reordering_rvars():
    r = hl.RDom([(0, 3), (0, 3)], "rr")
    f = hl.Func("t")
    f[x] = 0
    f[x] = f[x] * 2 + r.x + r.y * 10
    message = (
        rf"In schedule for {f.name()}\.update\(0\), can't reorder RVars {re.escape(r.y.name())} and "
        rf"{re.escape(r.x.name())} because it may change the meaning of the algorithm\."
    )
    with pytest.raises(hl.HalideError, match=message):
        f.update(0).reorder(r.y, r.x)
        f.realize([2])

