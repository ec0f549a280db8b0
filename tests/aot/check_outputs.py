"""Checks the files aot_generate wrote that no program links: assembly, LLVM
IR, bitcode, lowered statements and the AArch64 object.

    check_outputs.py DIR
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

EM_X86_64, EM_AARCH64 = 62, 183


def elf_machine(path: Path) -> tuple[int, int]:
    """(e_type, e_machine) of a 64-bit little-endian ELF file."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit(f"{path} is not a 64-bit little-endian ELF file")
    return struct.unpack_from("<HH", data, 16)


def main() -> None:
    d = Path(sys.argv[1])
    problems: list[str] = []

    def expect(ok: bool, what: str) -> None:
        if not ok:
            problems.append(what)

    asm = (d / "brighter.s").read_text()
    for symbol in ("brighter:", "brighter_argv:", "brighter_metadata:"):
        expect(symbol in asm, f"brighter.s defines {symbol}")
    expect("halide_do_par_for" in asm, "brighter.s calls halide_do_par_for")
    ll = (d / "brighter.ll").read_text()
    # dso_local: brighter_argv calls this definition, not a same-named symbol elsewhere.
    expect("define dso_local i32 @brighter(" in ll, "brighter.ll defines @brighter, dso_local")
    expect("define i32 @brighter_argv(ptr" in ll, "brighter.ll defines @brighter_argv")
    expect((d / "brighter.bc").read_bytes()[:4] == b"BC\xc0\xde", "brighter.bc starts with the bitcode magic")
    stmt = (d / "brighter.stmt").read_text()
    expect("parallel for" in stmt and "ramp(" in stmt, "brighter.stmt shows the parallel, vectorized loop nest")
    expect("assert(" in stmt, "brighter.stmt has its checks")
    expect("assert(" not in (d / "brighter_no_asserts.stmt").read_text(), "no_asserts drops every check")
    expect(elf_machine(d / "brighter.o") == (1, EM_X86_64), "brighter.o is an x86-64 relocatable object")
    expect(elf_machine(d / "brighter_arm64.o") == (1, EM_AARCH64), "brighter_arm64.o is an AArch64 object")
    expect((d / "brighter.a").read_bytes()[:8] == b"!<arch>\n", "brighter.a is an ar archive")
    # Kernels carrying the runtime need the C library only, never libstdc++
    # or libgcc_s: a C program or another language's FFI links them as is.
    needed = subprocess.run(["readelf", "-d", str(d / "libbrighter_aot.so")], capture_output=True, text=True).stdout
    libs = sorted(line.split("[")[1].split("]")[0] for line in needed.splitlines() if "(NEEDED)" in line)
    c_libs = ("libc.so", "libm.so", "libpthread.so", "libdl.so", "ld-linux")
    expect(bool(libs) and all(lib.startswith(c_libs) for lib in libs),
           f"libbrighter_aot.so needs only C libraries, needs {libs}")
    def symbols(path: Path, *flags: str) -> set[str]:
        dynamic = ["-D"] if path.suffix == ".so" else []
        out = subprocess.run(["nm", *dynamic, *flags, str(path)], capture_output=True, text=True).stdout
        return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip() and not line.endswith(":")}

    for name in ("brighter.o", "brighter.a", "libbrighter_aot.so", "standalone_runtime.a"):
        # Undefined in one member of an archive may be defined by another.
        missing = symbols(d / name, "-u") - symbols(d / name, "--defined-only")
        cxx = sorted(s for s in missing if s.startswith(("_Z", "__cxa", "__gxx", "_Unwind")))
        expect(not cxx, f"{name} needs no C++ runtime symbols, needs {cxx}")
        expect("pthread_create" in missing, f"{name} starts its threads with pthread_create")
    # Instruction sets follow the target string: 16 uint8 lanes are one xmm
    # register with sse41; avx2 widens the float math to ymm, avx512 to zmm.
    sse41 = (d / "brighter_sse41.s").read_text()
    avx2 = (d / "brighter_avx2.s").read_text()
    avx512 = (d / "brighter_avx512.s").read_text()
    expect("%xmm" in sse41 and "%ymm" not in sse41 and "%zmm" not in sse41, "sse41 code uses xmm registers only")
    expect("%ymm" in avx2 and "%zmm" not in avx2, "avx2 code uses ymm registers and no zmm")
    expect("%zmm" in avx512 or "{%k" in avx512, "avx512_skylake code uses AVX-512 (zmm or mask registers)")
    # Each text and bitcode output is accepted by its consumer: LLVM's
    # assembler and disassembler, and the GNU assembler.
    llvm_bin = Path("/usr/lib/llvm-19/bin")
    with tempfile.TemporaryDirectory() as tmp:
        consumers = [
            ([str(llvm_bin / "llvm-as"), str(d / "brighter.ll"), "-o", f"{tmp}/a.bc"], "llvm-as accepts brighter.ll"),
            ([str(llvm_bin / "llvm-dis"), str(d / "brighter.bc"), "-o", f"{tmp}/a.ll"], "llvm-dis reads brighter.bc"),
            ([shutil.which("as") or "as", str(d / "brighter.s"), "-o", f"{tmp}/a.o"], "as assembles brighter.s"),
        ]
        for cmd, what in consumers:
            r = subprocess.run(cmd, capture_output=True, text=True)
            expect(r.returncode == 0, f"{what}: {r.stderr.strip()[:300]}")
    if problems:
        raise SystemExit("not as expected:\n  " + "\n  ".join(problems))
    print("all emitted files as expected")


if __name__ == "__main__":
    main()
