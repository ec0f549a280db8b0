"""The `profile` target feature: the sampling profiler's report, after each JIT
realization (as upstream's JIT) and at the exit of a process that ran a profiled
AOT kernel. The expected byte counts come from the buffer shapes, not from ours."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def profiled_pipeline(name: str) -> hl.Func:
    g = hl.Func(f"{name}_producer")
    g[x, y] = hl.sqrt(hl.f32(x * y + 1))
    f = hl.Func(name)
    f[x, y] = g[x, y] + g[x + 1, y]
    g.compute_root().parallel(y)
    f.parallel(y)
    return f


def func_rows(report: str) -> dict[str, tuple[float, float, float]]:
    """Func name -> (ms, percent, threads) from the report's Func lines."""
    rows = {}
    for m in re.finditer(r"^ {4}(\S[^:]*):\s+([0-9.]+)ms \(\s*([0-9.]+)%\)\s+threads: ([0-9.]+)", report, re.M):
        rows[m.group(1)] = (float(m.group(2)), float(m.group(3)), float(m.group(4)))
    return rows


def test_a_jit_realization_prints_the_report(capfd):
    f = profiled_pipeline("prof_jit")
    target = hl.get_jit_target_from_environment().with_feature(hl.TargetFeature.Profile)
    out = f.realize([1500, 1000], target)
    ref = np.sqrt((np.arange(1000)[:, None] * np.arange(1500)[None, :] + 1).astype(np.float32))
    ref2 = np.sqrt((np.arange(1000)[:, None] * np.arange(1, 1501)[None, :] + 1).astype(np.float32))
    np.testing.assert_allclose(np.asarray(out), ref + ref2, rtol=1e-6)
    report = capfd.readouterr().out
    assert report.startswith("prof_jit\n total time: "), report
    assert " runs: 1 " in report
    # The producer's storage: 1501 x 1000 float32, one heap allocation.
    assert "heap allocations: 1  peak heap usage: 6004000 bytes" in report
    rows = func_rows(report)
    assert {"halide_malloc", "halide_free", "prof_jit_producer", "prof_jit"} <= set(rows)
    assert "peak: 6004000 num: 1 avg: 6004000" in report.split("prof_jit_producer:")[1].splitlines()[0]
    total_ms = float(re.search(r"total time: ([0-9.]+) ms", report).group(1))
    assert total_ms > 0
    # Shares add up to the whole call when the sampler caught it at all (it
    # wakes every millisecond; a starved machine may take no sample).
    samples = int(re.search(r"samples: (\d+)", report).group(1))
    assert samples == 0 or abs(sum(r[1] for r in rows.values()) - 100.0) < 1.0
    assert all(0.0 <= r[2] <= 256 for r in rows.values())


def test_the_report_is_reset_after_each_realization(capfd):
    f = profiled_pipeline("prof_twice")
    target = hl.get_jit_target_from_environment().with_feature(hl.TargetFeature.Profile)
    f.realize([64, 64], target)
    f.realize([64, 64], target)
    reports = capfd.readouterr().out.split("prof_twice\n total time:")
    assert len(reports) == 3, reports
    assert all(" runs: 1 " in r for r in reports[1:])


def test_without_the_feature_nothing_is_printed(capfd):
    f = profiled_pipeline("prof_off")
    f.realize([64, 64])
    assert "total time" not in capfd.readouterr().out


AOT_RUN = """
import sys
import numpy as np
import halide.runtime as hlr
k = hlr.load(sys.argv[1])
out = np.zeros((40, 50), np.float32)
k(out)
k(out)
print("ran", float(out[3, 4]))
"""


def test_an_aot_kernel_reports_at_exit(tmp_path):
    f = profiled_pipeline("prof_aot")
    target = hl.get_host_target().with_feature(hl.TargetFeature.Profile)
    lib = tmp_path / "libprof.so"
    hl.Pipeline(f).compile_to({hl.OutputFileType.shared_library: str(lib)}, [], "prof_aot", target)
    r = subprocess.run([sys.executable, "-c", AOT_RUN, str(lib)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    ran, report = r.stdout.split("\n", 1)
    assert float(ran.split()[1]) == pytest.approx(np.sqrt(13.0) + np.sqrt(16.0))
    # Printed at exit, after everything else: both calls in one report.
    assert report.startswith("prof_aot\n total time: "), r.stdout
    assert " runs: 2 " in report
    # 51 x 40 float32 per call.
    assert "heap allocations: 2  peak heap usage: 8160 bytes" in report
    assert "prof_aot_producer" in func_rows(report)
