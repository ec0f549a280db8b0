"""Kernels our compiler wrote as shared libraries itself (tests/aot,
OutputFileType::shared_library, linked with lld inside libhalide) load and
run under halide.runtime: with the runtime embedded, and with no_runtime
(served by halide.runtime's shared runtime)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import BUILD

AOT = BUILD / "tests" / "aot"

# The sanitizer build leaves the compiler (and so these kernels) out.
pytestmark = pytest.mark.nosanitize


def brighter_reference(a: np.ndarray, scale: float, offset: int) -> np.ndarray:
    v = a.astype(np.float32) * np.float32(scale) + np.float32(offset)
    return np.clip(v, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("library", ["libbrighter_aot.so", "libbrighter_aot_nort.so"])
def test_compiler_shared_library_runs(hlr, rng, library):
    path = AOT / library
    if not path.exists():
        pytest.fail(f"{path} was not built (meson compile -C {BUILD})")
    k = hlr.load(str(path), "brighter")
    assert [(a.name, a.kind, a.type, a.dimensions) for a in k.arguments] == [
        ("input", "input_buffer", "uint8", 2),
        ("scale", "input_scalar", "float32", 0),
        ("offset", "input_scalar", "int32", 0),
        ("brighter", "output_buffer", "uint8", 2),
    ]
    assert (k.arguments[1].min, k.arguments[1].max) == (0.0, 10.0)
    a = rng.integers(0, 256, size=(37, 53), dtype=np.uint8)
    out = k(a, 1.75, -12, output_shape=a.shape)
    np.testing.assert_array_equal(out, brighter_reference(a, 1.75, -12))
    # Bounds queries are answered: the output is at least one vector wide.
    assert k.bounds(scale=1.0, offset=0, output_shape=(4, 3))["brighter"] == ((0, 4), (-13, 16))
    # The range in the metadata is enforced before the call; the kernel's
    # own check (-10) is exercised by tests/aot/aot_dlopen_test.c.
    with pytest.raises(ValueError, match="scale"):
        k(a, 11.0, 0, output_shape=a.shape)
    with pytest.raises(hlr.HalideError) as info:
        k(a[:, :50], 1.0, 0, output_shape=a.shape)
    assert info.value.code == -4


@pytest.fixture(scope="module")
def extension():
    """The python_extension output of tests/aot (brighter.py.cpp) built into a module."""
    import importlib
    import sys

    if not list(AOT.glob("brighter.cpython-*.so")):
        pytest.fail(f"the brighter extension module was not built in {AOT}")
    sys.path.insert(0, str(AOT))
    try:
        return importlib.import_module("brighter")
    finally:
        sys.path.remove(str(AOT))


def test_python_extension_runs_with_positional_and_keyword_arguments(extension, rng):
    a = rng.integers(0, 256, size=(19, 33), dtype=np.uint8)
    out = np.zeros_like(a)
    assert extension.brighter(a, 2.5, -30, out) is None
    np.testing.assert_array_equal(out, brighter_reference(a, 2.5, -30))
    out2 = np.zeros_like(a)
    extension.brighter(offset=4, brighter=out2, scale=0.5, input=a)
    np.testing.assert_array_equal(out2, brighter_reference(a, 0.5, 4))


def test_python_extension_errors_are_exceptions(extension, hlr):
    a = np.zeros((8, 16), np.uint8)
    out = np.zeros((8, 16), np.uint8)
    with pytest.raises(ValueError, match="argument 'input' has 3 dimensions, expected 2"):
        extension.brighter(np.zeros((2, 8, 16), np.uint8), 1.0, 0, out)
    with pytest.raises(TypeError, match="argument 'brighter' has elements of type float32, expected uint8"):
        extension.brighter(a, 1.0, 0, np.zeros((8, 16), np.float32))
    with pytest.raises(OverflowError, match="offset"):
        extension.brighter(a, 1.0, 2**40, out)
    with pytest.raises(TypeError):
        extension.brighter(a, 1.0)
    out.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        extension.brighter(a, 1.0, 0, out)
    # Failures inside the kernel: its error code and the runtime's message.
    with pytest.raises(extension.HalideError) as info:
        extension.brighter(a, 11.0, 0, np.zeros((8, 16), np.uint8))
    assert info.value.code == -10
    assert "scale" in str(info.value)
    with pytest.raises(extension.HalideError) as info:
        extension.brighter(a[:, :10], 1.0, 0, np.zeros((8, 16), np.uint8))
    assert info.value.code == -4
    assert issubclass(extension.HalideError, RuntimeError)
