"""Pipeline.compile_to with the output kinds besides objects and headers:
function_info_header (checked by a C++17 compiler at compile time),
registration (linked with the kernel and a host that records what it
registers, then called), stmt_html/conceptual_stmt, schedule,
featurization, device_code; and the kinds this compiler refuses by name."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
import halide.runtime  # noqa: E402

OFT = hl.OutputFileType
CXX = shutil.which("c++") or shutil.which("g++")


def pipeline():
    x = hl.Var("x")
    im = hl.ImageParam(hl.UInt(8), 1, "im")
    scale = hl.Param(hl.Float(32), "scale", 1.5)
    f = hl.Func("outf")
    f[x] = hl.cast(hl.Float(32), im[x]) * scale
    return f, [im, scale]


def compile_one(tmp_path, kind, name):
    f, args = pipeline()
    path = tmp_path / name
    f.compile_to({kind: str(path)}, args, "outf", hl.Target("host"))
    return path


@pytest.mark.skipif(CXX is None, reason="needs a C++ compiler")
def test_function_info_header_describes_the_arguments_at_compile_time(tmp_path):
    compile_one(tmp_path, OFT.function_info_header, "outf.function_info.h")
    (tmp_path / "check.cpp").write_text(
        '#include "outf.function_info.h"\n'
        "using namespace HalideFunctionInfo;\n"
        "constexpr auto info = outf_argument_info();\n"
        "static_assert(info.size() == 3);\n"
        'static_assert(info[0].name == "im" && info[0].kind == InputBuffer && info[0].dimensions == 1);\n'
        "static_assert(info[0].type.code == halide_type_uint && info[0].type.bits == 8);\n"
        'static_assert(info[1].name == "scale" && info[1].kind == InputScalar && info[1].dimensions == 0);\n'
        "static_assert(info[1].type.code == halide_type_float && info[1].type.bits == 32);\n"
        'static_assert(info[2].name == "outf" && info[2].kind == OutputBuffer && info[2].dimensions == 1);\n'
        "int main() { return 0; }\n"
    )
    r = subprocess.run([CXX, "-std=c++17", "-fsyntax-only", "-I", str(tmp_path), "-I",
                        str(halide.runtime.get_include()), str(tmp_path / "check.cpp")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.skipif(CXX is None, reason="needs a C++ compiler")
def test_registration_registers_a_callable_kernel(tmp_path):
    f, args = pipeline()
    f.compile_to({OFT.registration: str(tmp_path / "outf.registration.cpp"),
                  OFT.object: str(tmp_path / "outf.o")}, args, "outf", hl.Target("host"))
    (tmp_path / "host.cpp").write_text(
        "#include <cstdio>\n#include <cstring>\n#include <cstdint>\n"
        '#include "HalideRuntime.h"\n'
        "static int (*registered)(void **) = nullptr;\n"
        "static const halide_filter_metadata_t *meta = nullptr;\n"
        'extern "C" void halide_register_argv_and_metadata(int (*argv_call)(void **),\n'
        "    const halide_filter_metadata_t *m, const char *const *) { registered = argv_call; meta = m; }\n"
        "int main() {\n"
        "    if (!registered || !meta) return 2;\n"
        "    uint8_t in[4] = {1, 2, 3, 4}; float out[4] = {0};\n"
        "    halide_dimension_t d = {0, 4, 1, 0};\n"
        "    halide_buffer_t bin = {}, bout = {};\n"
        "    bin.host = in; bin.type = halide_type_t(halide_type_uint, 8); bin.dimensions = 1; bin.dim = &d;\n"
        "    bout.host = (uint8_t *)out; bout.type = halide_type_t(halide_type_float, 32);\n"
        "    bout.dimensions = 1; bout.dim = &d;\n"
        "    float scale = 2.0f;\n"
        "    void *argv[3] = {&bin, &scale, &bout};\n"
        "    int r = registered(argv);\n"
        '    std::printf("%s %d %g %g %g %g", meta->name, r, out[0], out[1], out[2], out[3]);\n'
        "    return 0;\n}\n"
    )
    exe = tmp_path / "host"
    r = subprocess.run([CXX, "-std=c++17", "-I", str(halide.runtime.get_include()), str(tmp_path / "host.cpp"),
                        str(tmp_path / "outf.registration.cpp"), str(tmp_path / "outf.o"), "-o", str(exe),
                        "-lpthread", "-ldl", "-lm"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    assert out[:2] == ["outf", "0"]
    np.testing.assert_array_equal(np.array(out[2:], dtype=np.float32), np.array([1, 2, 3, 4], np.float32) * 2)


def test_statement_outputs(tmp_path):
    text = compile_one(tmp_path, OFT.conceptual_stmt, "outf.conceptual.stmt").read_text()
    assert "outf" in text and "for" in text
    for kind in (OFT.stmt_html, OFT.conceptual_stmt_html):
        page = compile_one(tmp_path, kind, "outf.html").read_text()
        assert page.lstrip().lower().startswith("<!doctype html") or "<html" in page[:200].lower()
        assert "outf" in page


def test_schedule_and_featurization_without_an_autoscheduler(tmp_path):
    text = compile_one(tmp_path, OFT.schedule, "outf.schedule.h").read_text()
    assert "inline void apply_schedule_outf(::Halide::Pipeline pipeline, ::Halide::Target target)" in text
    assert compile_one(tmp_path, OFT.featurization, "outf.featurization").read_bytes() == b""
    # A CPU target has no device code: nothing is written, as upstream.
    f, args = pipeline()
    f.compile_to({OFT.device_code: str(tmp_path / "outf.device")}, args, "outf", hl.Target("host"))
    assert not (tmp_path / "outf.device").exists()


@pytest.mark.parametrize(("kind", "words"), [
    (OFT.compiler_log, "compiler logger"),
    (OFT.cpp_stub, "Generator"),
    (OFT.hlpipe, "hlpipe"),
    (OFT.pytorch_wrapper, "pytorch_wrapper"),
])
def test_refused_kinds_name_themselves(tmp_path, kind, words):
    with pytest.raises(hl.HalideError, match=words):
        compile_one(tmp_path, kind, "outf.x")
