"""hl.Pipeline, realize in every form, compile_jit, compile_to_*, hl.Callable
(NumPy arrays, hl.Buffers, keywords), infer_input_bounds, infer_arguments,
errors; results against NumPy; names and signatures against upstream."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import UPSTREAM_PY, probe_both, signature_probe, signature_problems  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def scaled_pipeline():
    im = hl.ImageParam(hl.UInt(8), 2, "scale_in")
    k = hl.Param(hl.Float(32), "scale_k", 1.5)
    f = hl.Func("scaled")
    f[x, y] = hl.f32(im[x, y]) * k
    g = hl.Func("offset")
    g[x, y] = hl.i32(im[x, y]) - x
    return im, k, f, g


def test_pipeline_realize_forms(rng):
    im, k, f, g = scaled_pipeline()
    arr = rng.integers(0, 256, size=(6, 9), dtype=np.uint8)
    im.set(arr)
    p = hl.Pipeline([f, g])
    assert [o.name() for o in p.outputs()] == ["scaled", "offset"]
    assert p.defined() and not hl.Pipeline().defined()
    a, b = p.realize([9, 6])
    np.testing.assert_allclose(np.asarray(a), arr.astype(np.float32) * 1.5)
    np.testing.assert_array_equal(np.asarray(b), arr.astype(np.int32) - np.arange(9))
    # Into existing buffers (a list), with a target.
    outs = [hl.Buffer(hl.Float(32), [9, 6]), hl.Buffer(hl.Int(32), [9, 6])]
    assert p.realize(outs, target=hl.get_host_target()) is None
    np.testing.assert_array_equal(np.asarray(outs[1]), np.asarray(b))
    # A single Func through Pipeline, into one Buffer wrapping NumPy memory.
    target = np.zeros((6, 9), np.float32)
    hl.Pipeline(f).realize(hl.Buffer(target))
    np.testing.assert_allclose(target, arr * np.float32(1.5))
    k.set(2.0)
    np.testing.assert_allclose(np.asarray(f.realize([9, 6], hl.Target())), arr * np.float32(2.0))
    assert repr(p) == "<halide.Pipeline ['scaled', 'offset']>"


def test_tuple_realize_returns_a_tuple():
    f = hl.Func("tup")
    f[x] = (x, hl.f32(x) / 2)
    r = f.realize([4])
    assert isinstance(r, tuple) and len(r) == 2
    np.testing.assert_array_equal(np.asarray(r[1]), np.arange(4, dtype=np.float32) / 2)


def test_callable_with_numpy_buffers_and_keywords(rng):
    im, k, f, _ = scaled_pipeline()
    c = f.compile_to_callable([im, k])
    assert [a.name for a in c.arguments()] == ["scale_in", "scale_k", "scaled"]
    arr = rng.integers(0, 256, size=(5, 7), dtype=np.uint8)
    out = np.zeros((5, 7), np.float32)
    c(arr, 0.5, out)
    np.testing.assert_allclose(out, arr * np.float32(0.5))
    hb = hl.Buffer(hl.Float(32), [7, 5])
    c(hl.Buffer(arr), 3, hb)
    np.testing.assert_allclose(np.asarray(hb), arr * np.float32(3))
    out2 = np.zeros((5, 7), np.float32)
    c(scaled=out2, scale_k=2.0, scale_in=arr)
    np.testing.assert_allclose(out2, arr * np.float32(2))
    c(arr, scale_k=1, scaled=out2)
    np.testing.assert_allclose(out2, arr.astype(np.float32))
    assert repr(c) == "<halide.Callable 'scaled'>"


def test_callable_from_pipeline_is_thread_safe(rng):
    from concurrent.futures import ThreadPoolExecutor

    im, k, f, g = scaled_pipeline()
    c = hl.Pipeline([f, g]).compile_to_callable([k, im])
    arrays = [rng.integers(0, 256, size=(8, 8), dtype=np.uint8) for _ in range(16)]

    def run(a):
        o1, o2 = np.zeros((8, 8), np.float32), np.zeros((8, 8), np.int32)
        c(2.0, a, o1, o2)
        return o1, o2

    with ThreadPoolExecutor(4) as pool:
        for a, (o1, o2) in zip(arrays, pool.map(run, arrays), strict=True):
            np.testing.assert_allclose(o1, a * np.float32(2))
            np.testing.assert_array_equal(o2, a.astype(np.int32) - np.arange(8))


def test_callable_argument_errors_use_upstreams_words():
    # Each message as upstream 21's Callable words it (checked side by side).
    x = hl.Var("x")
    p = hl.Param(hl.Int(32), "cw_p")
    h = hl.Func("cw_h")
    h[x] = x + p
    c = h.compile_to_callable([p])
    out = hl.Buffer(hl.Int(32), [4])
    cases = [
        ((), {"cw_h": out}, "Argument cw_p was not specified by either positional or keyword argument."),
        ((3,), {}, "Expected exactly 2 positional arguments, but saw 1."),
        ((3, out, 5), {}, "Expected at most 2 positional arguments, but saw 3."),
        ((3,), {"cw_h": out, "q": 2}, "Unknown argument 'q' specified via keyword."),
        ((3,), {"cw_p": 4, "cw_h": out}, "Argument cw_p specified multiple times."),
    ]
    for args, kwargs, words in cases:
        with pytest.raises(hl.HalideError, match=re.escape(words)):
            c(*args, **kwargs)
    c(cw_p=3, cw_h=out)
    np.testing.assert_array_equal(np.asarray(out), [3, 4, 5, 6])


def test_callable_errors_raise_and_never_crash():
    im, k, f, _ = scaled_pipeline()
    c = f.compile_to_callable([im, k])
    arr = np.zeros((3, 4), np.uint8)
    out = np.zeros((3, 4), np.float32)
    cases = [
        lambda: c(arr, 1.0),  # output missing
        lambda: c(arr, 1.0, out, out),  # too many
        lambda: c(arr, "x", out),  # scalar of the wrong kind
        lambda: c(1.0, arr, out),  # swapped
        lambda: c(arr, 1.0, out, scale_k=2.0),  # twice
        lambda: c(arr, 1.0, nope=out),  # unknown name
        lambda: c(arr, 1.0, np.zeros((3, 4), np.int32)),  # output type
        lambda: c(np.zeros((3, 4), np.float32), 1.0, out),  # input type
        lambda: c(arr, 1.0, np.zeros((4, 5), np.float32)),  # reads beyond the input
        lambda: c(arr, 1.0, hl.Buffer()),  # undefined buffer
    ]
    for case in cases:
        with pytest.raises(hl.HalideError):
            case()
    ro = np.zeros((3, 4), np.float32)
    ro.setflags(write=False)
    with pytest.raises(ValueError):
        c(arr, 1.0, ro)
    with pytest.raises(hl.HalideError, match="scale_in"):
        f.compile_to_callable([k])
    with pytest.raises(hl.HalideError):
        f.compile_to_callable([k, im], hl.Target("arm-32-android"))
    with pytest.raises(TypeError):
        f.compile_to_callable([1, 2])
    u8 = hl.Param(hl.UInt(8), "u8arg")
    g = hl.Func("u8f")
    g[x] = u8 + hl.u8(x)
    cu = g.compile_to_callable([u8])
    with pytest.raises(hl.HalideError, match="does not fit"):
        cu(256, np.zeros(3, np.uint8))


def test_realize_errors():
    f = hl.Func("re")
    f[x, y] = x + y
    with pytest.raises(hl.HalideError):
        f.realize([3])
    with pytest.raises(TypeError):
        f.realize("ab")
    with pytest.raises(hl.HalideError):
        f.realize([3, 3], hl.Target("arm-64-android"))
    with pytest.raises(hl.HalideError):
        hl.Pipeline().realize([3])
    with pytest.raises(hl.HalideError):
        hl.Pipeline([])
    with pytest.raises(hl.HalideError):
        hl.Pipeline(f).realize([hl.Buffer(hl.Int(32), [2, 2]), hl.Buffer(hl.Int(32), [2, 2])])
    with pytest.raises(hl.HalideError):
        hl.Func("undefined_f").realize([2])


def test_infer_input_bounds_and_arguments():
    im = hl.ImageParam(hl.Int(16), 2, "iib")
    k = hl.Param(hl.Int(16), "iib_k", 2)
    f = hl.Func("iib_f")
    f[x, y] = im[x - 2, y] + im[x + 1, 2 * y] * k
    f.infer_input_bounds([8, 3])
    b = im.get()
    assert [b.dim(0).min(), b.dim(0).extent(), b.dim(1).min(), b.dim(1).extent()] == [-2, 11, 0, 5]
    assert not np.asarray(b).any()
    np.asarray(b)[...] = np.arange(55, dtype=np.int16).reshape(5, 11)
    a = np.asarray(b)  # rows are y (min 0), columns x (min -2)
    ref = a[0:3, 0:8] + a[0:5:2, 3:11] * 2
    np.testing.assert_array_equal(np.asarray(f.realize([8, 3])), ref)
    args = f.infer_arguments()
    assert [(a.name, a.kind) for a in args] == [
        ("iib", hl.ArgumentKind.InputBuffer), ("iib_k", hl.ArgumentKind.InputScalar)]
    with pytest.raises(TypeError):
        f.infer_input_bounds("x")


def test_infer_input_bounds_of_a_region_wider_than_int32_is_an_error():
    # x > 1 reads element 2^31 - 1, x <= 1 element 0: 2^31 elements, one more
    # than an int32 extent holds. A saturating_cast of x * 3e9 reads from
    # INT32_MIN to INT32_MAX: 2^32 elements, whose int32 extent wraps to 0
    # (the query then answered an empty buffer and realize() computed garbage;
    # the 2^31 case aborted the interpreter). Now an exception naming the input.
    for name, index in [
        ("wide_in", lambda v: hl.select(v > 1, 2147483647, 0)),
        ("wider_in", lambda v: hl.saturating_cast(hl.Int(32), hl.cast(hl.Int(64), v) * 3000000000)),
    ]:
        im = hl.ImageParam(hl.UInt(8), 1, name)
        f = hl.Func(name + "_f")
        f[x] = im[index(x)]
        words = f"buffer {name} is [0-9]+, which exceeds the maximum size of 2147483647"
        with pytest.raises(hl.HalideError, match=words):
            f.infer_input_bounds([4])


def test_infer_input_bounds_repeats_the_query_until_constraints_hold():
    # By hand: the output's extent grows by 3 while under 20 and the update's
    # vectorized x rounds the region written up to a multiple of 8:
    # 5 -> 8 -> 11 -> 16 -> 19 -> 24 -> 24. The input is read at x-2..x+3 over
    # x in [0, 23] and y..y+1 over the 6 rows from y = 4: [-2, 26] x [4, 10];
    # its x extent is constrained to 4 * 7 + 24 = 52.
    im = hl.ImageParam(hl.Int(16), 2, "grow_in")
    f = hl.Func("grow_f")
    f[x, y] = im[x - 2, y] + im[x + 3, y + 1]
    f[x, y] += 1
    f.update().vectorize(x, 8)
    o = f.output_buffer()
    o.dim(0).set_bounds(0, hl.select(o.dim(0).extent() < 20, o.dim(0).extent() + 3, o.dim(0).extent()))
    im.dim(0).set_extent(im.dim(1).extent() * 4 + o.dim(0).extent())
    query = hl.Buffer.make_bounds_query(type=hl.Int(16), sizes=[5, 6])
    query.set_min([3, 4])
    f.infer_input_bounds(query)
    b = im.get()
    assert [(b.dim(i).min(), b.dim(i).extent()) for i in range(2)] == [(-2, 52), (4, 7)]
    assert [(query.dim(i).min(), query.dim(i).extent()) for i in range(2)] == [(0, 24), (4, 6)]

    g = hl.Func("unsettled_g")
    unsettled_in = hl.ImageParam(hl.Int(16), 1, "unsettled_in")
    g[x] = unsettled_in[x]
    og = g.output_buffer()
    og.dim(0).set_extent(og.dim(0).extent() + 1)
    with pytest.raises(hl.HalideError, match="16"):
        g.infer_input_bounds([4])


def test_compile_to_files(tmp_path):
    im = hl.ImageParam(hl.UInt(8), 2, "aot_in")
    k = hl.Param(hl.UInt(8), "aot_k")
    f = hl.Func("aot_f")
    f[x, y] = im[x, y] + k
    args = [im, k]
    target = hl.get_host_target()
    f.compile_to_file(str(tmp_path / "a"), args, "aot_a")
    f.compile_to_static_library(str(tmp_path / "b"), args, "aot_b", target)
    f.compile_to_object(str(tmp_path / "c.o"), args, "aot_c")
    f.compile_to_object(str(tmp_path / "c2.o"), args)
    f.compile_to_header(str(tmp_path / "c.h"), args, fn_name="aot_c")
    f.compile_to_assembly(str(tmp_path / "c.s"), args, "aot_c")
    f.compile_to_bitcode(str(tmp_path / "c.bc"), args, "aot_c")
    f.compile_to_llvm_assembly(str(tmp_path / "c.ll"), args, "aot_c")
    f.compile_to_lowered_stmt(str(tmp_path / "c.stmt"), args)
    hl.Pipeline(f).compile_to({hl.OutputFileType.c_header: str(tmp_path / "d.h"),
                               hl.OutputFileType.shared_library: str(tmp_path / "libd.so")}, args, "aot_d")
    f.compile_to_multitarget_static_library(str(tmp_path / "m"), args, [target])
    for name in ["a.o", "a.h", "b.a", "b.h", "c.o", "c2.o", "c.h", "c.s", "c.bc", "c.ll", "c.stmt", "d.h",
                 "libd.so", "m.a", "m.h"]:
        assert (tmp_path / name).stat().st_size > 0, name
    assert "aot_c" in (tmp_path / "c.h").read_text()
    assert "aot_f" in (tmp_path / "c2.o").read_bytes().decode("latin-1")
    with pytest.raises(hl.HalideError, match="aot_in"):
        f.compile_to_object(str(tmp_path / "e.o"), [k], "aot_e")
    f.compile_to_lowered_stmt(str(tmp_path / "e.html"), args, hl.StmtOutputFormat.HTML)
    assert (tmp_path / "e.html").read_text().startswith("<!DOCTYPE html>")
    # The shared library runs under halide.runtime.
    hlr = pytest.importorskip("halide.runtime")
    kernel = hlr.load(str(tmp_path / "libd.so"))
    arr = np.arange(12, dtype=np.uint8).reshape(3, 4)
    out = np.zeros((3, 4), np.uint8)
    kernel(arr, 5, out)
    np.testing.assert_array_equal(out, arr + 5)


NAMES = ["Param", "ImageParam", "OutputImageParam", "Argument", "ArgumentKind", "Pipeline", "Callable",
         "OutputFileType", "StmtOutputFormat", "Dimension"]
METHODS = {
    "Param": ["name", "type", "set", "set_estimate", "set_range", "set_min_value", "set_max_value", "min_value",
              "max_value", "logical_not"],
    "ImageParam": ["name", "type", "dimensions", "dim", "set", "get", "reset", "width", "height", "channels",
                   "left", "right", "top", "bottom", "defined", "set_estimates", "__getitem__"],
    "Pipeline": ["realize", "compile_jit", "compile_to", "compile_to_callable", "compile_to_object",
                 "compile_to_header", "compile_to_assembly", "compile_to_bitcode", "compile_to_llvm_assembly",
                 "compile_to_lowered_stmt", "compile_to_static_library", "compile_to_file",
                 "compile_to_multitarget_static_library", "infer_input_bounds", "infer_arguments", "outputs",
                 "defined", "get_func"],
    "Func": ["realize", "compile_jit", "compile_to", "compile_to_callable", "compile_to_object", "compile_to_header",
             "compile_to_assembly", "compile_to_bitcode", "compile_to_llvm_assembly", "compile_to_lowered_stmt",
             "compile_to_static_library", "compile_to_file", "compile_to_multitarget_static_library",
             "infer_input_bounds", "infer_arguments"],
    "Dimension": ["min", "max", "extent", "stride"],
}


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 venv (build/upstream21) is not set up")
def test_names_and_argument_names_match_upstream():
    ours, theirs = probe_both(signature_probe(NAMES, METHODS, ["ArgumentKind"]))
    assert ours["names"] == theirs["names"]
    assert ours["ArgumentKind"] == theirs["ArgumentKind"]
    problems = signature_problems(ours, theirs, skip=("names", "ArgumentKind"))
    assert not problems, "\n".join(problems)
