#!/usr/bin/env python3
"""Shrinks a failing differential pipeline to a small reproducer.

  reduce.py S:K [--avoid ...]      (rS:K for a pipeline with reductions)

Regenerates pipeline K of seed S, classifies it (both Halides, through the
interpreters run_differential.py builds) and then repeatedly tries smaller
variants, keeping one whenever it still fails the same way (same verdict and
the same description: which results differ, or the same error message):

* a schedule directive dropped, the unscheduled variant made all-inline;
* an update definition dropped (with its schedule);
* an expression node replaced by a constant inside its interval, or by a
  child whose interval lies inside the node's (so no rule the generator
  follows to avoid unspecified behaviour is broken);
* Funcs nobody calls any more dropped with their directives;
* a smaller output.

Each round runs every candidate of the round as one batch on both sides.
The result is written to build/differential/reduced/repro_s<S>_k<K>.cpp.
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # noqa: E402
import gen_pipelines as gen  # noqa: E402
import run_differential as rd  # noqa: E402


class Runner:
    def __init__(self, snapshot: bool = True, timeout: float = 20.0, exes: dict[str, Path] | None = None) -> None:
        if exes is None:
            flags = {"ours": rd.ours_flags(snapshot), "upstream": rd.upstream_flags()}
            with ThreadPoolExecutor(max_workers=2) as pool:
                exes = dict(zip(flags, pool.map(lambda s: rd.build_interp(s, flags[s]), flags), strict=True))
        self.exes = exes
        self.workdir = rd.OUT / "runs" / f"reduce-{os.getpid()}"
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.timeout = timeout
        self.counter = 0

    def verdicts(self, pipelines: list[gen.Pipeline]) -> list[compare.Verdict]:
        self.counter += 1
        b = rd.Batch(f"r{self.counter}", pipelines)
        b.sides = {"ours": rd.SideResult(), "upstream": rd.SideResult()}
        path = self.workdir / f"{b.name}.txt"
        path.write_text(gen.render_batch(pipelines))
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(lambda s: rd.run_side(b, s, self.exes[s], path, self.timeout), ("upstream", "ours")))
        out = []
        for p in pipelines:
            res = {}
            for side, key in (("ours", "o"), ("upstream", "u")):
                for v in compare.VARIANTS:
                    res[key + v] = b.sides[side].results.get(
                        (p.ident, v), compare.Result(compare.MISSING, [], "no result")
                    )
            out.append(compare.classify(res, p.out.t.name, p.tolerance))
        return out


def signature(v: compare.Verdict) -> tuple[str, str]:
    return v.kind, v.detail


# ---------------------------------------------------------------------------
# Candidates


def all_nodes(n: gen.Node, path: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], gen.Node]]:
    out = [(path, n)]
    for i, k in enumerate(n.kids):
        out += all_nodes(k, path + (i,))
    return out


def replace(n: gen.Node, path: tuple[int, ...], new: gen.Node) -> gen.Node:
    if not path:
        return new
    c = copy.copy(n)
    c.kids = list(n.kids)
    c.kids[path[0]] = replace(n.kids[path[0]], path[1:], new)
    c.size = 1 + sum(k.size for k in c.kids)
    return c


def const_for(n: gen.Node, which: int) -> gen.Node | None:
    t = n.t
    if t.is_bool:
        return gen.const(t, which % 2)
    if t.is_float:
        cands = [0.0, n.lo, n.hi, 1.0]
        cands = [c for c in cands if n.lo <= c <= n.hi]
    else:
        cands = [c for c in (0, int(n.lo), int(n.hi), 1) if n.lo <= c <= n.hi]
    if which >= len(cands):
        return None
    c = gen.const(t, cands[which])
    if not (n.lo <= c.lo <= n.hi):
        return None
    return c


def calls_in(n: gen.Node) -> set[str]:
    return set(re.findall(r"\b(f\d+)\(", n.render()))


def exprs(f: gen.FuncInfo) -> list[tuple[int, gen.Node]]:
    """The pure definition's expression (index -1) and each update's."""
    assert f.expr is not None
    return [(-1, f.expr)] + [(i, u.expr) for i, u in enumerate(f.updates)]


def prune(p: gen.Pipeline) -> gen.Pipeline:
    """Drops Funcs the output no longer reaches, and their directives."""
    by_name = {f.name: f for f in p.funcs}
    live = {p.out.name}
    work = [p.out.name]
    while work:
        f = by_name[work.pop()]
        called = set().union(*[calls_in(e) for _i, e in exprs(f)])
        for u in f.updates:
            called |= set(re.findall(r"\b(f\d+)\(", u.lhs))
        for c in called:
            if c not in live:
                live.add(c)
                work.append(c)
    if len(live) == len(p.funcs):
        return p
    q = copy.copy(p)
    q.funcs = [f for f in p.funcs if f.name in live]

    def keep(s: str) -> bool:
        names = set(re.findall(r"\b(f\d+)\b", s))
        return names <= live

    q.sched = [s for s in p.sched if keep(s)]
    q.unsched = [s for s in p.unsched if keep(s)]
    return q


def candidates(p: gen.Pipeline, round_no: int) -> list[gen.Pipeline]:
    out: list[gen.Pipeline] = []

    def variant(**changes: object) -> gen.Pipeline:
        q = copy.copy(p)
        for k, v in changes.items():
            setattr(q, k, v)
        return q

    # Schedules.
    if p.unsched:
        out.append(variant(unsched=[]))
    for i in range(len(p.sched)):
        out.append(variant(sched=p.sched[:i] + p.sched[i + 1 :]))
    # Update definitions.
    for fi, f in enumerate(p.funcs):
        for ui in range(len(f.updates)):
            out.append(without_update(p, fi, ui))
    # Output size.
    if p.width > 1:
        out.append(variant(width=max(1, p.width // 2)))
        out.append(variant(width=p.width - 1))
    if p.height > 1:
        out.append(variant(height=max(1, p.height // 2)))
        out.append(variant(height=p.height - 1))
    # Expressions: biggest subtrees first.
    nodes = []
    for fi, f in enumerate(p.funcs):
        for ui, e in exprs(f):
            for path, n in all_nodes(e):
                if n.kids or re.match(r"(f\d+|in_)", n.fmt):
                    nodes.append((n.size, fi, ui, path, n))
    nodes.sort(key=lambda t: -t[0])
    for _size, fi, ui, path, n in nodes:
        if ui >= 0 and not path:
            continue  # an update's whole value may read the Func itself (a scan): keep its shape
        for which in range(2 if round_no % 2 == 0 else 3):
            c = const_for(n, which)
            if c is not None:
                out.append(with_expr(p, fi, path, c, ui))
        for k in n.kids:
            if (
                k.t == n.t
                and n.lo <= k.lo
                and k.hi <= n.hi
                and k.err <= n.err
                and (n.fb is None or (k.fb is not None and k.fb <= n.fb))
            ):
                out.append(with_expr(p, fi, path, k, ui))
    return [prune(q) for q in out]


def with_expr(p: gen.Pipeline, fi: int, path: tuple[int, ...], new: gen.Node, ui: int = -1) -> gen.Pipeline:
    q = copy.copy(p)
    q.funcs = list(p.funcs)
    f = copy.copy(p.funcs[fi])
    if ui < 0:
        assert f.expr is not None
        f.expr = replace(f.expr, path, new)
    else:
        f.updates = list(f.updates)
        u = f.updates[ui]
        f.updates[ui] = gen.Update(u.lhs, u.op, replace(u.expr, path, new))
    q.funcs[fi] = f
    return q


def without_update(p: gen.Pipeline, fi: int, ui: int) -> gen.Pipeline:
    """p without update ui of Func fi; the schedules of later updates renumbered."""
    q = copy.copy(p)
    q.funcs = list(p.funcs)
    f = copy.copy(p.funcs[fi])
    f.updates = f.updates[:ui] + f.updates[ui + 1 :]
    q.funcs[fi] = f
    sched = []
    for st in p.sched:
        m = re.match(rf"{f.name}\.update\((\d+)\)(.*)", st)
        if m and int(m.group(1)) == ui:
            continue
        if m and int(m.group(1)) > ui:
            st = f"{f.name}.update({int(m.group(1)) - 1}){m.group(2)}"
        sched.append(st)
    q.sched = sched
    return q


def size(p: gen.Pipeline) -> int:
    return (
        sum(e.size + 2 for f in p.funcs for _i, e in exprs(f)) * 4
        + len(p.sched) * 3
        + len(p.unsched)
        + len(p.funcs) * 5
        + p.width * p.height // 8
    )


def reduce(runner: Runner, p: gen.Pipeline, max_rounds: int = 60, chunk: int = 48) -> tuple[gen.Pipeline, str]:
    (v0,) = runner.verdicts([p])
    if v0.kind in ("pass", "both_error", "harness_error"):
        return p, f"nothing to reduce ({v0.kind})"
    sig = signature(v0)
    print(f"reducing {p.ident}: {v0.kind}: {v0.detail} (size {size(p)})", flush=True)
    cur = p
    for r in range(max_rounds):
        cands = [c for c in candidates(cur, r) if size(c) < size(cur)]
        cands.sort(key=size)
        improved = False
        for i in range(0, len(cands), chunk):
            part = cands[i : i + chunk]
            for j, c in enumerate(part):
                c.k = 1_000_000 + j  # distinct ids within the batch
            vs = runner.verdicts(part)
            for c, v in zip(part, vs, strict=True):
                if signature(v) == sig:
                    cur = c
                    improved = True
                    break
            if improved:
                break
        print(f"  round {r}: size {size(cur)} ({len(cands)} candidates)", flush=True)
        if not improved:
            break
    cur = copy.copy(cur)
    cur.k = p.k
    return cur, f"{v0.kind}: {v0.detail}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("which", nargs="+", help="S:K (seed and pipeline index)")
    ap.add_argument("--avoid", default="")
    ap.add_argument("--no-snapshot", action="store_true")
    args = ap.parse_args(argv)
    avoid = {a for a in args.avoid.split(",") if a}
    runner = Runner(snapshot=not args.no_snapshot)
    for w in args.which:
        fam, s, k = rd.parse_spec(w)
        p = rd.generate(fam, s, k, avoid)
        red, what = reduce(runner, p)
        path = write_reduced(runner, p, red, what)
        print(f"== {path}")
        print(gen.render_pipeline(red))
    return 0


def write_reduced(runner: Runner, p: gen.Pipeline, red: gen.Pipeline, what: str) -> Path:
    """Writes the reduced pipeline as a standalone program under build/differential/reduced/."""
    outdir = rd.OUT / "reduced"
    outdir.mkdir(parents=True, exist_ok=True)
    (v,) = runner.verdicts([red])
    path = outdir / f"repro_{p.ident}.cpp"
    header = [
        f"Reduced from pipeline {p.k} of seed {p.seed} ({what}).",
        f"Verdict of the reduced pipeline: {v.kind}: {v.detail}",
        "First difference: " + v.first_diff.replace("\n", " "),
        *rd.build_commands().splitlines(),
    ]
    path.write_text(gen.render_program([red], "\n".join(header)))
    print(f"   {v.kind}: {v.detail}\n   {v.first_diff}", flush=True)
    return path


if __name__ == "__main__":
    sys.exit(main())
