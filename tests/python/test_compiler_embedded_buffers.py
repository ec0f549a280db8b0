"""A pipeline that reads an hl.Buffer directly (a lookup table, weights)
compiles ahead of time as upstream's does: the Buffer is not an argument, its
shape and contents at compile time are constants of the kernel."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

hlr = pytest.importorskip("halide.runtime")

x, y = hl.Var("x"), hl.Var("y")


def shared_library(tmp_path, func, args, name):
    path = tmp_path / f"lib{name}.so"
    hl.Pipeline(func).compile_to({hl.OutputFileType.shared_library: str(path)}, args, name)
    return hlr.load(str(path))


def test_lookup_table_is_embedded_and_snapshotted(tmp_path, rng):
    table = rng.integers(0, 256, 256, dtype=np.uint8)
    lut = hl.Buffer(table, "emb_lut")
    image = hl.ImageParam(hl.UInt(8), 2, "emb_in")
    f = hl.Func("emb_f")
    f[x, y] = lut[hl.i32(image[x, y])]
    f.vectorize(x, 16)
    kernel = shared_library(tmp_path, f, [image], "emb_lookup")
    # Only the ImageParam and the output are arguments.
    assert list(kernel.argument_names) == ["emb_in", "emb_f"]
    expected = table.copy()
    table[:] = 0  # the kernel keeps the contents it was compiled with
    arr = rng.integers(0, 256, (37, 53), dtype=np.uint8)
    out = np.zeros_like(arr)
    kernel(arr, out)
    np.testing.assert_array_equal(out, expected[arr])


def test_buffer_with_mins_and_strides(tmp_path, rng):
    data = rng.standard_normal((9, 12)).astype(np.float32)
    weights = hl.Buffer(data[:, ::2], "emb_weights")  # width 6, x stride 2 elements
    weights.set_min([-3, 4])
    f = hl.Func("emb_g")
    f[x, y] = weights[x - 3, y + 4] * 2.0 + hl.f32(x)
    kernel = shared_library(tmp_path, f, [], "emb_strided")
    out = np.zeros((9, 6), np.float32)
    kernel(out)
    np.testing.assert_array_equal(out, data[:, ::2] * 2.0 + np.arange(6, dtype=np.float32))


def test_zero_dimensional_buffer_and_param_together(tmp_path):
    offset = hl.Buffer(np.array(1000, dtype=np.int32), "emb_offset")
    k = hl.Param(hl.Int(32), "emb_k")
    f = hl.Func("emb_h")
    f[x] = offset[()] + x * k
    kernel = shared_library(tmp_path, f, [k], "emb_scalar")
    out = np.zeros(10, np.int32)
    kernel(3, out)
    np.testing.assert_array_equal(out, 1000 + 3 * np.arange(10, dtype=np.int32))


def test_lowered_stmt_and_static_library_accept_embedded_buffers(tmp_path):
    lut = hl.Buffer(np.arange(16, dtype=np.int32) * 3, "emb_table")
    f = hl.Func("emb_s")
    f[x] = lut[x % 16] + 1
    f.compile_to_lowered_stmt(str(tmp_path / "s.stmt"), [])
    assert "emb_table" in (tmp_path / "s.stmt").read_text()
    f.compile_to_static_library(str(tmp_path / "s"), [], "emb_s")
    header = (tmp_path / "s.h").read_text()
    assert "emb_table" not in header  # not an argument of the entry point
    f.compile_to_multitarget_static_library(str(tmp_path / "m"), [], [hl.get_host_target()])
    assert (tmp_path / "m.a").stat().st_size > 0


def test_image_param_is_still_required(tmp_path):
    image = hl.ImageParam(hl.Int(32), 1, "emb_needed")
    lut = hl.Buffer(np.arange(4, dtype=np.int32), "emb_small")
    f = hl.Func("emb_e")
    f[x] = image[x] + lut[x % 4]
    with pytest.raises(hl.HalideError, match="emb_needed"):
        f.compile_to_object(str(tmp_path / "e.o"), [], "emb_e")
