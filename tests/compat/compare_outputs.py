"""Runs the API-compatibility program built against our Halide and against
upstream Halide 14 and requires identical output (one line per pipeline:
its size and a hash of every element).

    compare_outputs.py OURS UPSTREAM
"""

from __future__ import annotations

import os
import subprocess
import sys


def upstream_jit_target() -> str:
    """Halide 14 detects AVX-512 features on some CPUs that lack part of
    them and then emits illegal instructions; give it the AVX2-level
    features this CPU really has."""
    flags: set[str] = set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    names = {"sse4_1": "sse41", "avx": "avx", "avx2": "avx2", "f16c": "f16c", "fma": "fma"}
    features = sorted(ours for cpu, ours in names.items() if cpu in flags)
    return "-".join(["x86-64-linux", *features])


def run(exe: str, env: dict[str, str]) -> list[str]:
    out = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=240)
    if out.returncode != 0:
        sys.exit(f"{exe} failed with code {out.returncode}:\n{out.stderr}")
    return out.stdout.splitlines()


def main() -> None:
    ours_exe, upstream_exe = sys.argv[1:3]
    ours = run(ours_exe, dict(os.environ))
    upstream = run(upstream_exe, {**os.environ, "HL_JIT_TARGET": upstream_jit_target()})
    if not upstream:
        sys.exit("the upstream build printed nothing")
    if ours != upstream:
        diff = [f"  ours:     {a}\n  upstream: {b}" for a, b in zip(ours, upstream, strict=False) if a != b]
        sys.exit(f"outputs differ ({len(ours)} vs {len(upstream)} lines):\n" + "\n".join(diff))
    print(f"{len(ours)} pipelines identical to upstream Halide 14")


if __name__ == "__main__":
    main()
