"""python -m halide.runtime.plugin_build on plugins/template (Python
Generators): every CPU level's library and the manifest, then the kernel
through the registry at each level this machine runs, pickled, and applied to
a PNG file by `python -m halide.runtime run`; all against NumPy."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from conftest import REPO

TEMPLATE = REPO / "plugins" / "template"

pytestmark = pytest.mark.nosanitize


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    pytest.importorskip("halide._compiler", reason="the compiler is not built (HALIDE_TEST_BUILD)")
    out = tmp_path_factory.mktemp("template")
    proc = subprocess.run(
        [sys.executable, "-m", "halide.runtime.plugin_build", "--outdir", str(out), "--docs",
         str(TEMPLATE / "kernels.json"), "--", "brighten", sys.executable, str(TEMPLATE / "generators.py")],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture
def template(built, hlr, monkeypatch):
    from halide.runtime import _registry

    monkeypatch.setenv("HALIDE_KERNELS_DISABLE_AUTOLOAD", "1")
    monkeypatch.delenv("HALIDE_RUNTIME_CPU_LEVEL", raising=False)
    hlr.add_plugin("template", built / "halide_kernels.json")
    yield built
    _registry._manual.clear()
    hlr.refresh()


def test_manifest_lists_every_level_highest_first(built):
    manifest = json.loads((built / "halide_kernels.json").read_text())
    entries = manifest["kernels"]
    assert [e["library"] for e in entries] == [
        "libbrighten_avx512.so", "libbrighten_avx2.so", "libbrighten_baseline.so"]
    assert "avx512_skylake" in entries[0]["target"] and "avx2" in entries[1]["target"]
    assert "avx" not in entries[2]["target"] and entries[2]["target"].endswith("no_runtime-sse41")
    assert all(e["arguments"] == [
        {"name": "input", "kind": "input_buffer", "type": "uint8", "dimensions": 2},
        {"name": "amount", "kind": "input_scalar", "type": "uint8", "dimensions": 0},
        {"name": "output", "kind": "output_buffer", "type": "uint8", "dimensions": 2},
    ] for e in entries)
    assert entries[0]["doc"].startswith("Adds amount")
    for e in entries:  # no runtime inside, no C++ runtime needed
        needed = subprocess.run(["readelf", "-d", str(built / e["library"])], capture_output=True, text=True).stdout
        assert "libstdc++" not in needed and "halide_runtime" not in needed


def test_each_level_this_cpu_runs_against_numpy(template, hlr, monkeypatch):
    from halide.runtime._targets import CPU_LEVELS, host_cpu_level

    rng = np.random.default_rng(11)
    image = rng.integers(0, 256, size=(45, 131), dtype=np.uint8)
    want = np.minimum(image.astype(np.int32) + 77, 255).astype(np.uint8)
    for level in CPU_LEVELS[: CPU_LEVELS.index(host_cpu_level()) + 1]:
        monkeypatch.setenv("HALIDE_RUNTIME_CPU_LEVEL", level)
        hlr.refresh()
        info = hlr.kernels().info("template.brighten")
        assert info.cpu_level == level and info.library.name == f"libbrighten_{level}.so"
        kernel = hlr.kernel("template.brighten")
        np.testing.assert_array_equal(kernel(image, 77, output_shape=image.shape), want, err_msg=level)
        again = pickle.loads(pickle.dumps(kernel))
        np.testing.assert_array_equal(again(image, 77, output_shape=image.shape), want, err_msg=level)


def test_run_command_on_a_png(template, tmp_path, capsys):
    pytest.importorskip("PIL", reason="Pillow is not installed (requirements-dev.txt)")
    from halide import imageio
    from halide.runtime.__main__ import main

    rng = np.random.default_rng(12)
    rgb = rng.integers(0, 256, size=(3, 20, 33), dtype=np.uint8)  # planar, as imageio reads colour
    imageio.imwrite(tmp_path / "in.png", rgb)
    assert main(["run", "template.brighten", str(tmp_path / "in.png"), str(tmp_path / "out.png"), "amount=100"]) == 0
    got = imageio.imread(tmp_path / "out.png")
    np.testing.assert_array_equal(got, np.minimum(rgb.astype(np.int32) + 100, 255).astype(np.uint8))
    assert main(["run", "template.brighten", str(tmp_path / "in.png"), str(tmp_path / "o.png"), "amont=1"]) == 2
    assert "has no scalar argument amont (its scalars: amount)" in capsys.readouterr().err
    assert main(["run", "template.brighten", str(tmp_path / "in.png"), str(tmp_path / "o.png"), "amount=300"]) == 1
    assert "failed on" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "o.png")


RUN_BLUR = """
import subprocess, sys
import numpy as np
from halide import imageio
d = sys.argv[1]
image = np.random.default_rng(4).integers(0, 256, size=(21, 34), dtype=np.uint8)
imageio.imwrite(d + "/in.png", image)
subprocess.run([sys.executable, "-m", "halide.runtime", "run", "imaging.box_blur", d + "/in.png", d + "/out.png"],
               check=True)
got = imageio.imread(d + "/out.png")
p = np.pad(image.astype(np.float64), 1, mode="edge")
want = np.rint(sum(p[1 + dy:22 + dy, 1 + dx:35 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9)
print(int(np.abs(got.astype(int) - want.astype(int)).max()), got.shape == image.shape)
"""


def test_run_command_pads_a_kernel_that_reads_past_the_edges(wheel_venv, tmp_path):
    """imaging.box_blur reads one pixel around its output: `run` repeats the
    image's border pixels so that the output has the input's size."""
    pytest.importorskip("PIL", reason="Pillow is not installed (requirements-dev.txt)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([str(wheel_venv), "-c", RUN_BLUR, str(tmp_path)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[-2:] == ["0", "True"], proc.stdout


@pytest.mark.parametrize("name", ["gamma", "lgamma", "round"])
def test_kernel_named_like_a_libm_function(tmp_path, hlr, name):
    """NAME_argv calls this library's NAME, not libm's function of that name
    (found first by the dynamic linker in a process that has libm loaded)."""
    hl = pytest.importorskip("halide", reason="the compiler is not built (HALIDE_TEST_BUILD)")
    pytest.importorskip("halide._compiler", reason="the compiler is not built (HALIDE_TEST_BUILD)")
    x, y = hl.Var("x"), hl.Var("y")
    im = hl.ImageParam(hl.UInt(8), 2, "input")
    f = hl.Func("f")
    f[x, y] = im[x, y] + 3
    lib = tmp_path / f"lib{name}.so"
    f.compile_to({hl.OutputFileType.shared_library: str(lib)}, [im], name,
                 hl.get_host_target().with_feature(hl.TargetFeature.NoRuntime))
    image = np.arange(24, dtype=np.uint8).reshape(4, 6)
    for _ in range(2):
        np.testing.assert_array_equal(hlr.load(lib)(image, output_shape=image.shape), image + 3)
