"""The real wheels, pip-installed into a fresh venv: the runtime alone (no
compiler), the imaging plugin and the broken fixture plugin."""

from __future__ import annotations

import pytest
from conftest import run_python

pytestmark = pytest.mark.nosanitize


def test_runtime_imports_without_the_compiler(wheel_venv):
    code = """
import halide, halide.runtime
maps = open('/proc/self/maps').read()
assert 'libHalide' not in maps and 'LLVM' not in maps, 'compiler loaded'
print(halide.runtime.__file__)
for access in ("halide.Func", "from halide import Var"):
    try:
        exec(access)
    except ImportError as e:
        assert 'pip install halide' in str(e), e
        print('ImportError ok')
    else:
        raise AssertionError(access + ' did not raise')
"""
    proc = run_python(code, python=wheel_venv, isolated=True)
    lines = proc.stdout.split()
    assert "site-packages" in lines[0]  # the installed wheel, not the build tree
    assert lines[1:] == ["ImportError", "ok", "ImportError", "ok"]


def test_installed_plugins_are_listed_and_broken_ones_warn(wheel_venv):
    code = "import runpy, sys; sys.argv=['x','list']; runpy.run_module('halide.runtime', run_name='__main__')"
    proc = run_python(code, python=wheel_venv, isolated=True)
    listed = [line.split()[0] for line in proc.stdout.splitlines()]
    assert listed == ["imaging." + k for k in ("box_blur", "brighten", "equalize", "gamma", "gaussian5x5", "gradient",
                                               "invert", "resize_bilinear", "sobel", "unsharp")]
    assert "plugin 'broken_missing' from halide-kernels-broken" in proc.stderr
    assert "plugin 'broken_abi' from halide-kernels-broken" in proc.stderr
    assert "plugin 'broken_target' from halide-kernels-broken" in proc.stderr
    assert "is for arm-64-linux" in proc.stderr


def test_installed_kernels_run(wheel_venv):
    code = """
import warnings
import numpy as np, halide.runtime as hlr
warnings.simplefilter('ignore', hlr.HalideKernelWarning)
a = np.random.default_rng(0).integers(0, 256, size=(31, 17), dtype=np.uint8)
inv = hlr.kernel('imaging.invert')
np.testing.assert_array_equal(inv(a, output_shape=a.shape), 255 - a)
g = hlr.kernels()['gradient']
out = g(2.0, 0.5, output_shape=(3, 4))
y, x = np.mgrid[0:3, 0:4]
np.testing.assert_allclose(out, 2.0 * x + 0.5 * y)
print('ok', inv.library)
"""
    proc = run_python(code, python=wheel_venv, isolated=True)
    assert proc.stdout.startswith("ok ") and "halide_kernels_imaging" in proc.stdout
