"""One image pipeline against Halide 14 and 21: the driver of benchmarks/bilateral_grid and
benchmarks/local_laplacian (issue 12). Not a test: a report.

The pipeline's C++ source is compiled unchanged against ours, upstream Halide 21 and Debian's Halide 14
(harness.py); each sweep runs every build at 1 and 2 threads (HL_NUM_THREADS), one process per run, one
build after the other, so a change of machine load hits the three alike. The binary makes its own input,
times up to --runs realizations after a warm-up (wall and process CPU time) and writes its output; every
output is compared with ours at 1 thread (values that differ, largest difference). The report keeps each
figure's best over the sweeps and gives ratios ours/theirs in both clocks.
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import harness
import numpy as np


@dataclass
class Spec:
    name: str  # the build folder build/bench-NAME and the stem of --dump's files
    source: Path
    title: str  # the report's heading
    about: str  # what the source computes and how it is scheduled, for the report
    dtype: type  # of the output's values
    size_args: list[str] = field(default_factory=list)  # the binary's options that set the problem size
    runs: int = 10
    rounds: int = 3
    tolerance: float = 0  # the report also counts the values more than this apart, when above 0


@dataclass
class Difference:
    differing: int = 0
    beyond: int = 0  # more than Spec.tolerance apart
    largest: float = 0.0
    total: int = 0


def main(spec: Spec, doc: str) -> int:
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    harness.common_args(ap, spec.name, runs=spec.runs, budget=10.0, rounds=spec.rounds)
    ap.add_argument("--report", type=Path, help="append the Markdown section to this file")
    ap.add_argument("--dump", type=Path, help="write each build's lowered statement and assembly here")
    args = ap.parse_args()

    binaries = harness.build(args.ours_prefix, args.build_dir, spec.source)
    work = Path(tempfile.mkdtemp(prefix=f"bench-{spec.name}-"))
    targets = {"ours": None, "h21": None, "h14": harness.h14_target()}
    load_before = harness.load_average()
    started = datetime.datetime.now()
    diffs: dict[tuple[str, int], Difference] = {}

    def command(side: str, threads: int, rnd: int) -> list[str]:
        cmd = [*spec.size_args, "--runs", str(args.runs), "--budget", str(args.budget)]
        cmd += ["--out", str(work / f"{side}.{threads}.raw")]
        return cmd + (harness.dump_args(args.dump, f"{spec.name}.{side}") if rnd == 0 and threads == 1 else [])

    def check(side: str, threads: int) -> None:
        ref_path = work / "ours.1.raw"
        if not ref_path.exists():
            return
        ref = np.fromfile(ref_path, dtype=spec.dtype).astype(np.float64)
        got = np.fromfile(work / f"{side}.{threads}.raw", dtype=spec.dtype).astype(np.float64)
        d = diffs.setdefault((side, threads), Difference())
        if got.shape != ref.shape:
            d.differing, d.largest, d.total = got.size, float("inf"), got.size
            return
        delta = np.abs(got - ref)
        d.differing = max(d.differing, int(np.count_nonzero(delta)))
        d.beyond = max(d.beyond, int(np.count_nonzero(delta > spec.tolerance)))
        d.largest = max(d.largest, float(delta.max()))
        d.total = got.size

    try:
        results, errors = harness.sweep(binaries, targets, args.rounds, command, check)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load_after = harness.load_average()

    out = [f"## {spec.title}", "", harness.machine_line(started, load_before, load_after), ""]
    out.append(
        f"`{doc_path(spec)}`: one C++ source (`{rel(spec.source)}`) compiled unchanged against "
        "ours, upstream Halide 21 and Debian's Halide 14 (`benchmarks/common/harness.py`'s build). "
        f"{spec.about} JIT for the host; each figure the best of up to {args.runs} realizations into a "
        f"preallocated output after one warm-up, in each of {args.rounds} sweep(s), one process per build and "
        "thread count. Wall and process CPU time each the best over all runs. Ratios ours/theirs (lower is better)."
    )
    out.append("")
    tgt = {s: (results.get((s, 1)) or {}).get("target", "?") for s in harness.BUILDS}
    out.append(harness.targets_line(tgt, targets))
    out.append("")
    out.append("| threads | build | wall time | CPU time | ours/this (wall) | ours/this (CPU) |")
    out.append("|---|---|---:|---:|---:|---:|")
    out += harness.wall_cpu_rows(results, errors, harness.BUILDS, harness.LABELS, ".1f")
    out.append("")
    out.append("At 2 threads the CPU time counts both threads (spinning or waiting workers add to it).")
    out.append("")
    out += outputs_lines(diffs, spec)
    if errors:
        out += ["", "Failures:"]
        out += [f"- {harness.LABELS[s]}, {th} thread(s): {e}" for (s, th), e in sorted(errors.items())]
    harness.write_report("\n".join(out), args.report)
    return 0


def outputs_lines(diffs: dict[tuple[str, int], Difference], spec: Spec) -> list[str]:
    """What the comparison with ours at 1 thread found, build by build."""
    if not diffs:
        return ["Outputs: not compared (ours did not run at 1 thread)."]
    if all(d.differing == 0 for d in diffs.values()):
        return ["Outputs: every build's output at 1 and 2 threads is bit-for-bit ours at 1 thread."]
    lines = [f"Outputs ({np.dtype(spec.dtype).name}) against ours at 1 thread:"]
    for (side, threads), d in sorted(diffs.items(), key=lambda kv: (harness.BUILDS.index(kv[0][0]), kv[0][1])):
        if d.differing == 0:
            lines.append(f"- {harness.LABELS[side]}, {threads} thread(s): identical")
        else:
            beyond = (
                f", {d.beyond} ({d.beyond / d.total:.1e}) by more than {spec.tolerance:g}" if spec.tolerance else ""
            )
            lines.append(
                f"- {harness.LABELS[side]}, {threads} thread(s): {d.differing} of {d.total} values differ "
                f"({d.differing / d.total:.1e}), by at most {d.largest:.3g}{beyond}"
            )
    return lines


def rel(path: Path) -> str:
    return path.resolve().relative_to(harness.REPO).as_posix()


def doc_path(spec: Spec) -> str:
    return rel(spec.source.parent / f"bench_{spec.name}.py")
