"""halide.Func: definitions, calls, 0-D Funcs, schedules, realize, errors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

W, H = 37, 19
x, y = hl.Var("x"), hl.Var("y")


def reference() -> np.ndarray:
    ny, nx = np.mgrid[0:H, 0:W].astype(np.int32)
    g = nx * 3 + ny
    return g + np.roll(g, 0) * 2


def pipeline():
    g = hl.Func("g")
    g[x, y] = x * 3 + y
    f = hl.Func("f")
    f[x, y] = g[x, y] + g[x, y] * 2
    return f, g


def everything(f, g):
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    f.tile(x, y, xo, yo, xi, yi, 8, 8).parallel(yo).vectorize(xi, 4)
    g.compute_at(f, yo).vectorize(x, 4)


SCHEDULES = {
    "inline": lambda f, g: None,
    "root": lambda f, g: g.compute_root(),
    "compute_at": lambda f, g: g.compute_at(f, y),
    "store_root_compute_at": lambda f, g: g.store_root().compute_at(f, x),
    "store_at": lambda f, g: g.store_at(f, y).compute_at(f, x),
    "split": lambda f, g: f.split(x, hl.Var("xo"), hl.Var("xi"), 8, hl.TailStrategy.GuardWithIf),
    "split_round_up_bound": lambda f, g: f.bound(x, 0, 40).split(
        x, hl.Var("xo"), hl.Var("xi"), 8, hl.TailStrategy.RoundUp
    ),
    "fuse": lambda f, g: f.fuse(x, y, hl.Var("t")),
    "reorder": lambda f, g: f.reorder(y, x),
    "reorder_list": lambda f, g: f.reorder([y, x]),
    "tile": lambda f, g: f.tile(x, y, hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi"), 8, 4),
    "tile_short": lambda f, g: f.tile(x, y, hl.Var("xi"), hl.Var("yi"), 4, 4, hl.TailStrategy.GuardWithIf),
    "parallel": lambda f, g: f.parallel(y),
    "parallel_task": lambda f, g: f.parallel(y, 4),
    "vectorize": lambda f, g: f.vectorize(x, 8),
    "vectorize_var": lambda f, g: f.split(x, hl.Var("xo"), hl.Var("xi"), 4).vectorize(hl.Var("xi")),
    "unroll": lambda f, g: f.unroll(x, 2),
    "everything": lambda f, g: everything(f, g),
}


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_schedules_give_the_same_values(name):
    f, g = pipeline()
    SCHEDULES[name](f, g)
    if name == "split_round_up_bound":
        out = np.asarray(f.realize([40, H]))[:, :W]
    else:
        out = np.asarray(f.realize([W, H]))
    np.testing.assert_array_equal(out, reference())


def test_schedule_methods_chain_and_return_the_func():
    f, _ = pipeline()
    assert f.compute_root() is f
    assert f.split(x, hl.Var("a"), hl.Var("b"), 2) is f


def test_funcref_and_repr():
    f, g = pipeline()
    assert repr(f) == f"<halide.Func '{f.name()}'>" and f.name().startswith("f")
    assert isinstance(g[x, y], hl.FuncRef)
    assert (g[x, y] + 1).type() == hl.Int(32)
    assert f.dimensions() == 2 and f.defined()
    assert [v.name() for v in f.args()] == ["x", "y"]
    assert f.type() == hl.Int(32) and f.types() == [hl.Int(32)]


def test_one_dimension_and_shifted_call():
    f = hl.Func("f1")
    f[x] = x * x
    g = hl.Func("g1")
    g[x] = f[x + 1] - f[x - 1]
    nx = np.arange(10, dtype=np.int32)
    np.testing.assert_array_equal(np.asarray(g.realize([10])), (nx + 1) ** 2 - (nx - 1) ** 2)


def test_zero_dimensional_func():
    f = hl.Func("zero")
    f[()] = hl.Expr(42)
    b = f.realize([])
    assert b.dimensions() == 0
    assert b[()] == 42
    assert np.asarray(b).shape == ()
    g = hl.Func("uses_zero")
    g[x] = f[()] + x
    np.testing.assert_array_equal(np.asarray(g.realize([3])), [42, 43, 44])


def test_tuple_definition_realizes_a_list():
    f = hl.Func("tup")
    f[x] = (x, hl.f32(x) * 0.5)
    a, b = f.realize([4])
    np.testing.assert_array_equal(np.asarray(a), np.arange(4, dtype=np.int32))
    np.testing.assert_array_equal(np.asarray(b), np.arange(4, dtype=np.float32) * 0.5)
    g = hl.Func("tup_use")
    g[x] = f[x][0] + hl.i32(f[x][1] * 2)
    np.testing.assert_array_equal(np.asarray(g.realize([4])), np.arange(4) * 2)


def test_realize_into_buffer_and_numpy():
    f = hl.Func("into")
    f[x, y] = hl.f32(x) + hl.f32(y) * 10
    arr = np.zeros((3, 4), dtype=np.float32)
    buf = hl.Buffer(arr)
    assert f.realize(buf) is None
    ny, nx = np.mgrid[0:3, 0:4].astype(np.float32)
    np.testing.assert_array_equal(arr, nx + ny * 10)  # written in place, zero-copy
    out = hl.Buffer(hl.Float(32), [4, 3])
    f.realize(out)
    np.testing.assert_array_equal(np.asarray(out), nx + ny * 10)


def test_errors_raise_halide_error():
    f, _ = pipeline()
    with pytest.raises(hl.HalideError, match="dimensions"):
        f.realize([2, 2, 2])
    with pytest.raises(hl.HalideError, match="not been defined|undefined"):
        hl.Func("undefined").realize([2])
    with pytest.raises(hl.HalideError, match="y"):
        q = hl.Func("q")
        q[x] = y
    with pytest.raises(TypeError, match="realize"):
        f.realize("abc")
    with pytest.raises(hl.HalideError):
        hl.Func("wrong_type").realize(hl.Buffer(hl.Int(8), [4]))
    # the interpreter survives all of the above
    assert np.asarray(pipeline()[0].realize([W, H])).shape == (H, W)


def test_target():
    t = hl.get_host_target()
    assert t.os == hl.TargetOS.Linux
    assert t.bits == 64
    assert isinstance(str(t), str) and repr(t).startswith("<halide.Target ")
    s = hl.Target("x86-64-linux-sse41")
    assert s.arch == hl.TargetArch.X86 and s.has_feature(hl.TargetFeature.SSE41)
    assert not s.has_feature(hl.TargetFeature.AVX512)
    assert s.natural_vector_size(hl.Float(32)) == 4
    assert hl.Target(str(s)) == s
    with pytest.raises(hl.HalideError):
        hl.Target("not-a-target")


def test_tuple_class() -> None:
    """hl.Tuple: upstream's constructor, plus len() and indexing (ours)."""
    t = hl.Tuple([x, y, x + y])
    assert len(t) == 3 and t.size() == 3
    assert [str(e) for e in t.as_vector()] == [str(t[0]), str(t[1]), str(t[2])]
    with pytest.raises(IndexError):
        t[3]
    f = hl.Func("from_tuple")
    f[x] = hl.Tuple([x + 1])  # one value: an ordinary Func
    assert f.outputs() == 1
    np.testing.assert_array_equal(np.asarray(f.realize([4])), np.arange(1, 5))
    with pytest.raises(hl.HalideError, match="at least one value"):
        hl.Tuple([])


@pytest.mark.parametrize("value", [(1, 2.0), [1, 2.0]], ids=["tuple", "list"])
def test_update_operators_refuse_tuples_as_upstream(value):
    # C++ has FuncRef += Tuple; upstream's Python binds no such operator:
    # f[x] += (a, b) is Python's TypeError, for a Tuple-valued Func too.
    f = hl.Func("f_tuple_iadd")
    f[x] = (x, hl.f32(x))
    with pytest.raises(TypeError):
        f[x] += value
    with pytest.raises(TypeError):
        f[x] *= hl.Tuple([x, hl.f32(x)])
    g = hl.Func("g_tuple_iadd")
    with pytest.raises(TypeError):
        g[x] += value
