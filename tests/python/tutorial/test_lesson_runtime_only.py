"""Tutorial, runtime-only use: kernels compiled once, run where only halide.runtime is imported.

The compiler writes shared libraries (compile_to with shared_library); a
fresh interpreter that imports only halide.runtime loads and calls them
with NumPy arrays and halide.runtime Buffers, never loading the compiler
(neither halide._compiler nor libhalide appears in the process). Results
are compared with NumPy in the test process.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import run_python

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

pytestmark = pytest.mark.nosanitize  # a second interpreter, without the sanitizer preload

x, y = hl.Var("x"), hl.Var("y")


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runtime_only")
    # An 8-bit contrast stretch with a float parameter...
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    gain = hl.Param(hl.Float(32), "gain", 1.0)
    stretched = hl.Func("stretched")
    stretched[x, y] = hl.u8_sat((hl.f32(input[x, y]) - 128) * gain + 128)
    stretched.vectorize(x, 8)
    hl.Pipeline(stretched).compile_to(
        {hl.OutputFileType.shared_library: str(out / "libstretch.so")}, [input, gain], "stretch"
    )
    # ...and a float 3x1 blur whose output is smaller than its input.
    image = hl.ImageParam(hl.Float(32), 2, "image")
    blurred = hl.Func("blurred")
    blurred[x, y] = (image[x, y] + image[x + 1, y] + image[x + 2, y]) / 3
    hl.Pipeline(blurred).compile_to(
        {hl.OutputFileType.shared_library: str(out / "libblur3.so")}, [image], "blur3"
    )
    return out


RUNTIME_SCRIPT = """
import json, sys
import numpy as np
import halide.runtime as hlr

d = sys.argv[1] if len(sys.argv) > 1 else {dir!r}
stretch = hlr.load(d + "/libstretch.so")
blur3 = hlr.load(d + "/libblur3.so")
info = {{"names": [list(stretch.argument_names), list(blur3.argument_names)],
         "kinds": [a["kind"] for a in stretch.arguments], "types": [a["type"] for a in stretch.arguments]}}

a = (np.arange(40 * 50) * 13 % 256).astype(np.uint8).reshape(40, 50)
np.save(d + "/stretch_2.npy", stretch(a, 2.0, output_shape=a.shape))
out = np.zeros_like(a)
stretch(input=a, gain=0.5, stretched=out)
np.save(d + "/stretch_half.npy", out)

img = (np.arange(10 * 12, dtype=np.float32) * 0.25).reshape(10, 12)
info["bounds"] = blur3.bounds(output_shape=(10, 10))["image"]
res = hlr.Buffer(np.zeros((10, 10), np.float32))
blur3(hlr.Buffer(img), res)
np.save(d + "/blur3.npy", np.asarray(res))

maps = open("/proc/self/maps").read()
info["compiler_loaded"] = any(m.startswith("halide._compiler") for m in sys.modules) or "libhalide.so" in maps
print(json.dumps(info))
"""


def test_kernels_run_with_the_runtime_alone(kernels: Path) -> None:
    proc = run_python(RUNTIME_SCRIPT.format(dir=str(kernels)))
    info = json.loads(proc.stdout)
    assert info["compiler_loaded"] is False
    assert info["names"] == [["input", "gain", "stretched"], ["image", "blurred"]]
    assert info["kinds"] == ["input_buffer", "input_scalar", "output_buffer"]
    assert info["types"] == ["uint8", "float32", "uint8"]
    # NumPy axis order: rows as they are, columns widened by the two extra taps.
    assert [list(r) for r in info["bounds"]] == [[0, 10], [0, 12]]

    a = (np.arange(40 * 50) * 13 % 256).astype(np.uint8).reshape(40, 50)
    for name, gain in (("stretch_2", 2.0), ("stretch_half", 0.5)):
        want = np.clip((a.astype(np.float32) - 128) * np.float32(gain) + 128, 0, 255).astype(np.uint8)
        np.testing.assert_array_equal(np.load(kernels / f"{name}.npy"), want)
    img = (np.arange(10 * 12, dtype=np.float32) * 0.25).reshape(10, 12)
    want = (img[:, :-2] + img[:, 1:-1] + img[:, 2:]) / np.float32(3)
    np.testing.assert_allclose(np.load(kernels / "blur3.npy"), want, rtol=1e-6)


def test_argument_errors_come_from_the_metadata(kernels: Path) -> None:
    import halide.runtime as hlr

    stretch = hlr.load(str(kernels / "libstretch.so"))
    assert stretch.arguments[1].describe().startswith("float32 scalar")
    a = np.full((3, 8), 100, np.uint8)  # at least one vector (8) wide
    with pytest.raises(hlr.KernelArgumentError):
        stretch(a, "not a number", output_shape=a.shape)
    with pytest.raises(hlr.KernelArgumentError):
        stretch(a, 1.0, output_shape=a.shape, no_such_argument=1)
    out = stretch(a, 3.0, output_shape=a.shape)
    np.testing.assert_array_equal(np.asarray(out), np.full((3, 8), 44, np.uint8))  # (100 - 128) * 3 + 128
