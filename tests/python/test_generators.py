"""Python Generators (@hl.generator): JIT use against NumPy, GeneratorParams,
configure(), call(), GeneratorContext, and errors in upstream's words.

The command line (hl.main()) is tested in test_generator_cli.py.
"""

from __future__ import annotations

import gc
import warnings

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")

_OPS = {"xor": lambda a, b: a ^ b, "and": lambda a, b: a & b, "or": lambda a, b: a | b}
_NP_OPS = {"xor": np.bitwise_xor, "and": np.bitwise_and, "or": np.bitwise_or}


@hl.alias(test_gen_logical_and={"op": "and"}, test_gen_logical_or={"op": "or"})
@hl.generator(name="test_gen_logical_op")
class LogicalOp:
    op = hl.GeneratorParam("xor")
    with_offset = hl.GeneratorParam(False)

    input = hl.InputBuffer(hl.UInt(8), 2)
    mask = hl.InputScalar(hl.UInt(8))

    output = hl.OutputBuffer(hl.UInt(8), 2)

    def configure(g):
        if g.with_offset:
            g.add_input("offset", hl.InputScalar(hl.Int(32)))

    def generate(g):
        value = _OPS[g.op](g.input[x, y], g.mask)
        if hasattr(g, "offset"):
            value = value + hl.u8(g.offset)
        g.output[x, y] = value
        g.output.vectorize(x, g.natural_vector_size(hl.UInt(8)))


@hl.generator(name="test_gen_open_types")
class OpenTypes:
    """Types and dimensions left open, filled from GeneratorParams."""

    scale = hl.GeneratorParam(2.0)
    out_type = hl.GeneratorParam(hl.Float(32))

    input = hl.InputBuffer(None, None)
    factor = hl.InputScalar(float)
    output = hl.OutputBuffer(None, 2)

    def generate(g):
        assert g.input.dimensions() == 2
        g.output[x, y] = hl.cast(g.out_type, hl.f32(g.input[x, y]) * g.factor * g.scale)


def image(rng, shape=(19, 101), dtype=np.uint8):
    return rng.integers(0, 256, size=shape).astype(dtype)


def test_compile_to_callable_against_numpy(rng):
    a = image(rng)
    for op in ("xor", "and", "or"):
        f = LogicalOp({"op": op}).compile_to_callable()
        out = np.empty_like(a)
        f(a, 0x5A, out)
        np.testing.assert_array_equal(out, _NP_OPS[op](a, 0x5A))
        f(mask=0x0F, input=a, output=out)  # by name, as upstream
        np.testing.assert_array_equal(out, _NP_OPS[op](a, 0x0F))


def test_generator_params_are_values_in_the_instance():
    g = LogicalOp({"op": "and", "with_offset": "true"})
    assert g.op == "and" and g.with_offset is True
    assert isinstance(LogicalOp.op, hl.GeneratorParam)  # the declaration is unchanged
    assert LogicalOp().op == "xor"


def test_configure_adds_inputs(rng):
    a = image(rng)
    f = LogicalOp({"with_offset": True}).compile_to_callable()
    out = np.empty_like(a)
    f(a, 3, 200, out)
    np.testing.assert_array_equal(out, ((a ^ 3).astype(np.int32) + 200).astype(np.uint8))
    assert [arg.name for arg in f.arguments()][:3] == ["input", "mask", "offset"]


def test_keywords_use_field_names_while_other_instances_live(rng):
    # The compiler renames a second live Param "mask" to "mask$1"; the
    # Callable still takes the field names.
    a = image(rng)
    first = LogicalOp().compile_to_callable()
    second = LogicalOp({"op": "and"}).compile_to_callable()
    out = np.empty_like(a)
    second(input=a, mask=0x0F, output=out)
    np.testing.assert_array_equal(out, a & 0x0F)
    first(input=a, mask=0x0F, output=out)
    np.testing.assert_array_equal(out, a ^ 0x0F)


def test_fields_become_params_named_after_them():
    gc.collect()
    g = LogicalOp()
    g.compile_to_callable()
    assert isinstance(g.input, hl.ImageParam) and g.input.name() == "input"
    assert isinstance(g.mask, hl.Param) and g.mask.name() == "mask"
    assert isinstance(g.output, hl.Func) and g.output.defined()


def test_aliases(rng):
    a = image(rng)
    generators = hl._generator._generators
    for name, op in (("test_gen_logical_and", "and"), ("test_gen_logical_or", "or")):
        g = generators[name]()
        assert g.op == op
        out = np.empty_like(a)
        g.compile_to_callable()(a, 0x33, out)
        np.testing.assert_array_equal(out, _NP_OPS[op](a, 0x33))


def test_types_and_dimensions_from_generator_params(rng):
    a = image(rng, dtype=np.uint16)
    g = OpenTypes({"input.type": "uint16", "input.dim": 2, "output.type": "float64", "out_type": "float64"})
    f = g.compile_to_callable()
    out = np.empty(a.shape, np.float64)
    f(a, 1.5, out)
    np.testing.assert_allclose(out, a.astype(np.float32) * np.float32(1.5) * np.float32(2.0))
    assert g.input.type() == hl.UInt(16)


def test_python_type_aliases(rng):
    @hl.generator(name="test_gen_aliases")
    class Aliases:
        i = hl.InputScalar(int)
        f = hl.InputScalar(float)
        b = hl.InputScalar(bool)
        out = hl.OutputBuffer(float, 1)

        def generate(g):
            assert g.i.type() == hl.Int(32) and g.f.type() == hl.Float(32) and g.b.type() == hl.Bool()
            g.out[x] = hl.select(g.b, hl.f32(g.i) * g.f + x, -1.0)

    fn = Aliases().compile_to_callable()
    out = np.empty(5, np.float32)
    fn(3, 0.5, True, out)
    np.testing.assert_array_equal(out, 1.5 + np.arange(5, dtype=np.float32))
    fn(3, 0.5, False, out)
    np.testing.assert_array_equal(out, -np.ones(5, np.float32))


def test_tuple_and_scalar_outputs(rng):
    @hl.generator(name="test_gen_tuple_scalar")
    class TupleScalar:
        input = hl.InputBuffer(hl.UInt(8), 2)
        k = hl.InputScalar(hl.Int(32))
        pair = hl.OutputBuffer([hl.UInt(8), hl.Float(32)], 2)
        total = hl.OutputScalar(hl.Int(32))

        def generate(g):
            g.pair[x, y] = (g.input[x, y] + 1, hl.f32(g.input[x, y]) / 2)
            g.total[()] = g.k * 3

    a = image(rng)
    fn = TupleScalar().compile_to_callable()
    p0, p1 = np.empty_like(a), np.empty(a.shape, np.float32)
    total = np.zeros((), np.int32)
    fn(a, 7, p0, p1, total)
    np.testing.assert_array_equal(p0, (a + 1).astype(np.uint8))
    np.testing.assert_array_equal(p1, a.astype(np.float32) / 2)
    assert total[()] == 21


def test_call_inside_other_code(rng):
    a = image(rng)
    out = LogicalOp.call(hl.Buffer(a), 0x21)
    assert isinstance(out, hl.Func)
    np.testing.assert_array_equal(np.asarray(out.realize([a.shape[1], a.shape[0]])), a ^ 0x21)

    # generator_params, keywords, a Param and an ImageParam, composed further.
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    mask = hl.Param(hl.UInt(8), "m", 0x0F)
    inner = LogicalOp.call(mask=mask, input=im, generator_params={"op": "and"})
    outer = hl.Func("outer")
    outer[x, y] = hl.u16(inner[x, y]) * 2
    im.set(hl.Buffer(a))
    np.testing.assert_array_equal(np.asarray(outer.realize([a.shape[1], a.shape[0]])), (a & 0x0F).astype(np.uint16) * 2)


def test_call_with_several_outputs(rng):
    @hl.generator(name="test_gen_two_outputs")
    class TwoOutputs:
        input = hl.InputBuffer(hl.Int(32), 1)
        plus = hl.OutputBuffer(hl.Int(32), 1)
        times = hl.OutputBuffer(hl.Int(32), 1)

        def generate(g):
            g.plus[x] = g.input[x] + 1
            g.times[x] = g.input[x] * 2

    data = np.arange(10, dtype=np.int32)
    plus, times = TwoOutputs.call(hl.Buffer(data))
    np.testing.assert_array_equal(np.asarray(plus.realize([10])), data + 1)
    np.testing.assert_array_equal(np.asarray(times.realize([10])), data * 2)


def test_generator_context_and_natural_vector_size():
    seen = {}

    @hl.generator(name="test_gen_vector_size")
    class VectorSize:
        out = hl.OutputBuffer(hl.UInt(8), 1)

        def generate(g):
            seen["n"] = g.natural_vector_size(hl.UInt(8))
            seen["active"] = hl.active_generator_context().target()
            g.out[x] = hl.u8(x)

    for target, lanes in (("x86-64-linux-sse41", 16), ("x86-64-linux-avx2-fma", 32)):
        with hl.GeneratorContext(hl.Target(target)) as ctx:
            g = VectorSize()
        assert g.target() == ctx.target() == hl.Target(target)
        assert g.natural_vector_size(hl.UInt(8)) == lanes
        assert g.natural_vector_size(int) == lanes // 4
        g._build_pipeline()
        assert seen["n"] == lanes
        assert seen["active"] == hl.Target(target)  # generate() runs in the generator's context
    assert VectorSize().target() == hl.get_jit_target_from_environment()


def test_hl_jit_target_is_honoured(monkeypatch):
    monkeypatch.setenv("HL_JIT_TARGET", "host-debug")
    g = LogicalOp()
    assert g.target().has_feature(hl.TargetFeature.Debug)
    assert g.target().has_feature(hl.TargetFeature.JIT)
    g.compile_to_callable()


def test_default_registered_name():
    @hl.generator()
    class Unnamed:
        out = hl.OutputBuffer(hl.Int(32), 1)

        def generate(g):
            g.out[x] = x

    assert Unnamed._halide_registered_name == f"{__name__}.test_default_registered_name.<locals>.Unnamed"
    assert issubclass(Unnamed, hl.Generator)


# ---------------------------------------------------------------- errors


def test_single_use():
    g = LogicalOp()
    g.compile_to_callable()
    with pytest.raises(hl.HalideError, match="single-use"):
        g.compile_to_callable()


def test_fields_are_read_only():
    g = LogicalOp()
    with pytest.raises(AttributeError, match="Invalid write to field 'op'"):
        g.op = "or"
    g.compile_to_callable()
    with pytest.raises(AttributeError, match="Invalid write to field 'output'"):
        g.output = hl.Func("other")


def test_missing_or_undefined_outputs():
    @hl.generator(name="test_gen_no_outputs")
    class NoOutputs:
        input = hl.InputBuffer(hl.UInt(8), 2)

        def generate(g):
            pass

    with pytest.raises(hl.HalideError, match="Generator 'test_gen_no_outputs' must declare at least one output."):
        NoOutputs().compile_to_callable()

    @hl.generator(name="test_gen_undefined_output")
    class Undefined:
        out = hl.OutputBuffer(hl.UInt(8), 2)

        def generate(g):
            pass

    with pytest.raises(hl.HalideError, match="Output 'out' was not defined."):
        Undefined().compile_to_callable()


def test_output_type_and_dimension_mismatch():
    @hl.generator(name="test_gen_mismatch")
    class Mismatch:
        dims = hl.GeneratorParam(2)
        out = hl.OutputBuffer(hl.UInt(8), 2)

        def generate(g):
            if g.dims == 2:
                g.out[x, y] = x + y  # int32
            else:
                g.out[x] = hl.u8(x)

    # Upstream 21's messages: an output is a Func with required types and
    # dimensions, which refuses the definition itself.
    with pytest.raises(
        hl.HalideError,
        match=r'Func "out(\$\d+)?" is constrained to only hold values of type uint8 but is defined with values of '
        r"type int32\.",
    ):
        Mismatch().compile_to_callable()
    with pytest.raises(
        hl.HalideError,
        match=r'Func "out(\$\d+)?" is constrained to have exactly 2 dimensions, but is defined with 1 dimensions\.',
    ):
        Mismatch({"dims": 1}).compile_to_callable()


@hl.generator(name="test_gen_int_param")
class Mismatch2:
    dims = hl.GeneratorParam(2)
    out = hl.OutputBuffer(hl.Int(32), 1)

    def generate(g):
        g.out[x] = x


def test_bad_generator_param_values():
    with pytest.raises(ValueError, match="could not convert string to float: 'abc'"):
        OpenTypes({"scale": "abc"})  # Python's own words, as upstream
    with pytest.raises(ValueError, match="invalid literal for int"):
        Mismatch2({"dims": "two"})
    with pytest.raises(ValueError, match="is a bool: give true or false, not 'maybe'"):
        LogicalOp({"with_offset": "maybe"})
    with pytest.raises(hl.HalideError, match="The value uint7 cannot be parsed as a Type."):
        OpenTypes({"out_type": "uint7"})
    with pytest.raises(hl.HalideError, match="The value int3 cannot be parsed as a Type."):
        OpenTypes({"input.type": "int3", "input.dim": 2, "output.type": "uint8"}).compile_to_callable()
    with pytest.raises(hl.HalideError, match=r"has no GeneratorParam\(s\) named: \['bogus'\]"):
        LogicalOp({"bogus": 1}).compile_to_callable()
    with pytest.raises(hl.HalideError, match="No type has been specified for input. Try specifying one in code, "):
        OpenTypes().compile_to_callable()
    with pytest.raises(hl.HalideError, match="No dimensionality has been specified for input."):
        OpenTypes({"input.type": "uint8", "output.type": "uint8"}).compile_to_callable()
    with pytest.raises(hl.HalideError, match="Cannot set the GeneratorParam mask.type for test_gen_logical_op because"):
        LogicalOp({"mask.type": "uint16"}).compile_to_callable()
    with pytest.raises(hl.HalideError, match="cannot be set by set_generatorparam_value"):
        LogicalOp({"target": "host"})
    with pytest.raises(hl.HalideError, match="generator_params must be a dict"):
        LogicalOp.call(generator_params=[("op", "or")])


def test_invalid_names_and_declarations():
    for bad in ("_private", "two__underscores", "generator_params"):
        with pytest.raises(
            hl.HalideError, match=f"The name '{bad}' is not valid for a GeneratorParam, Input, or Output."
        ):

            @hl.generator(name=f"test_gen_bad_{bad}")
            class Bad:
                locals()[bad] = hl.GeneratorParam(1)
                out = hl.OutputBuffer(hl.Int(32), 1)

                def generate(g):
                    g.out[x] = x

            Bad()
    with pytest.raises(hl.HalideError, match="The Generator name test_gen_logical_op is already in use."):

        @hl.generator(name="test_gen_logical_op")
        class Again:
            def generate(g):
                pass

    with pytest.raises(hl.HalideError, match="@alias can only be used in conjunction with @generator."):

        @hl.alias(some_alias={})
        class Plain:
            pass

    with pytest.raises(hl.HalideError, match="unsupported type"):

        @hl.generator(name="test_gen_bad_gp")
        class BadParam:
            p = hl.GeneratorParam([1, 2])

            def generate(g):
                pass

        BadParam()


def test_add_input_rules():
    @hl.generator(name="test_gen_add_rules")
    class AddRules:
        input = hl.InputBuffer(hl.UInt(8), 1)
        out = hl.OutputBuffer(hl.UInt(8), 1)

        def configure(g):
            with pytest.raises(hl.HalideError, match=r"Cannot call add_input\('input'\) because the class already"):
                g.add_input("input", hl.InputScalar(int))
            with pytest.raises(hl.HalideError, match="Cannot call add_output"):
                g.add_output("extra", hl.InputScalar(int))
            g.add_output("extra", hl.OutputBuffer(hl.UInt(8), 1))

        def generate(g):
            g.out[x] = g.input[x]
            g.extra[x] = g.input[x] + 1

    g = AddRules()
    with pytest.raises(hl.HalideError, match=r"Can only call add_input\(\) from the configure\(\) method."):
        g.add_input("late", hl.InputScalar(int))
    fn = g.compile_to_callable()
    data = np.arange(8, dtype=np.uint8)
    out, extra = np.empty_like(data), np.empty_like(data)
    fn(data, out, extra)
    np.testing.assert_array_equal(extra, data + 1)


def test_call_errors(rng):
    buf = hl.Buffer(image(rng))
    with pytest.raises(hl.HalideError, match="allows at most 2 positional args, but 3 were specified."):
        LogicalOp.call(buf, 1, 2)
    with pytest.raises(hl.HalideError, match="Unknown input 'nope' specified via keyword argument."):
        LogicalOp.call(buf, 1, nope=2)
    with pytest.raises(hl.HalideError, match="Input input specified multiple times."):
        LogicalOp.call(buf, 1, input=buf)
    with pytest.raises(hl.HalideError, match="requires 2 args, but 1 were specified."):
        LogicalOp.call(buf)
    with pytest.raises(hl.HalideError, match="Input input requires an ImageParam or Buffer argument"):
        LogicalOp.call(3, 1)
    with pytest.raises(hl.HalideError, match="Type mismatch for input:0: expected uint8 saw int32"):
        LogicalOp.call(hl.Buffer(hl.Int(32), [4, 4]), 1)
    with pytest.raises(hl.HalideError, match="Dimensions mismatch for input: expected 2 saw 3"):
        LogicalOp.call(hl.Buffer(hl.UInt(8), [4, 4, 3]), 1)


def test_inputs_after_outputs_warn():
    @hl.generator(name="test_gen_out_of_order")
    class OutOfOrder:
        out = hl.OutputBuffer(hl.Int(32), 1)
        k = hl.InputScalar(hl.Int(32))

        def generate(g):
            g.out[x] = x + g.k

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn = OutOfOrder().compile_to_callable()
    assert any("after an Output" in str(w.message) for w in caught)
    out = np.empty(4, np.int32)
    fn(10, out)  # inputs first, whatever the declaration order
    np.testing.assert_array_equal(out, np.arange(4) + 10)


def test_generate_is_required():
    @hl.generator(name="test_gen_no_generate")
    class NoGenerate:
        out = hl.OutputBuffer(hl.Int(32), 1)

    with pytest.raises(TypeError, match="abstract"):
        NoGenerate()


@hl.generator(name="test_gen_requirement")
class WithRequirement:
    offset = hl.InputScalar(hl.Int(32))
    output = hl.OutputBuffer(hl.Int(32), 1)

    def generate(g):
        g.output[x] = x + g.offset
        g.add_requirement(g.offset >= 0, "offset must not be negative, got", g.offset)


def test_add_requirement_is_checked_when_the_pipeline_runs():
    f = WithRequirement().compile_to_callable()
    out = np.empty(4, dtype=np.int32)
    f(3, out)
    np.testing.assert_array_equal(out, np.arange(4) + 3)
    # Upstream 21: "Requirement Failed: (false) offset must not be negative, got -2"
    with pytest.raises(hl.HalideError, match=r"Requirement Failed: \(false\) offset must not be negative, got -2"):
        f(-2, out)


def test_add_requirement_after_the_pipeline_is_built():
    g = WithRequirement()
    g.compile_to_callable()
    with pytest.raises(hl.HalideError, match="before the Generator's pipeline is built"):
        g.add_requirement(hl.Expr(True))
