"""hl.target_arch_is, target_bits, target_os_is, target_has_feature and
target_natural_vector_size: folded to the compile target's answers. The
answers come from hl.Target's own fields, and the same probe run under
upstream Halide 21's Python must print the same values."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import UPSTREAM_PY, probe_both  # noqa: E402

x = hl.Var("x")


def test_types():
    assert hl.target_arch_is(hl.TargetArch.X86).type() == hl.Bool()
    assert hl.target_os_is(hl.TargetOS.Linux).type() == hl.Bool()
    assert hl.target_has_feature(hl.TargetFeature.AVX2).type() == hl.Bool()
    assert hl.target_bits().type() == hl.Int(32)
    assert hl.target_natural_vector_size(hl.Float(32)).type() == hl.Int(32)


def test_jit_answers_are_the_jit_targets():
    t = hl.get_jit_target_from_environment()
    f = hl.Func("tq_f")
    f[x] = (
        hl.select(hl.target_arch_is(hl.TargetArch.X86), 1, 0)
        + 2 * hl.select(hl.target_os_is(hl.TargetOS.Linux), 1, 0)
        + 4 * hl.select(hl.target_has_feature(hl.TargetFeature.SSE41), 1, 0)
        + 8 * hl.target_bits()
        + 1000 * hl.target_natural_vector_size(hl.UInt(8))
        + x
    )
    expected = (
        (t.arch == hl.TargetArch.X86)
        + 2 * (t.os == hl.TargetOS.Linux)
        + 4 * t.has_feature(hl.TargetFeature.SSE41)
        + 8 * t.bits
        + 1000 * t.natural_vector_size(hl.UInt(8))
    )
    np.testing.assert_array_equal(np.asarray(f.realize([4])), expected + np.arange(4))


PROBE = r"""
import json, halide as hl
x = hl.Var("x")
out = {}
for name in ["x86-64-linux-avx-avx2-sse41", "x86-64-linux-sse41", "arm-64-osx", "arm-32-android"]:
    f = hl.Func("probe_" + name.replace("-", "_"))
    f[x] = (hl.select(hl.target_arch_is(hl.TargetArch.ARM), 1, 0)
            + 2 * hl.select(hl.target_os_is(hl.TargetOS.OSX), 1, 0)
            + 4 * hl.select(hl.target_has_feature(hl.TargetFeature.AVX2), 1, 0)
            + 8 * hl.target_bits()
            + 1000 * hl.target_natural_vector_size(hl.Float(32))
            + 100000 * hl.target_natural_vector_size(hl.UInt(8)))
    # The value: the lowered statement's only seven-digit constant.
    import tempfile, os, re
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "f.stmt")
        f.compile_to_lowered_stmt(path, [], hl.StmtOutputFormat.Text, hl.Target(name))
        text = open(path).read()
    out[name] = sorted(set(int(v) for v in re.findall(r"\b(\d{7})\b", text)))
print(json.dumps(out))
"""


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 is not built")
def test_answers_match_upstream_for_other_targets():
    ours, theirs = probe_both(PROBE)
    assert ours == theirs
    # And they are the facts about those targets.
    assert ours["x86-64-linux-avx-avx2-sse41"] == [3200000 + 8000 + 4 + 512]
    assert ours["arm-32-android"] == [1600000 + 4000 + 256 + 1]
