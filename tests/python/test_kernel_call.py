"""Kernel.__call__: binding, scalars of every type, buffers of 0-N dimensions,
several outputs, output allocation, user_context, bounds queries."""

from __future__ import annotations

import inspect
import struct

import numpy as np
import pytest


def brighten_ref(a: np.ndarray, offset: int) -> np.ndarray:
    return np.clip(a.astype(np.int32) + offset, 0, 255).astype(np.uint8)


def test_brighten_matches_numpy(load, rng):
    k = load("brighten")
    a = rng.integers(0, 256, size=(37, 53), dtype=np.uint8)
    out = np.zeros_like(a)
    assert k(a, 40, out) is None
    np.testing.assert_array_equal(out, brighten_ref(a, 40))


def test_keyword_and_positional_binding(load, rng):
    k = load("brighten")
    a = rng.integers(0, 256, size=(8, 9), dtype=np.uint8)
    out1, out2 = np.zeros_like(a), np.zeros_like(a)
    k(a, offset=-7, output=out1)
    k(output=out2, input=a, offset=-7)
    np.testing.assert_array_equal(out1, brighten_ref(a, -7))
    np.testing.assert_array_equal(out2, out1)


def test_scalar_default_from_metadata(load, rng):
    k = load("brighten")
    a = rng.integers(0, 256, size=(4, 5), dtype=np.uint8)
    out = k(a, output_shape=a.shape)  # offset defaults to 0 in the metadata
    np.testing.assert_array_equal(out, a)


def test_non_contiguous_and_negative_strides(load, rng):
    k = load("brighten")
    base = rng.integers(0, 256, size=(20, 30), dtype=np.uint8)
    a = base[::-2, 3::3]  # negative and non-unit strides
    out = np.zeros((a.shape[0], a.shape[1]), np.uint8)
    k(a, 5, out)
    np.testing.assert_array_equal(out, brighten_ref(a, 5))
    out_t = np.zeros((a.shape[1], a.shape[0]), np.uint8).T  # transposed output view
    k(a, 5, out_t)
    np.testing.assert_array_equal(out_t, brighten_ref(a, 5))


def test_bounds_query_reports_required_input_region(load):
    k = load("blur_x")
    regions = k.bounds(output_shape=(4, 10))
    # NumPy axis order: (rows, columns); the blur reads one column either side.
    assert regions["output"] == ((0, 4), (0, 10))
    assert regions["input"] == ((0, 4), (-1, 12))


def test_blur_x_with_padded_input(load, hlr, rng):
    k = load("blur_x")
    a = rng.integers(0, 65536, size=(6, 12), dtype=np.uint16)
    # A Buffer lets the input start at x = -1, as the bounds query asked.
    buf = hlr.Buffer(a).translated(0, -1)
    out = k(buf, output_shape=(6, 10))
    wide = a.astype(np.uint32)
    expected = ((wide[:, :-2] + wide[:, 1:-1] + wide[:, 2:]) // 3).astype(np.uint16)
    np.testing.assert_array_equal(out, expected)


def test_scalars_of_every_type(load):
    k = load("scalars")
    values = dict(b=True, i8=-128, i16=-32768, i32=-1000000, i64=-(2**63), u8=255, u16=65535, u32=2**32 - 1,
                  u64=2**64 - 1, f16=-2.5, f32=99.5, f64=-1e300, h=0xDEADBEEF)
    out = np.zeros(13, np.uint64)
    k(**values, output=out)

    def bits(fmt: str, v) -> int:
        return int.from_bytes(struct.pack("<" + fmt, v), "little")

    expected = [
        1,
        (-128) & (2**64 - 1),
        (-32768) & (2**64 - 1),
        (-1000000) & (2**64 - 1),
        (-(2**63)) & (2**64 - 1),
        255, 65535, 2**32 - 1, 2**64 - 1,
        bits("e", -2.5),
        bits("f", 99.5),
        bits("d", -1e300),
        0xDEADBEEF,
    ]
    assert [int(v) for v in out] == expected


def test_float16_rounds_to_nearest_even(load):
    k = load("scalars")
    out = np.zeros(13, np.uint64)
    base = dict(b=False, i8=0, i16=0, i32=0, i64=0, u8=0, u16=0, u32=0, u64=0, f32=0.0, f64=0.0, h=None)
    for value in [0.1, 1 / 3, 65504.0, -0.0, 6e-8, 1e-9, float("inf"), 2049.0]:
        k(**base, f16=value, output=out)
        assert int(out[9]) == int(np.array(value, np.float16).view(np.uint16)), value
    k(**base, f16=np.float16(0.5), output=out)
    assert int(out[9]) == 0x3800


@pytest.mark.parametrize(
    "name,value,message",
    [
        ("i8", 128, "not representable as int8"),
        ("i8", -129, "not representable as int8"),
        ("u8", -1, "not representable as uint8"),
        ("u16", 65536, "not representable as uint16"),
        ("u64", 2**64, "not representable as uint64"),
        ("i64", 2**63, "not representable as int64"),
        ("f16", 70000.0, "not representable as float16"),
        ("f32", 1e39, "not representable as float32"),
        ("i32", 2000000, "outside the kernel's range"),
        ("f32", 100.5, "outside the kernel's range"),
        ("h", -1, "not representable as handle"),
    ],
)
def test_scalar_out_of_range_is_a_clear_error(load, hlr, name, value, message):
    k = load("scalars")
    args = dict(b=False, i8=0, i16=0, i32=0, i64=0, u8=0, u16=0, u32=0, u64=0, f16=0.0, f32=0.0, f64=0.0, h=None)
    args[name] = value
    # A ValueError, and a RuntimeError as upstream's conversion error is.
    with pytest.raises(hlr.ScalarRangeError, match=f"Invalid argument {name}: .*{message}") as info:
        k(**args, output=np.zeros(13, np.uint64))
    assert isinstance(info.value, ValueError) and isinstance(info.value, RuntimeError)


@pytest.mark.parametrize("name,value", [("i32", 1.5), ("u8", "3"), ("f64", "x"), ("i64", None)])
def test_scalar_of_wrong_kind_is_a_type_error(load, name, value):
    k = load("scalars")
    args = dict(b=False, i8=0, i16=0, i32=0, i64=0, u8=0, u16=0, u32=0, u64=0, f16=0.0, f32=0.0, f64=0.0, h=None)
    args[name] = value
    with pytest.raises(TypeError, match=f"Invalid argument {name}: expected .*Unable to cast Python instance") as info:
        k(**args, output=np.zeros(13, np.uint64))
    assert isinstance(info.value, RuntimeError)


def test_numpy_scalars_are_accepted(load):
    k = load("scalars")
    out = np.zeros(13, np.uint64)
    k(np.bool_(True), np.int8(-3), np.int16(7), np.int32(9), np.int64(-11), np.uint8(200), np.uint16(3),
      np.uint32(4), np.uint64(5), np.float16(1.0), np.float32(2.0), np.float64(3.0), 0, out)
    assert int(out[0]) == 1 and int(out[1]) == (-3) & (2**64 - 1) and int(out[5]) == 200


def test_multiple_outputs_and_zero_dimensional_buffers(load, rng):
    k = load("multi")
    a = rng.standard_normal((3, 4, 5)).astype(np.float32)
    bias = np.array(0.25, np.float32)
    scaled, total = k(a, bias, 2.0, output_shape={"scaled": a.shape, "total": ()})
    np.testing.assert_allclose(scaled, a * np.float32(2.0) + np.float32(0.25), rtol=1e-6)
    assert total.shape == () and total.dtype == np.float64
    np.testing.assert_allclose(total, a.astype(np.float64).sum(), rtol=1e-12)


def test_explicit_outputs_return_none(load, rng):
    k = load("multi")
    a = rng.standard_normal((2, 2, 2)).astype(np.float32)
    scaled = np.empty_like(a)
    total = np.zeros((), np.float64)
    assert k(a, np.array(1.0, np.float32), 3.0, scaled, total) is None
    np.testing.assert_allclose(scaled, a * 3 + 1, rtol=1e-6)


def test_four_dimensional_buffers(load, rng):
    k = load("scaled_add")
    a = rng.standard_normal((2, 3, 4, 5))
    b = rng.standard_normal((2, 3, 4, 5))
    out = k(a, b, -1.5, output_shape=a.shape)
    np.testing.assert_allclose(out, a - 1.5 * b)


def test_bool_buffers(load, rng):
    k = load("invert_bool")
    a = rng.integers(0, 2, size=17).astype(bool)
    out = k(a, output_shape=a.shape)
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out, ~a)


def test_user_context_is_passed_through(load):
    k = load("user_ctx")
    assert k.has_user_context
    assert k.argument_names == ["output"]  # the hidden __user_context is not an argument
    out = np.zeros(3, np.uint64)
    k(out)
    assert list(out) == [0, 0, 0]
    k(out, user_context=0x1234)
    assert int(out[0]) == 0x1234


def test_kernel_attributes(load):
    k = load("brighten")
    assert k.name == "brighten"
    assert k.target == "x86-64-linux"
    assert k.argument_names == ["input", "offset", "output"]
    a = k.arguments
    assert [(x.name, x.kind, x.type, x.dimensions) for x in a] == [
        ("input", "input_buffer", "uint8", 2),
        ("offset", "input_scalar", "int32", 0),
        ("output", "output_buffer", "uint8", 2),
    ]
    assert (a[1].default, a[1].min, a[1].max) == (0, -255, 255)
    assert "brighten" in repr(k)


def test_signature_and_help_read_like_a_function(load):
    k = load("brighten")
    sig = inspect.signature(k)
    assert list(sig.parameters) == ["input", "offset", "output", "output_shape"]
    assert sig.parameters["offset"].default == 0
    assert sig.parameters["output_shape"].kind is inspect.Parameter.KEYWORD_ONLY
    assert "offset: int32 scalar (min -255, max 255)" in k.__doc__
    import pydoc

    text = pydoc.render_doc(k, renderer=pydoc.plaintext)
    assert "brighten(input: 'ndarray[uint8, 2-D]', offset: 'int' = 0, output" in text
    assert "input: input buffer of uint8, 2-D" in text

    class Holder:
        kernel = k  # like a staticmethod: no binding to the instance

    assert Holder().kernel is k


def test_gil_is_released_during_the_call(load):
    """The main thread keeps running Python while another thread is inside a kernel."""
    import threading
    import time

    k = load("scaled_add")
    a = np.ones((8, 8, 256, 256))
    out = np.empty_like(a)
    window = {}

    def call():
        window["start"] = time.perf_counter()
        for _ in range(4):
            k(a, a, 2.0, out)
        window["end"] = time.perf_counter()

    t = threading.Thread(target=call)
    stamps = []
    t.start()
    while t.is_alive():
        stamps.append(time.perf_counter())
    t.join()
    start, end = window["start"], window["end"]
    assert end - start > 0.02, "the kernel calls were too short to tell"
    inside = [s for s in stamps if start + 0.005 < s < end - 0.005]
    np.testing.assert_array_equal(out, 3.0)
    # With the GIL held through the call, this thread could not have run at all.
    assert len(inside) > 1000



@pytest.mark.parametrize("value,truth", [(2, 1), (0.5, 1), (0, 0), (0.0, 0), (None, 0), (np.int64(-7), 1)])
def test_bool_scalar_takes_any_number_by_truth_value(load, value, truth):
    # As upstream (pybind11's bool conversion): None and numbers by their truth value.
    k = load("scalars")
    out = np.zeros(13, np.uint64)
    k(value, np.int8(-3), np.int16(7), np.int32(9), np.int64(-11), np.uint8(200), np.uint16(3),
      np.uint32(4), np.uint64(5), np.float16(1.0), np.float32(2.0), np.float64(3.0), 0, out)
    assert int(out[0]) == truth


def test_bool_scalar_refuses_non_numbers(load):
    k = load("scalars")
    with pytest.raises(TypeError, match="Invalid argument"):
        k("yes", np.int8(-3), np.int16(7), np.int32(9), np.int64(-11), np.uint8(200), np.uint16(3),
          np.uint32(4), np.uint64(5), np.float16(1.0), np.float32(2.0), np.float64(3.0), 0, np.zeros(13, np.uint64))
