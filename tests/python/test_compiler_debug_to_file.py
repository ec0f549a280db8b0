"""Func.debug_to_file: the values a Func computes, written by the runtime's
halide_debug_to_file once computed, read back with NumPy (.npy; .tmp and
.mat by their published layouts) and compared with the values realized."""

from __future__ import annotations

import struct

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def producer_consumer(path: str, t: hl.Type):
    x, y = hl.Var("x"), hl.Var("y")
    f, g = hl.Func("dbg_f"), hl.Func("dbg_g")
    f[x, y] = hl.cast(t, x * 3 + y * 7)
    g[x, y] = f[x, y] + f[x + 1, y]
    f.compute_root().debug_to_file(path)
    return f, g


def expected_f(w: int, h: int, dtype) -> np.ndarray:
    # f over the region g reads: x in [0, w], y in [0, h).
    yy, xx = np.mgrid[0:h, 0 : w + 1]
    return (xx * 3 + yy * 7).astype(dtype)


@pytest.mark.parametrize(("t", "dtype"), [(hl.Float(32), np.float32), (hl.UInt(16), np.uint16), (hl.Int(64), np.int64)])
def test_npy_holds_the_computed_values(tmp_path, t, dtype):
    path = str(tmp_path / "f.npy")
    _, g = producer_consumer(path, t)
    out = np.asarray(g.realize([5, 3]))
    ref = expected_f(5, 3, dtype)
    np.testing.assert_array_equal(out, ref[:, :5] + ref[:, 1:])
    a = np.load(path)
    # As upstream writes it: the shape in Halide's order (x first), the
    # values in Halide's memory order (x fastest).
    assert a.dtype == dtype
    assert a.shape == (6, 3)
    np.testing.assert_array_equal(a.ravel(), ref.ravel())


def test_tmp_header_and_values(tmp_path):
    path = tmp_path / "f.tmp"
    _, g = producer_consumer(str(path), hl.UInt(16))
    g.realize([4, 2])
    data = path.read_bytes()
    extents = struct.unpack("<5i", data[:20])
    assert extents == (5, 2, 1, 1, 4)  # uint16 is type code 4
    values = np.frombuffer(data[20:], dtype=np.uint16)
    np.testing.assert_array_equal(values, expected_f(4, 2, np.uint16).ravel())


def test_output_func_is_written_too(tmp_path):
    path = str(tmp_path / "out.npy")
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("dbg_out")
    f[x, y] = x - 2 * y
    f.debug_to_file(path)
    out = np.asarray(f.realize([4, 3]))
    a = np.load(path)
    assert a.shape == (4, 3)
    np.testing.assert_array_equal(a.ravel(), out.ravel())


def test_unwritable_file_is_a_runtime_error(tmp_path):
    _, g = producer_consumer(str(tmp_path / "no_such_dir" / "f.npy"), hl.Int(32))
    with pytest.raises(hl.HalideError, match="Failed to dump function dbg_f"):
        g.realize([2, 2])


def test_mat_level5_layout(tmp_path):
    # MATLAB level 5 as its published layout: 128-byte header, then one
    # miMATRIX (14) element of array flags, dimensions, name and real part,
    # each tagged (type, bytes) and padded to 8 bytes; columns first (x).
    path = tmp_path / "dbg_mat.mat"
    _, g = producer_consumer(str(path), hl.Float(32))
    g.realize([3, 2])
    data = path.read_bytes()
    assert data[:19] == b"MATLAB 5.0 MAT-file"
    assert struct.unpack("<H", data[124:126])[0] == 0x0100 and data[126:128] == b"IM"
    mtype, size = struct.unpack("<II", data[128:136])
    assert mtype == 14 and size == len(data) - 136
    pos = 136

    def element():
        nonlocal pos
        t, n = struct.unpack("<II", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + n]
        pos += 8 + (n + 7) // 8 * 8
        return t, body

    t, flags = element()
    assert t == 6 and struct.unpack("<I", flags[:4])[0] & 0xFF == 7  # mxSINGLE_CLASS
    t, dims = element()
    assert t == 5 and struct.unpack("<2i", dims) == (4, 2)
    t, name = element()
    assert t == 1 and name == b"dbg_mat"
    t, values = element()
    assert t == 7  # miSINGLE
    np.testing.assert_array_equal(np.frombuffer(values, dtype=np.float32), expected_f(3, 2, np.float32).ravel())
