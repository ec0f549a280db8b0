"""Bad input to kernels and loaders: each gets a clear exception naming what
was wrong, and the interpreter never aborts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest


@pytest.fixture
def brighten(load):
    return load("brighten")


def img(shape=(4, 5), dtype=np.uint8):
    return np.zeros(shape, dtype)


def test_wrong_dtype(brighten):
    with pytest.raises(TypeError, match=r"Invalid argument input: Expected elements of type uint8, got float32"):
        brighten(img(dtype=np.float32), 1, img())


def test_wrong_number_of_dimensions(brighten):
    with pytest.raises(ValueError, match=r"Invalid argument output: Expected 2 dimensions, got 3"):
        brighten(img(), 1, img((2, 4, 5)))


def test_non_native_byte_order(load):
    k = load("blur_x")
    a = np.zeros((3, 8), dtype=">u2")
    with pytest.raises(ValueError, match=r"Invalid argument input: Non-native byte order >H is not supported"):
        k(a, output_shape=(3, 6))


def test_stride_not_a_multiple_of_the_item_size(load):
    k = load("blur_x")
    raw = np.zeros(100, np.uint8)
    # A uint16 view whose row stride is an odd number of bytes.
    bad = np.ndarray(shape=(3, 8), dtype=np.uint16, buffer=raw, offset=0, strides=(33, 2))
    with pytest.raises(ValueError, match=r"Invalid argument input: Buffer byte stride is not a multiple of its item "
                       r"size: the stride of axis 0 is 33 bytes"):
        k(bad, output_shape=(3, 6))


def test_extent_outside_int32(brighten):
    huge = np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), shape=(2**31, 1), strides=(0, 0))
    with pytest.raises(ValueError, match=r"Invalid argument input: Out of range dimensions in buffer conversion: "
                       r"axis 0 has 2147483648"):
        brighten(huge, 0, img((1, 1)))


def test_stride_outside_int32(brighten):
    big = np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), shape=(2, 1), strides=(2**31, 1))
    with pytest.raises(ValueError, match=r"Out of range dimensions in buffer conversion: the stride of axis 0 "
                       r"\(2147483648 elements\)"):
        brighten(big, 0, img((2, 1)))


def test_inconsistent_format_and_itemsize(brighten, hlr):
    # Format 'i' means 4-byte elements, but the exporter says 1.
    lying = hlr._runtime._TestExporter(20, 0, "i", 1, [4, 5], [5, 1])
    with pytest.raises(ValueError, match=r"input: Invalid data type 'i': the format implies 4-byte elements but the "
                       r"item size is 1"):
        brighten(lying, 0, img())


def test_unsupported_format(brighten):
    structured = np.zeros((4, 5), dtype=[("x", "u1")])
    with pytest.raises(ValueError, match=r"Invalid argument input: Invalid data type 'T\{B:x:\}': unsupported buffer"):
        brighten(structured, 0, img())


def test_read_only_output(brighten, hlr):
    out = img()
    out.flags.writeable = False
    with pytest.raises(BufferError, match=r"Invalid argument output: buffer source array is read-only") as info:
        brighten(img(), 1, out)
    assert isinstance(info.value, ValueError) and isinstance(info.value, hlr.ReadOnlyBufferError)


def test_read_only_input_is_fine(brighten):
    a = img() + 3
    a.flags.writeable = False
    out = brighten(a, 1, output_shape=a.shape)
    assert (out == 4).all()


def test_missing_argument(brighten):
    with pytest.raises(TypeError, match=r"Missing argument 'input' for kernel 'brighten'"):
        brighten(offset=1, output=img())


def test_missing_output_without_shape(brighten):
    with pytest.raises(TypeError, match=r"Missing argument 'output' for kernel 'brighten': pass an array to write "
                       r"into, or output_shape"):
        brighten(img(), 1)


def test_duplicated_argument(brighten):
    with pytest.raises(TypeError, match=r"Argument 'input' specified more than once for kernel 'brighten': by "
                       r"position and as 'input'"):
        brighten(img(), 1, img(), input=img())


def test_unknown_argument(brighten):
    with pytest.raises(TypeError, match=r"Unknown argument 'ofset' for kernel 'brighten'; its arguments are: input, "
                       r"offset, output"):
        brighten(img(), ofset=1, output=img())


def test_too_many_positional_arguments(brighten):
    with pytest.raises(TypeError, match=r"Too many positional arguments for kernel 'brighten': it takes 3 \(input, "
                       r"offset, output\) but 4 were given"):
        brighten(img(), 1, img(), img())


def test_none_as_buffer(brighten):
    with pytest.raises(TypeError, match=r"Invalid argument input: expected an array or buffer, got None"):
        brighten(None, 1, img())


def test_output_shape_with_wrong_rank(brighten):
    with pytest.raises(ValueError, match=r"Invalid argument output: output_shape has 1 dimensions, the output needs 2"):
        brighten(img(), 1, output_shape=(4,))


def test_exporter_exception_is_preserved(brighten):
    class NotABuffer:
        pass

    with pytest.raises(TypeError) as info:
        brighten(NotABuffer(), 1, img())
    assert "Invalid argument input" in "".join(getattr(info.value, "__notes__", []))
    # An exporter that raises from _get_halide_buffer_t_capsule keeps its exception.

    class RaisingCapsule:
        def _get_halide_buffer_t_capsule(self):
            raise ZeroDivisionError("capsule exploded")

    with pytest.raises(ZeroDivisionError, match="capsule exploded") as info:
        brighten(RaisingCapsule(), 1, img())
    assert "Invalid argument input" in "".join(info.value.__notes__)


def test_wrong_capsule_name_is_refused(brighten):
    import ctypes

    class Foreign:
        def _get_halide_buffer_t_capsule(self):
            make = ctypes.pythonapi.PyCapsule_New
            make.restype = ctypes.py_object
            make.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
            return make(ctypes.addressof(ctypes.c_int(0)), b"halide.halide_buffer_t.v999", None)

    with pytest.raises(TypeError, match=r"capsule is named 'halide.halide_buffer_t.v999' but this runtime expects"):
        brighten(Foreign(), 1, img())


def test_warnings_promoted_to_errors_propagate(brighten):
    class WarnsOnIndex:
        def __index__(self):
            warnings.warn("deprecated conversion", DeprecationWarning, stacklevel=1)
            return 1

    out = img()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(DeprecationWarning, match="deprecated conversion"):
            brighten(img(), WarnsOnIndex(), out)
    # Outside the filter, the warning is only a warning and the call works.
    with pytest.warns(DeprecationWarning):
        brighten(img(), WarnsOnIndex(), out)
    assert (out == 1).all()


def test_kernel_failure_raises_halide_error(load, hlr):
    k = load("brighten")
    with pytest.raises(hlr.HalideError) as info:
        k(img((2, 5)), 1, img((4, 5)))
    e = info.value
    assert isinstance(e, RuntimeError)
    assert e.code == -4
    assert e.kernel == "brighten"
    assert "accessed at 3, which is beyond the max (1) in dimension 1" in str(e)


def test_failure_inside_a_parallel_task(load, hlr):
    k = load("fail")
    with pytest.raises(hlr.HalideError, match=r"requested failure -27 in task") as info:
        k(-27, 1, np.zeros(256, np.int32))
    assert info.value.code == -27
    with pytest.raises(hlr.HalideError, match=r"requested failure -5 in caller"):
        k(-5, 0, np.zeros(16, np.int32))
    out = np.zeros(40, np.int32)
    k(0, 0, out)
    np.testing.assert_array_equal(out, 2 * np.arange(40))


def test_output_copy_back_failure_raises(load, hlr):
    """A kernel that leaves its output on a device whose copy back fails."""
    k = load("device_output")
    with pytest.raises(hlr.HalideError, match=r"copying output 'output' back to the host failed") as info:
        k(np.zeros(4, np.int32))
    assert info.value.code == -14  # copy_to_host_failed
    assert "the device was lost" in str(info.value)


def test_load_errors(hlr, tmp_path):
    from conftest import fixture_path

    with pytest.raises(FileNotFoundError, match="kernel library not found"):
        hlr.load(tmp_path / "nope.so")
    junk = tmp_path / "junk.so"
    junk.write_bytes(b"not an elf file")
    with pytest.raises(OSError, match="cannot load kernel library"):
        hlr.load(junk)
    with pytest.raises(ValueError, match=r"exports 2 Halide kernels \(add_one, sub_one\); pass name="):
        hlr.load(fixture_path("two_kernels"))
    with pytest.raises(ValueError, match=r"does not export nope_argv and nope_metadata; kernels it does export: add"):
        hlr.load(fixture_path("two_kernels"), "nope")
    with pytest.raises(ValueError, match=r"has metadata version 2, but this runtime reads version 1"):
        hlr.load(fixture_path("bad_version"))


def test_load_accepts_path_like_and_names(hlr):
    from conftest import fixture_path

    add = hlr.load(fixture_path("two_kernels"), name="add_one")
    sub = hlr.load(str(fixture_path("two_kernels")), "sub_one")
    a = np.arange(5, dtype=np.int32)
    np.testing.assert_array_equal(add(a, output_shape=(5,)), a + 1)
    np.testing.assert_array_equal(sub(a, output_shape=(5,)), a - 1)
