"""Upstream API breadth in Python (issue 13): hl.fast_exp/log/pow/inverse/
inverse_sqrt against NumPy within upstream's documented accuracy, hl.undef in
Tuple updates, the placeholder hl._ and implicit Vars in calls and
definitions, hl.evaluate, hl.DeviceAPI with the GPU/Hexagon schedules
(refused with a HalideError naming the device, never an abort), Target's
device queries, Buffer's device methods; names and argument names against
upstream Halide 21's Python module."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import UPSTREAM_PY, probe_both, signature_probe, signature_problems  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")
_ = hl._

# Upstream documents fast_exp and fast_log as accurate up to the last 5
# bits of the 24-bit mantissa: a relative error below 2^-18.
FAST_TOLERANCE = 2.0**-18


def realize_1d(expr_of, data: np.ndarray) -> np.ndarray:
    """expr_of(input[x]) realized over data (Float(32))."""
    inp = hl.Buffer(data.astype(np.float32))
    f = hl.Func("fast")
    f[x] = expr_of(inp[x])
    f.vectorize(x, 8)
    return np.asarray(f.realize([data.size]))


def test_fast_exp_against_numpy():
    a = np.linspace(-20, 20, 1001, dtype=np.float32)
    got = realize_1d(hl.fast_exp, a).astype(np.float64)
    want = np.exp(a.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=FAST_TOLERANCE, atol=0)


def test_fast_log_against_numpy():
    a = np.linspace(0.001, 100, 1001, dtype=np.float32)
    got = realize_1d(hl.fast_log, a).astype(np.float64)
    want = np.log(a.astype(np.float64))
    # Near x = 1 the logarithm is near 0: the error there is absolute.
    assert np.all(np.abs(got - want) <= np.maximum(np.abs(want), 1.0) * FAST_TOLERANCE)


def test_fast_pow_against_numpy():
    a = np.linspace(0.001, 100, 1001, dtype=np.float32)
    got = realize_1d(lambda v: hl.fast_pow(v, hl.f32(17) / 10), a).astype(np.float64)
    want = np.power(a.astype(np.float64), np.float32(1.7))
    # pow is exp(y * log(x)): the two errors add, scaled by y.
    np.testing.assert_allclose(got, want, rtol=8 * FAST_TOLERANCE, atol=0)
    assert hl.evaluate(hl.fast_pow(hl.f32(0.0), hl.f32(2.0))) == 0.0


def test_fast_inverse_and_inverse_sqrt_against_numpy():
    a = np.linspace(0.001, 100, 1001, dtype=np.float32)
    a64 = a.astype(np.float64)
    np.testing.assert_allclose(realize_1d(hl.fast_inverse, a), 1.0 / a64, rtol=FAST_TOLERANCE, atol=0)
    np.testing.assert_allclose(realize_1d(hl.fast_inverse_sqrt, a), 1.0 / np.sqrt(a64), rtol=FAST_TOLERANCE, atol=0)


def test_fast_math_takes_only_float32():
    with pytest.raises(hl.HalideError, match="fast_exp only works for Float"):
        hl.fast_exp(hl.f64(1.0))


def test_undef_leaves_a_tuple_element_unchanged():
    f = hl.Func("undef_tuple")
    f[x] = (x, x * 2)
    f[x] = (f[x][0] + 10, hl.undef(hl.Int(32)))
    a, b = f.realize([5])
    idx = np.arange(5)
    np.testing.assert_array_equal(np.asarray(a), idx + 10)
    np.testing.assert_array_equal(np.asarray(b), idx * 2)


def test_undef_as_the_first_element_of_a_float_tuple():
    f = hl.Func("undef_first")
    f[x] = (x, hl.f32(x))
    f[x] = (hl.undef(hl.Int(32)), f[x][1] * 0.5)
    a, b = f.realize([4])
    np.testing.assert_array_equal(np.asarray(a), np.arange(4))
    np.testing.assert_allclose(np.asarray(b), np.arange(4, dtype=np.float32) * 0.5)


def test_pure_undef_updates_the_output_buffer_in_place():
    f = hl.Func("undef_pure")
    f[x] = hl.undef(hl.Int(32))
    f[x] = f[x] + 1
    data = np.array([5, 6, 7, 100], dtype=np.int32)
    out = hl.Buffer(data.copy())
    f.realize(out)
    np.testing.assert_array_equal(np.asarray(out), data + 1)


def test_undef_of_the_wrong_type_is_an_error():
    f = hl.Func("undef_type")
    f[x] = (x, x)
    with pytest.raises(hl.HalideError, match="type float32.*pure definition has type int32"):
        f[x] = (hl.undef(hl.Float(32)), f[x][1])
        f.realize([3])


def g_xy() -> hl.Func:
    g = hl.Func("g_xy")
    g[x, y] = x + 10 * y
    return g


GRID = np.arange(3)[None, :] + 10 * np.arange(2)[:, None]  # g over [3, 2], NumPy's axes reversed


def test_placeholder_stands_for_all_arguments():
    g = g_xy()
    f = hl.Func("all_args")
    f[_] = g[_] * 2
    assert f.dimensions() == 2
    np.testing.assert_array_equal(np.asarray(f.realize([3, 2])), GRID * 2)


def test_placeholder_after_and_before_named_vars():
    g = g_xy()
    f = hl.Func("after")
    f[x, _] = g[x, _] + x
    assert [v.name() for v in f.args()] == ["x", "_0"]
    np.testing.assert_array_equal(np.asarray(f.realize([3, 2])), GRID + np.arange(3)[None, :])
    h = hl.Func("before")
    h[_, x] = g[_, x]
    assert [v.name() for v in h.args()] == ["_0", "x"]
    np.testing.assert_array_equal(np.asarray(h.realize([3, 2])), GRID)


def test_placeholder_in_calls_of_funcs_with_fewer_dimensions():
    g = g_xy()
    h = hl.Func("h1")
    h[x] = x * 100
    f = hl.Func("mixed")
    f[x, _] = h[_] + g[x, _]  # h[_0] + g[x, _0]
    want = np.arange(2)[:, None] * 100 + GRID
    np.testing.assert_array_equal(np.asarray(f.realize([3, 2])), want)


def test_placeholder_in_an_update():
    g = g_xy()
    f = hl.Func("upd")
    f[_] = g[_]
    f[_] += 1
    np.testing.assert_array_equal(np.asarray(f.realize([3, 2])), GRID + 1)


def test_implicit_vars_without_placeholder_on_the_left_are_an_error():
    g = g_xy()
    f = hl.Func("no_placeholder")
    with pytest.raises(hl.HalideError, match="left-hand-side does not contain the placeholder symbol '_'"):
        f[x] = g[x, _]
    k = hl.Func("no_placeholder_2")
    with pytest.raises(hl.HalideError, match="left-hand-side does not contain the placeholder symbol '_'"):
        k[x, y] = g[hl._0, y]


def test_implicit_var_predicates():
    assert hl._.name() == "_" and hl._.is_placeholder() and hl._.is_implicit()
    assert [getattr(hl, f"_{i}").implicit_index() for i in range(10)] == list(range(10))
    assert hl._0.is_implicit() and not hl._0.is_placeholder()
    assert not x.is_implicit() and x.implicit_index() == -1
    assert not hl.Var("_a").is_implicit()
    assert hl.Var("_12").implicit_index() == 12
    assert hl.Var.implicit(4).name() == "_4"
    assert hl.Var.outermost().name() == "__outermost"


def test_evaluate_scalars_and_tuples():
    assert hl.evaluate(hl.Expr(3) + 2) == 5
    assert hl.evaluate(hl.u8(250) + 10) == (250 + 10) % 256
    assert hl.evaluate(hl.f32(1.5)) == 1.5
    assert hl.evaluate(hl.f64(1) / 10) == 0.1
    assert hl.evaluate(hl.Expr(True)) is True
    assert hl.evaluate(hl.u64(2**63) + 5) == 2**63 + 5
    assert hl.evaluate(3) == 3 and hl.evaluate(2.5) == 2.5
    assert hl.evaluate((hl.Expr(1), hl.f32(2))) == (1, 2.0)
    assert hl.evaluate([hl.Expr(7)]) == 7  # a list of one: the value (as upstream)
    assert hl.evaluate(hl.sqrt(hl.f64(2.0))) == np.sqrt(2.0)


def test_evaluate_errors():
    with pytest.raises(ValueError):
        hl.evaluate("abc")
    with pytest.raises(ValueError):
        hl.evaluate(())
    with pytest.raises(hl.HalideError, match="Undefined variable .x."):
        hl.evaluate(x + 1)


# GPU and Hexagon schedules: accepted, refused when compiled for this machine.
NO_GPU = "Schedule for Func {} requires <{}> but no compatible target feature is enabled in target"


def scheduled(name: str, schedule) -> hl.Func:
    f = hl.Func(name)
    f[x, y] = x + y
    schedule(f)
    return f


@pytest.mark.parametrize(
    "schedule,device",
    [
        (lambda f: f.gpu_tile(x, y, hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi"), 8, 8), "Default_GPU"),
        (lambda f: f.gpu_tile(x, y, hl.Var("xi"), hl.Var("yi"), 8, 8), "Default_GPU"),
        (lambda f: f.gpu_tile(x, hl.Var("xi"), 8, hl.TailStrategy.RoundUp), "Default_GPU"),
        (lambda f: f.gpu_blocks(x, y), "Default_GPU"),
        (lambda f: f.gpu_threads(x, device_api=hl.DeviceAPI.CUDA), "CUDA"),
        (lambda f: f.gpu(x, y, hl.DeviceAPI.OpenCL), "OpenCL"),
        (lambda f: f.gpu_single_thread(), "Default_GPU"),
        (lambda f: f.gpu_lanes(x, hl.DeviceAPI.Metal), "Metal"),
        (lambda f: f.hexagon(), "Hexagon"),
        (lambda f: f.hexagon(y), "Hexagon"),
    ],
)
def test_device_schedules_are_refused_on_a_host_target(schedule, device):
    f = scheduled("dev", schedule)
    with pytest.raises(hl.HalideError, match=NO_GPU.format("dev", device)):
        f.realize([16, 16])


def test_device_schedule_of_an_update_stage():
    f = hl.Func("dev_update")
    f[x] = x
    f[x] += 1
    assert isinstance(f.update(0).gpu_blocks(x), hl.Stage)
    with pytest.raises(hl.HalideError, match=NO_GPU.format("dev_update", "Default_GPU")):
        f.realize([16])


def test_device_schedule_with_the_feature_names_the_missing_backend(tmp_path):
    f = scheduled("dev_cuda", lambda f: f.gpu_tile(x, hl.Var("xi"), 8, device_api=hl.DeviceAPI.CUDA))
    target = hl.Target("x86-64-linux-cuda")
    with pytest.raises(hl.HalideError, match="requires <CUDA>, but this compiler has no CUDA backend"):
        f.compile_to_lowered_stmt(str(tmp_path / "dev_cuda.stmt"), [], target=target)


def test_device_schedule_methods_chain():
    f = hl.Func("chain")
    f[x, y] = x
    assert f.gpu_blocks(y).gpu_threads(x) is f
    f[x, y] += 1
    s = f.update(0)
    assert isinstance(s.gpu_tile(x, hl.Var("xi"), 4).hexagon(), hl.Stage)


def test_device_api_enum():
    assert sorted(hl.DeviceAPI.__members__) == sorted(
        ["None", "Host", "Default_GPU", "CUDA", "Vulkan", "OpenCL", "Metal", "Hexagon"]
    )
    # The values of upstream's C++ enum.
    assert [int(hl.DeviceAPI.Default_GPU), int(hl.DeviceAPI.Hexagon), int(hl.DeviceAPI.Vulkan)] == [2, 6, 9]


# Upstream 21's answers, one digit per type (1 = supported), observed with its Python module.
TYPES = [hl.Int(8), hl.Int(16), hl.Int(64), hl.UInt(64), hl.Float(16), hl.BFloat(16), hl.Float(64)]


def row(target: hl.Target, device=None) -> str:
    return "".join(
        "1" if (target.supports_type(t) if device is None else target.supports_type(t, device)) else "0" for t in TYPES
    )


def test_target_supports_type_as_upstream():
    vk_all = hl.Target("x86-64-linux-vulkan-vk_int8-vk_int16-vk_int64-vk_float16-vk_float64")
    assert row(hl.Target("x86-64-linux")) == "1111111"
    assert row(hl.Target("x86-64-linux-opencl")) == "1111110"
    assert row(hl.Target("x86-64-linux-metal")) == "1100110"
    assert row(hl.Target("x86-64-linux-vulkan")) == "1100110"
    assert row(vk_all) == "1111111"
    assert row(hl.Target("x86-64-linux"), hl.DeviceAPI.Metal) == "1100110"
    assert row(hl.Target("x86-64-linux"), hl.DeviceAPI.Vulkan) == "0000000"
    assert row(vk_all, hl.DeviceAPI.Vulkan) == "1111111"
    assert row(hl.Target("x86-64-linux-opencl-cl_doubles"), hl.DeviceAPI.OpenCL) == "1111111"


def test_target_device_queries():
    host = hl.Target("x86-64-linux")
    assert host.supports_device_api(hl.DeviceAPI.Host)
    assert not host.supports_device_api(hl.DeviceAPI.CUDA)
    assert not host.supports_device_api(hl.DeviceAPI.Default_GPU)
    assert hl.Target("x86-64-linux-cuda").supports_device_api(hl.DeviceAPI.CUDA)
    assert hl.Target("x86-64-linux-vulkan").supports_device_api(hl.DeviceAPI.Default_GPU)
    assert hl.Target("x86-64-linux-hvx").supports_device_api(hl.DeviceAPI.Hexagon)
    assert hl.target_feature_for_device_api(hl.DeviceAPI.CUDA) == hl.TargetFeature.CUDA
    assert hl.target_feature_for_device_api(hl.DeviceAPI.Hexagon) == hl.TargetFeature.HVX
    assert hl.target_feature_for_device_api(hl.DeviceAPI.Host) == hl.TargetFeature.FeatureEnd
    assert hl.host_supports_target_device(host)
    assert not hl.host_supports_target_device(hl.Target("x86-64-linux-cuda"))
    assert hl.Target("x86-64-linux-vulkan-vk_v13").has_feature(hl.TargetFeature.VulkanV13)


def test_buffer_device_state_of_a_host_buffer():
    b = hl.Buffer(np.arange(6, dtype=np.int32))
    assert not b.host_dirty() and not b.device_dirty() and not b.has_device_allocation()
    b.set_host_dirty()
    assert b.host_dirty()
    assert b.copy_to_host() == 0 and b.device_sync() == 0 and b.device_free() == 0
    b.set_host_dirty(False)
    b.set_device_dirty(True)
    assert b.device_dirty()
    np.testing.assert_array_equal(np.asarray(b), np.arange(6))


def test_buffer_copy_to_device_and_device_malloc_are_errors():
    b = hl.Buffer(hl.Int(32), [4], "devbuf")
    with pytest.raises(hl.HalideError, match="copy_to_device.*no device API for Default_GPU"):
        b.copy_to_device()
    with pytest.raises(hl.HalideError, match="device_malloc.*no device API for Default_GPU"):
        b.device_malloc()
    with pytest.raises(hl.HalideError, match="copy_to_device of Buffer 'devbuf' to CUDA: this compiler has no CUDA"):
        b.copy_to_device(hl.DeviceAPI.CUDA)
    with pytest.raises(hl.HalideError, match="device_malloc of Buffer 'devbuf' to Vulkan"):
        b.device_malloc(hl.DeviceAPI.Vulkan, hl.Target("x86-64-linux-vulkan"))


NAMES = [
    "undef", "evaluate", "fast_exp", "fast_log", "fast_pow", "fast_inverse", "fast_inverse_sqrt", "DeviceAPI",
    "target_feature_for_device_api", "host_supports_target_device",
    "_", "_0", "_1", "_2", "_3", "_4", "_5", "_6", "_7", "_8", "_9",
]  # fmt: skip
DEVICE_METHODS = ["gpu_tile", "gpu_blocks", "gpu_threads", "gpu_lanes", "gpu_single_thread", "gpu", "hexagon"]
METHODS = {
    "Func": DEVICE_METHODS,
    "Stage": DEVICE_METHODS,
    "Target": ["supports_type", "supports_device_api"],
    "Buffer": ["copy_to_device", "device_malloc", "copy_to_host", "device_sync", "device_free", "host_dirty",
               "device_dirty", "set_host_dirty", "set_device_dirty", "has_device_allocation"],
    "Var": ["is_implicit", "implicit_index", "is_placeholder"],
}  # fmt: skip


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 venv (build/upstream21) is not set up")
def test_names_and_argument_names_match_upstream():
    ours, theirs = probe_both(signature_probe(NAMES, METHODS, ["DeviceAPI", "TargetFeature"]))
    assert ours["names"] == theirs["names"] == NAMES
    assert ours["DeviceAPI"] == theirs["DeviceAPI"]
    assert not set(theirs["TargetFeature"]) - set(ours["TargetFeature"])
    problems = signature_problems(ours, theirs, skip=("names", "DeviceAPI", "TargetFeature"))
    assert not problems, "\n".join(problems)
