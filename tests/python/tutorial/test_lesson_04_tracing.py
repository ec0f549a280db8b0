"""Tutorial, debugging with tracing (upstream's lesson 4, written for this project).

Func.trace_stores / trace_loads / trace_realizations make the pipeline print,
as it runs, the lines of upstream's default trace handler: the pipeline's
begin and end, a "func_type_and_dim" tag per traced Func (number of values,
then type code, bits and lanes of each, dimensions, then min and extent per
dimension), where the Func is realized, produced and consumed (min and
extent per dimension), and every value stored into or loaded from it. The
expected lines below are written out from that format and NumPy values, and
are what upstream Halide 21 prints too (a vectorized store is one line of
vectors: the lanes' coordinates, then their values).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def lines_of(capfd: pytest.CaptureFixture[str]) -> list[str]:
    return capfd.readouterr().out.splitlines()


def test_trace_stores_of_a_gradient(capfd: pytest.CaptureFixture[str]) -> None:
    x, y = hl.Var("x"), hl.Var("y")
    gradient = hl.Func("gradient")
    gradient[x, y] = x + y
    gradient.trace_stores()
    out = np.asarray(gradient.realize([8, 8]))
    np.testing.assert_array_equal(out, np.add.outer(np.arange(8), np.arange(8)))
    expected = ["Begin pipeline gradient.0()", 'Tag gradient.0() tag = "func_type_and_dim: 1 0 32 1 2 0 8 0 8"']
    expected += [f"Store gradient.0({px}, {py}) = {px + py}" for py in range(8) for px in range(8)]
    expected += ["End pipeline gradient.0()"]
    assert lines_of(capfd) == expected


def test_parallel_stores_are_all_traced(capfd: pytest.CaptureFixture[str]) -> None:
    # Rows run on several threads: the same lines, in some order.
    x, y = hl.Var("x"), hl.Var("y")
    g = hl.Func("parallel_gradient")
    g[x, y] = x + y
    g.trace_stores()
    g.parallel(y)
    g.realize([8, 8])
    lines = lines_of(capfd)
    assert lines[0] == "Begin pipeline parallel_gradient.0()" and lines[-1] == "End pipeline parallel_gradient.0()"
    assert sorted(lines[2:-1]) == sorted(f"Store parallel_gradient.0({px}, {py}) = {px + py}"
                                         for py in range(8) for px in range(8))


def test_vectorized_stores_are_vector_events(capfd: pytest.CaptureFixture[str]) -> None:
    x = hl.Var("x")
    f = hl.Func("vf")
    f[x] = hl.u8(x * 3)
    f.vectorize(x, 4).trace_stores()
    out = np.asarray(f.realize([8]))
    np.testing.assert_array_equal(out, (np.arange(8) * 3).astype(np.uint8))
    lines = lines_of(capfd)
    assert lines[1] == 'Tag vf.0() tag = "func_type_and_dim: 1 1 8 1 1 0 8"'
    # One line per vector: the lanes' coordinates, then their values.
    assert lines[2:-1] == ["Store vf.0(<0, 1, 2, 3>) = <0, 3, 6, 9>", "Store vf.0(<4, 5, 6, 7>) = <12, 15, 18, 21>"]


def test_loads_stores_and_realizations_of_two_stages(capfd: pytest.CaptureFixture[str]) -> None:
    x, y = hl.Var("x"), hl.Var("y")
    f, g = hl.Func("f"), hl.Func("g")
    f[x, y] = hl.f32(x + y)
    g[x, y] = f[x, y] + f[x + 1, y]
    f.compute_root()
    f.trace_stores().trace_loads().trace_realizations()
    g.trace_stores().trace_realizations()
    out = hl.Buffer(hl.Float(32), [2, 2])
    out.set_min([3, 1])
    g.realize(out)
    ys, xs = np.mgrid[1:3, 3:5]
    np.testing.assert_array_equal(np.asarray(out), 2 * (xs + ys) + 1)

    fr, gr = "f.0(3, 3, 1, 2)", "g.0(3, 2, 1, 2)"  # min, extent per dimension
    expected = [
        "Begin pipeline g.0()",
        'Tag f.0() tag = "func_type_and_dim: 1 2 32 1 2 3 3 1 2"',  # float = type code 2
        'Tag g.0() tag = "func_type_and_dim: 1 2 32 1 2 3 2 1 2"',
        f"Begin realization {gr}",
        f"Begin realization {fr}",
        f"Produce {fr}",
    ]
    expected += [f"Store f.0({px}, {py}) = {px + py:f}" for py in (1, 2) for px in (3, 4, 5)]
    expected += [f"End produce {fr}", f"Consume {fr}", f"Produce {gr}"]
    for py in (1, 2):
        for px in (3, 4):
            expected += [f"Load f.0({px}, {py}) = {px + py:f}", f"Load f.0({px + 1}, {py}) = {px + 1 + py:f}",
                         f"Store g.0({px}, {py}) = {2 * (px + py) + 1:f}"]
    expected += [f"End produce {gr}", f"End consume {fr}", f"End realization {fr}", f"End realization {gr}",
                 "End pipeline g.0()"]
    assert lines_of(capfd) == expected


def test_tuple_stores_and_update_stages(capfd: pytest.CaptureFixture[str]) -> None:
    x = hl.Var("x")
    k = hl.Func("k")
    k[x] = x
    k[x] += 1
    k.trace_stores().trace_realizations()
    np.testing.assert_array_equal(np.asarray(k.realize([2])), [1, 2])
    assert lines_of(capfd) == [
        "Begin pipeline k.0()", 'Tag k.0() tag = "func_type_and_dim: 1 0 32 1 1 0 2"',
        "Begin realization k.0(0, 2)", "Produce k.0(0, 2)",
        "Store k.0(0) = 0", "Store k.0(1) = 1", "Store k.0(0) = 1", "Store k.0(1) = 2",
        "End produce k.0(0, 2)", "End realization k.0(0, 2)", "End pipeline k.0()"]

    t = hl.Func("t")
    t[x] = (x, hl.u16(x * 2))
    t.trace_stores()
    t.realize([2])
    assert lines_of(capfd)[1:-1] == [
        'Tag t.0() tag = "func_type_and_dim: 2 0 32 1 1 16 1 1 0 2"',
        "Store t.0(0) = 0", "Store t.1(0) = 0", "Store t.0(1) = 1", "Store t.1(1) = 2"]


def test_untraced_pipelines_print_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    x = hl.Var("x")
    f = hl.Func("quiet")
    f[x] = x
    f.realize([3])
    assert lines_of(capfd) == []


def test_add_trace_tag_lines_follow_the_type_tag(capfd: pytest.CaptureFixture[str]) -> None:
    # Func.add_trace_tag: a tag event of its own text after the Func's
    # func_type_and_dim tag (the lines upstream Halide 21 prints).
    x = hl.Var("x")
    f = hl.Func("tagged")
    f[x] = x * 2
    f.trace_stores().trace_realizations().add_trace_tag("first tag").add_trace_tag("second")
    np.testing.assert_array_equal(np.asarray(f.realize([2])), [0, 2])
    assert lines_of(capfd) == [
        "Begin pipeline tagged.0()",
        'Tag tagged.0() tag = "func_type_and_dim: 1 0 32 1 1 0 2"',
        'Tag tagged.0() tag = "first tag"',
        'Tag tagged.0() tag = "second"',
        "Begin realization tagged.0(0, 2)",
        "Produce tagged.0(0, 2)",
        "Store tagged.0(0) = 0",
        "Store tagged.0(1) = 2",
        "End produce tagged.0(0, 2)",
        "End realization tagged.0(0, 2)",
        "End pipeline tagged.0()",
    ]
