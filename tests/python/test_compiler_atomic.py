"""Stage.atomic(): parallel and vectorized updates that may hit the same point
(histograms) are atomic read-modify-writes, checked against NumPy with the
thread pool running several threads at once."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

RNG = np.random.default_rng(1212)
x = hl.Var("x")
N = 1 << 17  # enough updates per bin that a lost one is all but certain without atomics
INT32 = hl.Int(32)


@pytest.fixture(autouse=True)
def four_threads():
    import halide.runtime as hlr

    old = hlr.set_num_threads(4)
    yield
    hlr.set_num_threads(old)


def histogram(data: np.ndarray, bins: int, value_type: hl.Type = INT32) -> tuple[hl.Func, hl.RDom]:
    img = hl.Buffer(data)
    r = hl.RDom([(0, data.shape[0])], "r")
    hist = hl.Func("hist")
    hist[x] = hl.cast(value_type, 0)
    hist[hl.clamp(hl.i32(img[r.x]), 0, bins - 1)] += hl.cast(value_type, 1)
    return hist, r


def test_parallel_histogram_counts_every_update():
    data = RNG.integers(0, 8, size=N, dtype=np.uint8)  # 8 bins: threads collide all the time
    hist, r = histogram(data, 8)
    hist.update(0).atomic().parallel(r.x)
    np.testing.assert_array_equal(np.asarray(hist.realize([8])), np.bincount(data, minlength=8))


def test_split_parallel_and_vectorized_histogram():
    data = RNG.integers(0, 256, size=N, dtype=np.uint8)
    data[::3] = 7  # many lanes of one vector update the same bin
    hist, r = histogram(data, 256)
    ro, ri = hl.RVar("ro"), hl.RVar("ri")
    hist.update(0).atomic().split(r.x, ro, ri, 64).parallel(ro).vectorize(ri, 8)
    np.testing.assert_array_equal(np.asarray(hist.realize([256])), np.bincount(data, minlength=256))


def test_vectorized_lanes_hitting_one_bin_all_count():
    data = np.zeros(1000, dtype=np.uint8)  # every lane of every vector: bin 0
    hist, r = histogram(data, 4, hl.UInt(16))
    hist.update(0).atomic().vectorize(r.x, 16)
    np.testing.assert_array_equal(np.asarray(hist.realize([4])), [1000, 0, 0, 0])


def test_parallel_float_sum_uses_compare_and_swap():
    idx = RNG.integers(0, 5, size=N, dtype=np.int32)
    vals = RNG.random(N, dtype=np.float32)
    bi, bv = hl.Buffer(idx), hl.Buffer(vals)
    r = hl.RDom([(0, N)], "r")
    f = hl.Func("f")
    f[x] = hl.f32(0)
    f[hl.clamp(bi[r.x], 0, 4)] += bv[r.x]
    f.update(0).atomic().parallel(r.x)
    expected = np.zeros(5, dtype=np.float64)
    np.add.at(expected, idx, vals.astype(np.float64))
    np.testing.assert_allclose(np.asarray(f.realize([5])), expected, rtol=1e-3)


def test_parallel_max_min_and_product():
    idx = RNG.integers(0, 6, size=N, dtype=np.int32)
    vals = RNG.integers(-1000, 1000, size=N, dtype=np.int16)
    bi, bv = hl.Buffer(idx), hl.Buffer(vals)
    r = hl.RDom([(0, N)], "r")
    hi, lo = hl.Func("hi"), hl.Func("lo")
    b = hl.clamp(bi[r.x], 0, 5)
    hi[x] = hl.i16(-32768)
    hi[b] = hl.max(hi[b], bv[r.x])
    lo[x] = hl.u8(255)
    lo[b] = hl.min(lo[b], hl.u8(bv[r.x] & 255))
    hi.update(0).atomic().parallel(r.x)
    lo.update(0).atomic().vectorize(r.x, 8).parallel(r.x)
    expect_hi = np.full(6, -32768, dtype=np.int16)
    np.maximum.at(expect_hi, idx, vals)
    expect_lo = np.full(6, 255, dtype=np.uint8)
    np.minimum.at(expect_lo, idx, (vals & 255).astype(np.uint8))
    np.testing.assert_array_equal(np.asarray(hi.realize([6])), expect_hi)
    np.testing.assert_array_equal(np.asarray(lo.realize([6])), expect_lo)

    # int32 products wrap the same way in any order.
    small = RNG.integers(1, 4, size=4096, dtype=np.int32)
    bs = hl.Buffer(small)
    r2 = hl.RDom([(0, 4096)], "r2")
    p = hl.Func("p")
    p[x] = 1
    p[r2.x % 3] = p[r2.x % 3] * bs[r2.x]
    p.update(0).atomic().parallel(r2.x)
    expected = np.ones(3, dtype=np.int32)
    with np.errstate(over="ignore"):
        np.multiply.at(expected, np.arange(4096) % 3, small)
    np.testing.assert_array_equal(np.asarray(p.realize([3])), expected)


def test_bitwise_xor_with_the_associativity_override():
    vals = RNG.integers(0, 1 << 30, size=N, dtype=np.int32)
    bv = hl.Buffer(vals)
    r = hl.RDom([(0, N)], "r")
    f = hl.Func("f")
    f[x] = 0
    f[r.x % 4] = f[r.x % 4] ^ bv[r.x]
    f.update(0).atomic(True).parallel(r.x)
    expected = [np.bitwise_xor.reduce(vals[k::4]) for k in range(4)]
    np.testing.assert_array_equal(np.asarray(f.realize([4])), expected)


def test_racy_atomic_tuple_update_is_refused():
    r = hl.RDom([(0, 10)], "r")
    f = hl.Func("f")
    f[x] = (0, 0)
    f[r.x % 3] = (f[r.x % 3][0] + 1, f[r.x % 3][1] + r.x)
    f.update(0).atomic().parallel(r.x)
    with pytest.raises(hl.HalideError, match=r"atomic\(\) with RVar r.x .* Tuple-valued update"):
        f.realize([3])


def test_lowered_statement_marks_the_update_atomic(tmp_path):
    img = hl.ImageParam(hl.UInt(8), 1, "img")
    r = hl.RDom([(0, img.width())], "r")
    hist = hl.Func("hist")
    hist[x] = 0
    hist[hl.clamp(hl.i32(img[r.x]), 0, 3)] += 1
    hist.update(0).atomic().parallel(r.x)
    path = tmp_path / "hist.stmt"
    hist.compile_to_lowered_stmt(str(path), [img])
    text = path.read_text()
    assert "atomic (hist)" in text
    assert text.count("atomic (") == 1  # the pure definition is not atomic
