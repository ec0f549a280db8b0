"""Tutorial, cross-compilation (upstream's lesson 11, written for this project).

compile_to_file with a Target writes objects for other machines: 32- and
64-bit ARM and x86, on Android, Linux, Windows and iOS. Each object's header
is checked against the ELF, COFF and Mach-O formats' values for the machine
asked for (objects for another machine hold the kernel alone: docs/aot.md).
"""

from __future__ import annotations

import struct

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def brighter() -> tuple[hl.Func, list]:
    x, y = hl.Var("x"), hl.Var("y")
    offset = hl.Param(hl.UInt(8), "offset")
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    f = hl.Func("brighter")
    f[x, y] = input[x, y] + offset
    f.vectorize(x, 16).parallel(y)
    return f, [input, offset]


def target(os: hl.TargetOS, arch: hl.TargetArch, bits: int, features: list) -> hl.Target:
    t = hl.Target()
    t.os, t.arch, t.bits = os, arch, bits
    t.set_features(features)
    return t


# ELF: (class, e_machine); 1 is 32-bit, 2 64-bit.
ELF_CASES = [
    ("arm_32_android", hl.TargetOS.Android, hl.TargetArch.ARM, 32, [], (1, 40)),
    ("x86_32_linux", hl.TargetOS.Linux, hl.TargetArch.X86, 32, [hl.TargetFeature.SSE41], (1, 3)),
    ("arm_64_linux", hl.TargetOS.Linux, hl.TargetArch.ARM, 64, [], (2, 183)),
]


@pytest.mark.parametrize(("name", "os", "arch", "bits", "features", "expected"), ELF_CASES)
def test_elf_objects(tmp_path, name, os, arch, bits, features, expected):
    f, args = brighter()
    prefix = str(tmp_path / name)
    f.compile_to_file(prefix, args, name, target(os, arch, bits, features))  # upstream's positional form
    data = (tmp_path / f"{name}.o").read_bytes()
    assert data[:4] == b"\x7fELF"
    assert data[4] == expected[0]
    assert data[5] == 1  # little-endian
    assert struct.unpack_from("<H", data, 18)[0] == expected[1]
    assert (tmp_path / f"{name}.h").read_text().count("int " + name + "(") == 1


@pytest.mark.parametrize(("bits", "machine"), [(64, 0x8664), (32, 0x14C)])
def test_windows_coff_objects(tmp_path, bits, machine):
    f, args = brighter()
    features = [hl.TargetFeature.AVX, hl.TargetFeature.SSE41]
    f.compile_to_file(
        str(tmp_path / "win"), args, "win", target(hl.TargetOS.Windows, hl.TargetArch.X86, bits, features)
    )
    assert struct.unpack_from("<H", (tmp_path / "win.obj").read_bytes(), 0)[0] == machine


def test_ios_armv7s_mach_o_object(tmp_path):
    f, args = brighter()
    t = target(hl.TargetOS.IOS, hl.TargetArch.ARM, 32, [hl.TargetFeature.ARMv7s])
    f.compile_to_file(str(tmp_path / "ios"), args, "ios", t)
    magic, cputype, subtype, filetype = struct.unpack_from("<4I", (tmp_path / "ios.o").read_bytes(), 0)
    assert (magic, cputype, subtype, filetype) == (0xFEEDFACE, 12, 11, 1)  # 32-bit, ARM, ARMv7s, object


def test_arm_32_windows_is_refused_as_upstream(tmp_path):
    f, args = brighter()
    with pytest.raises(hl.HalideError, match="Windows ARM targets must be 64-bit"):
        f.compile_to_file(str(tmp_path / "w"), args, "w", hl.Target("arm-32-windows"))
