"""Target strings (``x86-64-linux-avx2-fma``): can this machine run a kernel?"""

from __future__ import annotations

import functools
import platform
import sys

# Instruction-set features: a kernel built with one needs it on the CPU.
_ISA_FEATURES = {
    "x86": {
        "sse41", "avx", "avx2", "fma", "fma4", "f16c", "avx512", "avx512_knl", "avx512_skylake",
        "avx512_cannonlake", "avx512_sapphirerapids", "avxvnni", "avx512_zen4", "avx512_zen5",
    },
}

_ARCHES = {"x86", "arm", "powerpc", "hexagon", "wasm", "riscv", "mips"}
_OSES = {"linux", "windows", "osx", "android", "ios", "qurt", "noos", "fuchsia", "wasmrt"}


def host_arch() -> tuple[str, str, str]:
    machine = platform.machine().lower()
    arch = {"x86_64": "x86", "amd64": "x86", "aarch64": "arm", "arm64": "arm"}.get(machine, machine)
    bits = "64" if sys.maxsize > 2**32 else "32"
    os_name = {"linux": "linux", "darwin": "osx", "win32": "windows"}.get(sys.platform, sys.platform)
    return arch, bits, os_name


@functools.lru_cache(maxsize=1)
def _host_features() -> frozenset[str]:
    from ._runtime import host_cpu_features

    return frozenset(host_cpu_features())


def why_cannot_run(target: str) -> str | None:
    """None if this machine can run code built for `target`, else the reason."""
    tokens = [t for t in target.split("-") if t]
    if not tokens:
        return "the target string is empty"
    if tokens[0] == "host":
        return None
    arch = next((t for t in tokens if t in _ARCHES), None)
    bits = next((t for t in tokens if t in ("32", "64")), None)
    os_name = next((t for t in tokens if t in _OSES), None)
    if arch is None or bits is None or os_name is None:
        return f"target {target!r} does not name an architecture, bit width and OS"
    host = host_arch()
    if (arch, bits, os_name) != host:
        return f"target {target!r} is for {arch}-{bits}-{os_name}, this machine is {'-'.join(host)}"
    missing = sorted(t for t in tokens if t in _ISA_FEATURES.get(arch, ()) and t not in _host_features())
    if missing:
        return f"target {target!r} needs CPU features this machine lacks: {', '.join(missing)}"
    return None
