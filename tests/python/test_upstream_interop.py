"""Kernels built by upstream Halide 14 (Debian python3-halide) run under
halide.runtime: metadata with the 14-style type word, results, bounds
queries and errors captured instead of aborting."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture(scope="module")
def up(upstream_kernels, hlr):
    return {name: hlr.load(k["library"], name) for name, k in upstream_kernels.items()}


def test_metadata_is_read(up):
    k = up["up_brighten"]
    assert [(a.name, a.kind, a.type, a.dimensions) for a in k.arguments] == [
        ("input", "input_buffer", "uint8", 2),
        ("offset", "input_scalar", "int32", 0),
        ("up_brighten", "output_buffer", "uint8", 2),
    ]
    assert (k.arguments[1].min, k.arguments[1].max) == (-255, 255)
    assert k.target.startswith("x86-64-linux")


def test_results_match_numpy(up, rng):
    a = rng.integers(0, 256, size=(48, 64), dtype=np.uint8)
    out = up["up_brighten"](a, 100, output_shape=a.shape)
    np.testing.assert_array_equal(out, np.clip(a.astype(np.int32) + 100, 0, 255).astype(np.uint8))
    f = rng.standard_normal((3, 5, 7)).astype(np.float32)
    np.testing.assert_allclose(up["up_scale_f32"](f, 1.5, output_shape=f.shape), f * np.float32(1.5), rtol=1e-6)


def test_bounds_query_and_blur(up, hlr, rng):
    blur = up["up_blur"]
    regions = blur.bounds(output_shape=(48, 64))
    assert regions["up_blur"] == ((0, 48), (0, 64))
    assert regions["input"] == ((-1, 50), (-1, 66))
    a = rng.integers(0, 4000, size=(50, 66), dtype=np.uint16)
    buf = hlr.Buffer(a).translated(0, -1).translated(1, -1)
    out = blur(buf, output_shape=(48, 64))
    w = a.astype(np.uint32)
    bx = (w[:, :-2] + w[:, 1:-1] + w[:, 2:]) // 3
    expected = ((bx[:-2] + bx[1:-1] + bx[2:]) // 3).astype(np.uint16)
    np.testing.assert_array_equal(out, expected)


def test_upstream_errors_raise_instead_of_aborting(up, hlr):
    k = up["up_brighten"]
    with pytest.raises(hlr.HalideError) as info:
        k(np.zeros((48, 63), np.uint8), 1, output_shape=(48, 64))
    assert info.value.code == -4
    assert "Input buffer input is accessed at 63, which is beyond the max (62) in dimension 0" in str(info.value)
