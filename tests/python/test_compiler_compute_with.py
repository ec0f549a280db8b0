"""hl.LoopLevel (compute_at / store_at / hoist_storage at a LoopLevel, set
after the schedule call) and compute_with (Func.compute_with,
Stage.compute_with, hl.LoopAlignStrategy): results against NumPy and the
unfused pipeline, one fused loop in the lowered statement, upstream 21's
errors."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def lowered(f: hl.Func, tmp_path) -> str:
    path = tmp_path / "s.stmt"
    f.compile_to_lowered_stmt(str(path), [])
    return path.read_text()


def loops(text: str, name: str) -> int:
    """How many loops are named `name` ("f.s0.y"; the Func's name may have a "$n" suffix)."""
    func, rest = name.split(".", 1)
    return len(re.findall(r"(?:for|parallel) \(" + re.escape(func) + r"(?:\$\d+)?\." + re.escape(rest) + r"\b", text))


def test_loop_align_strategy_members_are_upstreams():
    assert list(hl.LoopAlignStrategy.__members__) == ["AlignStart", "AlignEnd", "NoAlign", "Auto"]


def test_loop_level_methods_are_upstreams():
    names = {n for n in dir(hl.LoopLevel) if not n.startswith("_")}
    assert names == {"inlined", "root", "set", "stage_index"}


def test_a_loop_level_set_after_compute_at_counts(tmp_path):
    x, y = hl.Var("x"), hl.Var("y")
    h, k = hl.Func("h"), hl.Func("k")
    h[x, y] = x * y
    k[x, y] = h[x, y] + 1
    level = hl.LoopLevel()
    h.compute_at(level)
    level.set(hl.LoopLevel(k, y))
    out = np.asarray(k.realize([5, 4]))
    yy, xx = np.mgrid[0:4, 0:5]
    np.testing.assert_array_equal(out, xx * yy + 1)
    text = lowered(k, tmp_path)
    assert re.search(r"for \(k(\$\d+)?\.s0\.y.*for \(h(\$\d+)?\.s0\.y", text, re.S)


def test_unlocked_and_undefined_loop_levels_are_upstreams_errors():
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = x
    with pytest.raises(hl.HalideError, match=r"Cannot inspect an unlocked LoopLevel: f\.x"):
        hl.LoopLevel(f, x).stage_index()
    g = hl.Func("g")
    g[x] = f[x]
    f.compute_at(hl.LoopLevel())
    with pytest.raises(hl.HalideError, match=r"There should be no undefined LoopLevels at the start of lowering"):
        g.realize([3])


@pytest.mark.parametrize("mode", ["root", "inlined", "store_at", "hoist_root"])
def test_compute_store_and_hoist_at_loop_levels(mode):
    x, y = hl.Var("x"), hl.Var("y")
    h, k = hl.Func("h"), hl.Func("k")
    h[x, y] = x + 2 * y
    k[x, y] = h[x, y] + h[x + 1, y]
    if mode == "root":
        h.compute_at(hl.LoopLevel.root())
    elif mode == "inlined":
        h.compute_at(hl.LoopLevel.inlined())
    elif mode == "store_at":
        h.compute_at(hl.LoopLevel(k, x)).store_at(hl.LoopLevel(k, y))
    else:
        h.compute_at(hl.LoopLevel(k, x)).hoist_storage(hl.LoopLevel.root())
    yy, xx = np.mgrid[0:3, 0:6]
    np.testing.assert_array_equal(np.asarray(k.realize([6, 3])), (xx + 2 * yy) + (xx + 1 + 2 * yy))


def pair():
    x, y = hl.Var("x"), hl.Var("y")
    f, g, h = hl.Func("f"), hl.Func("g"), hl.Func("h")
    f[x, y] = x + y
    g[x, y] = x - y
    h[x, y] = f[x - 1, y + 1] + g[x + 2, y - 2]
    f.compute_root()
    g.compute_root()
    return x, y, f, g, h


def pair_reference(w: int, h: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w]
    return ((xx - 1) + (yy + 1)) + ((xx + 2) - (yy - 2))


@pytest.mark.parametrize("align", ["Auto", "NoAlign", "AlignStart", "AlignEnd"])
def test_func_compute_with_fuses_the_y_loops(align, tmp_path):
    x, y, f, g, h = pair()
    g.compute_with(f, y, getattr(hl.LoopAlignStrategy, align))
    np.testing.assert_array_equal(np.asarray(h.realize([13, 9])), pair_reference(13, 9))
    text = lowered(h, tmp_path)
    assert loops(text, "f.s0.y") == 1
    assert loops(text, "g.s0.y") == 0
    assert loops(text, "g.s0.x") == 1


def test_compute_with_at_x_matches_the_unfused_pipeline(tmp_path):
    *_, plain = pair()
    want = np.asarray(plain.realize([11, 7]))
    x, y, f, g, h = pair()
    xi = hl.Var("xi")
    f.split(x, x, xi, 4)
    g.split(x, x, xi, 4)
    g.compute_with(f, x, [(y, hl.LoopAlignStrategy.AlignEnd), (x, hl.LoopAlignStrategy.AlignStart)])
    np.testing.assert_array_equal(np.asarray(h.realize([11, 7])), want)
    text = lowered(h, tmp_path)
    assert loops(text, "g.s0.x") == 0 and loops(text, "g.s0.y") == 0 and loops(text, "g.s0.xi") == 1


def test_compute_with_a_loop_level_and_stage_compute_with():
    x, y = hl.Var("x"), hl.Var("y")
    a, b = hl.Func("a"), hl.Func("b")
    a[x, y] = x * 2
    a[x, y] += y
    b[x, y] = y * 3
    b[x, y] += x
    b.compute_with(hl.LoopLevel(a, y, 0), hl.LoopAlignStrategy.AlignStart)
    b.update(0).compute_with(a.update(0), y)
    ra, rb = hl.Pipeline([a, b]).realize([8, 6])
    yy, xx = np.mgrid[0:6, 0:8]
    np.testing.assert_array_equal(np.asarray(ra), xx * 2 + yy)
    np.testing.assert_array_equal(np.asarray(rb), yy * 3 + xx)


def test_compute_with_errors_are_upstreams():
    x, y, f, g, h = pair()
    g2 = hl.Func("g2")
    g2[x, y] = f[x, y] * 2
    h2 = hl.Func("h2")
    h2[x, y] = g2[x, y] + f[x, y]
    g2.compute_root()
    g2.compute_with(f, y)
    with pytest.raises(
        hl.HalideError, match=r"Invalid compute_with: there is dependency between f(\$\d+)? and g2(\$\d+)?"
    ):
        h2.realize([4, 4])
    x, y, f, g, h = pair()
    g.compute_with(f, hl.Var("z"))
    with pytest.raises(hl.HalideError, match=r"Invalid compute_with: cannot find z in f(\$\d+)?\.s0"):
        h.realize([4, 4])
    x, y, f, g, h = pair()
    g.compute_at(h, y)
    g.compute_with(f, y)
    with pytest.raises(
        hl.HalideError,
        match=r"Invalid compute_with: the compute levels of f(\$\d+)?\.s0 \(computed at \.__root\) and "
        r"g(\$\d+)?\.s0 \(h(\$\d+)?\.y\) do not match",
    ):
        h.realize([4, 4])
    ff = hl.Func("ff")
    ff[x, y] = x + y
    ff[x, y] += 2
    with pytest.raises(hl.HalideError, match=re.escape("Cannot schedule ff.update(0) to be computed with ff.s0.x")):
        ff.update(0).compute_with(ff, x)
    with pytest.raises(TypeError):
        g.compute_with(3, y)


@pytest.mark.parametrize("level", ["outermost", "y"])
def test_a_func_computed_where_a_wrapper_is_fused_serves_both(level):
    # Upstream's compute_with_in test: one.in(three) fused with two, and one
    # computed at two's level they share, read by both. Upstream 21 runs it
    # (2 * (x + y) + 5); ours refused it ("Func "one" is computed at the
    # following invalid location").
    x, y = hl.Var("x"), hl.Var("y")
    one, two, three, out = hl.Func("wf_one"), hl.Func("wf_two"), hl.Func("wf_three"), hl.Func("wf_out")
    one[x, y] = x + y
    two[x, y] = one[x, y] + 2
    three[x, y] = one[x, y] + 3
    out[x, y] = two[x, y] + three[x, y]
    two.compute_root()
    at = hl.Var.outermost() if level == "outermost" else y
    one.in_(three).compute_root().compute_with(two, at)
    one.compute_at(two, at)
    yy, xx = np.mgrid[0:7, 0:9]
    np.testing.assert_array_equal(np.asarray(out.realize([9, 7])), 2 * (xx + yy) + 5)


def test_a_parallel_loop_fused_with_a_serial_one_is_upstreams_error():
    x, y = hl.Var("x"), hl.Var("y")
    f, g, h = hl.Func("pt_f"), hl.Func("pt_g"), hl.Func("pt_h")
    f[x, y] = x + y
    g[x, y] = x - y
    h[x, y] = f[x, y] + g[x, y]
    f.compute_root().parallel(y)
    g.compute_root().compute_with(f, x)
    with pytest.raises(hl.HalideError) as info:
        h.realize([8, 8])
    # upstream 21's words for the same program
    want = "Invalid compute_with: for types of dim 1 of pt_f.s0(y is parallel) and pt_g.s0(y is for) do not match."
    assert want in str(info.value)
