"""halide.runtime links only the runtime: no compiler, no LLVM."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

from conftest import DIST


def needed(path: Path) -> list[str]:
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=True).stdout
    return [line.split("[")[1].split("]")[0] for line in out.splitlines() if "(NEEDED)" in line]


def test_extension_needs_only_the_runtime(hlr):
    ext = Path(hlr._runtime.__file__)
    libs = needed(ext)
    assert "libhalide_runtime.so" in libs
    assert not [lib for lib in libs if "LLVM" in lib or lib.lower().startswith("libhalide.")], libs
    runtime = ext.parent / "libhalide_runtime.so"
    assert not [lib for lib in needed(runtime) if "LLVM" in lib or "halide" in lib.lower()]


def test_runtime_wheel_holds_no_compiler():
    wheel = next(DIST.glob("halide_runtime-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith("halide/runtime/libhalide_runtime.so") for n in names)
    assert any(n.endswith("halide/runtime/include/HalideRuntime.h") for n in names)
    assert any(n.endswith("halide/runtime/include/halide_python_marshal.h") for n in names)
    assert not [n for n in names if "LLVM" in n or "libHalide" in n or "libhalide.so" in n]
