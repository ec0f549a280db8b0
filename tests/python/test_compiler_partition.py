"""Loop partitioning from Python: hl.Partition and the partition schedule
methods, with results checked against NumPy (edge handling by np.pad)."""

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def blur_with_edges(policy_call, name: str = "f"):
    im = hl.ImageParam(hl.Int(32), 2, "im")
    x, y = hl.Var("x"), hl.Var("y")
    c = hl.BoundaryConditions.repeat_edge(im)
    f = hl.Func(name)
    f[x, y] = c[x - 1, y] + 2 * c[x, y] + c[x + 1, y - 1]
    f.vectorize(x, 8, hl.TailStrategy.GuardWithIf)
    policy_call(f, x, y)
    return im, f


def reference(a: np.ndarray) -> np.ndarray:
    p = np.pad(a, 1, mode="edge")
    h, w = a.shape
    return p[1 : h + 1, 0:w] + 2 * p[1 : h + 1, 1 : w + 1] + p[0:h, 2 : w + 2]


@pytest.mark.parametrize(
    "policy",
    [
        lambda f, x, y: None,
        lambda f, x, y: f.partition(x, hl.Partition.Never),
        lambda f, x, y: f.partition(y, hl.Partition.Always),
        lambda f, x, y: f.never_partition([x, y]),
        lambda f, x, y: f.always_partition([x]),
        lambda f, x, y: f.never_partition_all(),
    ],
)
def test_partition_policies_compute_the_same(policy) -> None:
    im, f = blur_with_edges(policy)
    rng = np.random.default_rng(4)
    for shape in [(1, 1), (3, 5), (17, 40)]:
        a = rng.integers(-1000, 1000, shape, dtype=np.int32)
        im.set(hl.Buffer(a))
        got = np.asarray(f.realize([shape[1], shape[0]]))
        np.testing.assert_array_equal(got, reference(a))


def test_partition_never_keeps_one_loop(tmp_path) -> None:
    im, f = blur_with_edges(lambda f, x, y: f.never_partition_all(), "never")
    path = tmp_path / "never.stmt"
    f.compile_to_lowered_stmt(str(path), [im])
    assert "steady" not in path.read_text()
    im2, g = blur_with_edges(lambda f, x, y: None, "auto")
    path2 = tmp_path / "auto.stmt"
    g.compile_to_lowered_stmt(str(path2), [im2])
    assert "auto.s0.y.steady" in path2.read_text()


def test_partition_always_without_likely_is_an_error() -> None:
    x = hl.Var("x")
    f = hl.Func("plain")
    f[x] = x * 2
    f.always_partition_all()
    with pytest.raises(hl.HalideError, match="Partition::Always"):
        f.realize([8])


def test_stage_partition_returns_the_stage() -> None:
    x = hl.Var("x")
    f = hl.Func("staged")
    f[x] = x
    f[x] = f[x] + 1
    s = f.update(0)
    assert s.partition(x, hl.Partition.Auto) is s
    assert s.never_partition_all() is s
    np.testing.assert_array_equal(np.asarray(f.realize([5])), np.arange(5) + 1)
