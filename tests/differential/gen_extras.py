"""Extras drawn onto a random pipeline after its definitions and schedule.

Each extra comes from a random generator of its own, seeded with
"<family>s:k:<extra>", so a seed keeps the pipelines, schedules and
compute_with twins it had before the extra existed; the extras only add.

- Boundary conditions (tag "boundary", both families): some input images
  are read through BoundaryConditions::repeat_edge, constant_exterior,
  repeat_image, mirror_image or mirror_interior of a region inside the
  image that the reads overrun, so the edge cases and the loop
  partitioning that the boundary conditions' likely() asks for both run.
  The values stay within the image's, so the generators' value intervals
  hold (constant_exterior's value is drawn inside them).
- Specializations (tag "specialize"): a scheduled Func gets
  f.specialize(out.output_buffer().width() >= K) (or height), sometimes
  with a vectorize or unroll of one of its serial loops in the specialized
  branch only; K is drawn around the output's size, so both branches run
  across pipelines.
- Wrappers (tag "wrapper"): a compute_root producer read through
  f.in(consumer), the wrapper computed at root or at one of the consumer's
  loops, sometimes vectorized.
- store_in (tag "store_in"): a Func computed inside a loop nest stored in
  MemoryType::Stack or MemoryType::Heap.
None changes a value: the reference is the unscheduled pipeline and the
other Halide's result.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gen_pipelines import Pipeline, Scheduler

AVOIDABLE = {
    "boundary": "BoundaryConditions::* on input images",
    "specialize": "Func::specialize on the output's size, with a vectorize or unroll in the branch",
    "wrapper": "a producer read through f.in(consumer)",
    "store_in": "store_in(MemoryType::Stack/Heap) of a Func computed inside a loop nest",
}

BOUNDARY_KINDS = ["repeat_edge", "constant_exterior", "repeat_image", "mirror_image", "mirror_interior"]

# Input coordinates are offset by this much (gen_pipelines.IN_MIN is its negation).
_IN_OFFSET = 192


def _rng(p: Pipeline, name: str) -> random.Random:
    return random.Random(f"{p.family}{p.seed}:{p.k}:{name}")


def _constant_in(rng: random.Random, lo: float, hi: float) -> int:
    """A small integer inside [lo, hi] (exact in every input type)."""
    a, b = max(-5, int(lo) if lo == int(lo) else int(lo) + 1), min(5, int(hi))
    if a > b:
        a = b = int(lo) if lo == int(lo) else int(lo) + 1
    return rng.randint(a, b)


def add_boundary_conditions(p: Pipeline, avoid: set[str]) -> None:
    """Reads of some inputs go through a boundary condition of a region the reads overrun."""
    import gen_pipelines as gen

    rng = _rng(p, "boundary")
    if "boundary" in avoid or not p.inputs or rng.random() >= 0.3:
        return
    for tn, ident in sorted(p.inputs):
        if rng.random() < 0.4:
            continue
        kind = rng.choice(BOUNDARY_KINDS)
        least = 2 if kind == "mirror_interior" else 1
        # x: the output's columns (and the stencil's reach) around the offset; y: the rows, or the fixed
        # rows 0-7 that 1-D Funcs read.
        xr = (_IN_OFFSET + rng.randint(-3, 3), rng.randint(least, max(least, p.width + 3)))
        ys = max(p.height, 8) if p.dims == 2 else 8
        yr = (_IN_OFFSET + rng.randint(-2, 3), rng.randint(least, max(least, ys + 2)))
        region = f"{{{{{xr[0]}, {xr[1]}}}, {{{yr[0]}, {yr[1]}}}}}"
        src = f"in_{tn}_{ident}"
        name = f"bc_{tn}_{ident}"
        if kind == "constant_exterior":
            lo, hi, _ = gen.input_range(gen.T[tn], ident)
            value = f"cast<{gen.T[tn].cpp}>({_constant_in(rng, lo, hi)}), "
        else:
            value = ""
        p.decls.append(f"Func {name} = BoundaryConditions::{kind}({src}, {value}{region});")
        p.renames.append((src, name))
    if p.renames:
        p.tags.add("boundary")


def add_schedule_extras(p: Pipeline, s: Scheduler, avoid: set[str]) -> None:
    """Specializations, wrappers and store_in on the scheduled pipeline (gen_pipelines' family)."""
    twinned = {of for _, of, _ in p.twins} | {t for t, _, _ in p.twins}
    if "wrapper" not in avoid:
        _add_wrapper(p, s, _rng(p, "wrapper"), twinned)
    if "specialize" not in avoid:
        _add_specializations(p, s, _rng(p, "specialize"), twinned)
    if "store_in" not in avoid:
        _add_store_in(p, s, _rng(p, "store_in"))


def _add_specializations(p: Pipeline, s: Scheduler, rng: random.Random, twinned: set[str]) -> None:
    if rng.random() >= 0.25:
        return
    out = p.out
    for fi in sorted(s.loops):
        f = p.funcs[fi]
        if f.name in twinned or rng.random() < 0.5:
            continue
        dim = rng.choice(["width", "height"]) if p.dims == 2 else "width"
        size = p.width if dim == "width" else p.height
        cond = f"{out.name}.output_buffer().{dim}() >= {rng.randint(1, size + 1)}"
        then = ""
        serial = [lp for lp in s.serial(s.loops[fi]) if not lp.rvar and not lp.pred]
        # Upstream checks only the main schedule for a Func stored outside a vectorized loop but computed
        # inside it, and then fails or vectorizes the producer across the loop; ours refuses such a
        # specialization as it refuses that main schedule. Vectorized only where nothing is computed inside.
        hosts = any(fi in {fc for fc, _ in path} for path in s.path.values()) or any(
            f".compute_at({f.name}," in ln for ln in p.sched
        )
        r = rng.random()
        if serial and r < 0.7:
            lp = rng.choice(serial)
            vector_ok = not hosts and s.nested_vectorize_ok(s.loops[fi])
            kind = "vectorize" if r < 0.45 and vector_ok else "unroll"
            fac = rng.choice([2, 4, 8] if kind == "vectorize" else [2, 3])
            tail = s.tail(fi, lp, fac)
            if tail is not None:
                then = f".{kind}({lp.name}, {fac}, {tail})"
        p.sched.append(f"{f.name}.specialize({cond}){then};")
        p.tags.add("specialize")


def _add_wrapper(p: Pipeline, s: Scheduler, rng: random.Random, twinned: set[str]) -> None:
    if rng.random() >= 0.25:
        return
    cands = []
    for fi, f in enumerate(p.funcs[:-1]):
        if fi not in s.loops or s.path.get(fi) != [] or f.name in twinned:
            continue
        cands += [(fi, c) for c in f.consumers if c in s.loops]
    if not cands:
        return
    fi, c = rng.choice(cands)
    f, cons = p.funcs[fi], p.funcs[c]
    wrapper = f"{f.name}.in({cons.name})"
    levels = []
    for lp in reversed(s.loops[c]):
        if lp.kind == "vectorized":
            break
        if not lp.anon:
            levels.append(lp.name)
    if levels and rng.random() < 0.6:
        p.sched.append(f"{wrapper}.compute_at({cons.name}, {rng.choice(levels)});")
    else:
        p.sched.append(f"{wrapper}.compute_root();")
    if rng.random() < 0.4:
        p.sched.append(f"{wrapper}.vectorize(x, {rng.choice([2, 4, 8])});")
    p.tags.add("wrapper")


def _add_store_in(p: Pipeline, s: Scheduler, rng: random.Random) -> None:
    if rng.random() >= 0.25:
        return
    for fi in sorted(s.loops):
        f = p.funcs[fi]
        if not s.path.get(fi) or not any(re.match(rf"{f.name}\.compute_at\(", ln) for ln in p.sched):
            continue
        if rng.random() < 0.6:
            p.sched.append(f"{f.name}.store_in(MemoryType::{rng.choice(['Stack', 'Heap'])});")
            p.tags.add("store_in")
