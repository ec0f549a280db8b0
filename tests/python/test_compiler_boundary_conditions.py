"""hl.BoundaryConditions on Buffers, ImageParams and Funcs with bounds, checked
against np.pad (constant, edge, wrap, symmetric, reflect), far outside the
bounds and at negative coordinates; the errors of bad calls."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

BC = hl.BoundaryConditions
x, y = hl.Var("x"), hl.Var("y")
RNG = np.random.default_rng(13)
EXTERIOR = 77

# Each condition and the np.pad mode that gives the same values.
MODES = {
    "constant_exterior": "constant",
    "repeat_edge": "edge",
    "repeat_image": "wrap",
    "mirror_image": "symmetric",
    "mirror_interior": "reflect",
}


def condition(name: str, source: Any, bounds: Any = None) -> hl.Func:
    fn = getattr(BC, name)
    args: list[Any] = [source]
    if name == "constant_exterior":
        args.append(EXTERIOR)
    if bounds is not None:
        args.append(bounds)
    return fn(*args)


def padded(data: np.ndarray, name: str, pad: Any) -> np.ndarray:
    if name == "constant_exterior":
        return np.pad(data, pad, mode="constant", constant_values=EXTERIOR)
    return np.pad(data, pad, mode=MODES[name])


@pytest.mark.parametrize("name", MODES)
def test_buffer_2d_far_outside(name):
    # 4 x 5 (width 5), padded by 17 on every side: several periods out.
    data = RNG.integers(0, 200, size=(4, 5), dtype=np.uint8)
    bc = condition(name, hl.Buffer(data))
    out = hl.Func("out")
    out[x, y] = bc[x - 17, y - 17]
    got = np.asarray(out.realize([5 + 34, 4 + 34]))
    np.testing.assert_array_equal(got, padded(data, name, 17))


@pytest.mark.parametrize("name", MODES)
def test_vectorized_five_taps_every_width_near_and_far(name):
    # One compiled pipeline, images 1 to 40 wide, read from 3 widths before
    # the image to 3 after: the band next to the image (computed without a
    # division) and the coordinates beyond it.
    im = hl.ImageParam(hl.Int(32), 1, "im")
    first = hl.Param(hl.Int(32), "first")
    bc = condition(name, im)
    out = hl.Func("out")
    out[x] = sum(bc[x + first + k] * (2 * k + 7) for k in range(-2, 3))
    out.vectorize(x, 8, hl.TailStrategy.GuardWithIf)
    weights = np.array([2 * k + 7 for k in range(-2, 3)], dtype=np.int64)
    for width in range(1, 41):
        data = RNG.integers(-1000, 1000, size=width).astype(np.int32)
        im.set(hl.Buffer(data))
        first.set(-3 * width - 5)
        n = 7 * width + 10
        got = np.asarray(out.realize([n]))
        ref = padded(data, name, 3 * width + 7)  # ref[i] is coordinate i - (3 * width + 7)
        taps = np.stack([ref[k : k + n] for k in range(5)])
        np.testing.assert_array_equal(got, (weights[:, None] * taps).sum(axis=0), err_msg=f"width {width}")


@pytest.mark.parametrize("name", MODES)
def test_image_param_1d_with_a_shifted_min(name):
    data = RNG.integers(-1000, 1000, size=7).astype(np.int32)
    buf = hl.Buffer(data)
    buf.set_min([-3])  # elements at -3 .. 3
    im = hl.ImageParam(hl.Int(32), 1, "im")
    im.set(buf)
    bc = condition(name, im)
    out = hl.Func("out")
    out[x] = bc[x - 3 - 25]
    got = np.asarray(out.realize([7 + 50]))
    np.testing.assert_array_equal(got, padded(data, name, 25))


@pytest.mark.parametrize("name", MODES)
def test_func_with_explicit_bounds_and_an_unbounded_dimension(name):
    data = RNG.standard_normal((3, 6)).astype(np.float32)
    buf = hl.Buffer(data)
    f = hl.Func("f")
    f[x, y] = buf[x, y] * 2.0
    # x bounded to [0, 6); y unbounded: read only inside it here.
    bounds = [(0, 6), (None, None)]
    bc = condition(name, f, bounds)
    out = hl.Func("out")
    out[x, y] = bc[x - 9, y]
    out.vectorize(x, 8)
    got = np.asarray(out.realize([6 + 18, 3]))
    expected = padded(data * 2.0, name, ((0, 0), (9, 9)))
    np.testing.assert_array_equal(got, expected.astype(np.float32))


def test_explicit_bounds_inside_a_buffer_and_ranges():
    data = np.arange(40, dtype=np.int16).reshape(5, 8)
    buf = hl.Buffer(data)
    # Only columns 2..5 and rows 1..3 count as inside.
    bc = BC.mirror_interior(buf, [hl.Range(2, 4), (1, 3)])
    out = hl.Func("out")
    out[x, y] = bc[x - 10 + 2, y - 10 + 1]  # the inside starts at (2, 1)
    got = np.asarray(out.realize([4 + 20, 3 + 20]))
    np.testing.assert_array_equal(got, np.pad(data[1:4, 2:6], 10, mode="reflect"))
    # A None entry and fewer bounds than dimensions leave dimensions unbounded.
    edge = BC.repeat_edge(buf, [(0, 8), None])
    edge2 = BC.repeat_edge(buf, [(0, 8)])
    out2 = hl.Func("out2")
    out2[x, y] = edge[x - 3, y] + edge2[x - 3, y]
    got2 = np.asarray(out2.realize([14, 5]))
    np.testing.assert_array_equal(got2, 2 * np.pad(data, ((0, 0), (3, 3)), mode="edge"))


def test_extent_one_and_tuple_exterior():
    data = np.array([42], dtype=np.int32)
    for name in MODES:
        bc = condition(name, hl.Buffer(data))
        out = hl.Func("out")
        out[x] = bc[x - 5]
        np.testing.assert_array_equal(np.asarray(out.realize([11])), padded(data, name, 5))
    f = hl.Func("pair")
    f[x] = (x * 3, hl.f32(x) / 2)
    ce = BC.constant_exterior(f, (-1, 0.25), [(0, 4)])
    out = hl.Func("out")
    out[x] = (ce[x - 3][0], ce[x - 3][1])
    a, b = out.realize([10])
    inside = (np.arange(10) >= 3) & (np.arange(10) < 7)
    np.testing.assert_array_equal(np.asarray(a), np.where(inside, (np.arange(10) - 3) * 3, -1))
    np.testing.assert_array_equal(np.asarray(b), np.where(inside, (np.arange(10) - 3) / 2, 0.25).astype(np.float32))


def test_names_and_keywords_as_upstream():
    buf = hl.Buffer(np.zeros((2, 3), dtype=np.uint8))
    bc = BC.constant_exterior(f=buf, exterior=9)
    assert bc.name().startswith("constant_exterior")
    assert bc.type() == hl.UInt(8)
    f = hl.Func("f")
    f[x, y] = x + y
    r = BC.repeat_image(f=f, bounds=[(0, 3), (0, 2)])
    assert r.name().startswith("repeat_image")
    assert [a.name() for a in r.args()] == ["x", "y"]


def test_errors():
    f = hl.Func("f")
    f[x, y] = x + y
    with pytest.raises(ValueError, match=r"more bounds \(3\) than dimensions \(2\) Func f has"):
        BC.repeat_edge(f, [(0, 1), (0, 1), (0, 1)])
    with pytest.raises(ValueError, match=r"constant_exterior called with more bounds \(3\)"):
        BC.constant_exterior(f, 0, [(0, 1), (0, 1), (0, 1)])
    with pytest.raises(hl.HalideError, match="Partially undefined bounds for dimension x of Func f"):
        BC.mirror_image(f, [(None, 4)])
    with pytest.raises(hl.HalideError, match=r"exterior value has 2 element\(s\), but the Func has 1"):
        BC.constant_exterior(f, (1, 2), [(0, 4)])
    with pytest.raises(hl.HalideError, match="has type float32"):
        BC.constant_exterior(f, 1.5, [(0, 4)])
    with pytest.raises(TypeError, match=r"bounds\[1\] must be a halide.Range"):
        BC.repeat_edge(f, [(0, 4), "nope"])
    with pytest.raises(TypeError):  # a Func needs its bounds
        BC.repeat_edge(f)
    with pytest.raises(TypeError):  # not a Func, Buffer or ImageParam
        BC.repeat_edge(np.zeros(3), [(0, 3)])
    with pytest.raises(hl.HalideError, match="has not been defined"):
        BC.repeat_image(hl.Func("u"), [(0, 4)])
    with pytest.raises(ValueError, match="undefined Buffer"):
        BC.repeat_edge(hl.Buffer())
