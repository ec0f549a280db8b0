"""hl.Parameter (Param.parameter, ImageParam.parameter,
OutputImageParam.parameter) and the Target members upstream's Python has:
processor_tune with hl.TargetProcessorTune, has_large_buffers,
maximum_buffer_size, supported."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def test_parameter_of_an_image_param():
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    p = im.parameter()
    assert isinstance(p, hl.Parameter)
    assert (p.name(), p.type(), p.dimensions(), p.is_buffer(), p.defined()) == ("im", hl.UInt(8), 2, True, True)
    assert p.host_alignment() == 1
    assert p.same_as(im.parameter())
    assert not p.min_constraint(0).defined()
    assert hl.evaluate(p.stride_constraint(0)) == 1
    assert repr(p) == "<halide.Parameter 'im' type uint8>"
    with pytest.raises(hl.HalideError):
        p.min_value()
    f = hl.Func("f")
    x = hl.Var("x")
    f[x] = x
    assert f.output_buffer().parameter().is_buffer()


def test_constraints_set_through_the_parameter_are_checked():
    im = hl.ImageParam(hl.Int(32), 1, "im")
    im.parameter().set_extent_constraint(0, 4)
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = im[x] * 2
    im.set(hl.Buffer(np.arange(4, dtype=np.int32)))
    np.testing.assert_array_equal(np.asarray(f.realize([4])), np.arange(4) * 2)
    im.set(hl.Buffer(np.arange(5, dtype=np.int32)))
    with pytest.raises(hl.HalideError):
        f.realize([4])


def test_parameter_of_a_param():
    k = hl.Param(hl.Int(32), "k", 3)
    p = k.parameter()
    assert (p.name(), p.type(), p.dimensions(), p.is_buffer()) == ("k", hl.Int(32), 0, False)
    assert hl.evaluate(p.scalar_expr()) == 3
    assert not p.min_value().defined()
    p.set_max_value(9)
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = x + k
    k.set(12)
    with pytest.raises(hl.HalideError):
        f.realize([2])
    k.set(5)
    np.testing.assert_array_equal(np.asarray(f.realize([2])), [5, 6])


def test_parameters_made_directly():
    assert not hl.Parameter().defined()
    s = hl.Parameter(hl.Float(32), False, 0, "nn")
    assert (s.name(), s.is_buffer()) == ("nn", False)
    b = hl.Parameter(hl.Int(16), True, 3, "bb")
    assert (b.is_buffer(), b.dimensions(), b.type()) == (True, 3, hl.Int(16))


def test_parameter_scalar_values():
    k = hl.Param(hl.Int(16), "k", 3)
    p = k.parameter()
    assert p.scalar() == 3 and type(p.scalar()) is int
    p.set_scalar(-7)
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = x + k
    np.testing.assert_array_equal(np.asarray(f.realize([3])), np.arange(3) - 7)
    p.set_scalar(hl.Int(16), 9)
    assert p.scalar() == 9
    # As Param.set(): a value the type cannot hold is refused, not wrapped.
    with pytest.raises(hl.HalideError, match="70000"):
        p.set_scalar(70000)
    with pytest.raises(hl.HalideError, match="int16"):
        p.set_scalar(hl.Int(32), 1)
    b = hl.Param(hl.Bool(), "b", True).parameter()
    assert b.scalar() is True
    s = hl.Param(hl.Float(32), "s").parameter()
    s.set_scalar(0.1)  # rounded to float32, as Param.set does
    assert s.scalar() == float(np.float32(0.1))


def test_parameter_buffer_binds_the_image_param():
    im = hl.ImageParam(hl.Int(32), 1, "im")
    p = im.parameter()
    assert not p.buffer().defined()
    data = np.arange(5, dtype=np.int32) * 3
    p.set_buffer(hl.Buffer(data))
    np.testing.assert_array_equal(np.asarray(p.buffer()), data)
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = im[x] + 1
    np.testing.assert_array_equal(np.asarray(f.realize([5])), data + 1)
    with pytest.raises(hl.HalideError, match="type"):
        p.set_buffer(hl.Buffer(np.zeros(5, dtype=np.float32)))


def test_parameter_estimates_constraints_and_memory_type():
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    p = im.parameter()
    p.set_min_constraint_estimate(1, 0)
    p.set_extent_constraint_estimate(1, 480)
    p.set_extent_constraint(0, 640)
    assert hl.evaluate(p.extent_constraint_estimate(1)) == 480
    assert not p.min_constraint_estimate(0).defined()
    c = p.buffer_constraints()
    assert len(c) == 2 and isinstance(c[0], hl.BufferConstraint)
    assert hl.evaluate(c[0].extent) == 640 and hl.evaluate(c[0].stride) == 1
    assert hl.evaluate(c[1].min_estimate) == 0 and hl.evaluate(c[1].extent_estimate) == 480
    e = p.get_argument_estimates()
    assert isinstance(e, hl.ArgumentEstimates)
    assert hl.evaluate(e.buffer_estimates[1].extent) == 480
    assert p.memory_type() == hl.MemoryType.Auto
    p.store_in(hl.MemoryType.Heap)
    assert p.memory_type() == hl.MemoryType.Heap
    k = hl.Param(hl.Int(32), "k", 1)
    k.set_range(0, 10)
    est = k.parameter().get_argument_estimates()
    assert (hl.evaluate(est.scalar_min), hl.evaluate(est.scalar_max)) == (0, 10)
    with pytest.raises(hl.HalideError, match="buffer"):
        k.parameter().store_in(hl.MemoryType.Heap)


def test_processor_tune():
    names = list(hl.TargetProcessorTune.__members__)
    assert names == sorted(names) and "TuneGeneric" in names and "TuneZnVer5" in names and len(names) == 15
    assert int(hl.TargetProcessorTune.TuneGeneric) == 0
    assert int(hl.TargetProcessorTune.TuneZnVer5) == 14
    t = hl.Target("x86-64-linux-tune_znver4-large_buffers")
    assert t.processor_tune == hl.TargetProcessorTune.TuneZnVer4
    assert str(t) == "x86-64-linux-tune_znver4-large_buffers"
    t.processor_tune = hl.TargetProcessorTune.TuneK8
    assert str(t) == "x86-64-linux-tune_k8-large_buffers"
    assert hl.Target("x86-64-linux-avx2").processor_tune == hl.TargetProcessorTune.TuneGeneric
    made = hl.Target(hl.TargetOS.Linux, hl.TargetArch.X86, 64, hl.TargetProcessorTune.TuneZnVer2)
    assert str(made) == "x86-64-linux-tune_znver2"


def test_buffer_size_limits_and_support():
    small, large = hl.Target("x86-64-linux-avx2"), hl.Target("x86-64-linux-large_buffers")
    assert not small.has_large_buffers() and small.maximum_buffer_size() == 2**31 - 1
    assert large.has_large_buffers() and large.maximum_buffer_size() == 2**63 - 1
    assert small.supported() and hl.Target("arm-64-linux").supported()
    assert not hl.Target("x86-64-linux-cuda").supported()


def test_trace_features_spelled_as_upstream_21():
    # trace_all stands for the three only where they sort together, so not
    # next to trace_pipeline (which sorts between them), as upstream 21 writes.
    assert hl.Target("x86-64-linux-trace_loads-trace_stores-trace_realizations").to_string() == (
        "x86-64-linux-trace_all"
    )
    t = hl.Target("x86-64-linux-trace_all-trace_pipeline")
    assert t.to_string() == "x86-64-linux-trace_loads-trace_pipeline-trace_realizations-trace_stores"
    assert hl.Target(t.to_string()) == t
    # avx2 names avx2 only, as upstream 21's Target does.
    avx2 = hl.Target("x86-64-linux-avx2")
    assert avx2.to_string() == "x86-64-linux-avx2"
    assert not avx2.has_feature(hl.TargetFeature.FMA)
    assert not avx2.has_feature(hl.TargetFeature.F16C)


def test_feature_numbers_and_vector_bits_are_upstream_21s():
    # Upstream 21's hl.TargetFeature values (its halide_target_feature_t).
    assert [int(f) for f in (hl.TargetFeature.JIT, hl.TargetFeature.SSE41, hl.TargetFeature.AVX2,
                             hl.TargetFeature.UserContext, hl.TargetFeature.NoRuntime,
                             hl.TargetFeature.AVX512_SapphireRapids)] == [0, 5, 7, 29, 31, 46]  # fmt: skip
    # vector_bits_N: accepted, printed last; x86's natural vector size ignores it.
    t = hl.Target("x86-64-linux-vector_bits_512-avx2")
    assert str(t) == "x86-64-linux-avx2-vector_bits_512"
    assert t.natural_vector_size(hl.Float(32)) == 8
    assert hl.Target.validate_target_string("x86-64-linux-vector_bits_256")
    assert not hl.Target.validate_target_string("x86-64-linux-vector_bits_")


# Upstream 21's natural_vector_size (observed) for float32, float64, float16,
# bfloat16, uint8, int16, int32, int64, bool: floats take 64-byte vectors with
# any AVX-512, integers only with AVX-512BW (skylake and later, Zen 4/5).
UPSTREAM_21_VECTOR_SIZES = {
    "": [4, 2, 8, 8, 16, 8, 4, 2, 16],
    "sse41": [4, 2, 8, 8, 16, 8, 4, 2, 16],
    "avx": [8, 4, 16, 16, 16, 8, 4, 2, 16],
    "avx2": [8, 4, 16, 16, 32, 16, 8, 4, 32],
    "avx512": [16, 8, 32, 32, 32, 16, 8, 4, 32],
    "avx512_knl": [16, 8, 32, 32, 32, 16, 8, 4, 32],
    "avx512_skylake": [16, 8, 32, 32, 64, 32, 16, 8, 64],
    "avx512_cannonlake": [16, 8, 32, 32, 64, 32, 16, 8, 64],
    "avx512_sapphirerapids": [16, 8, 32, 32, 64, 32, 16, 8, 64],
    "avx512_zen4": [16, 8, 32, 32, 64, 32, 16, 8, 64],
    "avx512_zen5": [16, 8, 32, 32, 64, 32, 16, 8, 64],
    "avxvnni": [4, 2, 8, 8, 16, 8, 4, 2, 16],
    "avx-avx512": [16, 8, 32, 32, 32, 16, 8, 4, 32],
    "avx2-avx512_zen4": [16, 8, 32, 32, 64, 32, 16, 8, 64],
    "f16c": [4, 2, 8, 8, 16, 8, 4, 2, 16],
}


@pytest.mark.parametrize("features", sorted(UPSTREAM_21_VECTOR_SIZES))
def test_x86_natural_vector_sizes_are_upstream_21s(features):
    t = hl.Target("x86-64-linux" + ("-" + features if features else ""))
    types = [hl.Float(32), hl.Float(64), hl.Float(16), hl.BFloat(16), hl.UInt(8), hl.Int(16), hl.Int(32)]
    types += [hl.Int(64), hl.Bool()]
    assert [t.natural_vector_size(ty) for ty in types] == UPSTREAM_21_VECTOR_SIZES[features]
