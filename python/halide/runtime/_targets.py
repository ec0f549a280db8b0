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


# ---- CPU levels: which of a kernel's variants the registry picks ----

#: The environment variable that caps the CPU level of the variants the
#: registry picks (``baseline``, ``avx2`` or ``avx512``).
CPU_LEVEL_ENV = "HALIDE_RUNTIME_CPU_LEVEL"

#: x86-64 levels, lowest first: what a plugin builds each kernel for.
#: baseline is SSE4.1 (x86-64-v2), avx2 adds AVX, AVX2, FMA and F16C
#: (x86-64-v3), avx512 adds AVX-512 F, CD, BW, DQ and VL (x86-64-v4).
CPU_LEVELS = ("baseline", "avx2", "avx512")
_LEVEL_ALIASES = {"sse41": "baseline", "x86-64-v2": "baseline", "x86-64-v3": "avx2", "x86-64-v4": "avx512"}
_AVX2_FEATURES = {"avx", "avx2", "fma", "f16c"}


def target_cpu_level(target: str) -> str:
    """The CPU level a kernel built for `target` belongs to: avx512 if it
    uses any AVX-512 feature, avx2 if it uses AVX/AVX2/FMA/F16C, else
    baseline (also for every other architecture)."""
    tokens = set(target.split("-"))
    if any(t.startswith("avx512") for t in tokens):
        return "avx512"
    if tokens & _AVX2_FEATURES:
        return "avx2"
    return "baseline"


def host_cpu_level() -> str:
    """The highest CPU level this machine runs (HL_HOST_FEATURES_MASK counts)."""
    if host_arch()[0] != "x86":
        return "baseline"
    features = _host_features()
    if "avx512_skylake" in features:
        return "avx512"
    if _AVX2_FEATURES <= features:
        return "avx2"
    return "baseline"


def parse_cpu_level(value: str) -> str:
    """A level name (or alias: sse41, x86-64-v2/v3/v4) as one of CPU_LEVELS."""
    level = _LEVEL_ALIASES.get(value.strip().lower(), value.strip().lower())
    if level not in CPU_LEVELS:
        raise ValueError(
            f"{CPU_LEVEL_ENV}={value!r} is not a CPU level: use one of {', '.join(CPU_LEVELS)} "
            f"(or {', '.join(_LEVEL_ALIASES)})"
        )
    return level
