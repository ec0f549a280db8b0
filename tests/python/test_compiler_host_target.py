"""The host target names the processor to tune for as upstream 21's does
(`tune_znver3` on a Zen 3...), and an ahead-of-time compile for a tuned
target schedules its code for that processor (LLVM's "tune-cpu")."""

from __future__ import annotations

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import probe_both  # noqa: E402

PROBE = """
import json, halide as hl
host = hl.get_host_target()
out = {"tune": str(host.processor_tune), "host": str(host),
       "jit": str(hl.get_jit_target_from_environment()), "named": str(hl.Target("host"))}
print(json.dumps(out))
"""


def tokens(target: str) -> list[str]:
    return [t for t in target.split("-") if t.startswith("tune_")]


def test_host_tune_matches_upstream():
    # Where upstream 21 names this processor, ours names the same one (its
    # table may lag ours for the newest models, which it leaves generic).
    ours, theirs = probe_both(PROBE)
    if tokens(theirs["host"]):
        assert ours["tune"] == theirs["tune"]
    for key in ("host", "jit", "named"):
        if tokens(theirs[key]):
            assert tokens(ours[key]) == tokens(theirs[key]), (ours[key], theirs[key])
        assert tokens(ours[key]) == tokens(ours["host"]), ours[key]


def test_host_features_match_upstream():
    # The whole host target string is upstream 21's on the same machine:
    # on a Zen 5, avx512_zen4, avx512_zen5 and avxvnni, not sapphirerapids
    # (whose code may use AVX512-FP16, which Zen 4 and 5 lack).
    ours, theirs = probe_both(PROBE)
    for key in ("host", "jit", "named"):
        assert ours[key] == theirs[key]


def llvm_ir(target: str, tmp_path) -> str:
    x = hl.Var("x")
    f = hl.Func("tuned")
    f[x] = x * 2.5
    path = tmp_path / "tuned.ll"
    f.compile_to_llvm_assembly(str(path), [], "tuned", hl.Target(target))
    return path.read_text()


def test_tuned_target_sets_tune_cpu(tmp_path):
    assert '"tune-cpu"="znver3"' in llvm_ir("x86-64-linux-tune_znver3-avx-avx2-sse41", tmp_path)
    assert '"tune-cpu"="znver5"' in llvm_ir("x86-64-linux-tune_znver5-sse41", tmp_path)
    assert "tune-cpu" not in llvm_ir("x86-64-linux-avx-avx2-sse41", tmp_path)


def test_tuned_target_round_trips():
    t = hl.Target("x86-64-linux-tune_znver4-avx-avx2-sse41")
    assert t.processor_tune == hl.TargetProcessorTune.TuneZnVer4
    assert str(t) == "x86-64-linux-tune_znver4-avx-avx2-sse41"
