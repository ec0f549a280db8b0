"""Pipeline.apply_autoscheduler, hl.AutoSchedulerResults and hl.load_plugin
(upstream 21's Python API): the built-in heuristic, registered under
upstream's autoscheduler names, schedules a pipeline without changing its
values (NumPy references)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def _blur() -> tuple[hl.Func, hl.Func]:
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.Func("inp")
    inp[x, y] = x * 7 + y * 3
    blur_x, out = hl.Func("blur_x"), hl.Func("out")
    blur_x[x, y] = inp[x - 1, y] + inp[x, y] + inp[x + 1, y]
    out[x, y] = (blur_x[x, y - 1] + blur_x[x, y] + blur_x[x, y + 1]) // 9
    return blur_x, out


def _blur_reference(w: int, h: int) -> np.ndarray:
    yy, xx = np.mgrid[-1 : h + 1, -1 : w + 1]
    inp = xx * 7 + yy * 3
    bx = inp[:, :-2] + inp[:, 1:-1] + inp[:, 2:]
    return (bx[:-2] + bx[1:-1] + bx[2:]) // 9


@pytest.mark.parametrize("name", ["Adams2019", "Anderson2021", "Li2018", "Mullapudi2016"])
def test_upstream_names_schedule_and_keep_values(name):
    _, out = _blur()
    out.set_estimates([(0, 1000), (0, 1000)])
    p = hl.Pipeline(out)
    target = hl.get_jit_target_from_environment()
    results = p.apply_autoscheduler(target, hl.AutoschedulerParams(name, {"parallelism": "2"}))
    assert isinstance(results, hl.AutoSchedulerResults)
    assert results.autoscheduler_params.name == name
    assert results.autoscheduler_params.extra == {"parallelism": "2"}
    assert str(results.target) == str(target)
    assert list(results.featurization) == []
    assert "blur_x.compute_root()" in results.schedule_source
    # As upstream's: C++ statements over `pipeline`, each Func by its index.
    assert "Func blur_x = pipeline.get_func(" in results.schedule_source
    got = np.asarray(p.realize([37, 11]))
    np.testing.assert_array_equal(got, _blur_reference(37, 11))


def test_unknown_name_and_bad_params():
    _, out = _blur()
    p = hl.Pipeline(out)
    with pytest.raises(hl.HalideError, match="Unknown autoscheduler name 'Nope'; known names are:"):
        p.apply_autoscheduler(hl.get_jit_target_from_environment(), hl.AutoschedulerParams("Nope"))
    with pytest.raises(TypeError, match="halide.AutoschedulerParams"):
        p.apply_autoscheduler(hl.get_jit_target_from_environment(), "Li2018")


def test_load_plugin():
    hl.load_plugin("autoschedule_li2018")  # built in: nothing to load
    with pytest.raises(hl.HalideError, match="Failed to load: libno_such_autoscheduler_plugin.so"):
        hl.load_plugin("no_such_autoscheduler_plugin")


def test_results_object():
    r = hl.AutoSchedulerResults()
    assert r.schedule_source == ""
    assert list(r.featurization) == []
    r.schedule_source = "s"
    assert r.schedule_source == "s"
    assert "AutoSchedulerResults" in repr(r)
