"""The C++ source backend (compile_to_c, OutputFileType.c_source): each
pipeline is written as C++ source and, for the same target, as an LLVM
object; both are built with the system C++ compiler (the source with -Wall
-Werror at -O2) into one shared library with a standalone runtime, called
through their NAME_argv entry points with NumPy arrays, and compared with a
NumPy reference and with each other. The source's NAME_metadata is checked
against the object's."""

from __future__ import annotations

import ctypes
import shutil
import subprocess

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

CXX = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
pytestmark = pytest.mark.skipif(CXX is None, reason="no C++ compiler")

x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")


class _Dim(ctypes.Structure):
    _fields_ = [("min", ctypes.c_int32), ("extent", ctypes.c_int32), ("stride", ctypes.c_int32),
                ("flags", ctypes.c_uint32)]


class _Buffer(ctypes.Structure):
    _fields_ = [("device", ctypes.c_uint64), ("device_interface", ctypes.c_void_p), ("host", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16), ("dimensions", ctypes.c_int32), ("dim", ctypes.POINTER(_Dim)),
                ("padding", ctypes.c_void_p)]


class _Argument(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int32), ("dimensions", ctypes.c_int32),
                ("type", ctypes.c_uint32), ("scalar_def", ctypes.c_void_p), ("scalar_min", ctypes.c_void_p),
                ("scalar_max", ctypes.c_void_p), ("scalar_estimate", ctypes.c_void_p),
                ("buffer_estimates", ctypes.c_void_p)]


class _Metadata(ctypes.Structure):
    _fields_ = [("version", ctypes.c_int32), ("num_arguments", ctypes.c_int32),
                ("arguments", ctypes.POINTER(_Argument)), ("target", ctypes.c_char_p), ("name", ctypes.c_char_p)]


_CODES = {"i": 0, "u": 1, "f": 2, "b": 1}


def _halide_buffer(a: np.ndarray, mins: list[int] | None = None) -> tuple[_Buffer, object]:
    """A halide_buffer_t over `a`, Halide's dimension 0 being NumPy's last axis."""
    n = a.ndim
    dims = (_Dim * max(n, 1))()
    for k in range(n):
        axis = n - 1 - k
        dims[k] = _Dim((mins or [0] * n)[k], a.shape[axis], a.strides[axis] // a.itemsize, 0)
    b = _Buffer()
    b.host = a.ctypes.data
    b.code, b.bits, b.lanes = _CODES[a.dtype.kind], 1 if a.dtype == np.bool_ else a.dtype.itemsize * 8, 1
    b.dimensions = n
    b.dim = ctypes.cast(dims, ctypes.POINTER(_Dim))
    return b, dims


_SCALARS = {np.dtype(t): ct for t, ct in [
    (np.bool_, ctypes.c_bool), (np.int8, ctypes.c_int8), (np.int16, ctypes.c_int16), (np.int32, ctypes.c_int32),
    (np.int64, ctypes.c_int64), (np.uint8, ctypes.c_uint8), (np.uint16, ctypes.c_uint16),
    (np.uint32, ctypes.c_uint32), (np.uint64, ctypes.c_uint64), (np.float32, ctypes.c_float),
    (np.float64, ctypes.c_double)]}


def _call(lib: ctypes.CDLL, name: str, args: list) -> int:
    """NAME_argv(args): arrays (or (array, mins)) become buffers, NumPy scalars values."""
    keep = []
    slots = (ctypes.c_void_p * max(len(args), 1))()
    for i, a in enumerate(args):
        if isinstance(a, tuple) or isinstance(a, np.ndarray):
            arr, mins = a if isinstance(a, tuple) else (a, None)
            b, dims = _halide_buffer(arr, mins)
            keep += [b, dims]
            slots[i] = ctypes.addressof(b)
        else:
            v = _SCALARS[np.asarray(a).dtype](a.item())
            keep.append(v)
            slots[i] = ctypes.addressof(v)
    fn = getattr(lib, name + "_argv")
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p]
    return fn(ctypes.addressof(slots))


def _metadata(lib: ctypes.CDLL, name: str) -> list[tuple]:
    fn = getattr(lib, name + "_metadata")
    fn.restype = ctypes.POINTER(_Metadata)
    md = fn().contents
    out = [md.version, md.name.decode(), md.target.decode()]
    for i in range(md.num_arguments):
        a = md.arguments[i]
        scalars = []
        for field in ["scalar_def", "scalar_min", "scalar_max", "scalar_estimate"]:
            p = getattr(a, field)
            scalars.append(None if not p else ctypes.c_uint64.from_address(p).value)
        out.append((a.name.decode(), a.kind, a.dimensions, a.type, scalars))
    return out


def _build(tmp_path, pipeline: hl.Pipeline, args: list, tag: str) -> ctypes.CDLL:
    """The pipeline as C++ source (FN_c) and as an LLVM object (FN_llvm) in one library."""
    target = hl.get_host_target()
    src = tmp_path / f"{tag}_c.cpp"
    pipeline.compile_to_c(str(src), args, f"{tag}_c", target)
    obj = tmp_path / f"{tag}_llvm.o"
    pipeline.compile_to_object(str(obj), args, f"{tag}_llvm", target.with_feature(hl.TargetFeature.NoRuntime))
    runtime = tmp_path / "runtime.o"
    if not runtime.exists():
        hl.compile_standalone_runtime(str(runtime), target)
    include = pytest.importorskip("halide.runtime").get_include()
    lib = tmp_path / f"lib{tag}.so"
    subprocess.run([CXX, "-std=c++17", "-O2", "-Wall", "-Werror", "-fPIC", "-shared", "-I", include, str(src),
                    str(obj), str(runtime), "-o", str(lib), "-lpthread", "-ldl", "-lm"],
                   check=True, capture_output=True, text=True)
    return ctypes.CDLL(str(lib))


def _run_both(lib, tag, make_args):
    """Runs FN_c and FN_llvm on fresh arguments from make_args(); their results."""
    results = []
    for name in [f"{tag}_c", f"{tag}_llvm"]:
        args = make_args()
        rc = _call(lib, name, args)
        results.append((rc, args))
    md_c, md_l = _metadata(lib, f"{tag}_c"), _metadata(lib, f"{tag}_llvm")
    # The same but for the name and the object's no_runtime feature.
    assert md_c[0] == md_l[0] and md_c[2] == md_l[2].replace("-no_runtime", "") and md_c[3:] == md_l[3:]
    assert md_c[1] == f"{tag}_c"
    return results


def test_pointwise_casts_selects_and_integer_semantics(tmp_path):
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    scale = hl.Param(hl.Float(32), "scale", 1.5)
    d = hl.Param(hl.Int(32), "d", -3)
    flag = hl.Param(hl.Bool(), "flag", True)
    f = hl.Func("pw")
    v = hl.cast(hl.Int(32), im[x, y])
    f[x, y] = hl.Tuple([
        hl.select(flag, hl.cast(hl.UInt(8), hl.clamp(hl.cast(hl.Float(32), im[x, y]) * scale, 0, 255)), im[x, y]),
        (v - 100) // d + (v - 100) % d * 1000 + (x - y) // 4 * 100000,
        hl.cast(hl.Int(16), v * 300) + hl.cast(hl.Int(16), x),  # wraps around
        (im[x, y] >> 3) ^ (im[x, y] << 2) + hl.popcount(im[x, y]) + hl.count_leading_zeros(im[x, y]),
    ])
    lib = _build(tmp_path, hl.Pipeline(f), [im, scale, d, flag], "pw")
    rng = np.random.default_rng(1)
    a = rng.integers(0, 256, size=(23, 37)).astype(np.uint8)

    def make_args():
        outs = [np.zeros((23, 37), t) for t in [np.uint8, np.int32, np.int16, np.uint8]]
        return [a, np.float32(1.5), np.int32(-3), np.bool_(True)] + outs

    (rc_c, args_c), (rc_l, args_l) = _run_both(lib, "pw", make_args)
    assert rc_c == 0 and rc_l == 0
    yy, xx = np.mgrid[0:23, 0:37]
    av = a.astype(np.int64)
    # Euclidean division: the remainder is in [0, |d|), the quotient exact.
    r = (av - 100) % 3
    q = ((av - 100) - r) // -3
    expect = [
        np.clip(a.astype(np.float32) * np.float32(1.5), 0, 255).astype(np.uint8),
        (q + r * 1000 + np.floor_divide(xx - yy, 4) * 100000).astype(np.int32),
        ((av * 300).astype(np.int16) + xx.astype(np.int16)).astype(np.int16),
        None,
    ]
    bits = np.unpackbits(a[..., None], axis=-1).sum(-1)
    clz = np.array([8 - int(v).bit_length() for v in a.ravel()]).reshape(a.shape)
    expect[3] = ((a >> 3) ^ ((a.astype(np.int64) << 2) + bits + clz).astype(np.uint8)).astype(np.uint8)
    for k in range(4):
        np.testing.assert_array_equal(args_c[4 + k], expect[k], err_msg=f"output {k}")
        np.testing.assert_array_equal(args_c[4 + k], args_l[4 + k])


def _blur(f_in):
    blur_x = hl.Func("blur_x")
    blur_x[x, y] = (f_in[x - 1, y] + 2 * f_in[x, y] + f_in[x + 1, y]) / 4
    out = hl.Func("blur")
    out[x, y] = (blur_x[x, y - 1] + 2 * blur_x[x, y] + blur_x[x, y + 1]) / 4
    return blur_x, out


def _blur_reference(a):
    p = np.pad(a, 1, mode="edge")
    bx = (p[:, :-2] + 2 * p[:, 1:-1] + p[:, 2:]) / 4
    return (bx[:-2] + 2 * bx[1:-1] + bx[2:]) / 4


@pytest.mark.parametrize("schedule", ["serial", "vectorized_parallel"])
def test_stencil_with_boundary_condition(tmp_path, schedule):
    im = hl.ImageParam(hl.Float(32), 2, "im")
    clamped = hl.BoundaryConditions.repeat_edge(im)
    blur_x, out = _blur(clamped)
    if schedule == "vectorized_parallel":
        xi, yi = hl.Var("xi"), hl.Var("yi")
        out.tile(x, y, xi, yi, 16, 8).vectorize(xi, 8).parallel(y)
        blur_x.compute_at(out, x).vectorize(x, 8)
    lib = _build(tmp_path, hl.Pipeline(out), [im], "st")
    rng = np.random.default_rng(2)
    a = rng.random((45, 67), dtype=np.float32)
    (rc_c, args_c), (rc_l, args_l) = _run_both(lib, "st", lambda: [a, np.zeros((45, 67), np.float32)])
    assert rc_c == 0 and rc_l == 0
    np.testing.assert_allclose(args_c[1], _blur_reference(a), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(args_c[1], args_l[1], rtol=1e-5, atol=1e-6)


def test_reduction_with_update_and_rdom(tmp_path):
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    hist = hl.Func("hist")
    r = hl.RDom([(0, im.width()), (0, im.height())], "r")
    hist[x] = 0
    hist[hl.cast(hl.Int(32), im[r.x, r.y]) // 16] += 1
    scan = hl.Func("scan")
    scan[x] = hist[x]
    s = hl.RDom([(1, 15)], "s")
    scan[s.x] = scan[s.x - 1] + hist[s.x]
    hist.compute_root()
    lib = _build(tmp_path, hl.Pipeline(scan), [im], "red")
    rng = np.random.default_rng(3)
    a = rng.integers(0, 256, size=(19, 29)).astype(np.uint8)
    (rc_c, args_c), (rc_l, args_l) = _run_both(lib, "red", lambda: [a, np.zeros(16, np.int32)])
    assert rc_c == 0 and rc_l == 0
    expect = np.cumsum(np.bincount(a.ravel() // 16, minlength=16))
    np.testing.assert_array_equal(args_c[1], expect)
    np.testing.assert_array_equal(args_c[1], args_l[1])


def test_scalar_params_of_several_types_and_metadata(tmp_path):
    params = [hl.Param(hl.Int(8), "p_i8", -5), hl.Param(hl.UInt(16), "p_u16", 60000),
              hl.Param(hl.Int(64), "p_i64", -(2**40)), hl.Param(hl.UInt(32), "p_u32", 4000000000),
              hl.Param(hl.Float(64), "p_f64", 0.25), hl.Param(hl.Float(32), "p_f32", -2.5),
              hl.Param(hl.Bool(), "p_b", False)]
    params[0].set_range(-100, 100)
    f = hl.Func("sc")
    i8, u16, i64, u32, f64, f32, b = params
    f[x] = hl.Tuple([hl.cast(hl.Int(64), i8) * x + hl.cast(hl.Int(64), u16) + i64 + hl.cast(hl.Int(64), u32),
                     hl.select(b, f64, hl.cast(hl.Float(64), f32) * x + f64)])
    lib = _build(tmp_path, hl.Pipeline(f), params, "sc")
    values = [np.int8(-5), np.uint16(60000), np.int64(-(2**40)), np.uint32(4000000000), np.float64(0.25),
              np.float32(-2.5), np.bool_(False)]
    (rc_c, args_c), (rc_l, args_l) = _run_both(lib, "sc", lambda: values + [np.zeros(10, np.int64),
                                                                           np.zeros(10, np.float64)])
    assert rc_c == 0 and rc_l == 0
    xs = np.arange(10)
    np.testing.assert_array_equal(args_c[7], -5 * xs + 60000 - 2**40 + 4000000000)
    np.testing.assert_array_equal(args_c[8], -2.5 * xs + 0.25)
    np.testing.assert_array_equal(args_c[7], args_l[7])
    np.testing.assert_array_equal(args_c[8], args_l[8])
    md = _metadata(lib, "sc_c")
    assert [a[0] for a in md[3:10]] == ["p_i8", "p_u16", "p_i64", "p_u32", "p_f64", "p_f32", "p_b"]
    assert md[3][4][1:3] == [0x9C, 100]  # min -100, max 100 (as int8 bits)


def test_embedded_buffer_and_predicated_tail(tmp_path):
    table = hl.Buffer(hl.Int(16), [10], "table")
    for i in range(10):
        table[i] = i * i - 7
    im = hl.ImageParam(hl.Int(32), 1, "im")
    f = hl.Func("emb")
    f[x] = hl.cast(hl.Int(32), table[hl.clamp(im[x], 0, 9)]) * 3 + x
    f.vectorize(x, 8, hl.TailStrategy.GuardWithIf)
    lib = _build(tmp_path, hl.Pipeline(f), [im], "emb")
    a = np.array([(i * 7) % 13 - 2 for i in range(21)], np.int32)
    (rc_c, args_c), (rc_l, args_l) = _run_both(lib, "emb", lambda: [a, np.zeros(21, np.int32)])
    assert rc_c == 0 and rc_l == 0
    expect = (np.clip(a, 0, 9) ** 2 - 7) * 3 + np.arange(21)
    np.testing.assert_array_equal(args_c[1], expect)
    np.testing.assert_array_equal(args_c[1], args_l[1])


def test_memoized_stage_keyed_by_params_of_several_types(tmp_path):
    # The cache key is a make_struct of a string, a uint64 and the Params
    # (an int32 and a bool): laid out as a C struct, padding zeroed, in both
    # backends. Repeated and changed keys must give the values of their own.
    p, q = hl.Param(hl.Int(32), "mp"), hl.Param(hl.Bool(), "mq")
    f, g = hl.Func("memo_f"), hl.Func("memo_g")
    f[x] = x * p + hl.select(q, 100, 0)
    f.compute_root().memoize()
    g[x] = f[x] + 1
    lib = _build(tmp_path, hl.Pipeline(g), [p, q], "memo")
    for name in ["memo_c", "memo_llvm"]:
        for pv, qv in [(3, True), (3, True), (3, False), (5, True), (3, True)]:
            out = np.zeros(16, np.int32)
            assert _call(lib, name, [np.int32(pv), np.bool_(qv), out]) == 0
            np.testing.assert_array_equal(out, np.arange(16) * pv + (100 if qv else 0) + 1)


def test_async_producer_and_traced_stores(tmp_path, capfd):
    im = hl.ImageParam(hl.Float(32), 2, "im")
    g, f = hl.Func("ag"), hl.Func("af")
    g[x, y] = im[x, y] * 2
    f[x, y] = g[x, y - 1] + g[x, y + 1]
    g.compute_at(f, y).async_()
    f.vectorize(x, 4).trace_stores()
    lib = _build(tmp_path, hl.Pipeline(f), [im], "asy")
    a = np.arange(12 * 9, dtype=np.float32).reshape(12, 9)
    capfd.readouterr()
    rc_c = _call(lib, "asy_c", [(a, [0, -1]), out_c := np.zeros((10, 8), np.float32)])
    trace_c = capfd.readouterr()
    rc_l = _call(lib, "asy_llvm", [(a, [0, -1]), out_l := np.zeros((10, 8), np.float32)])
    trace_l = capfd.readouterr()
    assert rc_c == 0 and rc_l == 0
    np.testing.assert_array_equal(out_c, (a[:-2, :8] + a[2:, :8]) * 2)
    np.testing.assert_array_equal(out_c, out_l)
    assert "Store af.0(<0, 1, 2, 3>, <0, 0, 0, 0>)" in trace_c.out + trace_c.err, trace_c
    text_c = (trace_c.out + trace_c.err).replace("asy_c", "asy")
    assert text_c == (trace_l.out + trace_l.err).replace("asy_llvm", "asy")


def test_failed_checks_return_the_same_error(tmp_path):
    im = hl.ImageParam(hl.Float(32), 1, "im")
    f = hl.Func("chk")
    f[x] = im[x + 5]
    lib = _build(tmp_path, hl.Pipeline(f), [im], "chk")
    a = np.zeros(8, np.float32)  # too small: f over [0, 8) reads im over [5, 13)
    (rc_c, _), (rc_l, _) = _run_both(lib, "chk", lambda: [a, np.zeros(8, np.float32)])
    assert rc_c != 0 and rc_c == rc_l


def test_unsupported_features_are_refused_by_name(tmp_path):
    f = hl.Func("half")
    f[x] = hl.cast(hl.Float(16), x)
    with pytest.raises(hl.HalideError, match="float16"):
        f.compile_to_c(str(tmp_path / "half.cpp"), [], "half", hl.get_host_target())
