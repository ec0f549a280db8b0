"""CPU variants: a plugin lists each kernel for several CPU levels (baseline,
avx2, avx512); the registry uses the highest one the CPU runs, capped by
HALIDE_RUNTIME_CPU_LEVEL.

The selection rules run on fake installed plugins (test_registry's Site) with
the CPU's features replaced; the imaging plugin's real variants run in the
wheel venv under every level this machine supports, against NumPy.
"""

from __future__ import annotations

import json
import warnings

import pytest
from conftest import run_python
from test_registry import BRIGHTEN_ARGS, kernel_entry, manifest, site  # noqa: F401 - site is a fixture

BASE = "x86-64-linux-no_runtime-sse41"
AVX2 = "x86-64-linux-avx-avx2-f16c-fma-no_runtime-sse41"
AVX512 = "x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-no_runtime-sse41"
ZEN3 = frozenset({"sse41", "avx", "avx2", "fma", "f16c"})
ZEN5 = ZEN3 | {"avx512", "avx512_skylake", "avx512_cannonlake"}


def three_levels(order=(BASE, AVX2, AVX512)):
    return manifest(*(kernel_entry("brighten", "libbrighten.so", target=t, arguments=BRIGHTEN_ARGS) for t in order))


@pytest.fixture
def cpu(monkeypatch):
    """Sets the features the registry believes the CPU has."""
    from halide.runtime import _targets

    def set_features(features):
        monkeypatch.setattr(_targets, "_host_features", lambda: frozenset(features))

    monkeypatch.delenv("HALIDE_RUNTIME_CPU_LEVEL", raising=False)
    return set_features


def chosen(hlr) -> str:
    hlr.refresh()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return hlr.kernels().info("v.brighten").target


def test_target_levels():
    from halide.runtime._targets import target_cpu_level

    assert [target_cpu_level(t) for t in (BASE, AVX2, AVX512, "x86-64-linux", "arm-64-linux")] == [
        "baseline", "avx2", "avx512", "baseline", "baseline"]


@pytest.mark.parametrize("order", [(BASE, AVX2, AVX512), (AVX512, AVX2, BASE), (AVX2, BASE, AVX512)])
def test_best_level_the_cpu_runs_wins_in_any_order(site, hlr, cpu, order):  # noqa: F811
    site.add("v-kernels", {"v": three_levels(order)})
    cpu(ZEN5)
    assert chosen(hlr) == AVX512
    cpu(ZEN3)
    assert chosen(hlr) == AVX2
    cpu({"sse41"})
    assert chosen(hlr) == BASE


def test_environment_caps_the_level(site, hlr, cpu, monkeypatch):  # noqa: F811
    site.add("v-kernels", {"v": three_levels()})
    cpu(ZEN5)
    for level, target in (("baseline", BASE), ("avx2", AVX2), ("avx512", AVX512), ("x86-64-v3", AVX2),
                          ("SSE41", BASE)):
        monkeypatch.setenv("HALIDE_RUNTIME_CPU_LEVEL", level)
        assert chosen(hlr) == target, level
    monkeypatch.setenv("HALIDE_RUNTIME_CPU_LEVEL", "avx2")
    assert chosen(hlr) == AVX2
    info = hlr.kernels().info("v.brighten")
    assert [(v.target, why is None) for v, why in info.variants] == [(BASE, False), (AVX2, True), (AVX512, False)]


def test_level_above_the_cpu_warns_and_uses_the_cpu_best(site, hlr, cpu, monkeypatch):  # noqa: F811
    site.add("v-kernels", {"v": three_levels()})
    cpu(ZEN3)
    monkeypatch.setenv("HALIDE_RUNTIME_CPU_LEVEL", "avx512")
    hlr.refresh()
    with pytest.warns(hlr.HalideKernelWarning, match=r"HALIDE_RUNTIME_CPU_LEVEL=avx512.*runs up to avx2"):
        assert hlr.kernels().info("v.brighten").target == AVX2


def test_bad_level_name_warns_and_is_ignored(site, hlr, cpu, monkeypatch):  # noqa: F811
    site.add("v-kernels", {"v": three_levels()})
    cpu(ZEN3)
    monkeypatch.setenv("HALIDE_RUNTIME_CPU_LEVEL", "fastest")
    hlr.refresh()
    with pytest.warns(hlr.HalideKernelWarning, match=r"'fastest' is not a CPU level: use one of baseline, avx2"):
        assert hlr.kernels().info("v.brighten").target == AVX2


def test_only_variants_above_the_cap_leave_the_kernel_out(site, hlr, cpu, monkeypatch):  # noqa: F811
    site.add("v-kernels", {"v": manifest(kernel_entry("brighten", "libbrighten.so", target=AVX2))})
    cpu(ZEN3)
    monkeypatch.setenv("HALIDE_RUNTIME_CPU_LEVEL", "baseline")
    hlr.refresh()
    with pytest.warns(hlr.HalideKernelWarning, match=r"CPU level avx2 is above HALIDE_RUNTIME_CPU_LEVEL=baseline"):
        assert "v.brighten" not in hlr.kernels()


def test_cli_shows_the_chosen_variant(site, hlr, cpu, capsys):  # noqa: F811
    from halide.runtime.__main__ import main

    site.add("v-kernels", {"v": three_levels()})
    cpu(ZEN3)
    hlr.refresh()
    assert main(["list", "-v"]) == 0
    out = capsys.readouterr().out
    assert "CPU level: avx2" in out
    line = next(x for x in out.splitlines() if x.startswith("v.brighten"))
    assert line.split()[-1] == AVX2
    assert "CPU variants: baseline, [avx2], avx512" in out
    assert main(["info", "v.brighten"]) == 0
    out = capsys.readouterr().out
    assert "offset: input_scalar, int32" in out and "input: input_buffer, uint8, 2-D" in out
    rows = [x.split() for x in out.splitlines() if x.startswith("  ") and "libbrighten.so" in x]
    assert [(r[0], r[1]) for r in rows] == [("baseline", BASE), ("*", "avx2"), ("avx512", AVX512)]
    assert "lacks: avx512" in out  # why the avx512 variant was not chosen


# ---- the imaging plugin's real variants, each level this machine runs ----

RUN_LEVEL = """
import json, sys
import numpy as np
import halide.runtime as hlr
from halide.runtime._targets import host_cpu_level
rng = np.random.default_rng(7)
result = {"host": host_cpu_level(), "levels": {}}
image = rng.integers(0, 256, size=(37, 53), dtype=np.uint8)
padded = rng.random((32, 45), dtype=np.float32)
for name in ("imaging.invert", "imaging.box_blur", "imaging.gradient"):
    info = hlr.kernels().info(name)
    result["levels"][name] = [info.cpu_level, sorted(v.cpu_level for v, _ in info.variants)]
errors = {}
out = hlr.kernel("imaging.invert")(image, output_shape=image.shape)
errors["invert"] = int(np.abs(out.astype(int) - (255 - image.astype(int))).max())
blur = hlr.kernel("imaging.box_blur")
src = hlr.Buffer(padded, "input")
src.translate(0, -1); src.translate(1, -1)
out = blur(src, output_shape=(30, 43))
ref = padded.astype(np.float64)
want = sum(ref[1 + dy:31 + dy, 1 + dx:44 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9
errors["box_blur"] = float(np.abs(out - want).max())
out = hlr.kernel("imaging.gradient")(2.5, -1.25, output_shape=(19, 23))
y, x = np.mgrid[0:19, 0:23]
errors["gradient"] = float(np.abs(out - (2.5 * x - 1.25 * y)).max())
result["errors"] = errors
print(json.dumps(result))
"""


@pytest.mark.nosanitize
def test_imaging_plugin_at_every_level_this_cpu_runs(wheel_venv):
    top = json.loads(run_python(RUN_LEVEL, python=wheel_venv, isolated=True).stdout)
    host = top["host"]
    levels = ["baseline", "avx2", "avx512"]
    runs = levels[: levels.index(host) + 1]
    for level in runs:
        r = json.loads(run_python(RUN_LEVEL, python=wheel_venv, isolated=True,
                                  env={"HALIDE_RUNTIME_CPU_LEVEL": level}).stdout)
        for name, (used, variants) in r["levels"].items():
            assert used == level, (name, used, level)
            # ./run wheels builds every level, ./run test those this CPU runs.
            assert variants in (sorted(levels), sorted(runs)), (name, variants)
        assert r["errors"]["invert"] == 0, level
        assert r["errors"]["box_blur"] < 1e-5, level
        assert r["errors"]["gradient"] < 1e-4, level
