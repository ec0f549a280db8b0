"""Fuzz the buffer-protocol marshaller with random buffer descriptions.

Each description (shape, strides including negative and zero ones, format,
item size, byte order, read-only flag, offset) either marshals to a
halide_buffer_t that addresses exactly the elements the exporter describes,
or raises a clear error; views of views stay consistent. The oracle below is
written from the buffer-protocol and struct-module rules, independently of
the marshaller.
"""

from __future__ import annotations

import os

import numpy as np

CASES = int(os.environ.get("HALIDE_FUZZ_CASES", "100000"))

# format char -> (kind, native size, standard size or None)
FORMATS = {
    "?": ("bool", 1, 1), "b": ("int", 1, 1), "B": ("uint", 1, 1),
    "h": ("int", 2, 2), "H": ("uint", 2, 2), "i": ("int", 4, 4), "I": ("uint", 4, 4),
    "l": ("int", 8, 4), "L": ("uint", 8, 4), "q": ("int", 8, 8), "Q": ("uint", 8, 8),
    "n": ("int", 8, None), "N": ("uint", 8, None),
    "e": ("float", 2, 2), "f": ("float", 4, 4), "d": ("float", 8, 8),
}
BAD_FORMATS = ["g", "Zf", "2i", "T{i:x:}", "x", "c", "s", "P", ""]
INT32_MAX = 2**31 - 1


def expected_type(fmt: str, itemsize: int) -> tuple[str | None, str]:
    """(type name, "") when acceptable, else (None, expected message part)."""
    order = "@"
    body = fmt
    if fmt[:1] in "@=<>!" and fmt:
        order, body = fmt[0], fmt[1:]
    if len(body) != 1 or body not in FORMATS:
        return None, "unsupported buffer format"
    kind, native, standard = FORMATS[body]
    size = native if order == "@" else standard
    if size is None:
        return None, "unsupported buffer format"  # 'n'/'N' exist only in native mode
    if itemsize != size:
        return None, "implies"
    if order in ">!" and size > 1:
        return None, "Non-native byte order"
    return ("bool" if kind == "bool" else f"{kind}{size * 8}"), ""


def random_description(rng: np.random.Generator):
    ndim = int(rng.integers(0, 6))
    if rng.random() < 0.8:
        fmt = str(rng.choice(list(FORMATS)))
        if rng.random() < 0.3:
            fmt = str(rng.choice(list("@=<>!"))) + fmt
    else:
        fmt = str(rng.choice(BAD_FORMATS))
    native = FORMATS.get(fmt.lstrip("@=<>!"), (None, 1, 1))[1]
    itemsize = native if rng.random() < 0.9 else int(rng.choice([1, 2, 3, 4, 8, 16]))
    shape, strides = [], []
    huge_used = False  # one huge axis at most: the exporter's element count must fit in 64 bits
    for _ in range(ndim):
        r = rng.random()
        huge = r >= 0.97 and not huge_used
        huge_used |= huge
        extent = int(rng.choice([2**31 - 1, 2**31, 2**33])) if huge else int(rng.integers(0, 7))
        shape.append(extent)
        r = rng.random()
        if r < 0.75:
            stride = int(rng.integers(-40, 41)) * itemsize
        elif r < 0.85:
            stride = 0
        elif r < 0.95:
            stride = int(rng.integers(-100, 101))  # often not a multiple of the item size
        else:
            stride = int(rng.choice([2**31, -(2**31) - 1, 2**31 - 1])) * itemsize
        strides.append(stride)
    readonly = bool(rng.random() < 0.3)
    return fmt, itemsize, shape, strides, readonly


def expected_outcome(fmt, itemsize, shape, strides):
    type_name, why = expected_type(fmt, itemsize)
    if type_name is None:
        return None, why
    for extent, stride in zip(shape, strides, strict=True):
        if stride % itemsize != 0:
            return None, "Buffer byte stride is not a multiple of its item size"
        if extent > INT32_MAX:
            return None, "Out of range dimensions in buffer conversion: axis"
        if not -(2**31) <= stride // itemsize <= INT32_MAX:
            return None, "Out of range dimensions in buffer conversion: the stride"
    return type_name, ""


def check_dims(buf, dims_expected, address):
    """dims_expected: Halide-order (min, extent, stride in elements); with the
    host address they fix the address of every element."""
    got = [(buf.dim(i).min(), buf.dim(i).extent(), buf.dim(i).stride()) for i in range(buf.dimensions())]
    assert got == dims_expected, (got, dims_expected)
    assert buf._host_address() == address % 2**64


def test_random_buffer_descriptions(hlr):
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"fuzz seed {seed}, {CASES} cases")
    rng = np.random.default_rng(seed)
    marshalled = refused = views = 0
    for case in range(CASES):
        fmt, itemsize, shape, strides, readonly = random_description(rng)
        exporter = hlr._runtime._TestExporter(64, 16, fmt, itemsize, shape, strides, readonly)
        expected, why = expected_outcome(fmt, itemsize, shape, strides)
        try:
            buf = hlr.Buffer(exporter)
        except (ValueError, TypeError) as e:
            assert expected is None, f"case {case} (seed {seed}): {fmt!r} {itemsize} {shape} {strides}: {e}"
            assert why in str(e), f"case {case}: expected {why!r} in {e}"
            assert "Buffer" in str(e)
            refused += 1
            continue
        assert expected is not None, f"case {case} (seed {seed}): {fmt!r} {itemsize} {shape} {strides} marshalled"
        marshalled += 1
        assert buf.type() == expected
        n = len(shape)
        dims = [(0, shape[n - 1 - i], strides[n - 1 - i] // itemsize) for i in range(n)]
        address = exporter.address()
        check_dims(buf, dims, address)
        # A chain of views: crop, translate, transpose, slice.
        view = buf
        for _ in range(int(rng.integers(1, 4))):
            if not dims:
                break
            d = int(rng.integers(0, len(dims)))
            m, e, s = dims[d]
            op = rng.integers(0, 4)
            if op == 0 and e > 0:
                new_min = int(rng.integers(m, m + e))
                new_extent = int(rng.integers(0, m + e - new_min + 1))
                view = view.cropped(d, new_min, new_extent)
                address += (new_min - m) * s * itemsize
                dims[d] = (new_min, new_extent, s)
            elif op == 1:
                delta = int(rng.integers(-5, 6))
                if m + delta < -(2**31) or m + delta + e - 1 > INT32_MAX:
                    try:
                        view.translated(d, delta)
                    except ValueError as err:
                        assert "outside the 32-bit range" in str(err)
                        continue
                    raise AssertionError(f"case {case}: translating {dims[d]} by {delta} did not raise")
                view = view.translated(d, delta)
                dims[d] = (m + delta, e, s)
            elif op == 2 and len(dims) > 1:
                d2 = int(rng.integers(0, len(dims)))
                view = view.transposed(d, d2)
                dims[d], dims[d2] = dims[d2], dims[d]
            elif op == 3 and e > 0:
                pos = int(rng.integers(m, m + e))
                view = view.sliced(d, pos)
                address += (pos - m) * s * itemsize
                del dims[d]
            views += 1
            check_dims(view, dims, address)
    print(f"marshalled {marshalled}, refused {refused}, views {views}")
    assert marshalled > CASES // 4 and refused > CASES // 20
