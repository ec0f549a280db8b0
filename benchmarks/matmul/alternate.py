"""One schedule of the matrix multiply, the three builds alternated process by process (issue 12). A report.

On a machine whose speed drifts from one process to the next, the best of a
sweep says little about a 1% difference; here each round runs ours, Halide
14 and Halide 21 one after the other (the order rotating), so each round's
ratio compares processes that ran side by side. Prints, per thread count,
each build's best and median time and the median and range of the
per-round ratios ours/theirs (below 1: ours faster).

    .venv/bin/python benchmarks/matmul/alternate.py [--ours-prefix DIR] [--rounds 48] [--runs 100] [--schedule packed]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "common"))
import harness  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours-prefix", type=Path, default=harness.REPO / "build" / "dev" / "install")
    ap.add_argument("--build-dir", type=Path, default=Path("/tmp/matmul_alternate"))
    ap.add_argument("--rounds", type=int, default=48)
    ap.add_argument("--runs", type=int, default=100, help="realizations per process (its best is kept)")
    ap.add_argument("--schedule", default="packed", choices=["tiles", "panels", "packed"])
    args = ap.parse_args()

    binaries = harness.build(args.ours_prefix, args.build_dir, HERE / "matmul.cpp")
    targets = {"ours": None, "h21": None, "h14": harness.h14_target()}
    names = list(harness.BUILDS)
    times: dict[tuple[str, int], list[float]] = {(b, t): [] for b in names for t in harness.THREADS}
    for r in range(args.rounds):
        for t in harness.THREADS:
            for b in names[r % len(names) :] + names[: r % len(names)]:
                cmd = ["--schedule", args.schedule, "--runs", str(args.runs), "--budget", "60"]
                res, err = harness.run(binaries[b], cmd, t, targets[b])
                if res is None:
                    raise SystemExit(f"{b} at {t} thread(s): {err}")
                times[(b, t)].append(res["run_s"] * 1e3)
    print(f"matrix multiply `{args.schedule}`, {args.rounds} alternated rounds of {args.runs} realizations per process")
    for t in harness.THREADS:
        for b in names:
            v = times[(b, t)]
            print(f"  {t}T {harness.LABELS[b]:10s} best {min(v):.3f} ms, median {statistics.median(v):.3f} ms")
        for other in ("h14", "h21"):
            ratios = [a / b for a, b in zip(times[("ours", t)], times[(other, t)], strict=True)]
            print(
                f"  {t}T ours/{harness.LABELS[other]}: per-round ratio median {statistics.median(ratios):.4f} "
                f"(range {min(ratios):.3f}-{max(ratios):.3f}); best/best "
                f"{min(times[('ours', t)]) / min(times[(other, t)]):.4f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
