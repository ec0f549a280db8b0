"""How a generated Python extension (OutputFileType.python_extension) maps a
NumPy array's axes to dimensions, as upstream 21's: a Fortran-contiguous
array keeps its axis order (axis 0 is dimension 0), any other array is
reversed (NumPy's last axis is dimension 0). Upstream's lesson 10 passes
Fortran-ordered arrays (issue 10). Checked with a pipeline whose values
name the dimension they were computed along."""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from conftest import run_python

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
import halide.runtime as hlr  # noqa: E402

pytestmark = [
    pytest.mark.nosanitize,  # builds and runs an interpreter of its own
    pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++"),
]


@pytest.fixture(scope="module")
def module_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("axes")
    x, y = hl.Var("x"), hl.Var("y")
    input = hl.ImageParam(hl.Int(32), 2, "input")
    # Dimension 0's coordinate times 1000 plus the input: the result tells
    # which array axis became dimension 0.
    f = hl.Func("axes")
    f[x, y] = x * 1000 + input[x, y]
    hl.Pipeline(f).compile_to(
        {
            hl.OutputFileType.python_extension: str(out / "axes.py.cpp"),
            hl.OutputFileType.static_library: str(out / "axes.a"),
        },
        [hl.Argument(input)],
        "axes",
    )
    ext = out / ("axes" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(
        ["g++", "-shared", "-fPIC", "-O1", "-I", sysconfig.get_paths()["include"], "-I", hlr.get_include(),
         str(out / "axes.py.cpp"), str(out / "axes.a"), "-o", str(ext), "-lpthread", "-ldl"],
        check=True, timeout=300,
    )  # fmt: skip
    return out


def run(module_dir: Path, order_in: str, order_out: str) -> tuple[np.ndarray, np.ndarray, str]:
    code = f"""
import sys
sys.path.insert(0, {str(module_dir)!r})
import numpy as np
import axes
a = np.array(np.arange(6 * 4).reshape(6, 4), dtype=np.int32, order={order_in!r})
out = np.zeros((6, 4), dtype=np.int32, order={order_out!r})
try:
    axes.axes(a, out)
    print("ok")
except Exception as e:
    print(type(e).__name__, e)
np.save({str(module_dir / "out.npy")!r}, out)
"""
    done = run_python(code)
    a = np.arange(6 * 4).reshape(6, 4)
    return a, np.load(module_dir / "out.npy"), done.stdout.strip()


def test_a_c_ordered_array_has_its_last_axis_as_dimension_0(module_dir):
    a, out, status = run(module_dir, "C", "C")
    assert status == "ok"
    np.testing.assert_array_equal(out, np.arange(4)[None, :] * 1000 + a)


def test_a_fortran_ordered_array_keeps_its_axis_order(module_dir):
    a, out, status = run(module_dir, "F", "F")
    assert status == "ok"
    np.testing.assert_array_equal(out, np.arange(6)[:, None] * 1000 + a)


def test_orders_that_disagree_give_shapes_that_disagree(module_dir):
    # F input (6 x 4 in Halide's order), C output (4 x 6): the input does
    # not cover the region the output needs, as upstream's fails.
    _, _, status = run(module_dir, "F", "C")
    assert status.startswith("HalideError")
