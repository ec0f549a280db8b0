"""The three distributions of issue 11, as built by ./run wheels into dist/:
halide-runtime (runtime only), halide-bin (libhalide, headers, pkg-config and
CMake files) and halide (the compiler bindings). Each is pip-installed into a
fresh venv without PYTHONPATH, so nothing of the build tree is visible.

Skipped when dist/ lacks the wheels; ./run test builds them first.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from conftest import DIST, REPO, _site_packages, fresh_venv, run_python

VERSION = (REPO / "VERSION").read_text().strip()
WHEELS = {w.name.split("-")[0]: w for w in sorted(DIST.glob("*.whl"))}
THREE = ("halide_runtime", "halide_bin", "halide")

pytestmark = [
    pytest.mark.nosanitize,
    pytest.mark.skipif(not set(THREE) <= set(WHEELS), reason=f"./run wheels has not built all three wheels in {DIST}"),
]


def _names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        return [n for n in z.namelist() if not n.endswith("/")]


def _metadata(wheel: Path, member: str) -> str:
    with zipfile.ZipFile(wheel) as z:
        return z.read(next(n for n in z.namelist() if n.endswith(".dist-info/" + member))).decode()


@pytest.fixture(scope="module")
def full_venv(tmp_path_factory):
    return fresh_venv(tmp_path_factory.mktemp("full-venv"), [WHEELS[name] for name in THREE])


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH")}
    return env | extra


# ---- the wheels themselves ----


def test_one_version_everywhere():
    for name in THREE:
        assert WHEELS[name].name.split("-")[1] == VERSION
    requires = _metadata(WHEELS["halide"], "METADATA")
    assert f"Requires-Dist: halide-bin=={VERSION}" in requires
    assert f"Requires-Dist: halide-runtime=={VERSION}" in requires
    # The pins are written by hand in packaging/halide/pyproject.toml.
    pyproject = (REPO / "packaging" / "halide" / "pyproject.toml").read_text()
    assert pyproject.count("==") == pyproject.count(f"=={VERSION}") == 3


def test_no_file_in_two_wheels():
    owner: dict[str, str] = {}
    for name, wheel in WHEELS.items():
        for path in _names(wheel):
            if ".dist-info/" in path:
                continue
            assert path not in owner, f"{path} is in both {owner[path]} and {name}"
            owner[path] = name


def test_halide_bin_is_python_independent_and_complete():
    wheel = WHEELS["halide_bin"]
    assert "-py3-none-" in wheel.name and wheel.name.endswith("_x86_64.whl"), wheel.name
    assert "Root-Is-Purelib: false" in _metadata(wheel, "WHEEL")
    names = set(_names(wheel))
    for path in ["lib/libhalide.so", "lib/libhalide_gengen.a", "lib/libhalide_runtime.a", "include/Halide.h",
                 "include/Halide/Func.h", "include/HalideRuntime.h", "include/HalideBuffer.h",
                 "lib/pkgconfig/halide.pc", "lib/pkgconfig/halide-gengen.pc", "lib/pkgconfig/halide-runtime.pc",
                 "lib/cmake/Halide/HalideConfig.cmake", "lib/cmake/Halide/HalideConfigVersion.cmake",
                 "__init__.py", "__main__.py"]:
        assert "halide_bin/" + path in names, path
    assert not any(".cpython-" in n for n in names)


def test_runtime_wheel_is_small_and_has_no_compiler():
    wheel = WHEELS["halide_runtime"]
    print(f"halide-runtime wheel: {wheel.stat().st_size / 1024:.0f} KB")
    assert wheel.stat().st_size < 1024 * 1024
    assert not any("libhalide.so" in n or "LLVM" in n or "_compiler" in n for n in _names(wheel))


def test_halide_wheel_holds_only_the_compiler_bindings():
    names = [n for n in _names(WHEELS["halide"]) if ".dist-info/" not in n]
    kinds = sorted((Path(n).name.split(".")[0], Path(n).suffix) for n in names)
    # The extension, its type stub, the Generator support and upstream's module name for the
    # bindings (halide.halide_); halide-runtime has the rest.
    assert kinds == [("_compiler", ".pyi"), ("_compiler", ".so"), ("_generator", ".py"), ("halide_", ".py")], names


# ---- runtime-only venv: halide-runtime and the imaging plugin ----


def test_runtime_only_venv_has_no_libhalide(wheel_venv):
    env_dir = wheel_venv.parent.parent
    found = [p for p in env_dir.rglob("*") if "libhalide.so" in p.name or "LLVM" in p.name]
    assert found == []
    code = """
import halide.runtime as hlr, numpy as np, warnings
warnings.simplefilter('ignore', hlr.HalideKernelWarning)
a = np.arange(12, dtype=np.uint8).reshape(3, 4)
np.testing.assert_array_equal(hlr.kernel('imaging.invert')(a, output_shape=a.shape), 255 - a)
try:
    import halide
    halide.Func
except ImportError as e:
    assert 'pip install halide' in str(e), e
    print('ok')
"""
    assert run_python(code, python=wheel_venv, env=_clean_env(), isolated=True).stdout.split() == ["ok"]


# ---- full venv: all three ----


def test_compile_in_python_and_load_with_the_runtime(full_venv, tmp_path):
    # A copy of libhalide.so on LD_LIBRARY_PATH must not be the one loaded:
    # the halide package loads halide-bin's by its absolute path.
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    site = _site_packages(full_venv.parent.parent)
    shutil.copy(site / "halide_bin" / "lib" / "libhalide.so", foreign)
    out = tmp_path / "libbrighter.so"
    code = f"""
import numpy as np, halide as hl, halide.runtime as hlr
x, y = hl.Var('x'), hl.Var('y')
inp = hl.ImageParam(hl.UInt(8), 2, 'inp')
f = hl.Func('brighter')
f[x, y] = hl.cast(hl.UInt(8), hl.min(hl.cast(hl.UInt(16), inp[x, y]) + 40, 255))
f.vectorize(x, 16)
f.compile_to({{hl.OutputFileType.shared_library: {str(out)!r}}}, [inp], 'brighter')
a = np.random.default_rng(1).integers(0, 256, size=(30, 50), dtype=np.uint8)
got = hlr.load({str(out)!r})(a, output_shape=a.shape)
np.testing.assert_array_equal(got, np.minimum(a.astype(np.int32) + 40, 255))
print(sorted({{line.split()[-1] for line in open('/proc/self/maps') if 'libhalide.so' in line}}))
"""
    proc = run_python(code, python=full_venv, env=_clean_env(LD_LIBRARY_PATH=str(foreign)), isolated=True)
    assert proc.stdout.strip() == str([str(site / "halide_bin" / "lib" / "libhalide.so")])


def test_halide_bin_prints_its_folders(full_venv):
    proc = subprocess.run([str(full_venv), "-m", "halide_bin", "--cmakedir"], capture_output=True, text=True,
                          env=_clean_env(), check=True)
    assert (Path(proc.stdout.strip()) / "HalideConfig.cmake").is_file()


def _halide_bin(full_venv: Path, flag: str) -> str:
    return subprocess.run([str(full_venv), "-m", "halide_bin", flag], capture_output=True, text=True,
                          env=_clean_env(), check=True).stdout.strip()


def _run(cmd: list[str], **kwargs) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kwargs)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout}\n{proc.stderr}"


def test_meson_project_through_pkg_config(full_venv, tmp_path):
    meson = shutil.which("meson") or pytest.fail("meson not on PATH")
    env = _clean_env(PKG_CONFIG_PATH=_halide_bin(full_venv, "--pkgconfigdir"))
    build = tmp_path / "build"
    _run([meson, "setup", str(build), str(REPO / "examples" / "meson_consumer")], env=env)
    _run([meson, "test", "-C", str(build), "--print-errorlogs"], env=env)


def test_cmake_project_through_find_package(full_venv, tmp_path):
    cmake = shutil.which("cmake") or pytest.fail("cmake not on PATH (./run installs it)")
    env = _clean_env()
    build = tmp_path / "build"
    _run([cmake, "-S", str(REPO / "examples" / "cmake_consumer"), "-B", str(build),
          f"-DHalide_DIR={_halide_bin(full_venv, '--cmakedir')}"], env=env)
    _run([cmake, "--build", str(build)], env=env)
    _run([shutil.which("ctest") or "ctest", "--test-dir", str(build), "--output-on-failure"], env=env)
