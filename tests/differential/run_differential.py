#!/usr/bin/env python3
"""Differential testing against upstream Halide 21.

Generates random pipelines (gen_pipelines.py) in batches, builds every batch
twice -- against our Halide.h/libhalide (build/dev/install) and against
upstream Halide 21 (the PyPI wheel, in its own venv build/upstream21) -- runs
both programs, and compares every pipeline's unscheduled and scheduled
results (compare.py). Every failure gets a standalone reproducer under
build/differential/repro/.

  run_differential.py --ci            fixed seeds, 1000 pipelines and 1000 with reductions; exit 1 on any failure
  run_differential.py --fuzz N        N pipelines on new random seeds, through every batch
  run_differential.py --seed S --count N [--first K]
  run_differential.py --only S:K      one pipeline (as its reproducer does); rS:K for one with reductions
  --reductions (with --fuzz or --seed) runs the pipelines with reductions (gen_reductions.py) instead;
  --mixed FRACTION makes that share of --fuzz pipelines ones with reductions.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # noqa: E402
import gen_pipelines as gen  # noqa: E402
import gen_reductions as genr  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = ROOT / "build"
OUT = BUILD / "differential"
UPSTREAM_VENV = BUILD / "upstream21"
UPSTREAM_VERSION = "21.0.0"
CI_SEEDS = [1, 2, 3, 4]
# Open defects of ours that the CI seeds hit, by pipeline: reported in the
# summary as such and not counted as failures, so CI stays green while the
# issue stays open. Remove an entry once its defect is fixed.
KNOWN_DEFECTS: dict[str, str] = {}
CI_PER_SEED = 250
# Pipelines with reductions (gen_reductions.py, ids rs<seed>_k<k>) in --ci: smaller, so more per batch.
CI_R_SEEDS = [1, 2, 3, 4]
CI_R_PER_SEED = 250
FAMILIES = {"": gen.generate_pipeline, "r": genr.generate_pipeline}
AVOIDABLE = {**gen.AVOIDABLE, **genr.AVOIDABLE}


def generate(family: str, seed: int, k: int, avoid: set[str]) -> gen.Pipeline:
    return FAMILIES[family](seed, k, avoid)


def parse_spec(spec: str) -> tuple[str, int, int]:
    """ "S:K" or "rS:K" (a pipeline with reductions): family, seed, k."""
    fam = spec[0] if spec[:1].isalpha() else ""
    s, k = spec[len(fam) :].split(":")
    if fam not in FAMILIES:
        raise ValueError(f"unknown pipeline family in {spec!r}")
    return fam, int(s), int(k)


CXX = os.environ.get("CXX_DIFFERENTIAL", "g++")
INTERP_CXXFLAGS = ["-std=c++17", "-O1", "-w"]

_print_lock = threading.Lock()


def log(msg: str) -> None:
    with _print_lock:
        print(msg, flush=True)


# --------------------------------------------------------------------------
# The two Halides


def ensure_upstream() -> tuple[Path, Path]:
    """Upstream Halide's include and library folders (installed on first use)."""
    py = UPSTREAM_VENV / "bin" / "python"
    if not py.exists():
        log(f"== creating {UPSTREAM_VENV}")
        subprocess.run(["python3", "-m", "venv", str(UPSTREAM_VENV)], check=True)
    headers = list(UPSTREAM_VENV.glob("lib/python3*/site-packages/halide/include/Halide.h"))
    if not headers:
        log(f"== pip install halide=={UPSTREAM_VERSION} into {UPSTREAM_VENV}")
        subprocess.run([str(py), "-m", "pip", "install", "-q", f"halide=={UPSTREAM_VERSION}"], check=True)
        headers = list(UPSTREAM_VENV.glob("lib/python3*/site-packages/halide/include/Halide.h"))
    inc = headers[0].parent
    lib = inc.parent / "lib64"
    if not (lib / "libHalide.so").exists():
        lib = inc.parent / "lib"
    return inc, lib


def upstream_flags() -> tuple[list[str], list[str]]:
    inc, lib = ensure_upstream()
    return ["-isystem", str(inc)], [f"-L{lib}", "-lHalide", f"-Wl,-rpath,{lib}", "-lpthread", "-ldl"]


def snapshot_install(install: Path) -> Path:
    """A copy of our install, named after its contents, shared by the runs that see the same files
    (concurrent runs may each be copying: the first rename wins). Copies unused for a day are removed."""
    skip = shutil.ignore_patterns("site", "python*")
    h = hashlib.sha256()
    for f in sorted(install.rglob("*")):
        rel = f.relative_to(install)
        if f.is_file() and not skip(str(f.parent), [rel.parts[0]]):
            st = f.stat()
            h.update(f"{rel}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    root = OUT / "ours"
    snap = root / h.hexdigest()[:16]
    if not snap.exists():
        tmp = root / f"{snap.name}.tmp{os.getpid()}"
        shutil.copytree(install, tmp, symlinks=True, ignore=skip)
        try:
            os.rename(tmp, snap)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
    os.utime(snap)
    prune(root, keep=snap, max_age_s=86400)
    return snap


def prune(folder: Path, keep: Path | None = None, max_age_s: float = 86400, keep_newest: int = 0) -> None:
    """Removes entries of folder not touched for max_age_s (but never keep, nor the keep_newest newest)."""
    now = time.time()
    entries = sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True) if folder.exists() else []
    for i, p in enumerate(entries):
        if p == keep or i < keep_newest or now - p.stat().st_mtime < max_age_s:
            continue
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def ours_flags(snapshot: bool, build: str = "dev") -> tuple[list[str], list[str]]:
    """Flags for our build/<build> install (a private copy of it when snapshot is set, so a
    reinstall during the run can't change the library under a running program)."""
    install = BUILD / build / "install"
    pcs = sorted(install.glob("**/pkgconfig/halide.pc"))
    if not pcs:
        sys.exit(f"no halide.pc under {install}: build our compiler first (./run test builds build/dev)")
    pcdir = pcs[0].parent
    env = dict(os.environ, PKG_CONFIG_PATH=str(pcdir))
    cflags = subprocess.run(["pkg-config", "--cflags", "halide"], env=env, capture_output=True, text=True, check=True)
    libs = subprocess.run(["pkg-config", "--libs", "halide"], env=env, capture_output=True, text=True, check=True)
    libdir = pcdir.parent
    cf, lf = cflags.stdout.split(), libs.stdout.split()
    if snapshot:
        snap = snapshot_install(install)
        cf = [a.replace(str(install), str(snap)) for a in cf]
        lf = [a.replace(str(install), str(snap)) for a in lf]
        libdir = Path(str(libdir).replace(str(install), str(snap)))
    return cf, lf + [f"-Wl,-rpath,{libdir}"]


# --------------------------------------------------------------------------
# Batches


@dataclass
class SideResult:
    results: dict[tuple[str, str], compare.Result] = field(default_factory=dict)
    run_s: float = 0.0
    cpu_s: float = 0.0
    restarts: int = 0


@dataclass
class Batch:
    name: str
    pipelines: list[gen.Pipeline]
    gen_s: float = 0.0
    sides: dict[str, SideResult] = field(default_factory=dict)


def build_interp(side: str, flags: tuple[list[str], list[str]]) -> Path:
    """interp.cpp built against one Halide; reused while the source, flags and Halide files stay the same."""
    src = HERE / "interp.cpp"
    want = f"IN_MIN = {gen.IN_MIN}, IN_SIZE = {gen.IN_SIZE};"
    if want not in src.read_text():
        sys.exit(f"interp.cpp and gen_pipelines.py disagree about the input images (expected {want!r})")
    h = hashlib.sha256(src.read_bytes())
    h.update(repr((CXX, INTERP_CXXFLAGS, flags)).encode())
    for arg in flags[0] + flags[1]:
        for prefix in ("-I", "-L", "-isystem"):
            if arg.startswith(prefix) and len(arg) > len(prefix):
                d = Path(arg[len(prefix) :])
                for f in sorted(d.glob("*")) if d.is_dir() else []:
                    if f.is_file():
                        st = f.stat()
                        h.update(f"{f}:{st.st_size}:{st.st_mtime_ns}".encode())
    for i, arg in enumerate(flags[0]):
        if arg == "-isystem" and i + 1 < len(flags[0]):
            st = (Path(flags[0][i + 1]) / "Halide.h").stat()
            h.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
    exe = OUT / "bin" / f"interp_{side}_{h.hexdigest()[:16]}"
    if exe.exists():
        return exe
    exe.parent.mkdir(parents=True, exist_ok=True)
    prune(exe.parent, max_age_s=7 * 86400)
    tmp = f"{exe}.tmp{os.getpid()}"
    cmd = [CXX, *INTERP_CXXFLAGS, *flags[0], str(src), "-o", tmp, *flags[1]]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"building the interpreter against {side}'s Halide.h failed:\n{' '.join(cmd)}\n{p.stderr[-4000:]}")
    os.replace(tmp, exe)
    return exe


def run_process(cmd: list[str], idle_timeout: float) -> tuple[str, int, bool, float]:
    """Runs cmd; kills it when it prints nothing for idle_timeout seconds. Returns its output,
    exit code, whether it was killed for hanging, and the CPU seconds it used."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors="replace")
    lines: list[str] = []
    last = [time.time()]

    def reader() -> None:
        assert p.stdout is not None
        for line in p.stdout:
            lines.append(line)
            last[0] = time.time()

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    hung = False
    while th.is_alive():
        th.join(1.0)
        if th.is_alive() and time.time() - last[0] > idle_timeout:
            p.kill()
            hung = True
            th.join()
    _, status, usage = os.wait4(p.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    p.returncode = rc
    return "".join(lines), rc, hung, usage.ru_utime + usage.ru_stime


def run_side(batch: Batch, side: str, exe: Path, batch_file: Path, per_pipeline_timeout: float) -> None:
    """Runs the interpreter on a batch, restarting it after a pipeline variant that crashed or hung."""
    res = batch.sides[side]
    pipelines = batch.pipelines
    t0 = time.time()
    entry, variant = 0, 0
    n = len(pipelines)
    while entry < n:
        out, rc, hung, cpu = run_process([str(exe), str(batch_file), str(entry), str(variant)], per_pipeline_timeout)
        res.cpu_s += cpu
        results, started, done = compare.parse_output(out)
        res.results.update(results)
        if done and rc == 0:
            break
        last_begun = [ln.split() for ln in out.splitlines() if ln.startswith("B ") and len(ln.split()) == 3]
        if started is None and last_begun and rc != 0:
            # Died between pipelines, after the last one's result (upstream's JIT has crashed
            # tearing a pipeline down): go on after it, as after a crash within one.
            e_i, v_i = int(last_begun[-1][1]), int(last_begun[-1][2])
            res.restarts += 1
            entry, variant = (e_i, 1) if v_i == 0 else (e_i + 1, 0)
            continue
        if started is None:
            # Died before any pipeline, e.g. could not read its batch: a harness failure.
            for q in pipelines[entry:]:
                for v in compare.VARIANTS:
                    res.results.setdefault(
                        (q.ident, v),
                        compare.Result(
                            compare.ERR,
                            [],
                            f"HARNESS: the {side} interpreter exited with {rc} outside any pipeline ({batch_file})",
                        ),
                    )
            break
        e_i, v_i = started
        pid = pipelines[e_i].ident
        if hung:
            status, what = compare.HANG, f"no result after {per_pipeline_timeout:.0f}s"
        else:
            status, what = compare.CRASH, (f"killed by signal {-rc}" if rc < 0 else f"exit code {rc}")
        res.results[(pid, compare.VARIANTS[v_i])] = compare.Result(status, [], what)
        res.restarts += 1
        entry, variant = (e_i, 1) if v_i == 0 else (e_i + 1, 0)
    res.run_s = time.time() - t0


# --------------------------------------------------------------------------
# Reports


def build_commands() -> str:
    return (
        "ours:     c++ -std=c++17 FILE.cpp $(pkg-config --cflags --libs halide) -Wl,-rpath,LIBDIR\n"
        "          (PKG_CONFIG_PATH=build/dev/install/lib/<arch>/pkgconfig)\n"
        "upstream: c++ -std=c++17 FILE.cpp -I UP/include -L UP/lib64 -lHalide -Wl,-rpath,UP/lib64 -lpthread -ldl\n"
        "          (UP=build/upstream21/lib/python3.11/site-packages/halide)"
    )


def write_repro(p: gen.Pipeline, verdict: compare.Verdict, res: dict[str, compare.Result]) -> Path:
    d = OUT / "repro"
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"repro_{p.ident}.cpp"
    lines = [
        f"Differential test failure: pipeline {p.k} of seed {p.seed} ({verdict.kind}): {verdict.detail}",
        f"Regenerate: tests/differential/run_differential.py --only {p.family}{p.seed}:{p.k}",
        "Build against either Halide and compare the printed values:",
        *build_commands().splitlines(),
        "Observed:",
    ]
    for key, name in (
        ("oU", "ours, unscheduled"),
        ("oS", "ours, scheduled"),
        ("uU", "upstream, unscheduled"),
        ("uS", "upstream, scheduled"),
    ):
        lines.append(f"  {name}: {res[key].describe()[:300]}")
    if verdict.first_diff:
        lines.append("First difference: " + verdict.first_diff.replace("\n", " "))
    path.write_text(gen.render_program([p], "\n".join(lines)))
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]),
    )
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument(
        "--ci",
        action="store_true",
        help=f"seeds {CI_SEEDS}, {CI_PER_SEED} pipelines each; and {CI_R_PER_SEED} with reductions for seeds "
        f"{CI_R_SEEDS}",
    )
    mode.add_argument("--fuzz", type=int, metavar="N", help="N pipelines on new random seeds (implies --keep-going)")
    mode.add_argument("--only", metavar="S:K", action="append", help="just pipeline K of seed S (repeatable)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--batch", type=int, default=100, help="pipelines per interpreter run")
    ap.add_argument("--rbatch", type=int, default=125, help="pipelines with reductions per interpreter run")
    ap.add_argument("--reductions", action="store_true", help="pipelines with reductions (gen_reductions.py)")
    ap.add_argument("--mixed", type=float, default=0.0, help="with --fuzz: this share of pipelines with reductions")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep-going", action="store_true", help="run every batch even after a failure")
    ap.add_argument("--avoid", default="", help="features to leave out: " + ", ".join(AVOIDABLE))
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds without output before a run counts as hung")
    ap.add_argument("--no-snapshot", action="store_true", help="use build/dev/install in place")
    ap.add_argument("--build", default="dev", help="test our compiler installed in build/<BUILD>/install")
    ap.add_argument("--json", help="write every verdict here")
    ap.add_argument("--reduce", type=int, default=0, metavar="K", help="shrink one failure of each of K kinds")
    args = ap.parse_args(argv)
    avoid = {a for a in args.avoid.split(",") if a}
    unknown = avoid - set(AVOIDABLE)
    if unknown:
        ap.error(f"unknown --avoid features: {sorted(unknown)}")

    # Which pipelines.
    jobs: list[tuple[str, int, list[int]]] = []  # (family, seed, ks)
    keep_going = args.keep_going
    fam = "r" if args.reductions else ""
    if args.ci:
        # Reductions first: their batches are the longer ones.
        jobs = [("r", s, list(range(CI_R_PER_SEED))) for s in CI_R_SEEDS]
        jobs += [("", s, list(range(CI_PER_SEED))) for s in CI_SEEDS]
    elif args.fuzz:
        keep_going = True
        n_red = args.fuzz if args.reductions else round(args.fuzz * args.mixed)
        for f, total in (("r", n_red), ("", args.fuzz - n_red)):
            left = total
            while left > 0:
                seed = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF
                n = min(left, args.rbatch if f else args.batch)
                jobs.append((f, seed, list(range(n))))
                left -= n
    elif args.only:
        by_seed: dict[tuple[str, int], list[int]] = collections.defaultdict(list)
        for o in args.only:
            f, s, k = parse_spec(o)
            by_seed[(f, s)].append(k)
        jobs = [(f, s, ks) for (f, s), ks in by_seed.items()]
    else:
        jobs = [(fam, args.seed, list(range(args.first, args.first + args.count)))]

    t_start = time.time()
    # Each run has its own folder (runs may overlap); the last 10 are kept.
    workdir = OUT / "runs" / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    workdir.mkdir(parents=True)
    prune(workdir.parent, keep=workdir, max_age_s=0, keep_newest=10)

    batches: list[Batch] = []
    for f, seed, ks in jobs:
        step = args.rbatch if f else args.batch
        for i in range(0, len(ks), step):
            chunk = ks[i : i + step]
            b = Batch(f"{f}s{seed}_{chunk[0]}", [generate(f, seed, k, avoid) for k in chunk])
            b.sides = {"ours": SideResult(), "upstream": SideResult()}
            (workdir / f"{b.name}.txt").write_text(gen.render_batch(b.pipelines))
            batches.append(b)
    gen_s = time.time() - t_start
    total = sum(len(b.pipelines) for b in batches)

    t_build = time.time()
    flags = {"ours": ours_flags(not args.no_snapshot, args.build), "upstream": upstream_flags()}
    with ThreadPoolExecutor(max_workers=2) as pool:
        exes = dict(zip(flags, pool.map(lambda side: build_interp(side, flags[side]), flags), strict=True))
    build_s = time.time() - t_build
    log(
        f"== {total} pipelines in {len(batches)} batches (generated in {gen_s:.1f}s; interpreters ready in "
        f"{build_s:.1f}s); {args.jobs} jobs"
    )

    counts: collections.Counter[str] = collections.Counter()
    fam_counts: collections.Counter[str] = collections.Counter()  # pipelines with reductions
    failures: list[tuple[gen.Pipeline, compare.Verdict, Path]] = []
    known: list[str] = []
    upstream_bugs: list[tuple[gen.Pipeline, compare.Verdict]] = []
    verdicts: list[dict[str, object]] = []
    stop = threading.Event()

    def finish(b: Batch) -> None:
        nfail = 0
        for p in b.pipelines:
            res = {}
            for side, key in (("ours", "o"), ("upstream", "u")):
                for v in compare.VARIANTS:
                    res[key + v] = b.sides[side].results.get(
                        (p.ident, v), compare.Result(compare.MISSING, [], "no result")
                    )
            verdict = compare.classify(res, p.out.t.name, p.tolerance)
            counts[verdict.kind] += 1
            if p.family:
                fam_counts[verdict.kind] += 1
            verdicts.append({"id": p.ident, "verdict": verdict.kind, "detail": verdict.detail, "tags": sorted(p.tags)})
            if verdict.kind == "error_mismatch" and p.ident in KNOWN_DEFECTS:
                known.append(p.ident)
                log(f"KNOWN DEFECT {p.ident}: {KNOWN_DEFECTS[p.ident]}")
            elif verdict.kind in ("mismatch", "error_mismatch", "harness_error"):
                nfail += 1
                path = write_repro(p, verdict, res)
                failures.append((p, verdict, path))
                log(f"FAIL {p.ident} [{verdict.kind}] {verdict.detail}; tags: {','.join(sorted(p.tags)) or '-'}")
                log(f"    {verdict.first_diff}")
                log(f"    reproducer: {path.relative_to(ROOT)}")
            elif verdict.kind == "both_error":
                log(f"both error {p.ident}: {verdict.detail}")
            elif verdict.kind == "upstream_bug":
                upstream_bugs.append((p, verdict))
                log(f"upstream bug {p.ident}: {verdict.detail}: {verdict.first_diff[:200]}")
        o, u = b.sides["ours"], b.sides["upstream"]
        log(
            f"== batch {b.name}: {len(b.pipelines)} pipelines, {nfail} failures; "
            f"ours {o.run_s:.0f}s ({o.cpu_s:.0f}s CPU), upstream {u.run_s:.0f}s ({u.cpu_s:.0f}s CPU)"
            + (f"; restarts ours {o.restarts} upstream {u.restarts}" if o.restarts or u.restarts else "")
        )
        if nfail and not keep_going:
            stop.set()

    # Two tasks per batch (one per side) on a pool of --jobs workers; a batch is
    # compared as soon as both of its sides are done.
    pending = {b.name: 2 for b in batches}
    lock = threading.Lock()

    def task(b: Batch, side: str) -> None:
        if stop.is_set():
            return
        run_side(b, side, exes[side], workdir / f"{b.name}.txt", args.timeout)
        with lock:
            pending[b.name] -= 1
            last = pending[b.name] == 0
        if last:
            finish(b)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = []
        for b in batches:
            futs.append(pool.submit(task, b, "upstream"))
            futs.append(pool.submit(task, b, "ours"))
        for f in futs:
            f.result()

    wall = time.time() - t_start
    done = sum(counts.values())
    log("")
    log("== differential testing against upstream Halide " + UPSTREAM_VERSION)
    log(f"pipelines:        {done} of {total}" + (" (stopped after a failing batch)" if done < total else ""))
    if fam_counts:
        log(
            f"with reductions:  {sum(fam_counts.values())} ({fam_counts['pass']} pass, {fam_counts['both_error']} both "
            f"error, {fam_counts['upstream_bug']} upstream bugs, {fam_counts['mismatch']} mismatches, "
            f"{fam_counts['error_mismatch']} error mismatches, {fam_counts['harness_error']} harness errors)"
        )
    log(f"pass:             {counts['pass']}")
    log(f"both error:       {counts['both_error']}")
    log(f"upstream bugs:    {counts['upstream_bug']}")
    log(f"mismatches:       {counts['mismatch']}")
    log(f"error mismatches: {counts['error_mismatch'] - len(known)}")
    if known:
        log(f"known defects:    {len(known)} (open, listed in KNOWN_DEFECTS): {', '.join(known)}")
    if counts["harness_error"]:
        log(f"HARNESS ERRORS:   {counts['harness_error']} (the interpreter could not parse generated code)")
    if failures:
        by_detail: collections.Counter[str] = collections.Counter()
        for _p, v, _path in failures:
            by_detail[f"{v.kind}: {re.sub(r'[0-9]+', 'N', v.detail)[:150]}"] += 1
        log("failures by kind:")
        for d, c in by_detail.most_common():
            log(f"  {c:5d}  {d}")
        tags: collections.Counter[str] = collections.Counter()
        for p, _v, _path in failures:
            for t in p.tags or {"(no known-defect tag)"}:
                tags[t] += 1
        log("failures by generator tag (a failing pipeline may have several):")
        for t, c in tags.most_common():
            log(f"  {c:5d}  {t}")
        p0 = failures[0][0]
        avoid_arg = f" --avoid {args.avoid}" if args.avoid else ""
        log(f"shrink a failure: {sys.executable} {HERE / 'reduce.py'} {p0.family}{p0.seed}:{p0.k}{avoid_arg}")
    run = {s: sum(b.sides[s].run_s for b in batches) for s in ("ours", "upstream")}
    cpu = {s: sum(b.sides[s].cpu_s for b in batches) for s in ("ours", "upstream")}
    log(
        f"time: {wall:.0f}s wall ({args.jobs} jobs): generation {gen_s:.1f}s, interpreters {build_s:.1f}s, "
        f"runs (summed) ours {run['ours']:.0f}s upstream {run['upstream']:.0f}s; "
        f"CPU ours {cpu['ours']:.0f}s upstream {cpu['upstream']:.0f}s"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(verdicts, indent=1))
    if args.reduce and failures:
        import reduce as reducer

        runner = reducer.Runner(timeout=min(args.timeout, 30.0), exes=exes)
        seen: set[str] = set()
        for p, v, _path in failures:
            key = f"{v.kind}: {re.sub(r'[0-9]+', 'N', v.detail)}"
            if key in seen or len(seen) >= args.reduce:
                continue
            seen.add(key)
            red, what = reducer.reduce(runner, p)
            out = reducer.write_reduced(runner, p, red, what)
            log(f"reduced {p.ident} ({what}): {out.relative_to(ROOT)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
