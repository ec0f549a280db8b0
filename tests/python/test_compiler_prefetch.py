"""Func.prefetch / Stage.prefetch: prefetch instructions in the generated code,
results equal to NumPy with every hl.PrefetchBoundStrategy (the prefetched rows
run past the input's last row), and upstream 21's error for a `from` loop inside
`at`."""

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

STRATEGIES = [
    hl.PrefetchBoundStrategy.Clamp,
    hl.PrefetchBoundStrategy.GuardWithIf,
    hl.PrefetchBoundStrategy.NonFaulting,
]
X86 = hl.Target("x86-64-linux-sse41-avx-avx2")


def pipeline(strategy, prefetch=True):
    """f(x, y) = g(x, y) + g(x + 1, y + 1) + h(x, y), h = 2 g at root."""
    g = hl.ImageParam(hl.Float(32), 2, "g")
    x, y = hl.Var("x"), hl.Var("y")
    h, f = hl.Func("h"), hl.Func("f")
    h[x, y] = g[x, y] * 2
    f[x, y] = g[x, y] + g[x + 1, y + 1] + h[x, y]
    h.compute_root()
    f.vectorize(x, 4)
    if prefetch:
        assert f.prefetch(g, y, y, 2, strategy) is f  # two rows ahead
        f.prefetch(h, x, y, offset=1, strategy=strategy)  # the next row, from the loop over x
    return g, f


def expected(data, w, h):
    return data[:h, :w] + data[1 : h + 1, 1 : w + 1] + 2 * data[:h, :w]


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_results_equal_numpy_with_every_strategy(strategy):
    w, h = 21, 9
    # Exactly the input the output needs: the last rows' prefetches reach past it.
    data = np.random.default_rng(7).random((h + 1, w + 1), dtype=np.float32)
    g, f = pipeline(strategy)
    g.set(hl.Buffer(data))
    np.testing.assert_allclose(np.asarray(f.realize([w, h])), expected(data, w, h), rtol=1e-6)
    # Parallel rows (the prefetch inside each task).
    f.parallel(hl.Var("y"))
    np.testing.assert_allclose(np.asarray(f.realize([w, h])), expected(data, w, h), rtol=1e-6)


def test_assembly_has_prefetches(tmp_path):
    g, f = pipeline(hl.PrefetchBoundStrategy.GuardWithIf)
    asm = tmp_path / "f.s"
    f.compile_to_assembly(str(asm), [g], "f", X86)
    assert "prefetcht0" in asm.read_text()
    g2, f2 = pipeline(hl.PrefetchBoundStrategy.GuardWithIf, prefetch=False)
    f2.compile_to_assembly(str(asm), [g2], "f", X86)
    assert "prefetch" not in asm.read_text()


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_lowered_statement_names_the_region(tmp_path, strategy):
    g, f = pipeline(strategy)
    stmt = tmp_path / "f.stmt"
    f.compile_to_lowered_stmt(str(stmt), [g], hl.StmtOutputFormat.Text, X86)
    text = stmt.read_text()
    assert "prefetch(g.host" in text
    assert "prefetch(h.host" in text
    # Row y + 2 of g, guarded by g's rows only with GuardWithIf, clamped only with Clamp.
    assert "(f.s0.y + 2)" in text
    guarded = "if (" in text.split("produce f", 1)[1]
    assert guarded == (strategy == hl.PrefetchBoundStrategy.GuardWithIf)


def test_stage_prefetch_of_an_update():
    g = hl.ImageParam(hl.Int(32), 1, "g")
    x = hl.Var("x")
    r = hl.RDom([(0, 3)], "r")
    f = hl.Func("f")
    f[x] = 0
    f[x] += g[x + r.x]
    assert f.update(0).prefetch(g, x, x, 8, hl.PrefetchBoundStrategy.Clamp) is not None
    data = np.arange(40, dtype=np.int32) * 3 - 50
    g.set(hl.Buffer(data))
    out = np.asarray(f.realize([38]))
    np.testing.assert_array_equal(out, data[:38] + data[1:39] + data[2:40])


def test_from_inside_at_is_upstreams_error():
    x, y = hl.Var("x"), hl.Var("y")
    p, f = hl.Func("p"), hl.Func("f")
    p[x, y] = x + y
    p.compute_root()
    f[x, y] = p[x, y] + p[x, y + 1]
    f.prefetch(p, y, x, 1)
    with pytest.raises(hl.HalideError, match="Prefetch 'from' variable 'x' could not be found in an active loop"):
        f.realize([4, 4])
