"""The imaging plugin's Python-Generator kernels (brighten, gaussian5x5,
sobel, gamma, resize_bilinear, unsharp, equalize), installed from the wheel, against
NumPy (plugins/imaging/examples/reference.py, which the demo times the
kernels against too) at the best CPU level and at baseline."""

from __future__ import annotations

import json

import pytest
from conftest import REPO, run_python

REFERENCE = REPO / "plugins" / "imaging" / "examples"

SCRIPT = """
import json, sys
sys.path.insert(0, {here!r})
import numpy as np
import halide.runtime as hlr
import reference as ref

def k(name):
    return hlr.kernel("imaging." + name)

def err(a, b):
    assert a.shape == b.shape, (a.shape, b.shape)
    return int(np.abs(a.astype(int) - b.astype(int)).max())

rng = np.random.default_rng(21)
img = rng.integers(0, 256, size=(67, 101), dtype=np.uint8)
tiny = rng.integers(0, 256, size=(3, 2), dtype=np.uint8)   # narrower than any vector, edges everywhere
e = {{"level": hlr.kernels().info("imaging.sobel").cpu_level}}
e["brighten"] = max(err(k("brighten")(i, a, output_shape=i.shape), ref.brighten(i, a)) for a in (40, -300, 0)
                    for i in (img, tiny))
e["gaussian5x5"] = max(err(k("gaussian5x5")(i, output_shape=i.shape), ref.gauss(i)) for i in (img, tiny))
e["sobel"] = max(err(k("sobel")(i, output_shape=i.shape), ref.sobel(i)) for i in (img, tiny))
e["gamma"] = max(err(k("gamma")(i, g, output_shape=i.shape), ref.gamma(i, g)) for g in (2.2, 0.45, 1.0)
                 for i in (img, tiny))
e["resize_down"] = err(k("resize_bilinear")(img, 101 / 50, 67 / 30, output_shape=(30, 50)),
                       ref.resize(img, (30, 50), 101 / 50, 67 / 30))
e["resize_up"] = err(k("resize_bilinear")(img, 0.5, 0.5, output_shape=(134, 202)),
                     ref.resize(img, (134, 202), 0.5, 0.5))
e["resize_tiny"] = err(k("resize_bilinear")(tiny, 0.5, 0.75, output_shape=(4, 4)), ref.resize(tiny, (4, 4), 0.5, 0.75))
e["invert"] = max(err(k("invert")(i, output_shape=i.shape), ref.invert(i)) for i in (img, tiny))
e["unsharp"] = max(err(k("unsharp")(i, 1.5, output_shape=i.shape), ref.unsharp(i, 1.5)) for i in (img, tiny))
low = rng.normal(120, 12, size=(83, 130)).clip(0, 255).astype(np.uint8)  # low contrast: something to stretch
flat = np.full((9, 5), 77, np.uint8)  # one value: returned unchanged
e["equalize"] = max(err(k("equalize")(i, output_shape=i.shape), ref.equalize(i)) for i in (img, tiny, low, flat))
e["equalize_span"] = int(np.ptp(k("equalize")(low, output_shape=low.shape)))
e["sobel_nonzero"] = int(k("sobel")(img, output_shape=img.shape).max())
print(json.dumps(e))
"""


@pytest.mark.nosanitize
@pytest.mark.parametrize("level", [None, "baseline"])
def test_python_generator_kernels_against_numpy(wheel_venv, level):
    env = {"HALIDE_RUNTIME_CPU_LEVEL": level} if level else {}
    code = SCRIPT.format(here=str(REFERENCE))
    e = json.loads(run_python(code, python=wheel_venv, isolated=True, env=env).stdout)
    if level:
        assert e["level"] == level
    assert e["sobel_nonzero"] > 0
    # Integer arithmetic: exact. Float math (pow in float32 here, float64 in
    # NumPy; float32 bilinear and unsharp): at most one step of rounding.
    assert e["equalize_span"] == 255  # the darkest value present maps to 0, the brightest to 255
    for name in ("brighten", "gaussian5x5", "sobel", "equalize", "invert"):
        assert e[name] == 0, (name, e)
    for name in ("gamma", "resize_down", "resize_up", "resize_tiny", "unsharp"):
        assert e[name] <= 1, (name, e)
