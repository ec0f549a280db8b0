"""What the benchmarks against Halide 14 and 21 share. Not a test.

Each benchmark is one C++ source compiled unchanged three times: against our
libhalide (pkg-config from --ours-prefix, build/dev/install by default),
upstream Halide 21 (the PyPI wheel's headers and libHalide.so, in the venv
build/upstream21 that tests/differential also uses; installed on first use)
and Debian's Halide 14 (libhalide14-0-dev). Every binary takes its options
on the command line, reads its thread count from HL_NUM_THREADS and prints
one JSON line (at least `run_s`, and `cpu_s` where it measures process CPU
time, and `target`). This module builds the three binaries, runs one of
them in its own process, works out Halide 14's JIT target, keeps the best
figures over sweeps and writes the parts of the Markdown report that are
the same for every benchmark. benchmarks/common/bench_timing.h is the C++
side (the clocks and the timing loop).

Halide 14 detects this kind of CPU (AVX-512 with BF16 but no FP16, e.g. AMD
Zen 4) as avx512_sapphirerapids and then emits AVX512-FP16 instructions
(vmovw) that fault; its JIT target is then the host's without that feature
(HL_JIT_TARGET, stated in the report).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
UPSTREAM21_VENV = REPO / "build" / "upstream21"  # the venv tests/differential uses
UPSTREAM21_VERSION = "21.0.0"
BUILDS = ("ours", "h14", "h21")
LABELS = {"ours": "ours", "h14": "Halide 14", "h21": "Halide 21"}
THREADS = (1, 2)
CXXFLAGS = ["-O2", "-std=c++17", "-Wall", "-Wextra", f"-I{Path(__file__).resolve().parent}"]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def upstream21() -> Path:
    """The `halide` package folder of upstream Halide 21's wheel (installed into its venv on first use)."""
    py = UPSTREAM21_VENV / "bin" / "python"
    if not py.exists():
        log(f"creating {UPSTREAM21_VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(UPSTREAM21_VENV)], check=True)
    headers = sorted(UPSTREAM21_VENV.glob("lib/python3*/site-packages/halide/include/Halide.h"))
    if not headers:
        log(f"pip install halide=={UPSTREAM21_VERSION} into {UPSTREAM21_VENV}")
        subprocess.run([str(py), "-m", "pip", "install", "-q", f"halide=={UPSTREAM21_VERSION}"], check=True)
        headers = sorted(UPSTREAM21_VENV.glob("lib/python3*/site-packages/halide/include/Halide.h"))
    return headers[0].parents[1]


def compile_commands(ours_prefix: Path, out_dir: Path, source: Path) -> dict[str, list[str]]:
    """The g++ command line of each build of `source`."""
    pcs = sorted(ours_prefix.rglob("halide.pc"))
    if not pcs:
        raise SystemExit(f"no halide.pc under {ours_prefix} (build and install ours first)")
    env = dict(os.environ, PKG_CONFIG_PATH=str(pcs[0].parent))
    flags = subprocess.run(
        ["pkg-config", "--cflags", "--libs", "halide"], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    ours_libdirs = [f[2:] for f in flags if f.startswith("-L")]
    h14_header = Path("/usr/include/halide14/Halide.h")
    if not h14_header.exists():
        raise SystemExit("Halide 14 headers not found: apt-get install libhalide14-0-dev")
    up = upstream21()
    up_lib = up / "lib64" if (up / "lib64" / "libHalide.so").exists() else up / "lib"
    cxx = shlex.split(os.environ.get("CXX", "g++"))
    base = [*cxx, *CXXFLAGS, str(source)]
    return {
        "ours": [*base, *flags, *(f"-Wl,-rpath,{d}" for d in ours_libdirs), "-o", str(out_dir / "ours")],
        "h21": [
            *base,
            "-isystem",
            str(up / "include"),
            f"-L{up_lib}",
            "-lHalide",
            "-lpthread",
            "-ldl",
            f"-Wl,-rpath,{up_lib}",
            "-o",
            str(out_dir / "h21"),
        ],
        "h14": [
            *base,
            "-isystem",
            str(h14_header.parent),
            "-lHalide14",
            "-lpthread",
            "-ldl",
            "-o",
            str(out_dir / "h14"),
        ],
    }


def build(ours_prefix: Path, out_dir: Path, source: Path) -> dict[str, Path]:
    """Compiles `source` against each of BUILDS into `out_dir`; the binaries by build."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, cmd in compile_commands(ours_prefix, out_dir, source).items():
        log(f"compiling {name}")
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
        if proc.stderr.strip():
            log(proc.stderr)
    return {name: out_dir / name for name in BUILDS}


def cpu_flags() -> set[str]:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def load_average() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def run(binary: Path, args: list[str], threads: int, target: str | None) -> tuple[dict[str, Any] | None, str]:
    """One process of `binary` at `threads` threads: its JSON line, or None and what went wrong."""
    env = dict(os.environ, HL_NUM_THREADS=str(threads))
    env.pop("HL_JIT_TARGET", None)
    env.pop("HL_TARGET", None)
    if target:
        env["HL_JIT_TARGET"] = env["HL_TARGET"] = target
    try:
        proc = subprocess.run([str(binary), *args], env=env, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "timed out after 600 s"
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or [""])[-1][:200]
        how = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit {proc.returncode}"
        return None, f"{how}: {tail}" if tail else how
    return json.loads(proc.stdout.strip().splitlines()[-1]), ""


def h14_target() -> str | None:
    """Halide 14's host target without avx512_sapphirerapids when the CPU lacks AVX512-FP16.

    Asked of Debian's python3-halide (the same libHalide 14 the benchmark
    binaries link), not of a binary: on a Zen 4 or 5, Halide 14 takes the CPU
    for a Sapphire Rapids and its code dies on the first FP16 instruction,
    which a probe run may already reach."""
    proc = subprocess.run(
        ["/usr/bin/python3", "-c", "import halide; print(halide.get_host_target())"],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "LD_PRELOAD")},
    )
    if proc.returncode != 0:
        raise SystemExit(f"Halide 14's host target (python3-halide): {proc.stderr.strip()}")
    features = proc.stdout.strip().split("-")
    if "avx512_sapphirerapids" in features and "avx512_fp16" not in cpu_flags():
        return "-".join(f for f in features if f != "avx512_sapphirerapids")
    return None


def keep(results: dict, key: Any, res: dict[str, Any]) -> None:
    """Keep the best wall and the best CPU time of `key` over the sweeps."""
    best = results.setdefault(key, dict(res))
    best["run_s"] = min(best["run_s"], res["run_s"])
    best["cpu_s"] = min(best["cpu_s"], res["cpu_s"])


def sweep(
    binaries: dict[str, Path],
    targets: dict[str, str | None],
    rounds: int,
    command: Callable[[str, int, int], list[str]],
    check: Callable[[str, int], None] | None = None,
    after: Callable[[int, int], None] | None = None,
) -> tuple[dict[tuple[str, int], dict[str, Any]], dict[tuple[str, int], str]]:
    """`rounds` sweeps: at each thread count, each build in its own process, one after the other.

    `command(side, threads, round)`: the binary's arguments; `check(side, threads)`: looks at the output of a
    run that succeeded; `after(round, threads)`: runs after the builds at each thread count. Returns the best
    wall and CPU time of each (side, threads) and the error of each run that failed."""
    results: dict[tuple[str, int], dict[str, Any]] = {}
    errors: dict[tuple[str, int], str] = {}
    for rnd in range(rounds):
        for threads in THREADS:
            for side in BUILDS:
                res, err = run(binaries[side], command(side, threads, rnd), threads, targets[side])
                if res is not None:
                    if check:
                        check(side, threads)
                    keep(results, (side, threads), res)
                else:
                    errors[(side, threads)] = err
                timing = f"{res['run_s'] * 1e3:.3f} ms, CPU {res['cpu_s'] * 1e3:.3f} ms" if res else err
                log(f"round {rnd + 1} {threads}T {side:4s} {timing}")
            if after:
                after(rnd, threads)
    return results, errors


def common_args(ap: argparse.ArgumentParser, name: str, runs: int, budget: float, rounds: int) -> None:
    """The options every driver has: where ours is, where to build, how long to run, where to report."""
    ap.add_argument("--ours-prefix", type=Path, default=REPO / "build" / "dev" / "install")
    ap.add_argument("--build-dir", type=Path, default=REPO / "build" / f"bench-{name}")
    ap.add_argument("--runs", type=int, default=runs, help="realizations per process (best is kept)")
    ap.add_argument("--budget", type=float, default=budget, help="seconds per process before stopping early")
    ap.add_argument("--rounds", type=int, default=rounds, help="sweeps over everything; the best of all is kept")


def dump_args(dump: Path | None, stem: str) -> list[str]:
    """The binary's --stmt and --asm options writing `stem`.stmt and `stem`.s into `dump` (none without it)."""
    if dump is None:
        return []
    dump.mkdir(parents=True, exist_ok=True)
    return ["--stmt", str(dump / f"{stem}.stmt"), "--asm", str(dump / f"{stem}.s")]


def machine_line(started: datetime.datetime, load_before: str, load_after: str) -> str:
    return (
        f"Date: {started:%Y-%m-%d %H:%M}. Machine: {cpu_model()} ({platform.machine()}, {os.cpu_count()} "
        f"cores, shared with other jobs). Load average (1, 5, 15 min) {load_before} before the runs, {load_after} "
        "after."
    )


def targets_line(tgt: dict[str, str], targets: dict[str, str | None]) -> str:
    """The JIT target of each build (`tgt`, from the runs), with Halide 14's override when there is one."""
    if targets.get("h14"):
        tgt["h14"] = targets["h14"] + " (its host target minus avx512_sapphirerapids, which faults here)"
    return f"JIT targets: ours `{tgt['ours']}`; Halide 21 `{tgt['h21']}`; Halide 14 `{tgt['h14']}`."


def ratios(ours: dict[str, Any] | None, r: dict[str, Any], side: str) -> list[str]:
    """Ours over `r` in wall and in CPU time (blank for ours itself or when ours failed)."""
    if side == "ours" or ours is None:
        return ["", ""]
    return [f"{ours['run_s'] / r['run_s']:.2f}", f"{ours['cpu_s'] / r['cpu_s']:.2f}"]


def wall_cpu_rows(results: dict, errors: dict, sides: tuple[str, ...], labels: dict[str, str], fmt: str) -> list[str]:
    """Table rows `threads | build | wall | CPU | ours/this (wall) | ours/this (CPU)`, results keyed (side, threads)."""
    out = []
    for threads in THREADS:
        ours = results.get(("ours", threads))
        for side in sides:
            r = results.get((side, threads))
            if r is None:
                err = errors.get((side, threads), "not run")
                out.append(f"| {threads} | {labels[side]} | {err} | | | |")
                continue
            wall, cpu = ratios(ours, r, side)
            out.append(
                f"| {threads} | {labels[side]} | {r['run_s'] * 1e3:{fmt}} ms | {r['cpu_s'] * 1e3:{fmt}} ms | "
                f"{wall} | {cpu} |"
            )
    return out


def write_report(text: str, report: Path | None) -> None:
    """Print the Markdown section, and append it to `report` when given."""
    print(text)
    if report:
        with report.open("a") as f:
            f.write(text + "\n")
