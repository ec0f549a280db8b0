"""hl.Func(type, dimensions, name) and hl.Func([types], dimensions, name): a
Func whose value types and dimensions are fixed before it is defined, as
upstream 21's. A generator's outputs are such Funcs, so generate() can read
self.output.type() before defining the output (issue 10: upstream's
generator tutorials do)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import probe_both  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def test_requirements_answer_before_the_definition():
    f = hl.Func(hl.UInt(16), 3, "typed")
    assert not f.defined()
    assert (f.type(), f.types(), f.outputs(), f.dimensions()) == (hl.UInt(16), [hl.UInt(16)], 1, 3)
    g = hl.Func([hl.Int(32), hl.Float(64)], 2, "typed_pair")
    assert (g.types(), g.outputs(), g.dimensions()) == ([hl.Int(32), hl.Float(64)], 2, 2)
    with pytest.raises(hl.HalideError, match='Func "typed_pair(\\$\\d+)?" because it returns a Tuple'):
        g.type()


def test_an_untyped_undefined_func_has_no_answer():
    f = hl.Func("untyped")
    for method, what in [("type", "type"), ("types", "type"), ("outputs", "type"), ("dimensions", "dimension")]:
        with pytest.raises(hl.HalideError, match=f"because it is undefined or has no {what} requirements"):
            getattr(f, method)()


def test_a_matching_definition_computes_as_any_other():
    f = hl.Func(hl.UInt(8), 2, "ok")
    f[x, y] = hl.u8(x * 16 + y)
    got = np.asarray(f.realize([4, 6]))
    ny, nx = np.mgrid[0:6, 0:4]
    np.testing.assert_array_equal(got, (nx * 16 + ny).astype(np.uint8))
    assert f.type() == hl.UInt(8) and f.dimensions() == 2
    t = hl.Func((hl.Int(16), hl.Float(32)), 1, "ok_pair")
    t[x] = (hl.i16(x), hl.f32(x) / 2)
    a, b = t.realize([5])
    np.testing.assert_array_equal(np.asarray(a), np.arange(5, dtype=np.int16))
    np.testing.assert_array_equal(np.asarray(b), np.arange(5, dtype=np.float32) / 2)


@pytest.mark.parametrize(
    ("types", "dims", "index", "value", "message"),
    [
        (
            hl.Int(32),
            1,
            (x, y),
            lambda: hl.i32(0),
            "is constrained to have exactly 1 dimensions, but is defined with 2",
        ),
        (
            hl.Int(32),
            2,
            (x, y),
            lambda: hl.i16(0),
            "is constrained to only hold values of type int32 but is defined with values of type int16",
        ),
        (
            (hl.Int(32), hl.Float(32)),
            2,
            (x, y),
            lambda: (hl.i16(0), hl.f64(0)),
            r"is constrained to only hold values of type \(int32, float32\) but is defined with values of type "
            r"\(int16, float64\)",
        ),
    ],
)
def test_a_definition_that_breaks_the_requirement_is_refused(types, dims, index, value, message):
    f = hl.Func(types, dims, "strict")
    with pytest.raises(hl.HalideError, match=message):
        f[index] = value()
    assert not f.defined()


def test_messages_are_upstreams():
    probe = """
import json, halide as hl
x, y = hl.Var("x"), hl.Var("y")
out = {}
for key, make, define in [
    ("dims", lambda: hl.Func(hl.Int(32), 1, "h"), lambda f: f.__setitem__((x, y), hl.i32(0))),
    ("type", lambda: hl.Func(hl.Int(32), 2, "k"), lambda f: f.__setitem__((x, y), hl.i16(0))),
    ("tuple", lambda: hl.Func([hl.Int(32), hl.Float(32)], 2, "m"), lambda f: f.__setitem__((x, y), hl.i32(0))),
]:
    try:
        define(make())
        out[key] = "no error"
    except hl.HalideError as e:
        out[key] = str(e).strip().removeprefix("Error: ")
print(json.dumps(out))
"""
    ours, theirs = probe_both(probe)
    # The names differ when a Func of that name exists already (k$1).
    assert {k: v.replace("$1", "") for k, v in ours.items()} == theirs


def test_copies_share_the_requirement():
    f = hl.Func(hl.Float(32), 1, "shared")
    handle = [f][0]
    assert handle.type() == hl.Float(32)
    with pytest.raises(hl.HalideError, match="constrained"):
        handle[x] = x


@hl.generator(name="test_typed_output_cast")
class CastToOutputType:
    # The output's type comes from a GeneratorParam ("output.type"): the
    # generator casts to whatever it is before defining the output.
    input = hl.InputBuffer(hl.Float(32), 1)
    output = hl.OutputBuffer(None, 1)

    def generate(g):
        assert g.output.dimensions() == 1
        g.output[x] = hl.cast(g.output.type(), g.input[x] * 2)


@pytest.mark.parametrize(("type_name", "dtype"), [("uint8", np.uint8), ("int16", np.int16), ("float64", np.float64)])
def test_a_generator_casts_to_its_outputs_type(type_name, dtype):
    data = np.array([0.25, 1.5, 3.0, 7.75, 100.0], dtype=np.float32)
    out = np.zeros(5, dtype=dtype)
    with hl.GeneratorContext(hl.get_jit_target_from_environment()):
        gen = CastToOutputType({"output.type": type_name})
        gen.compile_to_callable()(data, out)
    np.testing.assert_array_equal(out, (data * 2).astype(dtype))
