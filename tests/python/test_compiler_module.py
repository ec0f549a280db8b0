"""hl.Module: compile_to_module, link_modules, Module.compile and the
rest of upstream's Module API. Linked kernels are loaded back with
halide.runtime and checked against NumPy; errors are upstream 21's."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import UPSTREAM_PY, probe_both  # noqa: E402

HOST = hl.get_host_target()


def scaled(name: str, factor: int) -> tuple[hl.Func, list]:
    x, y = hl.Var("x"), hl.Var("y")
    im = hl.ImageParam(hl.UInt(8), 2, name + "_in")
    f = hl.Func(name)
    f[x, y] = im[x, y] * hl.u8(factor)
    return f, [im]


def test_linked_module_holds_both_kernels(tmp_path):
    f, f_args = scaled("mod_double", 2)
    g, g_args = scaled("mod_triple", 3)
    m1 = f.compile_to_module(f_args, "mod_double", HOST)
    m2 = hl.Pipeline(g).compile_to_module(g_args, "mod_triple", HOST)
    assert (m1.name(), m1.target()) == ("mod_double", HOST)
    linked = hl.link_modules("both", [m1, m2])
    assert linked.name() == "both"
    lib, header = tmp_path / "libboth.so", tmp_path / "both.h"
    linked.compile({hl.OutputFileType.shared_library: str(lib), hl.OutputFileType.c_header: str(header)})
    text = header.read_text()
    for name in ["mod_double", "mod_triple"]:
        assert f"int {name}(" in text and f"{name}_argv" in text and f"{name}_metadata" in text
    hlr = pytest.importorskip("halide.runtime")
    arr = np.arange(24, dtype=np.uint8).reshape(4, 6)
    for name, factor in [("mod_double", 2), ("mod_triple", 3)]:
        out = np.zeros_like(arr)
        hlr.load(str(lib), name)(arr, out)
        np.testing.assert_array_equal(out, arr * factor)


def test_object_static_library_and_assembly_of_a_module(tmp_path):
    f, f_args = scaled("mod_obj_a", 2)
    g, g_args = scaled("mod_obj_b", 5)
    m = hl.link_modules("objs", [f.compile_to_module(f_args, "mod_obj_a", HOST),
                                 g.compile_to_module(g_args, "mod_obj_b", HOST)])
    files = {hl.OutputFileType.object: tmp_path / "objs.o", hl.OutputFileType.static_library: tmp_path / "objs.a",
             hl.OutputFileType.assembly: tmp_path / "objs.s", hl.OutputFileType.llvm_assembly: tmp_path / "objs.ll",
             hl.OutputFileType.stmt: tmp_path / "objs.stmt"}
    m.compile({k: str(v) for k, v in files.items()})
    for kind, path in files.items():
        data = path.read_bytes().decode("latin-1")
        assert "mod_obj_a" in data and "mod_obj_b" in data, kind
    # One LLVM module: each entry point defined once.
    ll = files[hl.OutputFileType.llvm_assembly].read_text()
    for name in ["mod_obj_a", "mod_obj_b", "mod_obj_a_argv", "mod_obj_b_argv"]:
        assert len(re.findall(rf"^define [^@]*@{name}\(", ll, re.M)) == 1, name


def test_compile_to_buffer_is_the_object():
    f, args = scaled("mod_buf", 2)
    data = np.asarray(f.compile_to_module(args, "mod_buf", HOST).compile_to_buffer())
    assert data.dtype == np.uint8 and bytes(data[:4]) == b"\x7fELF"
    assert b"mod_buf_argv" in data.tobytes()


def test_submodules_and_remapped_output_names(tmp_path):
    f, f_args = scaled("mod_sub_a", 2)
    g, g_args = scaled("mod_sub_b", 4)
    outer = f.compile_to_module(f_args, "mod_sub_a", HOST)
    inner = g.compile_to_module(g_args, "mod_sub_b", HOST)
    outer.append(inner)
    assert [s.name() for s in outer.submodules()] == ["mod_sub_b"]
    assert outer.resolve_submodules().submodules() == []
    outer.remap_metadata_name("mod_sub_a", "result")
    assert outer.get_metadata_name_map() == {"mod_sub_a": "result"}
    lib = tmp_path / "libsub.so"
    outer.compile({hl.OutputFileType.shared_library: str(lib)})
    hlr = pytest.importorskip("halide.runtime")
    kernel = hlr.load(str(lib), "mod_sub_a")
    assert [a.name for a in kernel.arguments] == ["mod_sub_a_in", "result"]
    arr = np.arange(12, dtype=np.uint8).reshape(3, 4)
    out = np.zeros_like(arr)
    kernel(arr, out)
    np.testing.assert_array_equal(out, arr * 2)
    out_b = np.zeros_like(arr)
    hlr.load(str(lib), "mod_sub_b")(arr, out_b)
    np.testing.assert_array_equal(out_b, arr * 4)


def test_appended_buffers_are_refused_when_compiling(tmp_path):
    f, args = scaled("mod_bufs", 2)
    m = f.compile_to_module(args, "mod_bufs", HOST)
    m.append(hl.Buffer(hl.UInt(8), [4]))
    assert len(m.buffers()) == 1
    with pytest.raises(hl.HalideError, match="Buffers appended"):
        m.compile({hl.OutputFileType.object: str(tmp_path / "x.o")})


def test_linkage_type_values_are_upstreams():
    assert [int(v) for v in (hl.LinkageType.External, hl.LinkageType.ExternalPlusMetadata,
                             hl.LinkageType.ExternalPlusArgv, hl.LinkageType.Internal)] == [0, 1, 2, 3]


PROBE = r"""
import json, halide as hl
x = hl.Var("x")
f = hl.Func("f"); f[x] = x
g = hl.Func("g"); g[x] = x * 2
m1 = f.compile_to_module([], "fa", hl.Target("x86-64-linux"))
m2 = g.compile_to_module([], "ga", hl.Target("x86-64-linux-sse41"))
out = {"name": m1.name(), "target": str(m1.target()), "buffers": len(m1.buffers()),
       "map": m1.get_metadata_name_map(), "linked_name": hl.link_modules("lm", [m1]).name()}
try:
    hl.link_modules("lm", [m1, m2])
except hl.HalideError as e:
    out["mismatch"] = str(e).replace("Error: ", "").strip()
print(json.dumps(out))
"""


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 is not built")
def test_matches_upstream():
    ours, theirs = probe_both(PROBE)
    assert theirs["mismatch"].startswith("Mismatched targets in modules to link")
    assert ours == theirs


def test_auto_scheduler_results_of_a_module():
    # As upstream 21: compile_to_module sets none, even for a pipeline an
    # autoscheduler scheduled (a C++ Generator's build_module sets them:
    # tests/generator/generator_api_test.cpp); set_ keeps a copy, and get_
    # returns one (upstream's hands out the module's own, freed twice).
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("asr_f")
    f[x, y] = x + y
    f.set_estimates([(0, 64), (0, 64)])
    p = hl.Pipeline(f)
    assert p.compile_to_module([], "asr_plain").get_auto_scheduler_results() is None
    results = p.apply_autoscheduler(hl.Target("host"), hl.AutoschedulerParams("Li2018"))
    m = p.compile_to_module([], "asr_scheduled")
    assert m.get_auto_scheduler_results() is None
    m.set_auto_scheduler_results(results)
    got = m.get_auto_scheduler_results()
    assert isinstance(got, hl.AutoSchedulerResults)
    assert got.schedule_source == results.schedule_source != ""
    assert got.autoscheduler_params.name == "Li2018"
    got.schedule_source = "// changed"
    assert m.get_auto_scheduler_results().schedule_source == results.schedule_source
