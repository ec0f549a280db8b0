"""Type stubs of `halide` and `halide.runtime`: checked in, installed, and used by mypy.

python/tools/generate_stubs.py writes them from the built bindings; these
tests fail when a binding changed without the stubs being regenerated, when
an install lacks them, and when mypy finds an error in the tutorials and
examples type-checked against them.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import BUILD, DIST, REPO, run_python

pytestmark = pytest.mark.nosanitize  # runs the compiler and mypy in subprocesses

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
# Looked up, not imported: mypy runs in subprocesses, and its compiled modules have no business
# in this process.
assert importlib.util.find_spec("mypy"), "mypy is pinned in requirements-dev.txt"

SOURCE = REPO / "python" / "halide"
STUBS = ["__init__.pyi", "py.typed", "_compiler.pyi", "runtime/_runtime.pyi", "runtime/py.typed"]

# Tutorial-style scripts and examples that must type-check against the stubs.
CHECKED = sorted((REPO / "tests" / "python" / "tutorial").glob("test_*.py")) + [
    REPO / "plugins" / "imaging" / "examples" / "demo.py",
]


def mypy(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """mypy as this interpreter sees the packages (PYTHONPATH made absolute)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in sys.path if p and Path(p).is_dir())
    env["MYPYPATH"] = str(REPO / "tests" / "python")  # the tests' conftest
    # A cache in the build folder: a warm run takes a second or two.
    cache = (BUILD / "mypy-cache" / "dev").resolve()
    cmd = [sys.executable, "-m", "mypy", "--cache-dir", str(cache), *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def test_checked_in_stubs_match_the_bindings():
    proc = subprocess.run(
        [sys.executable, str(REPO / "python" / "tools" / "generate_stubs.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, f"stubs are stale (regenerate them, see docs/python.md):\n{proc.stdout}{proc.stderr}"


def test_stubs_are_installed_beside_the_modules():
    import halide

    installed = Path(halide.__file__).parent
    for name in STUBS:
        assert (installed / name).exists(), f"{name} is not installed in {installed}"
        assert (installed / name).read_bytes() == (SOURCE / name).read_bytes(), name


def test_tutorials_and_examples_type_check():
    proc = mypy(*map(str, CHECKED))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"no issues found in {len(CHECKED)} source files" in proc.stdout


def test_stubs_themselves_type_check():
    proc = mypy("-m", "halide", "-m", "halide._compiler", "-m", "halide.runtime._runtime")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_catches_mistakes(tmp_path: Path):
    # The stubs are not all Any: wrong names and wrong argument types are errors.
    (tmp_path / "wrong.py").write_text(
        "import halide as hl\n"
        "f = hl.Func('f')\n"
        "f.no_such_method()\n"
        "hl.Var(3)\n"
        "hl.no_such_function()\n"
        "t: hl.Type = hl.Int(32).with_bits('8')\n"
    )
    proc = mypy(str(tmp_path / "wrong.py"), cwd=tmp_path)
    assert proc.returncode == 1
    for line in (3, 4, 5, 6):
        assert f"wrong.py:{line}: error" in proc.stdout, proc.stdout


def test_runtime_wheel_ships_its_stubs():
    wheels = sorted(DIST.glob("halide_runtime-*.whl"))
    assert wheels, f"no halide-runtime wheel in {DIST} (./run wheels)"
    names = set(zipfile.ZipFile(wheels[-1]).namelist())
    for name in ("halide/__init__.pyi", "halide/py.typed", "halide/runtime/_runtime.pyi", "halide/runtime/py.typed"):
        assert name in names, f"{name} missing from {wheels[-1].name}"
    assert "halide/_compiler.pyi" not in names  # the halide wheel's


def test_runtime_only_install_type_checks(wheel_venv, tmp_path: Path):
    # mypy run for the runtime-only venv (its site-packages, no PYTHONPATH).
    script = tmp_path / "use_runtime.py"
    script.write_text(
        "import numpy as np\n"
        "import halide.runtime as hlr\n"
        "b: hlr.Buffer = hlr.Buffer(np.zeros((4, 5), np.uint8))\n"
        "w: int = b.width()\n"
        "n: int = hlr.get_num_threads()\n"
        "s: str = b.width()\n"
    )
    env_python = Path(wheel_venv)
    run_python("import halide.runtime", python=env_python, isolated=True)
    cache = (BUILD / "mypy-cache" / "wheel-venv").resolve()
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--python-executable", str(env_python), str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        timeout=300,
    )
    # Only the deliberate mistake (an int assigned to a str) is reported.
    assert proc.returncode == 1, proc.stdout + proc.stderr
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "use_runtime.py:6:" in errors[0], proc.stdout
