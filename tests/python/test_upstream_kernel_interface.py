"""halide.runtime.Kernel as upstream Halide documents its interface.

Written from upstream's description of ``halide.runtime`` (``load``, a
callable ``Kernel`` with ``name``, ``target``, ``argument_names`` and
``arguments`` -- one dict per argument with the keys name, kind, type and
dimensions --, keyword arguments by metadata name, and its error classes
and messages), so a script written for upstream runs unchanged here.

Every test runs on each build of one calling convention that is available:

- ``halide14``: tests/upstream/kernel_interface_generator.cpp built by
  upstream Halide 14 (Debian's libhalide14-0-dev). Never skipped when
  Halide 14 is installed: a failed build fails the tests.
- ``ours``: the same generator built by our compiler, when the build under
  test has one (HALIDE_TEST_BUILD with an installed libhalide).
- ``fixture``: tests/fixtures/kernels/kernel_interface.c, the same
  convention written by hand in C, for builds without a compiler.

The kernel takes a 2-D uint8 ``input``, one scalar of every type and has
three outputs, the last a Tuple whose buffers are named ``pair.0`` and
``pair.1`` (see the generator for what it computes).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import BUILD, REPO, fixture_path

GENERATOR = REPO / "tests" / "upstream" / "kernel_interface_generator.cpp"
HALIDE14_INCLUDE = Path("/usr/include/halide14")
HALIDE14_GENGEN = Path("/usr/src/halide14/GenGen.cpp")
NAME = "kernel_interface"

# Halide type names, as upstream spells them in `arguments`, -> NumPy dtypes.
DTYPES = {
    "bool": np.bool_,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "uint8": np.uint8,
    "uint16": np.uint16,
    "uint32": np.uint32,
    "uint64": np.uint64,
    "float32": np.float32,
    "float64": np.float64,
}

# A value for a scalar of each type, near the ends of the type's range.
VALUES = {
    "bool": True,
    "int8": -100,
    "int16": -30_000,
    "int32": -2_000_000_000,
    "int64": -(2**40),
    "uint8": 200,
    "uint16": 60_000,
    "uint32": 4_000_000_000,
    "uint64": 2**50,
    "float32": 0.75,  # exact in float32
    "float64": -1.5,
}

SHAPE = (5, 7)  # rows (y), columns (x): not square, so the axis order shows


# --------------------------------------------------------------------------
# Building the kernel
# --------------------------------------------------------------------------


def _env() -> dict:
    # The compilers must not run under the sanitizers' LD_PRELOAD.
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def _run(cmd: list[str], what: str) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=_env())
    if proc.returncode != 0:
        pytest.fail(f"{what} failed ({proc.returncode}): {shlex.join(cmd)}\n{proc.stdout}\n{proc.stderr}")


def _build(workdir: Path, compile_flags: list[str], link_flags: list[str], sources: list[Path]) -> Path:
    """Compiles the generator, runs it for the host and links the kernel
    into lib<NAME>.so, as a user of upstream's generators would."""
    cxx = shlex.split(os.environ.get("CXX", "c++"))
    cc = shlex.split(os.environ.get("CC", "cc"))
    gen = workdir / "kernel_interface.generator"
    _run([*cxx, "-std=c++17", "-O0", *compile_flags, str(GENERATOR), *map(str, sources), "-o", str(gen),
          *link_flags, "-lpthread", "-ldl"], "compiling the generator")
    _run([str(gen), "-g", NAME, "-o", str(workdir), "-e", "static_library,h", "target=host"], "running the generator")
    lib = workdir / f"lib{NAME}.so"
    _run([*cc, "-shared", "-o", str(lib), "-Wl,--whole-archive", str(workdir / f"{NAME}.a"), "-Wl,--no-whole-archive",
          "-lpthread", "-ldl"], "linking the kernel")
    return lib


def _halide14_library(tmp_path_factory) -> Path:
    if not (HALIDE14_INCLUDE / "Halide.h").exists() or not HALIDE14_GENGEN.exists():
        pytest.skip("upstream Halide 14 (libhalide14-0-dev) is not installed")
    return _build(tmp_path_factory.mktemp("halide14"), ["-I", str(HALIDE14_INCLUDE)], ["-lHalide14"],
                  [HALIDE14_GENGEN])


def _ours_library(tmp_path_factory) -> Path:
    install = BUILD.resolve() / "install"
    gengen = sorted(install.glob("lib*/**/libhalide_gengen.a"))
    include = install / "include"
    if not gengen or not (include / "Halide.h").exists():
        pytest.skip(f"{BUILD} has no installed compiler (built with -Dcompiler=false?)")
    libdir = gengen[0].parent
    link = ["-Wl,--whole-archive", str(gengen[0]), "-Wl,--no-whole-archive", f"-L{libdir}", "-lhalide",
            f"-Wl,-rpath,{libdir}"]
    return _build(tmp_path_factory.mktemp("ours"), ["-I", str(include)], link, [])


@pytest.fixture(scope="module", params=["halide14", "ours", "fixture"])
def kernel(request, hlr, tmp_path_factory):
    if request.param == "halide14":
        path = _halide14_library(tmp_path_factory)
    elif request.param == "ours":
        path = _ours_library(tmp_path_factory)
    else:
        path = fixture_path(NAME)
    return hlr.load(path, name=NAME)


# --------------------------------------------------------------------------
# Calls driven by `arguments` alone
# --------------------------------------------------------------------------


def arguments_by_name(kernel) -> dict:
    return {a["name"]: a for a in kernel.arguments}


def make_call_args(kernel, image: np.ndarray) -> dict:
    """A value for every argument, by metadata name, from the metadata."""
    call_args = {}
    for a in kernel.arguments:
        if a["kind"] == "input_buffer":
            call_args[a["name"]] = image
        elif a["kind"] == "output_buffer":
            call_args[a["name"]] = np.zeros(image.shape, dtype=DTYPES[a["type"]])
        else:
            call_args[a["name"]] = VALUES[a["type"]]
    return call_args


def check_outputs(outputs: dict, image: np.ndarray) -> None:
    wide = image.astype(np.int64)
    scalar_sum = sum(int(v) for t, v in VALUES.items() if not t.startswith("float"))
    np.testing.assert_array_equal(outputs["total"], wide + scalar_sum)
    np.testing.assert_array_equal(outputs["scaled"], image.astype(np.float64) * VALUES["float32"] + VALUES["float64"])
    np.testing.assert_array_equal(outputs["pair.0"], ((wide + VALUES["uint8"]) % 256).astype(np.uint8))
    rows, cols = np.indices(image.shape)
    np.testing.assert_array_equal(outputs["pair.1"], (wide + cols + 1000 * rows).astype(np.int32))


@pytest.fixture
def image(rng):
    return rng.integers(0, 256, size=SHAPE, dtype=np.uint8)


def test_arguments_are_upstreams_dicts(kernel):
    args = kernel.arguments
    assert isinstance(args, list)
    assert [a["name"] for a in args] == kernel.argument_names
    assert kernel.argument_names == [
        "input", "flag", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64",
        "total", "scaled", "pair.0", "pair.1",
    ]
    for a in args:
        assert list(a.keys()) == ["name", "kind", "type", "dimensions"]
        assert set(dict(a)) == {"name", "kind", "type", "dimensions"}
        assert a == dict(a) and dict(a) == a
        assert a["kind"] in ("input_scalar", "input_buffer", "output_buffer")
        assert a["dimensions"] == (0 if a["kind"] == "input_scalar" else 2)
    assert json.loads(json.dumps(args)) == [dict(a) for a in args]
    by_name = arguments_by_name(kernel)
    assert by_name["input"] == {"name": "input", "kind": "input_buffer", "type": "uint8", "dimensions": 2}
    assert by_name["pair.0"] == {"name": "pair.0", "kind": "output_buffer", "type": "uint8", "dimensions": 2}
    assert by_name["pair.1"] == {"name": "pair.1", "kind": "output_buffer", "type": "int32", "dimensions": 2}
    assert by_name["total"]["type"] == "int64" and by_name["scaled"]["type"] == "float64"
    scalar_types = [a["type"] for a in args if a["kind"] == "input_scalar"]
    assert scalar_types == ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                            "float32", "float64"]
    assert kernel.name == NAME
    assert kernel.target.startswith("x86-64-linux")


def test_our_attributes_stay_on_the_same_entries(kernel):
    pair0 = arguments_by_name(kernel)["pair.0"]
    assert (pair0.name, pair0.raw_name, pair0.kind, pair0.type, pair0.dimensions) == (
        "pair_0", "pair.0", "output_buffer", "uint8", 2)
    assert pair0.describe() == "output buffer of uint8, 2-D"
    i32 = arguments_by_name(kernel)["i32"]
    assert i32.describe().startswith("int32 scalar")
    assert hasattr(i32, "default") and hasattr(i32, "min") and hasattr(i32, "max") and hasattr(i32, "estimate")


def test_call_driven_by_arguments_with_raw_name_keywords(kernel, image):
    call_args = make_call_args(kernel, image)
    assert "pair.0" in call_args  # not a Python identifier: only ** can pass it
    assert kernel(**call_args) is None
    check_outputs(call_args, image)


def test_positional_call_in_argv_order(kernel, image):
    call_args = make_call_args(kernel, image)
    kernel(*[call_args[name] for name in kernel.argument_names])
    check_outputs(call_args, image)


def test_raw_names_and_python_aliases_mix(kernel, image):
    call_args = make_call_args(kernel, image)
    pair0 = call_args.pop("pair.0")
    kernel(**call_args, pair_0=pair0)  # the alias for the same argument
    check_outputs({**call_args, "pair.0": pair0}, image)


def test_numpy_scalars_and_numpy_views(kernel, image):
    call_args = make_call_args(kernel, image)
    for name, a in arguments_by_name(kernel).items():
        if a["kind"] == "input_scalar":
            call_args[name] = DTYPES[a["type"]](VALUES[a["type"]])
    # Rows reversed and a column dropped: a negative stride and an offset
    # view (generators want dimension 0, the columns, dense by default).
    flipped = image[::-1, 1:]
    call_args["input"] = flipped
    for name in ("total", "scaled", "pair.0", "pair.1"):
        call_args[name] = np.zeros(flipped.shape, call_args[name].dtype)
    kernel(**call_args)
    check_outputs(call_args, flipped)


# --------------------------------------------------------------------------
# Errors: upstream's classes and words
# --------------------------------------------------------------------------


def call_with(kernel, image, **changes):
    call_args = make_call_args(kernel, image)
    for name, value in changes.items():
        call_args[name.replace("__", ".")] = value
    return kernel(**call_args)


def test_argument_given_twice_names_both(kernel, image):
    call_args = make_call_args(kernel, image)
    with pytest.raises(RuntimeError, match=r"Argument 'pair.0' specified more than once.*'pair.0'.*'pair_0'|"
                                           r"Argument 'pair.0' specified more than once.*'pair_0'.*'pair.0'") as info:
        kernel(**call_args, pair_0=call_args["pair.0"])
    assert isinstance(info.value, TypeError)
    positional = [call_args[n] for n in kernel.argument_names]
    with pytest.raises(RuntimeError, match=r"Argument 'input' specified more than once .*by position and as 'input'"):
        kernel(*positional, input=image)


def test_unknown_argument_names_it_and_the_known_ones(kernel, image):
    call_args = make_call_args(kernel, image)
    with pytest.raises(RuntimeError, match=r"Unknown argument 'pair.2' for kernel 'kernel_interface'") as info:
        kernel(**call_args, **{"pair.2": np.zeros(SHAPE, np.int32)})
    assert isinstance(info.value, TypeError)
    assert "pair.0 (or pair_0)" in str(info.value) and "input" in str(info.value)


def test_missing_argument_names_it(kernel, image):
    call_args = make_call_args(kernel, image)
    del call_args["pair.1"]
    with pytest.raises(RuntimeError, match=r"Missing argument 'pair.1' for kernel 'kernel_interface'") as info:
        kernel(**call_args)
    assert isinstance(info.value, TypeError)
    call_args = make_call_args(kernel, image)
    del call_args["i16"]
    with pytest.raises(RuntimeError, match=r"Missing argument 'i16' for kernel 'kernel_interface'"):
        kernel(**call_args)


def test_too_many_positional_arguments(kernel, image):
    call_args = make_call_args(kernel, image)
    positional = [call_args[n] for n in kernel.argument_names]
    with pytest.raises(RuntimeError, match=r"Too many positional arguments for kernel 'kernel_interface'"):
        kernel(*positional, image)


def test_read_only_output_is_a_buffer_error(kernel, image, hlr):
    locked = np.zeros(SHAPE, np.uint8)
    locked.flags.writeable = False
    with pytest.raises(BufferError, match=r"Invalid argument pair.0: buffer source array is read-only") as info:
        call_with(kernel, image, pair__0=locked)
    assert isinstance(info.value, ValueError)  # what upstream gives for NumPy arrays
    assert isinstance(info.value, hlr.ReadOnlyBufferError)
    # Read-only memory of another exporter: the same.
    frozen = memoryview(bytes(SHAPE[0] * SHAPE[1])).cast("B", SHAPE)
    with pytest.raises(BufferError, match=r"pair.0.*read-only"):
        call_with(kernel, image, pair__0=frozen)
    # A read-only *input* is fine.
    call_with(kernel, locked)


def test_wrong_dimensions(kernel, image):
    with pytest.raises(ValueError, match=r"Invalid argument input: Expected 2 dimensions, got 3"):
        call_with(kernel, image, input=image[np.newaxis])
    with pytest.raises(ValueError, match=r"Invalid argument scaled: Expected 2 dimensions, got 1"):
        call_with(kernel, image, scaled=np.zeros(SHAPE[1]))


def test_non_native_byte_order(kernel, image):
    with pytest.raises(ValueError, match=r"Invalid argument total: Non-native byte order"):
        call_with(kernel, image, total=np.zeros(SHAPE, ">i8"))
    with pytest.raises(ValueError, match=r"Invalid argument pair.1: Non-native byte order"):
        call_with(kernel, image, pair__1=np.zeros(SHAPE, ">i4"))


def test_stride_not_a_multiple_of_the_item_size(kernel, image):
    raw = np.zeros(16 * SHAPE[0] * SHAPE[1], np.uint8)
    odd = np.ndarray(SHAPE, np.int64, buffer=raw, offset=0, strides=(8 * SHAPE[1] + 4, 8))
    with pytest.raises(ValueError, match=r"Invalid argument total: .*stride.* not a multiple of its item size"):
        call_with(kernel, image, total=odd)


def test_stride_out_of_range(kernel, image):
    far = np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), shape=SHAPE, strides=(2**31, 1))
    with pytest.raises(ValueError, match=r"input: Out of range dimensions in buffer conversion: the stride"):
        call_with(kernel, far)


def test_unsupported_format(kernel, image):
    with pytest.raises(ValueError, match=r"Invalid argument input: Invalid data type 'Zf'"):
        call_with(kernel, image, input=np.zeros(SHAPE, np.complex64))
    with pytest.raises(ValueError, match=r"Invalid argument scaled: Invalid data type"):
        call_with(kernel, image, scaled=np.zeros(SHAPE, [("re", "f8")]))


def scalar_named_by_type(kernel, type_name: str) -> str:
    return next(a["name"] for a in kernel.arguments if a["kind"] == "input_scalar" and a["type"] == type_name)


@pytest.mark.parametrize(
    "type_name,value,python_type",
    [("int32", "7", "str"), ("int32", 1.5, "float"), ("uint64", None, "NoneType"), ("float64", "x", "str"),
     ("int8", [1], "list")],
)
def test_scalar_of_the_wrong_type(kernel, image, type_name, value, python_type):
    name = scalar_named_by_type(kernel, type_name)
    with pytest.raises(RuntimeError, match=rf"Invalid argument {name}: .*Unable to cast Python instance of type "
                                           rf"<class '{python_type}'>") as info:
        call_with(kernel, image, **{name: value})
    assert isinstance(info.value, TypeError)


@pytest.mark.parametrize(
    "type_name,value",
    [("int8", 128), ("int8", -129), ("int16", 2**15), ("int32", -(2**31) - 1), ("int64", 2**63), ("uint8", 256),
     ("uint8", -1), ("uint16", -5), ("uint32", 2**32), ("uint64", 2**64), ("uint64", -1), ("float32", 1e39)],
)
def test_scalar_out_of_range(kernel, image, type_name, value):
    name = scalar_named_by_type(kernel, type_name)
    expected = rf"Invalid argument {name}: {re.escape(repr(value))} is not representable as {type_name} "
    with pytest.raises(RuntimeError, match=expected + r".*Unable to cast Python instance of type <class") as info:
        call_with(kernel, image, **{name: value})
    assert isinstance(info.value, ValueError)


def test_kernel_failure_is_a_runtime_error(kernel, image, hlr):
    # The input does not cover the outputs: the kernel itself refuses.
    with pytest.raises(RuntimeError) as info:
        call_with(kernel, image, input=image[:, :-1])
    assert isinstance(info.value, hlr.HalideError) and info.value.code == -4
    assert "Input buffer input" in str(info.value)
