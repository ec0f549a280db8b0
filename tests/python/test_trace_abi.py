"""Kernels built by upstream Halide 21 with the trace features run under our runtime.

Upstream's traced kernels call halide_trace_helper (and build their
"func_type_and_dim" tag with halide_string_to_string and
halide_int64_to_string), which our runtime provides. Checked three ways,
each against upstream itself:

- tests/aot/aot_trace_test.c (the events written out from the pipeline's
  definition) passes with upstream's no_runtime kernel and our runtime, the
  handler installed with halide_set_custom_trace;
- our default handler prints the same lines as upstream's own runtime
  (the same kernel built with upstream's runtime embedded);
- with HL_TRACE_FILE set, the binary trace files are byte for byte equal.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from c_link import NEEDS_UPSTREAM_AND_CC, link_driver
from conftest import REPO
from upstream_api import UPSTREAM_PY, upstream_env

pytestmark = NEEDS_UPSTREAM_AND_CC

GENERATE = """
import sys
import halide as hl
x, y = hl.Var("x"), hl.Var("y")
f, g = hl.Func("f"), hl.Func("g")
f[x, y] = hl.f32(x + y)
g[x, y] = f[x, y] * 2 + 1
f.compute_root()
t = hl.get_host_target()
features = [hl.TargetFeature.TraceLoads, hl.TargetFeature.TraceStores, hl.TargetFeature.TraceRealizations]
if sys.argv[2] == "no_runtime":
    features.append(hl.TargetFeature.NoRuntime)
for feature in features:
    t = t.with_feature(feature)
out = sys.argv[1]
g.compile_to({hl.OutputFileType.object: out + "/traced.o", hl.OutputFileType.c_header: out + "/traced.h"},
             [], "traced", t)
"""

PLAIN_DRIVER = r"""
#include <string.h>
#include "HalideRuntime.h"
#include "traced.h"
int main(void) {
    float data[2][4];
    halide_dimension_t dims[2] = {{1, 4, 1, 0}, {3, 2, 4, 0}};
    halide_buffer_t out;
    memset(&out, 0, sizeof(out));
    out.host = (uint8_t *)data;
    out.type.code = halide_type_float;
    out.type.bits = 32;
    out.type.lanes = 1;
    out.dimensions = 2;
    out.dim = dims;
    int r = traced(&out);
    return r | halide_shutdown_trace();
}
"""


def upstream_kernel(tmp_path: Path, kind: str) -> Path:
    out = tmp_path / kind
    out.mkdir()
    subprocess.run([str(UPSTREAM_PY), "-c", GENERATE, str(out), kind], check=True, env=upstream_env())
    return out


def link(out: Path, sources: list[Path], include: Path, extra: list[str], runtime: bool) -> Path:
    return link_driver(out / "driver", [*sources, out / "traced.o"], [out, include], extra, runtime)


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("trace_abi")
    return upstream_kernel(tmp, "no_runtime"), upstream_kernel(tmp, "embedded")


def test_custom_trace_handler_sees_upstream_kernels_events(kernels):
    ours, _ = kernels
    defines = ["-DKERNEL=traced", '-DKERNEL_NAME="traced"', '-DKERNEL_HEADER="traced.h"']
    exe = link(ours, [REPO / "tests" / "aot" / "aot_trace_test.c"], REPO / "runtime" / "include", defines, True)
    result = subprocess.run([str(exe)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "38 events as expected" in result.stdout


def test_default_handler_prints_and_writes_what_upstream_does(kernels, tmp_path):
    ours_dir, theirs_dir = kernels
    (tmp_path / "driver.c").write_text(PLAIN_DRIVER)
    upstream_include = UPSTREAM_PY.parents[1] / "lib" / "python3.11" / "site-packages" / "halide" / "include"
    ours = link(ours_dir, [tmp_path / "driver.c"], REPO / "runtime" / "include", [], True)
    theirs = link(theirs_dir, [tmp_path / "driver.c"], upstream_include, [], False)

    text_ours = subprocess.run([str(ours)], capture_output=True, text=True, check=True).stdout
    text_theirs = subprocess.run([str(theirs)], capture_output=True, text=True, check=True).stdout
    assert text_ours.splitlines()[:3] == [
        "Begin pipeline traced.0()",
        'Tag f.0() tag = "func_type_and_dim: 1 2 32 1 2 1 4 3 2"',
        'Tag g.0() tag = "func_type_and_dim: 1 2 32 1 2 1 4 3 2"',
    ]
    assert "Store g.0(4, 4) = 17.000000" in text_ours.splitlines()
    assert text_ours == text_theirs

    for exe, name in ((ours, "ours.bin"), (theirs, "theirs.bin")):
        subprocess.run([str(exe)], check=True, capture_output=True, env={"HL_TRACE_FILE": str(tmp_path / name)})
    binary_ours = (tmp_path / "ours.bin").read_bytes()
    assert len(binary_ours) > 0 and len(binary_ours) % 4 == 0
    assert binary_ours == (tmp_path / "theirs.bin").read_bytes()
