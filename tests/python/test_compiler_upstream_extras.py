"""Upstream methods that were missing from our `halide` module: rename,
rvars, Param with a range, ArgumentEstimates, Tuple(func_ref),
ImageParam.in_ / host_alignment / store_in, Func.set_estimate(s),
Pipeline.add_requirement / invalidate_cache / print_loop_nest /
compile_to_conceptual_stmt / compile_to_multitarget_object_files and HTML
statements, ImageParam.trace_loads, the placeholder hl._ in calls of an
ImageParam or a Buffer, a one-value Tuple, hl.lambda_func, hl.Func of an
ImageParam or a Buffer. Results against NumPy; names, messages and the printed loop
nest against upstream Halide 21's observed behaviour."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import UPSTREAM_PY, probe_both, signature_probe, signature_problems  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def test_rename_keeps_results_and_renames_the_loop():
    f = hl.Func("rn_f")
    f[x, y] = x * 10 + y
    xo, xi = hl.Var("xo"), hl.Var("xi")
    t = hl.Var("t")
    assert f.split(x, xo, xi, 4).rename(xo, t) is f
    f.parallel(t)  # the loop is now called t
    with pytest.raises(hl.HalideError, match="xo"):
        f.vectorize(xo)
    ny, nx = np.mgrid[0:5, 0:9]
    np.testing.assert_array_equal(np.asarray(f.realize([9, 5])), nx * 10 + ny)

    r = hl.RDom([(0, 6)], "rn_r")
    g = hl.Func("rn_g")
    g[x] = 0
    g[x] += r.x * x
    s = g.update(0)
    assert s.rename(r.x, hl.RVar("rr")) is s
    np.testing.assert_array_equal(np.asarray(g.realize([4])), 15 * np.arange(4))


def test_rename_errors_as_upstream():
    # Upstream 21: "In schedule for g, can't rename Var x to RVar v" and the
    # reverse for an update's RVar.
    g = hl.Func("g")
    g[x] = x
    with pytest.raises(hl.HalideError, match="In schedule for g, can't rename Var x to RVar v"):
        g.rename(x, hl.RVar("v"))
    r = hl.RDom([(0, 4)], "r")
    h = hl.Func("h")
    h[x] = 0
    h[x] += r.x
    # (upstream names the RVar r$x, ours r.x)
    with pytest.raises(hl.HalideError, match=r"In schedule for h.update\(0\), can't rename RVar r[.$]x to Var v"):
        h.update(0).rename(r.x, hl.Var("v"))
    with pytest.raises(hl.HalideError, match="q"):
        g.rename(hl.Var("q"), hl.Var("w"))


def test_rvars():
    r = hl.RDom([(2, 5), (0, 3)], "rv_r")
    f = hl.Func("rv_f")
    f[x] = 0
    f[x] += r.x + r.y
    f[x] += 1
    rvars = f.rvars(0)
    assert [v.name() for v in rvars] == [r.x.name(), r.y.name()]
    assert [(hl.evaluate(v.min()), hl.evaluate(v.extent())) for v in rvars] == [(2, 5), (0, 3)]
    assert [v.name() for v in f.rvars()] == [r.x.name(), r.y.name()]
    assert f.rvars(1) == []
    # RVars from rvars() schedule the update as the RDom's do.
    f.update(0).unroll(rvars[1])
    # A sum does not depend on the order of its terms, so its RVars reorder (as upstream's do)...
    f.update(0).reorder(rvars[1], rvars[0])
    np.testing.assert_array_equal(np.asarray(f.realize([3])), np.full(3, 3 * sum(range(2, 7)) + 5 * 3 + 1))
    # ...while an update that reads its previous value non-associatively keeps its order.
    g = hl.Func("rv_g")
    g[x] = 0
    g[x] = g[x] * 2 + r.x
    with pytest.raises(hl.HalideError, match="reorder"):
        g.update(0).reorder(r.y, r.x)
    k = hl.Func("rv_k")
    k[x] = x
    with pytest.raises(hl.HalideError):
        k.rvars()


def test_param_with_range_in_constructor():
    p = hl.Param(hl.Int(32), "pr", 3, 0, 10)
    assert p.name() == "pr"
    assert (hl.evaluate(p.min_value()), hl.evaluate(p.max_value())) == (0, 10)
    q = hl.Param(hl.Float(32), "pq", 0.5, None, 2.0)
    assert not q.min_value().defined() and q.max_value().type() == hl.Float(32)
    f = hl.Func("pr_f")
    f[x] = x + p
    np.testing.assert_array_equal(np.asarray(f.realize([3])), np.arange(3) + 3)
    p.set(11)
    with pytest.raises(hl.HalideError, match="pr"):
        f.realize([3])


def test_argument_estimates_as_upstream():
    # Upstream 21 (observed): infer_arguments reports a scalar's current
    # value as scalar_def, its range and estimate; Argument(param) has no
    # default; a buffer's set_estimates are buffer_estimates.
    p = hl.Param(hl.Int(32), "ae_p", 3)
    p.set_range(0, 10)
    p.set_estimate(5)
    p.set(7)
    q = hl.Param(hl.Float(32), "ae_q")
    im = hl.ImageParam(hl.UInt(8), 2, "ae_im")
    im.set_estimates([hl.Range(0, 64), hl.Range(0, 32)])
    f = hl.Func("ae_f")
    f[x] = im[x, 0] + hl.u8(p) + hl.u8(q)
    args = {a.name: a for a in f.infer_arguments()}
    e = args["ae_p"].argument_estimates
    assert [hl.evaluate(v) for v in (e.scalar_def, e.scalar_min, e.scalar_max, e.scalar_estimate)] == [7, 0, 10, 5]
    assert e.buffer_estimates == []
    eq = args["ae_q"].argument_estimates
    assert hl.evaluate(eq.scalar_def) == 0.0 and eq.scalar_def.type() == hl.Float(32)
    assert not eq.scalar_min.defined() and not eq.scalar_estimate.defined()
    b = args["ae_im"].argument_estimates
    assert [(hl.evaluate(r.min), hl.evaluate(r.extent)) for r in b.buffer_estimates] == [(0, 64), (0, 32)]
    assert not b.scalar_def.defined()

    a = hl.Argument(p)
    assert not a.argument_estimates.scalar_def.defined()
    assert hl.evaluate(a.argument_estimates.scalar_estimate) == 5
    assert len(hl.Argument(im).argument_estimates.buffer_estimates) == 2
    # Read-write, by reference, as upstream's.
    a.argument_estimates.scalar_min = hl.Expr(3)
    assert hl.evaluate(a.argument_estimates.scalar_min) == 3
    ae = hl.ArgumentEstimates()
    assert not ae.scalar_def.defined() and ae.buffer_estimates == []
    ae.buffer_estimates = [hl.Range(1, 2)]
    a.argument_estimates = ae
    assert hl.evaluate(a.argument_estimates.buffer_estimates[0].extent) == 2


def test_func_set_estimates_reach_the_metadata(tmp_path):
    f = hl.Func("est_f")
    f[x, y] = x + y
    assert f.set_estimates([hl.Range(0, 16), (0, 8)]) is f
    with pytest.raises(hl.HalideError, match="2 ranges"):
        f.set_estimates([hl.Range(0, 16)])
    g = hl.Func("est_g")
    g[x, y] = x * y
    assert g.set_estimate(y, 2, 6) is g
    with pytest.raises(hl.HalideError, match="no Var named 'z'"):
        g.set_estimate(hl.Var("z"), 0, 1)
    # The metadata of a compiled kernel carries them (upstream's
    # halide_filter_metadata_t: per dimension a pointer to min and extent).
    for func, name in [(f, "est_f"), (g, "est_g")]:
        hl.Pipeline(func).compile_to({hl.OutputFileType.shared_library: str(tmp_path / f"lib{name}.so")}, [], name)
    assert buffer_estimates(tmp_path / "libest_f.so", "est_f") == [(0, 16), (0, 8)]
    assert buffer_estimates(tmp_path / "libest_g.so", "est_g") == [None, (2, 6)]


class _Argument(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int32), ("dimensions", ctypes.c_int32),
                ("type", ctypes.c_uint32), ("scalar_def", ctypes.c_void_p), ("scalar_min", ctypes.c_void_p),
                ("scalar_max", ctypes.c_void_p), ("scalar_estimate", ctypes.c_void_p),
                ("buffer_estimates", ctypes.POINTER(ctypes.POINTER(ctypes.c_int64)))]


class _Metadata(ctypes.Structure):
    _fields_ = [("version", ctypes.c_int32), ("num_arguments", ctypes.c_int32),
                ("arguments", ctypes.POINTER(_Argument)), ("target", ctypes.c_char_p), ("name", ctypes.c_char_p)]


def buffer_estimates(library, name):
    """The last (output) argument's buffer estimates in a kernel's metadata."""
    lib = ctypes.CDLL(str(library))
    fn = getattr(lib, name + "_metadata")
    fn.restype = ctypes.POINTER(_Metadata)
    md = fn().contents
    out = md.arguments[md.num_arguments - 1]
    result = []
    for d in range(out.dimensions):
        lo, ext = out.buffer_estimates[2 * d], out.buffer_estimates[2 * d + 1]
        result.append((lo[0], ext[0]) if lo and ext else None)
    return result


def test_tuple_of_a_func_ref():
    f = hl.Func("tf_f")
    f[x] = (x * 2, hl.f32(x) / 4)
    t = hl.Tuple(f[x + 1])
    assert len(t) == 2
    g = hl.Func("tf_g")
    g[x] = t
    a, b = g.realize([5])
    np.testing.assert_array_equal(np.asarray(a), (np.arange(5) + 1) * 2)
    np.testing.assert_allclose(np.asarray(b), (np.arange(5) + 1) / 4)
    one = hl.Func("tf_one")
    one[x] = x + 7
    assert len(hl.Tuple(one[x])) == 1
    with pytest.raises(hl.HalideError):
        hl.Tuple(hl.Func("tf_undefined")[x])


def test_image_param_in_wrappers(tmp_path):
    im = hl.ImageParam(hl.Int(32), 1, "ipw")
    g = hl.Func("ipw_g")
    g[x] = im[x] * 2
    h = hl.Func("ipw_h")
    h[x] = im[x] + g[x]
    w = im.in_(g)
    assert isinstance(w, hl.Func) and w.name().startswith("ipw_in_ipw_g")
    assert im.in_(g).name() == w.name()
    assert im.in_([g]).name() == w.name()
    w.compute_root()
    data = np.arange(10, dtype=np.int32) * 3
    im.set(data)
    np.testing.assert_array_equal(np.asarray(h.realize([8])), data[:8] * 3)
    # g reads the wrapper, now a stage of its own with storage.
    h.compile_to_lowered_stmt(str(tmp_path / "h.stmt"), [im])
    assert f"allocate {w.name()}" in (tmp_path / "h.stmt").read_text()
    gw = im.in_()
    assert gw.name().startswith("ipw_global_wrapper")
    assert im.in_().name() == gw.name()
    gw.compute_root()
    np.testing.assert_array_equal(np.asarray(h.realize([8])), data[:8] * 3)


def test_host_alignment_and_store_in():
    im = hl.ImageParam(hl.UInt(8), 1, "im")
    assert im.host_alignment() == 1
    assert hl.ImageParam(hl.Float(32), 2, "ha_f").host_alignment() == 4
    assert isinstance(im.set_host_alignment(16), hl.OutputImageParam)
    assert im.host_alignment() == 16
    assert isinstance(im.store_in(hl.MemoryType.Heap), hl.OutputImageParam)
    f = hl.Func("ha_f")
    f[x] = im[x] + 1
    base = np.zeros(96, dtype=np.uint8)
    offset = (-base.ctypes.data) % 16  # the first 16-byte aligned element
    aligned = base[offset:offset + 40]
    aligned[:] = np.arange(40, dtype=np.uint8)
    im.set(aligned)
    np.testing.assert_array_equal(np.asarray(f.realize([8])), np.arange(8) + 1)
    im.set(base[offset + 1:offset + 41])
    # Upstream 21's message, word for word.
    with pytest.raises(hl.HalideError, match="The host pointer of im is not aligned to a 16 bytes boundary"):
        f.realize([8])


def test_add_requirement():
    p = hl.Param(hl.Int(32), "req_p", 3)
    h = hl.Func("req_h")
    h[x] = x * p
    pl = hl.Pipeline(h)
    pl.add_requirement(p > 5, "p is too small:", p, "!")
    # Upstream 21: "Requirement Failed: (false) p is too small: 3 !" (the
    # condition's value, not its text).
    with pytest.raises(hl.HalideError, match=r"Requirement Failed: \(false\) p is too small: 3 !"):
        pl.realize([4])
    p.set(6)
    np.testing.assert_array_equal(np.asarray(pl.realize([4])), np.arange(4) * 6)
    q = hl.Param(hl.Float(32), "req_q", 0.5)
    pl2 = hl.Pipeline(h)
    pl2.add_requirement(q < 0.25)
    with pytest.raises(hl.HalideError, match=r"Requirement Failed: \(false\)"):
        pl2.realize([4])
    q.set(0.125)
    np.testing.assert_array_equal(np.asarray(pl2.realize([4])), np.arange(4) * 6)


def test_invalidate_cache_recompiles(tmp_path):
    f = hl.Func("ic_f")
    f[x] = x + 1
    pl = hl.Pipeline(f)
    pl.compile_jit()
    pl.invalidate_cache()
    np.testing.assert_array_equal(np.asarray(pl.realize([4])), np.arange(4) + 1)


def test_conceptual_and_html_statements(tmp_path):
    p = hl.Param(hl.Int(32), "cs_p")
    f = hl.Func("cs_f")
    f[x] = x * p
    f.compile_to_conceptual_stmt(str(tmp_path / "c.stmt"), [p])
    text = (tmp_path / "c.stmt").read_text()
    assert "cs_f" in text and "for" in text
    f.compile_to_lowered_stmt(str(tmp_path / "l.stmt"), [p])
    assert text == (tmp_path / "l.stmt").read_text()
    hl.Pipeline(f).compile_to_conceptual_stmt(str(tmp_path / "c.html"), [p], hl.StmtOutputFormat.HTML)
    f.compile_to_lowered_stmt(str(tmp_path / "l.html"), [p], hl.StmtOutputFormat.HTML)
    for name in ["c.html", "l.html"]:
        page = (tmp_path / name).read_text()
        assert page.startswith("<!DOCTYPE html>")
        assert "<title>Halide Module: cs_f</title>" in page  # as upstream's title
        assert "<span class='kw'>for</span>" in page and page.rstrip().endswith("</html>")
        assert page.count("<details") == page.count("</details>")
        # Every line of the statement is there, escaped.
        for line in text.splitlines()[1:]:
            escaped = line.strip().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            escaped = escaped.replace('"', "&quot;")
            assert escaped.split(" ", 1)[-1] in page


def test_multitarget_object_files(tmp_path):
    p = hl.Param(hl.Int(32), "mt_p")
    f = hl.Func("mt")
    f[x] = x * p
    host = hl.get_host_target()
    base = hl.Target(f"{host.arch.name}-{host.bits}-{host.os.name}".lower())
    targets = [host, base]
    with pytest.raises(hl.HalideError, match="The suffixes list must be empty or the same length as the targets"):
        f.compile_to_multitarget_object_files(str(tmp_path / "bad"), [p], targets, ["_a"])
    f.compile_to_multitarget_object_files(str(tmp_path / "mt"), [p], targets, ["_fast", "_base"])
    # Upstream's files: PREFIX-SUFFIX.o per target, PREFIX_wrapper.o, PREFIX_runtime.o, PREFIX.h.
    for name in ["mt-_fast.o", "mt-_base.o", "mt_wrapper.o", "mt_runtime.o", "mt.h"]:
        assert (tmp_path / name).stat().st_size > 0, name
    f.compile_to_multitarget_object_files(str(tmp_path / "one"), [p], [base], ["_x"])
    assert sorted(q.name for q in tmp_path.iterdir() if q.name.startswith("one")) == ["one.h", "one.o"]
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler")
    (tmp_path / "main.c").write_text(
        '#include <stdio.h>\n#include "mt.h"\n'
        "int main(void) {\n"
        "    int out[6];\n"
        "    halide_buffer_t b = {0};\n"
        "    halide_dimension_t d = {0, 6, 1, 0};\n"
        "    b.host = (uint8_t *)out; b.type.code = halide_type_int; b.type.bits = 32; b.type.lanes = 1;\n"
        "    b.dimensions = 1; b.dim = &d;\n"
        "    int r = mt(7, &b);\n"
        '    printf("%d", r);\n'
        '    for (int i = 0; i < 6; i++) printf(" %d", out[i]);\n'
        "    return 0;\n}\n")
    objs = [str(tmp_path / n) for n in ["mt-_fast.o", "mt-_base.o", "mt_wrapper.o", "mt_runtime.o"]]
    exe = tmp_path / "main"
    include = pytest.importorskip("halide.runtime").get_include()  # HalideRuntime.h
    subprocess.run([cc, str(tmp_path / "main.c"), "-I", str(tmp_path), "-I", include, *objs, "-o", str(exe),
                    "-lpthread", "-ldl", "-lm"], check=True, capture_output=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["0"] + [str(7 * i) for i in range(6)]


# Pipelines whose loop nests both print the same way (loops named by explicit
# Vars: upstream names the inner loops of vectorize(x, n)/unroll(x, n) with a
# process-wide counter, v0, v1..., which ours do not reproduce).
LOOP_NEST_SCRIPT = r"""
import sys
import halide as hl
x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
xo, xi, yo, yi = hl.Var("xo"), hl.Var("xi"), hl.Var("yo"), hl.Var("yi")
def show(p):
    sys.stdout.flush()
    p.print_loop_nest()
    sys.stderr.flush()
    print("--", file=sys.stderr, flush=True)

f = hl.Func("f"); f[x, y] = x + y
f.split(x, xo, xi, 8).parallel(y).vectorize(xi)
show(f)

g = hl.Func("g"); g[x, y] = x + y
g.tile(x, y, xo, yo, xi, yi, 4, 4).rename(xo, hl.Var("t"))
show(g)

a = hl.Func("a"); a[x] = x
b = hl.Func("b"); b[x] = a[x] + a[x + 1]
a.compute_at(b, x)
show(hl.Pipeline(b))

k = hl.Func("k"); k[x, y, c] = x + y + c
xy = hl.Var("xy")
k.fuse(x, y, xy).reorder(c, xy)
k.bound(c, 0, 3).unroll(c)
show(k)

p1 = hl.Func("p1"); p1[x, y] = x * y
p2 = hl.Func("p2"); p2[x, y] = p1[x, y] + p1[x, y + 1]
r = hl.RDom([(0, 10)], "r")
h = hl.Func("h"); h[x] = 0; h[r.x] += p2[r.x, 0]
p1.compute_at(p2, y)
p2.compute_root().split(x, xo, xi, 8).parallel(y)
h.update(0).rename(r.x, hl.RVar("rr"))
show(h)

r3 = hl.RDom([(0, 10), (0, 4)], "r3")
h3 = hl.Func("h3"); h3[x] = 0; h3[x] += r3.x * r3.y
h3.update(0).split(r3.x, hl.RVar("rxo"), hl.RVar("rxi"), 2)
show(h3)

sp = hl.Param(hl.Int(32), "sp")
q = hl.Func("q"); q[x, y] = x * sp
q.specialize(sp > 0).split(x, xo, xi, 4)
q.bound(x, 0, 16)
show(q)

s = hl.Func("s"); s[x, y] = x - y
s.compute_root()
u = hl.Func("u"); u[x, y] = s[x, y] * 2
u.reorder(y, x).parallel(x)
show(u)

r4a = hl.RDom([(0, 8)], "r4")
r4 = hl.RDom([(0, 8)], "r4")  # a second RDom of that name (ours: r4$1.x; upstream's: r4$x)
h4 = hl.Func("h4"); h4[x] = 0; h4[x] += r4.x
h4.update(0).split(r4.x, r4.x, hl.RVar("r4i"), 2)
show(h4)
"""


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 venv (build/upstream21) is not set up")
def test_print_loop_nest_as_upstream(tmp_path):
    script = tmp_path / "nest.py"
    script.write_text(LOOP_NEST_SCRIPT)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    theirs = subprocess.run([str(UPSTREAM_PY), str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert theirs.returncode == 0, theirs.stderr
    ours = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert ours.returncode == 0, ours.stderr
    assert ours.stderr == theirs.stderr


def test_print_loop_nest_names_with_a_dollar(capfd):
    # A second RDom named ser_r is ser_r$1 here: its loops show as the first's
    # (upstream: "ser_r.ser_r" for the loop keeping the RVar's name), and the
    # inner loop of unroll(r.x, 2), ours ser_r$1.x_unroll, as ser_r.x_unroll
    # (upstream names it with a process-wide counter, ser_r.r19).
    first = hl.RDom([(0, 8)], "ser_r")
    r = hl.RDom([(0, 8)], "ser_r")
    assert r.x.name() != first.x.name()
    h = hl.Func("pln_h")
    h[x] = 0
    h[x] += r.x
    h.update(0).unroll(r.x, 2)
    capfd.readouterr()
    h.print_loop_nest()
    err = capfd.readouterr().err
    assert "    for ser_r.ser_r in [0, 3]:\n      unrolled ser_r.ser_r.x_unroll in [0, 1]:\n" in err, err


NAMES = ["ArgumentEstimates", "Tuple"]
METHODS = {
    "Func": ["rename", "rvars", "set_estimates", "set_estimate", "print_loop_nest", "compile_to_conceptual_stmt",
             "compile_to_multitarget_object_files", "compile_to_lowered_stmt"],
    "Stage": ["rename", "specialize"],
    "ImageParam": ["in_", "host_alignment", "set_host_alignment", "store_in"],
    "OutputImageParam": ["host_alignment", "set_host_alignment", "store_in", "set_estimates"],
    "Pipeline": ["add_requirement", "invalidate_cache", "print_loop_nest", "compile_to_conceptual_stmt",
                 "compile_to_multitarget_object_files", "compile_to_lowered_stmt"],
    "Tuple": ["__init__"],
    "Argument": ["__init__"],
    "ArgumentEstimates": ["__init__"],
}


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 venv (build/upstream21) is not set up")
def test_names_and_argument_names_match_upstream():
    ours, theirs = probe_both(signature_probe(NAMES, METHODS, ["StmtOutputFormat"]))
    assert ours["names"] == theirs["names"]
    assert ours["StmtOutputFormat"] == theirs["StmtOutputFormat"]
    problems = signature_problems(ours, theirs, skip=("names", "StmtOutputFormat"))
    assert not problems, "\n".join(problems)
    for attr in ["scalar_def", "scalar_min", "scalar_max", "scalar_estimate", "buffer_estimates"]:
        assert hasattr(hl.ArgumentEstimates(), attr)
    assert hasattr(hl.Argument(), "argument_estimates")


def test_image_param_trace_loads(capfd: pytest.CaptureFixture[str]) -> None:
    # The lines upstream Halide 21 prints for the same pipeline: the loads,
    # named after the ImageParam, after its "func_type_and_dim" tag (type
    # uint8 = code 1, 8 bits; the region read: x in [0, 3), y in [1, 2)).
    im = hl.ImageParam(hl.UInt(8), 2, "traced_im")
    f = hl.Func("reads_traced_im")
    f[x] = hl.u16(im[x, 1]) * 2
    assert im.trace_loads() is None
    im.set(hl.Buffer(np.arange(6, dtype=np.uint8).reshape(2, 3)))
    capfd.readouterr()
    np.testing.assert_array_equal(np.asarray(f.realize([3])), [6, 8, 10])
    assert capfd.readouterr().out.splitlines() == [
        "Begin pipeline reads_traced_im.0()",
        'Tag traced_im.0() tag = "func_type_and_dim: 1 1 8 1 2 0 3 1 1"',
        "Load traced_im.0(0, 1) = 3",
        "Load traced_im.0(1, 1) = 4",
        "Load traced_im.0(2, 1) = 5",
        "End pipeline reads_traced_im.0()",
    ]
    # add_trace_tag (C++'s; upstream's Python lacks it): a tag line after the type tag.
    assert im.add_trace_tag("my tag") is im
    g = hl.Func("reads_tagged_im")
    g[x] = im[x, 0]
    g.realize([1])
    lines = capfd.readouterr().out.splitlines()
    assert lines[1:4] == ['Tag traced_im.0() tag = "func_type_and_dim: 1 1 8 1 2 0 1 0 1"',
                          'Tag traced_im.0() tag = "my tag"', "Load traced_im.0(0, 0) = 0"]


def test_placeholder_in_image_param_and_buffer_calls():
    # f[x, _] = b[_, x] is f[x, a] = b[a, x]; NumPy arrays are (row, column).
    data = np.arange(6, dtype=np.int32).reshape(2, 3)  # width 3, height 2
    b = hl.Buffer(data)
    t = hl.Func("transpose_by_placeholder")
    t[x, hl._] = b[hl._, x]
    assert t.dimensions() == 2
    np.testing.assert_array_equal(np.asarray(t.realize([2, 3])), data.T)
    im = hl.ImageParam(hl.Int(32), 2, "im_placeholder")
    g = hl.Func("all_by_placeholder")
    g[hl._] = im[hl._] + 1
    assert g.dimensions() == 2
    im.set(b)
    np.testing.assert_array_equal(np.asarray(g.realize([3, 2])), data + 1)


def test_one_value_tuple():
    t = hl.Tuple([x * 2])
    assert len(t) == 1
    f = hl.Func("one_value_tuple")
    f[x] = hl.Tuple([x * 2 + 1])
    assert f.outputs() == 1 and f.type() == hl.Int(32)
    np.testing.assert_array_equal(np.asarray(f.realize([4])), np.arange(4) * 2 + 1)


def test_lambda_func():
    f = hl.lambda_func(x, y, x * 10 + y)
    assert isinstance(f, hl.Func) and f.dimensions() == 2
    ny, nx = np.mgrid[0:3, 0:4]
    np.testing.assert_array_equal(np.asarray(f.realize([4, 3])), nx * 10 + ny)
    # Any number of Vars (upstream's too); implicit Vars become further arguments.
    vs = [hl.Var(f"lv{i}") for i in range(6)]
    assert hl.lambda_func(*vs, sum(vs[1:], vs[0])).dimensions() == 6
    g = hl.lambda_func(x, x + hl._0 * 100)
    assert g.dimensions() == 2
    np.testing.assert_array_equal(np.asarray(g.realize([3, 2])), np.add.outer(np.arange(2) * 100, np.arange(3)))
    with pytest.raises(ValueError, match="Not enough arguments"):
        hl.lambda_func()


def test_func_of_an_image_param_or_a_buffer():
    im = hl.ImageParam(hl.Int(32), 2, "ex_im")
    f = hl.Func(im)
    # As upstream 21: one Func named after the ImageParam, the same each time.
    assert f.name() == "ex_im_im"
    assert hl.Func(im).name() == f.name()
    assert [v.name() for v in f.args()] == ["_0", "_1"]
    data = (np.arange(12, dtype=np.int32).reshape(3, 4) * 7) % 11
    im.set(hl.Buffer(data))
    g = hl.Func("ex_im_consumer")
    g[x, y] = f[x, y] * 2 + im[x, y]
    f.compute_root()
    np.testing.assert_array_equal(np.asarray(g.realize([4, 3])), data * 3)

    b = hl.Buffer(np.arange(6, dtype=np.int16) - 2)
    h = hl.Func(b)
    np.testing.assert_array_equal(np.asarray(h.realize([6])), np.arange(6, dtype=np.int16) - 2)
