"""hl.serialize_pipeline / hl.deserialize_pipeline / hl.deserialize_parameters
(upstream 21's signatures: bytes or a path, get_params=, user_params=): a
deserialized pipeline computes what NumPy computes for the original; bad
data is a clear HalideError. Our bytes are our own versioned format, not
upstream's .hlpipe (docs/python.md)."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def _blur_hist_pipeline():
    data = (np.arange(8 * 12, dtype=np.int32).reshape(8, 12) * 7) % 23 - 5
    inp = hl.Buffer(data, "sp_in")
    clamped = hl.Func("sp_clamped")
    clamped[x, y] = inp[hl.clamp(x, 0, 11), hl.clamp(y, 0, 7)]
    blur = hl.Func("sp_blur")
    blur[x, y] = clamped[x - 1, y] + clamped[x, y] * 2 + clamped[x + 1, y]
    r = hl.RDom([(0, 12), (0, 8)], "sp_r")
    r.where((r.x + r.y) % 3 != 0)
    hist = hl.Func("sp_hist")
    hist[x] = 0
    hist[hl.clamp(blur[r.x, r.y] % 10, 0, 9)] += 1
    out = hl.Func("sp_out")
    out[x, y] = blur[x, y] + hist[x % 10]
    xo, xi = hl.Var("xo"), hl.Var("xi")
    out.split(x, xo, xi, 4).vectorize(xi).parallel(y)
    clamped.compute_at(blur, y)
    blur.compute_root().vectorize(x, 8)
    hist.compute_root()
    hist.update().unroll(r.x, 2)

    # NumPy reference.
    pad = np.pad(data, ((0, 0), (1, 1)), mode="edge")
    b = pad[:, :-2] + pad[:, 1:-1] * 2 + pad[:, 2:]
    h = np.zeros(10, dtype=np.int32)
    for ry in range(8):
        for rx in range(12):
            if (rx + ry) % 3 != 0:
                h[min(max(b[ry, rx] % 10, 0), 9)] += 1
    want = b + h[np.arange(12) % 10][None, :]
    return hl.Pipeline(out), want


def test_bytes_round_trip_of_definitions_updates_rdom_where_and_schedule():
    p, want = _blur_hist_pipeline()
    data = hl.serialize_pipeline(p)
    assert isinstance(data, bytes)
    q = hl.deserialize_pipeline(data)
    np.testing.assert_array_equal(np.asarray(q.realize([12, 8])), want)
    # memoryview and bytearray are bytes too.
    np.testing.assert_array_equal(np.asarray(hl.deserialize_pipeline(bytearray(data)).realize([12, 8])), want)


def test_file_round_trip_with_str_and_pathlike(tmp_path):
    p, want = _blur_hist_pipeline()
    path = tmp_path / "blur.hlpipe"
    assert hl.serialize_pipeline(p, path) is None
    np.testing.assert_array_equal(np.asarray(hl.deserialize_pipeline(str(path)).realize([12, 8])), want)
    np.testing.assert_array_equal(np.asarray(hl.deserialize_pipeline(pathlib.Path(path)).realize([12, 8])), want)


def test_params_defaults_ranges_and_user_params(tmp_path):
    gain = hl.Param(hl.Float(32), "sp_gain", 2.0, 0.0, 10.0)
    offset = hl.Param(hl.Int(32), "sp_offset", 0)
    img = hl.ImageParam(hl.Float(32), 2, "sp_img")
    f = hl.Func("sp_f")
    f[x, y] = img[x, y] * gain + hl.f32(offset)
    data, params = hl.serialize_pipeline(hl.Pipeline(f), get_params=True)
    assert isinstance(data, bytes)
    assert sorted(params) == ["sp_gain", "sp_img", "sp_offset"]
    assert params["sp_img"].is_buffer() and not params["sp_gain"].is_buffer()
    assert hl.serialize_pipeline(hl.Pipeline(f), tmp_path / "p.hlpipe", get_params=True).keys() == params.keys()

    fresh = hl.deserialize_parameters(data)
    assert sorted(fresh) == ["sp_gain", "sp_img", "sp_offset"]
    assert fresh["sp_gain"].type() == hl.Float(32)
    assert fresh["sp_img"].dimensions() == 2
    assert str(fresh["sp_gain"].max_value()) == str(hl.Expr(10.0))
    assert fresh["sp_gain"].scalar() == 2.0  # the value came along (upstream's does not)
    assert sorted(hl.deserialize_parameters(tmp_path / "p.hlpipe")) == sorted(fresh)

    # The user's Parameters stand in for the pipeline's.
    q = hl.deserialize_pipeline(data, params)
    arr = np.arange(20, dtype=np.float32).reshape(4, 5)
    img.set(hl.Buffer(arr))
    gain.set(3.0)
    offset.set(-1)
    np.testing.assert_array_equal(np.asarray(q.realize([5, 4])), arr * 3 - 1)
    gain.set(20.0)  # above the serialized maximum: the range check came along
    with pytest.raises(hl.HalideError, match="must be at most"):
        q.realize([5, 4])


def test_tuple_valued_funcs_and_specializations():
    flag = hl.Param(hl.Bool(), "sp_flag", True)
    f = hl.Func("sp_tuple")
    f[x] = (x, hl.f32(x) * 0.5)
    f[x] = (f[x][0] + 1, f[x][1] + 1)
    g = hl.Func("sp_spec")
    g[x] = hl.select(flag, f[x][0], -f[x][0]) + hl.i32(f[x][1])
    g.specialize(flag).vectorize(x, 4)
    data = hl.serialize_pipeline(hl.Pipeline(g))
    q = hl.deserialize_pipeline(data)
    n = np.arange(8)
    np.testing.assert_array_equal(np.asarray(q.realize([8])), (n + 1) + (n * 0.5 + 1).astype(np.int32))


@pytest.mark.parametrize(
    ("mangle", "words"),
    [
        (lambda d: d[: len(d) // 2], "truncated"),
        (lambda d: d[:8] + bytes([99, 0, 0, 0]) + d[12:], "version 99"),
        (lambda d: b"not a pipeline at all", "not a pipeline"),
        (lambda d: d + b"\0", "corrupt"),
        (lambda d: b"", "truncated"),
    ],
)
def test_bad_data_is_a_clear_error(mangle, words):
    f = hl.Func("sp_small")
    f[x] = x
    data = hl.serialize_pipeline(hl.Pipeline(f))
    with pytest.raises(hl.HalideError, match=words):
        hl.deserialize_pipeline(mangle(data))


def test_wrong_argument_kinds():
    f = hl.Func("sp_small2")
    f[x] = x
    with pytest.raises(TypeError):
        hl.deserialize_pipeline(12)
    with pytest.raises(hl.HalideError, match="can't open"):
        hl.deserialize_pipeline("/nonexistent/dir/none.hlpipe")
