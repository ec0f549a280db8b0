"""Extern stages from Python: Func.define_extern calling C functions of a small
shared library built here (cc -shared) and loaded with
ctypes.CDLL(mode=RTLD_GLOBAL), so the JIT finds them among the process's
symbols; values checked against NumPy, the bounds query's answer against what
the C function recorded. Names and argument names against upstream 21."""

from __future__ import annotations

import ctypes
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import UPSTREAM_PY, probe_both, signature_problems  # noqa: E402

# The C side, with only the halide_buffer_t fields it uses (the ABI layout).
C_SOURCE = r"""
#include <stdint.h>
typedef struct { int32_t min, extent, stride; uint32_t flags; } dim_t;
typedef struct {
    uint64_t device; void *device_interface; uint8_t *host; uint64_t flags;
    uint8_t code, bits; uint16_t lanes; int32_t dimensions; dim_t *dim; void *padding;
} buffer_t;

int recorded[8];

/* out(x, y) = k * x + y * s over the region asked for (int32). */
int py_ext_fill(int32_t k, float s, buffer_t *out) {
    if (out->host == 0) return 0; /* a bounds query: it reads no input */
    for (int y = out->dim[1].min; y < out->dim[1].min + out->dim[1].extent; y++)
        for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++) {
            int32_t *p = (int32_t *)out->host + (x - out->dim[0].min) * out->dim[0].stride
                         + (y - out->dim[1].min) * out->dim[1].stride;
            *p = k * x + (int32_t)(y * s);
        }
    return 0;
}

/* out(x) = in(x - r) + ... + in(x + r) (float): asks for r more points on each side. */
/* (An input buffer is given with its data in the query too, as upstream gives it.) */
int py_ext_box(buffer_t *in, int32_t r, buffer_t *out) {
    if (in->host == 0 || out->host == 0) {
        recorded[0]++;
        in->dim[0].min = out->dim[0].min - r;
        in->dim[0].extent = out->dim[0].extent + 2 * r;
        return 0;
    }
    recorded[1] = in->dim[0].min;
    recorded[2] = in->dim[0].extent;
    const float *src = (const float *)in->host;
    float *dst = (float *)out->host;
    for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++) {
        float sum = 0;
        for (int k = -r; k <= r; k++) sum += src[(x + k - in->dim[0].min) * in->dim[0].stride];
        dst[(x - out->dim[0].min) * out->dim[0].stride] = sum;
    }
    return 0;
}

int py_ext_fail(buffer_t *out) { return out->host ? -5 : 0; }

/* out(x, y) = x + 1000 * y (int32). Its query rounds the columns asked for
   out to multiples of 10; the last call's column min, extent and row stride
   are recorded in rounded[]. */
int rounded[3];
int py_ext_rounded(buffer_t *out) {
    dim_t *d = out->dim;
    if (out->host == 0) {
        int end = (d[0].min + d[0].extent + 9) / 10 * 10;
        d[0].min = d[0].min / 10 * 10;
        d[0].extent = end - d[0].min;
        return 0;
    }
    rounded[0] = d[0].min;
    rounded[1] = d[0].extent;
    rounded[2] = d[1].stride;
    for (int y = d[1].min; y < d[1].min + d[1].extent; y++)
        for (int x = d[0].min; x < d[0].min + d[0].extent; x++)
            ((int32_t *)out->host)[(x - d[0].min) * d[0].stride + (y - d[1].min) * d[1].stride] = x + 1000 * y;
    return 0;
}

/* out(x) = x + 7 (int32); records the user context it was given. */
void *seen_user_context;
int py_ext_user_context(void *uc, buffer_t *out) {
    seen_user_context = uc;
    if (out->host == 0) return 0;
    for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++)
        ((int32_t *)out->host)[(x - out->dim[0].min) * out->dim[0].stride] = x + 7;
    return 0;
}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory) -> ctypes.CDLL:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.fail("needs a C compiler (cc) to build the extern stages' library")
    d = Path(tmp_path_factory.mktemp("extern"))
    (d / "ext.c").write_text(C_SOURCE)
    so = d / "libpy_ext.so"
    subprocess.run([cc, "-O1", "-shared", "-fPIC", "-o", str(so), str(d / "ext.c")], check=True)
    return ctypes.CDLL(str(so), mode=ctypes.RTLD_GLOBAL)


x, y = hl.Var("x"), hl.Var("y")


def test_extern_producer_consumed_by_a_func(lib):
    e = hl.Func("e")
    e.define_extern("py_ext_fill", [3, 2.0], hl.Int(32), 2)
    e.compute_root()
    assert e.is_extern() and e.extern_function_name() == "py_ext_fill"
    h = hl.Func("h")
    h[x, y] = e[x, y] * 2 + e[x + 1, y]
    out = np.asarray(h.realize([6, 4]))
    xs, ys = np.meshgrid(np.arange(6), np.arange(4))
    fill = lambda a, b: 3 * a + 2 * b  # noqa: E731
    np.testing.assert_array_equal(out, fill(xs, ys) * 2 + fill(xs + 1, ys))


def test_bounds_query_sets_the_region_of_a_func_input(lib):
    recorded = (ctypes.c_int * 8).in_dll(lib, "recorded")
    recorded[0] = 0
    g = hl.Func("g")
    g[x] = hl.cast(hl.Float(32), x * x) * 0.5
    g.compute_root()
    r = hl.Param(hl.Int(32), "r")
    r.set(2)
    e = hl.Func("e")
    e.define_extern("py_ext_box", [hl.ExternFuncArgument(g), r], [hl.Float(32)], [x])
    out = np.asarray(e.realize([10]))
    src = (np.arange(-2, 12, dtype=np.float32) ** 2) * 0.5
    expected = np.array([src[i : i + 5].sum() for i in range(10)], dtype=np.float32)
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    assert recorded[0] >= 1  # asked
    assert (recorded[1], recorded[2]) == (-2, 14)  # g computed over [-2, 11]


def test_user_context_value_reaches_the_c_function(lib):
    # Under the JIT the user context is the JITUserContext * of the call: never
    # null (it was before the JIT passed it), on the bounds query and the run.
    uc = hl.user_context_value()
    assert uc.type() == hl.Handle()
    seen = ctypes.c_void_p.in_dll(lib, "seen_user_context")
    seen.value = None
    e = hl.Func("e_uc")
    e.define_extern("py_ext_user_context", [uc], hl.Int(32), 1)
    h = hl.Func("h_uc")
    h[x] = e[x] * 3
    np.testing.assert_array_equal(np.asarray(h.realize([5])), (np.arange(5) + 7) * 3)
    assert seen.value
    seen.value = None
    c = h.compile_to_callable([])
    out = np.zeros(4, dtype=np.int32)
    c(out)
    np.testing.assert_array_equal(out, (np.arange(4) + 7) * 3)
    assert seen.value


def test_argument_kinds():
    g = hl.Func("g")
    g[x] = x
    im = hl.ImageParam(hl.UInt(8), 1, "im")
    b = hl.Buffer(hl.Int(16), [4])
    kinds = {
        "func": hl.ExternFuncArgument(g),
        "expr": hl.ExternFuncArgument(hl.Expr(1) + 2),
        "int": hl.ExternFuncArgument(3),
        "float": hl.ExternFuncArgument(1.5),
        "buffer": hl.ExternFuncArgument(b),
        "image_param": hl.ExternFuncArgument(im),
        "param": hl.ExternFuncArgument(hl.Param(hl.Int(32), "p")),
    }
    got = {k: (a.is_func(), a.is_expr(), a.is_buffer(), a.is_image_param()) for k, a in kinds.items()}
    assert got["func"] == (True, False, False, False)
    assert got["buffer"] == (False, False, True, False)
    assert got["image_param"] == (False, False, False, True)
    for k in ("expr", "int", "float", "param"):
        assert got[k] == (False, True, False, False), k
    assert not hl.ExternFuncArgument().defined() and kinds["int"].defined()
    assert [m.name for m in hl.NameMangling.__members__.values()] == ["Default", "C", "CPlusPlus"]


def test_non_zero_return_raises(lib):
    f = hl.Func("f")
    f.define_extern("py_ext_fail", [], hl.Int(32), 1)
    with pytest.raises(hl.HalideError, match="Call to external stage py_ext_fail returned non-zero value: -5"):
        f.realize([3])


def test_inline_func_input_is_refused(lib):
    g, e = hl.Func("g"), hl.Func("e")
    g[x] = hl.f32(x)
    e.define_extern("py_ext_box", [g, 1], hl.Float(32), 1)
    with pytest.raises(hl.HalideError, match="cannot be scheduled to be computed inline"):
        e.realize([3])


METHODS = {
    "Func": ["define_extern", "is_extern", "extern_function_name"],
    "ExternFuncArgument": ["__init__", "is_func", "is_expr", "is_buffer", "is_image_param", "defined"],
}
PROBE = r"""
import json, re, halide as hl
methods = json.loads(METHODS_JSON)
out = {}
for cls, ms in methods.items():
    for m in ms:
        sigs = re.findall(r"\w+\(([^()]*)\) ->", getattr(getattr(hl, cls), m).__doc__ or "")
        out[cls + "." + m] = sorted({",".join(re.findall(r"(?:^|, )(\*?\w+)(?::|$|,)", s)[1:]) for s in sigs})
out["names"] = [n for n in ("ExternFuncArgument", "NameMangling") if hasattr(hl, n)]
out["mangling"] = list(hl.NameMangling.__members__)
print(json.dumps(out))
"""


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 venv (build/upstream21) is not set up")
def test_names_and_argument_names_match_upstream():
    ours, theirs = probe_both(PROBE.replace("METHODS_JSON", repr(json.dumps(METHODS))))
    assert ours["names"] == theirs["names"] and ours["mangling"] == theirs["mangling"]
    problems = signature_problems(ours, theirs, skip=("names", "mangling"))
    assert not problems, "\n".join(problems)


def test_input_buffer_region_is_the_stages_answer(lib):
    # The stage is asked with a copy of the ImageParam: its answer (r more
    # points each side) is the region the pipeline needs, as upstream's.
    inp = hl.ImageParam(hl.Float(32), 1, "py_ext_in")
    f = hl.Func("py_ext_box_of_input")
    f.define_extern("py_ext_box", [hl.ExternFuncArgument(inp), hl.ExternFuncArgument(hl.Expr(2))], hl.Float(32), 1)
    f.infer_input_bounds([10])
    got = inp.get()
    assert (got.dim(0).min(), got.dim(0).extent()) == (-2, 14)
    data = np.arange(20, dtype=np.float32) * 0.5
    buf = hl.Buffer(data)
    buf.set_min([-2])  # points -2 .. 17
    inp.set(buf)
    out = np.asarray(f.realize([16]))
    want = np.array([data[x : x + 5].sum() for x in range(16)], dtype=np.float32)
    np.testing.assert_allclose(out, want, rtol=1e-6)
    assert buf.dim(0).min() == -2  # the input itself keeps its shape
    with pytest.raises(hl.HalideError, match="py_ext_in"):
        f.realize([17])  # would read point 18


def test_the_stage_computes_the_region_its_query_answers(lib):
    # As upstream 21: its query rounds the 32 columns of the consumer's tile
    # [13, 45) to [10, 50), and it is passed those 40 columns (rows 64 apart
    # with align_storage(x, 32)); ours passed the 32 required.
    rounded = (ctypes.c_int * 3).in_dll(lib, "rounded")
    xi, yi = hl.Var("xi"), hl.Var("yi")
    src, out = hl.Func("rounded_src"), hl.Func("rounded_out")
    src.define_extern("py_ext_rounded", [], hl.Int(32), [x, y])
    src.align_storage(x, 32)
    out[x, y] = src[x, y] * 2
    out.tile(x, y, xi, yi, 32, 32)
    src.compute_at(out, x)
    got = np.asarray(out.realize([45, 3]))
    ys, xs = np.mgrid[0:3, 0:45]
    np.testing.assert_array_equal(got, 2 * (xs + 1000 * ys))
    assert list(rounded) == [10, 40, 64]
