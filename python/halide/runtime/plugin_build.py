"""Builds a kernel plugin's libraries and manifest: the step a plugin's
meson.build runs (docs/plugins.md).

    python -m halide.runtime.plugin_build --outdir DIR
        [--levels baseline,avx2,avx512] [--docs kernels.json] [--jobs N]
        -- KERNELS GENERATOR_COMMAND... [-- KERNELS GENERATOR_COMMAND...]

Each group after ``--`` is a comma-separated list of kernels (registered
generator names) and the Halide generator command line that makes them: a
C++ generator executable, or ``python generators.py`` for Python Generators
(hl.main()); a plugin may mix both. For every kernel and CPU level it runs

    GENERATOR_COMMAND -g KERNEL -f KERNEL -n libKERNEL_LEVEL -o DIR
        -e shared_library target=<the level's target>-no_runtime

and then writes DIR/halide_kernels.json, listing each kernel's variants from
the highest level down with the arguments read from the libraries'
metadata and the one-line docs of --docs (a JSON object: kernel -> doc).
Kernels are built without a runtime: they use the one halide.runtime loads.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ._targets import CPU_LEVELS, parse_cpu_level

#: The target each CPU level is compiled for (x86-64 Linux).
LEVEL_TARGETS = {
    "baseline": "x86-64-linux-sse41",
    "avx2": "x86-64-linux-sse41-avx-avx2-f16c-fma",
    "avx512": "x86-64-linux-sse41-avx-avx2-f16c-fma-avx512-avx512_skylake",
}
MANIFEST = "halide_kernels.json"


def library_name(kernel: str, level: str) -> str:
    return f"lib{kernel}_{level}.so"


def _generate(command: list[str], outdir: Path, kernel: str, level: str) -> None:
    args = [*command, "-g", kernel, "-f", kernel, "-n", library_name(kernel, level)[: -len(".so")],
            "-o", str(outdir), "-e", "shared_library", f"target={LEVEL_TARGETS[level]}-no_runtime"]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(
            f"plugin_build: generating kernel {kernel!r} for CPU level {level} failed (exit {r.returncode}):\n"
            f"  {' '.join(args)}\n{r.stderr.strip() or r.stdout.strip()}"
        )


def _manifest_entry(outdir: Path, kernel: str, level: str, doc: str) -> dict[str, object]:
    from . import HALIDE_VERSION, METADATA_VERSION
    from ._runtime import _load

    # Reading NAME_metadata() runs no vector code, so every variant's
    # metadata can be read on any x86-64 build machine.
    loaded = _load(str((outdir / library_name(kernel, level)).resolve()), kernel)
    entry: dict[str, object] = {
        "name": kernel,
        "library": library_name(kernel, level),
        "symbol": kernel,
        "target": loaded.target,
        "metadata_version": METADATA_VERSION,
        "halide_version": HALIDE_VERSION,
        "arguments": [dict(a) for a in loaded.arguments],
    }
    if doc:
        entry["doc"] = doc
    return entry


def build(groups: list[tuple[list[str], list[str]]], outdir: Path, levels: list[str], docs: dict[str, str],
          jobs: int) -> Path:
    """groups: (kernels, generator command) pairs."""
    outdir.mkdir(parents=True, exist_ok=True)
    work = [(command, k, lv) for kernels, command in groups for k in kernels for lv in levels]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(lambda job: _generate(job[0], outdir, job[1], job[2]), work))
    highest_first = sorted(levels, key=CPU_LEVELS.index, reverse=True)
    entries = [_manifest_entry(outdir, k, lv, docs.get(k, ""))
               for kernels, _ in groups for k in kernels for lv in highest_first]
    manifest = {"format": 1, "abi_version": 1, "kernels": entries}
    path = outdir / MANIFEST
    path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return path


def _groups(rest: list[str]) -> list[tuple[list[str], list[str]]]:
    """Splits "-- k1,k2 CMD... -- k3 CMD..." into (kernels, command) pairs."""
    groups, current = [], []
    for token in [*rest, "--"]:
        if token != "--":
            current.append(token)
            continue
        if current:
            if len(current) < 2:
                raise ValueError(f"group {' '.join(current)!r} needs kernels then a generator command")
            kernels = [k.strip() for k in current[0].split(",") if k.strip()]
            if not kernels:
                raise ValueError(f"group {' '.join(current)!r} names no kernel")
            groups.append((kernels, current[1:]))
        current = []
    return groups


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    split = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(prog="python -m halide.runtime.plugin_build", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--outdir", required=True, type=Path)
    parser.add_argument("--levels", default=",".join(CPU_LEVELS), help="comma-separated CPU levels")
    parser.add_argument("--docs", type=Path, help="JSON object: kernel name -> one-line doc")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="generator runs at once")
    args = parser.parse_args(argv[:split])
    try:
        groups = _groups(argv[split:])
        levels = [parse_cpu_level(lv) for lv in args.levels.split(",") if lv.strip()]
    except ValueError as e:
        parser.error(str(e))
    if not groups:
        parser.error("no kernels: give '-- KERNELS GENERATOR_COMMAND...' after the options")
    kernels = [k for ks, _ in groups for k in ks]
    twice = sorted({k for k in kernels if kernels.count(k) > 1})
    if twice:
        parser.error(f"kernels listed more than once: {', '.join(twice)}")
    docs = json.loads(args.docs.read_text(encoding="utf-8")) if args.docs else {}
    unknown = sorted(set(docs) - set(kernels))
    if unknown:
        parser.error(f"--docs describes kernels that no group lists: {', '.join(unknown)}")
    build(groups, args.outdir, levels, docs, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
