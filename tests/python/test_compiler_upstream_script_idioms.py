"""Idioms of upstream Halide 21's own Python tests and tutorials that ours
must run unchanged (issue 10), each checked against NumPy, plain Python or
upstream's module side by side: `from halide import *`, hl.Type(),
RDom indexing errors, an RDom where an RVar goes, f[x][i] as a
FuncTupleElementRef, evaluate_may_gpu, and hl.Buffer(other) keeping the
NumPy array of `other` alive."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import probe_both  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def run_script(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=os.environ, timeout=300
    )


def test_star_import_binds_the_module_names():
    # Upstream's star import binds every public name, print too (so the
    # builtin print("text") becomes an Expr that prints nothing), and leaves
    # halide.runtime and halide.imageio unloaded.
    done = run_script(
        """
        import sys
        from halide import *
        f = Func("f"); v = Var("v"); f[v] = v * 2
        assert list(f.realize([3])) == [0, 2, 4]
        assert isinstance(Buffer(Int(32), [2]), Buffer) and BoundaryConditions.repeat_edge
        assert isinstance(print("not printed", 1), Expr)
        assert "halide.runtime" not in sys.modules and "halide.imageio" not in sys.modules
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


def test_default_type_is_upstreams():
    probe = """
import json, halide as hl
t = hl.Type()
out = {"code": str(t.code()), "bits": t.bits(), "lanes": t.lanes(), "handle": t.is_handle(), "str": str(t)}
print(json.dumps(out))
"""
    ours, theirs = probe_both(probe)
    assert ours == theirs


def test_rdom_index_out_of_range_is_a_key_error_and_an_index_error():
    r = hl.RDom([(0, 4), (0, 5)])
    for bad in (-1, 2):
        with pytest.raises(KeyError):
            r[bad]
        with pytest.raises(IndexError, match=f"there is no {bad}"):
            r[bad]
    with pytest.raises(TypeError):
        r["x"]
    assert [v.name() for v in r] == [r.x.name(), r.y.name()]


def test_an_rdom_schedules_where_an_rvar_goes():
    r = hl.RDom([(0, 5)])
    producer, consumer = hl.Func("producer"), hl.Func("consumer")
    producer[x] = x * 17
    consumer[x] = x + 10
    consumer[x] += r + producer[x + r]
    producer.compute_at(consumer, r)
    got = list(consumer.realize([10]))
    assert got == [i + 10 + sum(k + (i + k) * 17 for k in range(5)) for i in range(10)]

    h = hl.Func("h")
    h[x] = 0
    h[x] += x * r
    h.update().unroll(r)
    assert list(h.realize([4])) == [i * sum(range(5)) for i in range(4)]


def test_a_tuple_element_of_a_call_is_a_func_tuple_element_ref():
    g = hl.Func("pair")
    g[x] = (x * 3, hl.f32(x) / 4)
    first, second = g[x][0], g[x][1]
    assert type(first) is hl.FuncTupleElementRef and isinstance(first, hl.Expr)
    assert (first.index(), second.index()) == (0, 1)
    assert (first.type(), second.type()) == (hl.Int(32), hl.Float(32))
    f = hl.Func("uses_elements")
    f[x] = (first + 10, second * 2.0)
    a, b = f.realize([6])
    np.testing.assert_array_equal(np.asarray(a), np.arange(6) * 3 + 10)
    np.testing.assert_array_equal(np.asarray(b), np.arange(6, dtype=np.float32) / 2)


def test_evaluate_may_gpu_computes_as_evaluate():
    p = hl.Param(hl.Int(16), "p", -16)
    q = hl.Param(hl.Float(32), "q", 64.0)
    assert hl.evaluate_may_gpu(p // 3) == -6
    assert hl.evaluate_may_gpu((p / q, p * 2)) == (-0.25, -32)


def test_a_copy_of_a_numpy_buffer_keeps_the_array_alive():
    # 4 MB: NumPy's memory for it is mapped on its own, so reading it after
    # it is freed faults instead of reading stale values.
    done = run_script(
        """
        import gc
        import numpy as np
        import halide as hl
        a = np.arange(1000 * 1000, dtype=np.int32).reshape(1000, 1000)
        want = a.copy()
        b = hl.Buffer(a)
        del a
        for _ in range(20):
            b = hl.Buffer(b)
            gc.collect()
        junk = [np.full((1000, 1000), -1, dtype=np.int32) for _ in range(4)]
        assert b[999, 999] == want[999, 999] and b[3, 7] == want[7, 3]
        np.testing.assert_array_equal(np.asarray(b), want)
        """
    )
    assert done.returncode == 0, done.stderr


def test_an_input_only_measured_is_not_bounds_checked():
    # The pipeline reads the input's shape but no element of it (upstream's
    # callable test echoes the extents and strides of its input).
    im = hl.ImageParam(hl.Int(32), 3, "measured")
    d = hl.Var("d")
    extents, strides = hl.Func("extents"), hl.Func("strides")
    extents[d] = hl.mux(d, [im.dim(0).extent(), im.dim(1).extent(), im.dim(2).extent()])
    strides[d] = hl.mux(d, [im.dim(0).stride(), im.dim(1).stride(), im.dim(2).stride()])
    c = hl.Pipeline([extents, strides]).compile_to_callable([im])
    a = np.zeros((16, 12, 3), dtype=np.int32)  # C order: NumPy's last axis is dimension 0
    e, s = hl.Buffer(hl.Int(32), [3]), hl.Buffer(hl.Int(32), [3])
    c(a, e, s)
    assert list(e) == [3, 12, 16] and list(s) == [1, 3, 36]


def test_an_output_larger_than_its_bound_is_an_error():
    f = hl.Func("bounded")
    f[x] = hl.u8(x + 1)
    f.bound(x, 0, 1)
    buf = hl.Buffer(hl.UInt(8), [10])
    with pytest.raises(
        hl.HalideError,
        match=r"Bounds given for bounded(\$\d+)? in x \(from 0 to 0\) do not cover required region \(from 0 to 9\)",
    ):
        f.realize(buf)
    exact = hl.Buffer(hl.UInt(8), [1])
    f.realize(exact)
    assert exact[0] == 1


@pytest.mark.parametrize("dim", [0, 1])
def test_undefined_exprs_leave_a_boundary_conditions_dimension_unbounded(dim):
    a = (np.arange(6 * 5) * 7 % 256).astype(np.uint8).reshape(5, 6)  # 6 wide, 5 high
    b = hl.Buffer(a)
    bounds = [(0, 6), (0, 5)]
    bounds[dim] = (hl.Expr(), hl.Expr())
    clamped = hl.BoundaryConditions.repeat_edge(b, bounds)
    f = hl.lambda_func(x, y, clamped[x, y])
    # Out of range only along the clamped dimension.
    out = hl.Buffer(hl.UInt(8), [6 + 4, 5] if dim == 1 else [6, 5 + 4])
    out.set_min([-2, 0] if dim == 1 else [0, -2])
    f.realize(out)
    if dim == 1:  # x clamped
        want = a[:, np.clip(np.arange(-2, 8), 0, 5)]
    else:  # y clamped
        want = a[np.clip(np.arange(-2, 7), 0, 4), :]
    np.testing.assert_array_equal(np.asarray(out), want)


def test_any_sequence_of_exprs_defines_several_values():
    class Pair:  # as upstream's lesson 13 Complex: __getitem__ and __len__ only
        def __init__(self, a, b):
            self.a, self.b = a, b

        def __getitem__(self, i):
            return (self.a, self.b)[i]

        def __len__(self):
            return 2

    f = hl.Func("pair_defined")
    f[x] = Pair(hl.Expr(x) * 2, hl.f32(x) + 0.5)
    g = hl.Func("from_call")
    g[x] = f[x]  # the call of a Func with several values: those values
    a, b = g.realize([4])
    assert list(a) == [0, 2, 4, 6] and list(b) == [0.5, 1.5, 2.5, 3.5]
    with pytest.raises(TypeError):
        hl.Func("text")[x] = "not a value"


def test_target_strings_with_unknowns_are_not_valid():
    assert str(hl.Target()) == "arch_unknown-0-os_unknown"
    assert not hl.Target.validate_target_string("arch_unknown-0-os_unknown")
    assert not hl.Target.validate_target_string("0-arch_unknown-os_unknown-sse41")
    assert hl.Target.validate_target_string("x86-64-linux-sse41")
    assert hl.Target.validate_target_string("host")


def test_print_returns_its_first_value_even_a_string():
    # hl.print("text", ...) is an Expr, as upstream's (Python's print("text")
    # after `from halide import *`); with a number first it prints when run.
    assert isinstance(hl.print("text", 1), hl.Expr)
    f = hl.Func("printed_value")
    f[x] = hl.print(x * 2, "doubled")
    assert list(f.realize([3])) == [0, 2, 4]


def test_a_float_coordinate_is_refused_where_it_is_written():
    f = hl.Func("clamped")
    f[x, y] = x + y
    message = r'Implicit cast from float32 to int in argument 1 in call to "clamped(\$\d+)?" is not allowed'
    with pytest.raises(hl.HalideError, match=message):
        f[x * 8 - 8 / 2, y]  # a call: 8 / 2 is a float in Python
    g = hl.Func("defined_at_float")
    with pytest.raises(hl.HalideError, match=r"in argument 2 in call to \"defined_at_float(\$\d+)?\""):
        g[x, y * 0.5] = 1
    # Integer coordinates stay fine.
    assert list(hl.lambda_func(x, f[x * 2 - 8 // 2, 1]).realize([3])) == [-3, -1, 1]


def test_undefined_objects_print_as_upstreams():
    probe = """
import json, halide as hl
out = [str(hl.ImageParam()), str(hl.OutputImageParam()), str(hl.RDom()), str(hl.Pipeline()),
       str(hl.ImageParam(hl.UInt(16), 2, "input"))]
print(json.dumps(out))
"""
    ours, theirs = probe_both(probe)
    assert ours == theirs


@pytest.mark.parametrize("width", [2, 4, 8, 16])
def test_boundary_conditions_vectorized_at_any_width(width):
    # upstream's boundary_conditions test vectorizes by 1..32: a clamped
    # dense read of 2 lanes used to crash code generation.
    a = (np.arange(12 * 10) * 5 % 256).astype(np.uint8).reshape(10, 12)
    clamped = hl.BoundaryConditions.repeat_edge(hl.Buffer(a))
    f = hl.lambda_func(x, y, clamped[x, y])
    f.vectorize(x, width)
    out = hl.Buffer(hl.UInt(8), [20, 14])
    out.set_min([-4, -2])
    f.realize(out)
    want = a[np.clip(np.arange(-2, 12), 0, 9)][:, np.clip(np.arange(-4, 16), 0, 11)]
    np.testing.assert_array_equal(np.asarray(out), want)
