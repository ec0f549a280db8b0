"""hl.propagate_adjoints and hl.Derivative: gradients of pipelines of Funcs
(pure definitions, updates over RDoms, boundary conditions) with respect to
Funcs, Buffers, ImageParams and Params, checked against derivatives worked out
with NumPy and against central finite differences of the loss."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def scalar(f: hl.Func) -> float:
    return float(np.asarray(f.realize([])))


def finite_differences(loss: hl.Func, buf: hl.Buffer, n: int, eps: float = 1e-2) -> np.ndarray:
    out = np.zeros(n)
    for i in range(n):
        saved = buf[i]
        buf[i] = saved + eps
        hi = scalar(loss)
        buf[i] = saved - eps
        lo = scalar(loss)
        buf[i] = saved
        out[i] = (hi - lo) / (2 * eps)
    return out


def test_pure_funcs_buffer_and_param():
    data = (0.5 + 0.1 * np.arange(8)).astype(np.float32)
    inp = hl.Buffer(data.copy(), "inp")
    p = hl.Param(hl.Float(32), "p", 2.0)
    f = hl.Func("f")
    f[x] = inp[x] * inp[x] + hl.sin(inp[x]) * p
    g = hl.Func("g")
    g[x] = hl.tanh(f[x]) * hl.f32(x + 1)
    r = hl.RDom([(0, 8)])
    loss = hl.Func("loss")
    loss[()] = 0.0
    loss[()] += g[r.x]
    d = hl.propagate_adjoints(loss)
    assert isinstance(d, hl.Derivative)

    v = data.astype(np.float64)
    fv = v * v + np.sin(v) * 2
    dg_df = (1 - np.tanh(fv) ** 2) * np.arange(1, 9)
    np.testing.assert_allclose(np.asarray(d[inp].realize([8])), dg_df * (2 * v + 2 * np.cos(v)), rtol=1e-4)
    np.testing.assert_allclose(np.asarray(d[f].realize([8])), dg_df, rtol=1e-4)
    assert scalar(d[p]) == pytest.approx(float(np.sum(dg_df * np.sin(v))), rel=1e-4)
    np.testing.assert_allclose(
        np.asarray(d[inp].realize([8])), finite_differences(loss, inp, 8, 1e-3), rtol=2e-2, atol=2e-3
    )


def test_convolution_update_over_rdom():
    data = np.sin(0.7 * np.arange(12)).astype(np.float32)
    kern = np.array([1.0, 0.4, -0.2], dtype=np.float32)
    inp, k = hl.Buffer(data.copy(), "inp"), hl.Buffer(kern.copy(), "k")
    conv = hl.Func("conv")
    rk = hl.RDom([(0, 3)])
    conv[x] = 0.0
    conv[x] += k[rk.x] * inp[x + rk.x]
    loss = hl.Func("loss")
    r = hl.RDom([(0, 10)])
    loss[()] = 0.0
    loss[()] += conv[r.x] * conv[r.x]
    d = hl.propagate_adjoints(loss)

    c = np.correlate(data.astype(np.float64), kern.astype(np.float64), mode="valid")  # conv over [0, 10)
    want_in = np.zeros(12)
    want_k = np.zeros(3)
    for j in range(3):
        want_in[j : j + 10] += 2 * c * kern[j]
        want_k[j] = np.sum(2 * c * data[j : j + 10])
    np.testing.assert_allclose(np.asarray(d[inp].realize([12])), want_in, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(d[k].realize([3])), want_k, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(d[k].realize([3])), finite_differences(loss, k, 3), rtol=1e-2, atol=1e-3)
    # The adjoint of the reduction's final value, and of its pure definition.
    np.testing.assert_allclose(np.asarray(d[conv, 0].realize([10])), 2 * c, rtol=1e-4)
    np.testing.assert_allclose(np.asarray(d[conv].realize([10])), 2 * c, rtol=1e-4)


def test_boundary_condition_and_histogram_scatter():
    data = (0.55 + 0.1 * np.arange(5)).astype(np.float32)
    inp = hl.Buffer(data.copy(), "inp")
    edge = hl.BoundaryConditions.repeat_edge(inp)
    blur = hl.Func("blur")
    blur[x] = edge[x - 1] + 2 * edge[x + 1]
    bins = hl.Buffer(np.array([2, 2, 0, 3, 9], dtype=np.int32), "bins")
    hist = hl.Func("hist")
    hist[x] = 0.0
    rb = hl.RDom([(0, 5)])
    hist[hl.clamp(bins[rb.x], 0, 3)] += blur[rb.x] * blur[rb.x]
    loss = hl.Func("loss")
    rl = hl.RDom([(0, 4)])
    loss[()] = 0.0
    loss[()] += hist[rl.x] * hl.f32(rl.x + 1)
    d = hl.propagate_adjoints(loss)

    b = np.array([data[max(i - 1, 0)] + 2 * data[min(i + 1, 4)] for i in range(5)], dtype=np.float64)
    weight = np.minimum(np.array([2, 2, 0, 3, 9]), 3) + 1
    d_blur = 2 * b * weight
    want = np.zeros(5)
    for i in range(5):
        want[max(i - 1, 0)] += d_blur[i]
        want[min(i + 1, 4)] += 2 * d_blur[i]
    np.testing.assert_allclose(np.asarray(d[blur].realize([5])), d_blur, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(d[inp].realize([5])), want, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(d[inp].realize([5])), finite_differences(loss, inp, 5), rtol=1e-2)
    assert not d[bins].defined()  # integers carry no derivative


def test_scan_and_tuple():
    data = (1 + np.arange(6)).astype(np.float32)
    inp = hl.Buffer(data.copy(), "inp")
    # A running sum, differentiated by a scan run backwards.
    cumsum = hl.Func("cumsum")
    cumsum[x] = inp[x]
    r = hl.RDom([(1, 5)])
    cumsum[r.x] = cumsum[r.x - 1] + inp[r.x] * inp[r.x]
    # A Tuple-valued Func in the middle.
    pair = hl.Func("pair")
    pair[x] = (cumsum[x], inp[x] * 2)
    loss = hl.Func("loss")
    rl = hl.RDom([(0, 6)])
    loss[()] = 0.0
    loss[()] += pair[rl.x][0] * hl.f32(rl.x + 1) + pair[rl.x][1]
    d = hl.propagate_adjoints(loss)
    weights = np.arange(1, 7, dtype=np.float64)
    tail = np.cumsum(weights[::-1])[::-1]  # sum of the weights from x on
    want = np.where(np.arange(6) == 0, tail, 2 * data * tail) + 2
    np.testing.assert_allclose(np.asarray(d[inp].realize([6])), want, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(d[inp].realize([6])), finite_differences(loss, inp, 6), rtol=1e-2)
    d0, d1 = d[pair].realize([6])
    np.testing.assert_allclose(np.asarray(d0), weights)
    np.testing.assert_allclose(np.asarray(d1), np.ones(6))


def test_two_dimensional_scan():
    # f[x, y] = 0.5 f[x - 1, y] + 0.25 f[x, y - 1] ** 2 + sin(g[x, y]) over
    # r = [1, W) x [1, H): a scan along each row and down the columns. The
    # reference: the same loss in NumPy (float64), by central differences.
    w, h = 6, 5
    data = 0.1 * np.arange(w)[None, :] - 0.05 * np.arange(h)[:, None] + 0.3 * ((np.arange(w * h) % 5).reshape(h, w))
    inp = hl.Buffer(data.astype(np.float32), "scan_in")
    g, f, loss = hl.Func("g"), hl.Func("f"), hl.Func("loss")
    g[x, y] = inp[x, y] * 1.5
    f[x, y] = g[x, y]
    r = hl.RDom([(1, w - 1), (1, h - 1)])
    f[r.x, r.y] = f[r.x - 1, r.y] * 0.5 + f[r.x, r.y - 1] * f[r.x, r.y - 1] * 0.25 + hl.sin(g[r.x, r.y])
    weight = 1 + 0.1 * np.arange(w)[None, :] + 0.2 * np.arange(h)[:, None]
    a = hl.RDom([(0, w), (0, h)])
    loss[()] = 0.0
    loss[()] += f[a.x, a.y] * (1 + hl.f32(0.1) * hl.f32(a.x) + hl.f32(0.2) * hl.f32(a.y))

    def reference(v: np.ndarray) -> float:
        gv = v * 1.5
        fv = gv.copy()
        for yy in range(1, h):
            for xx in range(1, w):
                fv[yy, xx] = fv[yy, xx - 1] * 0.5 + fv[yy - 1, xx] ** 2 * 0.25 + np.sin(gv[yy, xx])
        return float((fv * weight).sum())

    assert scalar(loss) == pytest.approx(reference(data.astype(np.float32).astype(np.float64)), rel=1e-5)
    base = data.astype(np.float32).astype(np.float64)
    want = np.zeros((h, w))
    for yy in range(h):
        for xx in range(w):
            hi, lo = base.copy(), base.copy()
            hi[yy, xx] += 1e-6
            lo[yy, xx] -= 1e-6
            want[yy, xx] = (reference(hi) - reference(lo)) / 2e-6
    d = hl.propagate_adjoints(loss)
    np.testing.assert_allclose(np.asarray(d[inp].realize([w, h])), want, rtol=1e-4, atol=1e-4)


def test_adjoint_func_bounds_buffer_and_image_param():
    im = hl.ImageParam(hl.Float(32), 1, "im")
    data = np.arange(1, 7, dtype=np.float32)
    im.set(hl.Buffer(data.copy(), "data"))
    f = hl.Func("f")
    f[x] = im[x + 1] * im[x + 1]
    adjoint = hl.Func("adjoint")
    adjoint[x] = hl.f32(x) + 1
    want = np.zeros(6)
    want[1:5] = 2 * data[1:5] * np.arange(1, 5)  # f over [0, 4) reads im[1..4]
    for bounds in ([hl.Range(0, 4)], [(0, 4)]):
        d = hl.propagate_adjoints(f, adjoint, bounds)
        np.testing.assert_allclose(np.asarray(d[im].realize([6])), want, rtol=1e-6)
        np.testing.assert_allclose(np.asarray(d["im"].realize([6])), want, rtol=1e-6)
    d = hl.propagate_adjoints(f, hl.Buffer(np.arange(1, 5, dtype=np.float32)))
    np.testing.assert_allclose(np.asarray(d[im].realize([6])), want, rtol=1e-6)


def test_names_scheduling_and_missing_adjoints():
    inp = hl.Buffer(np.ones(4, dtype=np.float32), "ones")
    p = hl.Param(hl.Float(32), "scale", 3.0)
    f = hl.Func("f_named")
    f[x] = inp[x] * p
    loss = hl.Func("loss_named")
    r = hl.RDom([(0, 4)])
    loss[()] = 0.0
    loss[()] += f[r.x]
    d = hl.propagate_adjoints(loss)
    # Upstream's names: <func>_<stage + 1>_d_def__ and <buffer or param>_d__.
    assert d[f].name() == "f_named_0_d_def__"
    assert d[loss, 0].name() == "loss_named_1_d_def__"
    assert d[loss, -1].name().startswith("loss_named_0_d_def__")  # upstream adds a "$1"
    assert d[inp].name() == "ones_d__"
    assert d[p].name() == "scale_d__"
    # The adjoints are ordinary Funcs that can be scheduled.
    d[f].compute_root()
    np.testing.assert_allclose(np.asarray(d[inp].realize([4])), np.full(4, 3.0))
    assert scalar(d[p]) == pytest.approx(4.0)
    unrelated = hl.Func("unrelated")
    unrelated[x] = hl.f32(x)
    assert not d[unrelated].defined()
    assert not d["no_such_name"].defined()


def test_errors():
    b = hl.Buffer(np.zeros(10, dtype=np.float32))
    h = hl.Buffer(np.zeros(10, dtype=np.int32))
    f, g = hl.Func("f_unbounded"), hl.Func("g_unbounded")
    f[x] = b[hl.clamp(x, 0, 9)]
    r = hl.RDom(h)
    g[()] = 0.0
    g[()] += f[h[r.x]]
    with pytest.raises(hl.HalideError, match="not bounded"):
        hl.propagate_adjoints(g)  # upstream refuses this too
    v = hl.Func("v")
    v[x] = b[x]
    with pytest.raises(hl.HalideError, match="zero-dimensional"):
        hl.propagate_adjoints(v)
    with pytest.raises(TypeError, match="output_bounds"):
        hl.propagate_adjoints(v, v, ["a"])
    with pytest.raises(TypeError, match="float32"):
        hl.propagate_adjoints(v, hl.Buffer(np.zeros(10, dtype=np.int32)))
