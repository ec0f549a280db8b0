"""Where a Func's storage lives: hl.MemoryType and Func.store_in. Results
against NumPy, the allocation in the lowered statement, upstream 21's error
for registers of a size that is not a constant."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

CPU_KINDS = ["Auto", "Heap", "Stack", "Register", "GPUShared", "GPUTexture", "LockedCache", "VTCM"]


def two_stage(per_row: bool):
    x, y = hl.Var("x"), hl.Var("y")
    f, g = hl.Func("f"), hl.Func("g")
    f[x, y] = x * 3 + y
    g[x, y] = f[x, y] + f[x + 1, y]
    f.compute_at(g, y if per_row else x)
    return f, g


def reference(w: int, h: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.int32)
    return (xx * 3 + yy) + ((xx + 1) * 3 + yy)


def test_memory_type_members_are_upstreams():
    assert list(hl.MemoryType.__members__) == CPU_KINDS


@pytest.mark.parametrize("kind", CPU_KINDS)
@pytest.mark.parametrize("per_row", [False, True])
def test_every_cpu_kind_computes_the_same_values(kind, per_row):
    if kind == "Register" and per_row:
        pytest.skip("not a constant size: refused (test_register_needs_a_constant_size)")
    f, g = two_stage(per_row)
    assert f.store_in(getattr(hl.MemoryType, kind)) is f
    out = np.asarray(g.realize([23, 4]))
    np.testing.assert_array_equal(out, reference(23, 4))


def test_lowered_statement_names_the_memory(tmp_path):
    f, g = two_stage(False)
    f.store_in(hl.MemoryType.Stack)
    path = tmp_path / "g.stmt"
    g.compile_to_lowered_stmt(str(path), [])
    assert f"allocate {f.name()}[int32 * 2 * 1] in Stack {{" in path.read_text()


def test_register_needs_a_constant_size():
    f, g = two_stage(True)
    f.store_in(hl.MemoryType.Register)
    expected = (
        f"Allocation {re.escape(f.name())} has a dynamic size. Only fixed-size allocations can be stored in registers"
    )
    with pytest.raises(hl.HalideError, match=expected):
        g.realize([10, 2])


def test_store_in_takes_a_memory_type():
    f, _ = two_stage(False)
    with pytest.raises(TypeError):
        f.store_in("Stack")


def reference_shifted(w: int, h: int, k: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.int32)
    return (xx * 2 + yy) + ((xx + k) * 2 + yy)


def shifted():
    x, y = hl.Var("x"), hl.Var("y")
    k = hl.Param(hl.Int(32), "k")
    f, g = hl.Func("f"), hl.Func("g")
    f[x, y] = x * 2 + y
    g[x, y] = f[x, y] + f[x + k, y]
    f.compute_at(g, y)
    return x, k, f, g


def test_bound_storage_fits_and_is_checked():
    x, k, f, g = shifted()
    assert f.bound_storage(x, 16) is f
    k.set(3)
    np.testing.assert_array_equal(np.asarray(g.realize([12, 5])), reference_shifted(12, 5, 3))
    k.set(10)
    with pytest.raises(hl.HalideError, match=r"The explicit allocation bound \(16\) of dimension x of .* is too small"):
        g.realize([10, 4])


def test_hoist_storage_root_and_to_a_loop():
    x, k, f, g = shifted()
    assert f.hoist_storage_root() is f
    k.set(-4)
    np.testing.assert_array_equal(np.asarray(g.realize([9, 6])), reference_shifted(9, 6, -4))
    x2, y2 = hl.Var("x"), hl.Var("y")
    f2, g2 = hl.Func("f"), hl.Func("g")
    f2[x2, y2] = x2 * 3 + y2
    g2[x2, y2] = f2[x2, y2] + f2[x2 + 1, y2]
    f2.compute_at(g2, x2)
    assert f2.hoist_storage(g2, y2) is f2
    np.testing.assert_array_equal(np.asarray(g2.realize([23, 4])), reference(23, 4))


def test_hoist_storage_not_out_of_a_parallel_loop():
    x, k, f, g = shifted()
    g.parallel(g.args()[1])
    f.hoist_storage_root()
    k.set(1)
    with pytest.raises(
        hl.HalideError, match="storage is hoisted outside the parallel loop over .* potential race condition"
    ):
        g.realize([8, 4])
