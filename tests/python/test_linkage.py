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


def test_only_the_compiler_extension_links_libhalide():
    """Every Python extension module of the installed halide package: halide._compiler
    alone needs libhalide (which holds LLVM); none needs LLVM directly."""
    import sysconfig

    import halide

    package = Path(halide.__file__).parent
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    extensions = sorted(package.rglob("*" + suffix))
    names = {".".join(p.relative_to(package.parent).with_name(p.name[: -len(suffix)]).parts) for p in extensions}
    assert "halide.runtime._runtime" in names, names
    for ext in extensions:
        libs = needed(ext)
        assert not [lib for lib in libs if "LLVM" in lib], (ext, libs)
        links_compiler = [lib for lib in libs if lib.lower().startswith("libhalide.")]
        if ext.name.startswith("_compiler.") and ext.parent == package:
            assert links_compiler == ["libhalide.so"], (ext, libs)
        else:
            assert not links_compiler, (ext, libs)
    # Every other shared library shipped in the package (the runtime) too.
    for lib in package.rglob("*.so"):
        if lib not in extensions:
            assert not [n for n in needed(lib) if "LLVM" in n or n.lower().startswith("libhalide.")], lib
