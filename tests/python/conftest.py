"""Shared fixtures for the halide.runtime tests.

The suite runs against the build that ./run test stages: HALIDE_TEST_BUILD
is the Meson build folder (fixture kernels live in
tests/fixtures/kernels/ there) and halide.runtime is importable from its
staged site folder. HALIDE_TEST_DIST holds the wheels built by ./run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("HALIDE_TEST_BUILD", REPO / "build" / "dev"))
DIST = Path(os.environ.get("HALIDE_TEST_DIST", REPO / "dist"))
SANITIZED = os.environ.get("HALIDE_TEST_SANITIZED") == "1"
FIXTURES = BUILD / "tests" / "fixtures" / "kernels"


def fixture_path(name: str) -> Path:
    path = FIXTURES / f"lib{name}.so"
    assert path.exists(), f"fixture kernel {path} was not built (run ./run test)"
    return path


@pytest.fixture(scope="session")
def hlr():
    import halide.runtime

    return halide.runtime


@pytest.fixture(scope="session")
def load(hlr):
    cache = {}

    def _load(name: str, symbol: str | None = None):
        key = (name, symbol)
        if key not in cache:
            cache[key] = hlr.load(fixture_path(name), symbol)
        return cache[key]

    return _load


@pytest.fixture
def rng():
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"random seed: {seed}")
    return np.random.default_rng(seed)


def run_python(code: str, *, python=sys.executable, env: dict | None = None, check: bool = True, isolated=False):
    """Runs `code` in a fresh interpreter; returns the CompletedProcess.

    isolated: drop PYTHONPATH, so only what is installed in `python`'s
    environment is importable (for the wheel venv).
    """
    full_env = dict(os.environ)
    if isolated:
        full_env.pop("PYTHONPATH", None)
    full_env.update(env or {})
    proc = subprocess.run([str(python), "-c", code], capture_output=True, text=True, env=full_env, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"subprocess failed ({proc.returncode}):\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc


@pytest.fixture(scope="session")
def upstream_kernels(tmp_path_factory):
    """Kernels AOT-compiled by upstream Halide 14 (Debian python3-halide)."""
    out = tmp_path_factory.mktemp("upstream")
    script = REPO / "tests" / "upstream" / "build_upstream_kernels.py"
    # Debian's Python with Debian's halide module: none of our environment.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_PRELOAD")}
    proc = subprocess.run(
        ["/usr/bin/python3", str(script), str(out)], capture_output=True, text=True, timeout=600, env=env
    )
    assert proc.returncode == 0, f"building upstream kernels failed:\n{proc.stdout}\n{proc.stderr}"
    data = json.loads((out / "upstream_kernels.json").read_text())
    return {k["name"]: k for k in data["kernels"]}


def _site_packages(env_dir: Path) -> Path:
    return next((env_dir / "lib").glob("python3*/site-packages"))


def fresh_venv(env_dir: Path, wheels: list[Path]) -> Path:
    """A venv in env_dir with exactly these wheels (pip, no index) and NumPy
    from this interpreter through a .pth file; its python."""
    venv.EnvBuilder(with_pip=False).create(env_dir)
    (_site_packages(env_dir) / "numpy_from_host.pth").write_text(f"{Path(np.__file__).resolve().parents[1]}\n")
    python = env_dir / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-index", "--no-deps",
         *map(str, wheels)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    return python


@pytest.fixture(scope="session")
def wheel_venv(tmp_path_factory):
    """A fresh venv with only the built wheels installed (plus NumPy).

    The halide-runtime wheel, the imaging plugin wheel and the broken
    fixture plugin wheel are installed with pip, without an index. NumPy
    comes from this interpreter's site-packages through a .pth file, so no
    download is needed and no halide package leaks in.
    """
    # The runtime and the plugins only: no halide or halide-bin (the compiler).
    wheels = [w for w in sorted(DIST.glob("*.whl")) if w.name.startswith(("halide_runtime-", "halide_kernels_"))]
    names = {w.name.split("-")[0] for w in wheels}
    assert {"halide_runtime", "halide_kernels_imaging"} <= names, f"wheels missing in {DIST}: {names}"
    broken_src = REPO / "tests" / "fixtures" / "plugins" / "broken"
    wheel_dir = tmp_path_factory.mktemp("wheels")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps", "-w", str(wheel_dir),
         str(broken_src)],
        check=True, capture_output=True, timeout=300,
    )
    return fresh_venv(tmp_path_factory.mktemp("venv"), [*wheels, *wheel_dir.glob("*.whl")])
