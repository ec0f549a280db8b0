"""hl.GeneratorContext with hl.AutoschedulerParams, a Python generator's
autoscheduler GeneratorParams and using_autoscheduler(), and
hl.create_callable_from_generator, against NumPy (upstream 21's Python API).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


@hl.generator(name="test_ctx_offset")
class Offset:
    offset = hl.GeneratorParam(1)
    inp = hl.InputBuffer(hl.Int(32), 1)
    out = hl.OutputBuffer(hl.Int(32), 1)

    def generate(self):
        x = hl.Var("x")
        # An autoscheduler would schedule it: the test sees which branch ran.
        self.out[x] = self.inp[x] + self.offset + (1000 if self.using_autoscheduler() else 0)


def _run(callable_, values):
    a = np.array(values, dtype=np.int32)
    out = np.zeros_like(a)
    callable_(a, out)
    return out


def test_autoscheduler_params():
    ap = hl.AutoschedulerParams("Mullapudi2016", {"parallelism": "8"})
    assert ap.name == "Mullapudi2016"
    assert ap.extra == {"parallelism": "8"}
    assert hl.AutoschedulerParams("Li2018").extra == {}
    assert hl.AutoschedulerParams().name == ""


def test_context_carries_the_autoscheduler():
    target = hl.get_jit_target_from_environment()
    assert hl.GeneratorContext(target).autoscheduler_params().name == ""
    ctx = hl.GeneratorContext(target, hl.AutoschedulerParams("Adams2019", {"k": "v"}))
    assert ctx.target() == target
    assert ctx.autoscheduler_params().name == "Adams2019"
    with ctx:
        g = Offset()
    assert g.using_autoscheduler()
    assert g.autoscheduler().extra == {"k": "v"}
    assert g.context().autoscheduler_params().name == "Adams2019"
    # A Callable is compiled without applying the autoscheduler, as upstream's.
    with ctx:
        np.testing.assert_array_equal(_run(Offset().compile_to_callable(), [1, 2]), [1002, 1003])


def test_autoscheduler_generator_params():
    plain = Offset()
    assert not plain.using_autoscheduler()
    g = Offset({"autoscheduler": "Anderson2021", "autoscheduler.beam_size": "4"})
    assert g.using_autoscheduler()
    assert g.autoscheduler().name == "Anderson2021"
    assert g.autoscheduler().extra == {"beam_size": "4"}
    ctx = hl.GeneratorContext(hl.get_jit_target_from_environment(), hl.AutoschedulerParams("Li2018"))
    with ctx, pytest.raises(hl.HalideError, match="The GeneratorParam autoscheduler cannot be set more than once"):
        Offset({"autoscheduler": "Adams2019"})
    assert ctx.autoscheduler_params().name == "Li2018"  # the context's is not changed


def test_create_callable_from_generator():
    target = hl.get_jit_target_from_environment()
    c = hl.create_callable_from_generator(hl.GeneratorContext(target), "test_ctx_offset", {"offset": "5"})
    np.testing.assert_array_equal(_run(c, [0, 10, -3]), [5, 15, 2])
    c = hl.create_callable_from_generator(target, "test_ctx_offset")
    np.testing.assert_array_equal(_run(c, [7]), [8])
    c = hl.create_callable_from_generator(target, "test_ctx_offset", {"autoscheduler": "Adams2019"})
    np.testing.assert_array_equal(_run(c, [7]), [1008])


def test_create_callable_from_generator_errors():
    ctx = hl.GeneratorContext(hl.get_jit_target_from_environment())
    with pytest.raises(hl.HalideError, match="There is no Generator with the name 'nope' currently available."):
        hl.create_callable_from_generator(ctx, "nope")
    with pytest.raises(hl.HalideError, match="The GeneratorParam named target cannot be set"):
        hl.create_callable_from_generator(ctx, "test_ctx_offset", {"target": "host"})
    with pytest.raises(TypeError, match="GeneratorContext or Target"):
        hl.create_callable_from_generator("host", "test_ctx_offset")
    with pytest.raises(TypeError, match="halide.AutoschedulerParams"):
        hl.GeneratorContext(hl.get_jit_target_from_environment(), "Adams2019")
