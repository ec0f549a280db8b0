#!/usr/bin/env python3
"""Random Halide pipelines with reductions, for differential testing (the "r" family).

The pipelines of gen_pipelines.py (same inputs, expressions, schedules and rules
against unspecified behaviour; this module reuses its expression generator)
with update definitions, RDoms and inline reductions. Pipeline k of seed s
(id "rs<s>_k<k>") is a chain of 1-4 small Funcs (output at most 24 x 1 or
12 x 8) where a Func may have one to three update definitions of these shapes:

* pure updates: f(x, y) = f(x, y) * k + e, f(x) += e, f(x) = max(f(x), e);
* a reduction at each point over a 1-D or 2-D RDom with constant bounds,
  sometimes restricted with where(): f(x, y) += e(x + r.x, y + r.y), *=,
  max/min (a convolution, a box sum, a product);
* histograms at computed coordinates: f(clamp(cast<int32_t>(in(r.x, r.y)) %
  7, 0, W - 1)) += 1, or += e, max(f(c), e), f(c) = e; an output's coordinates
  are clamped to its extent (ours refuses an output update that may write
  outside its buffer), an intermediate's cover small computed ranges that
  bounds inference must add to what its consumers read;
* scans along x or y, r starting at 1: f(r, y) = f(r - 1, y) op e(r, y)
  with op +, -, max, min, ^ and, for wrapping types, f(r - 1) * k + e;
* assignments over an RDom box: f(r.x, r.y) = e(r), sometimes with where();

and any expression may contain an inline sum / product / maximum / minimum
over a small RDom of its own (implicit or explicit RDom form), or one
element of argmax / argmin (a Tuple: the coordinates, then the value).

Update stages get random schedules through f.update(i): split, fuse, reorder
and unroll of RVars and pure Vars, tile of pure Vars, vectorize and parallel of pure Vars
only. Only legal ones: RVars keep their relative order (reordering them may
change the result, upstream refuses it), RVars are split with GuardWithIf or
Auto only (anything else may change the result) into RVars, pure Vars of an
update never with ShiftInwards (both refuse it) and with RoundUp (what Auto
means in an update) only where the rounded-up loop stays inside the output,
never parallel or vectorize of an RVar (both refuse it as a race), fuse of
two RVars or two Vars only. Producers that have updates are computed at the
root, at a loop of a consumer without updates, or left inline (then computed
at the innermost loop of their uses); a consumer with updates gets its
producers at the root or inline.

Unspecified results are kept out as in gen_pipelines.py, and:

* Signed 32/64-bit overflow: every update tracks the interval of its Func's
  values after all its iterations (a sum of N terms grows by N times the
  term's interval, a product by its magnitude to the N, a scan by N steps),
  and Int(32)/Int(64) terms are narrowed so that stays within 2^(bits-3);
  8/16-bit signed and unsigned types wrap, so they need nothing.
* Float reassociation: floats in reductions are small integers (floor and
  clamp of exact values, |v| <= 2^8 per term, sums and products kept below
  2^20), so every order of the arithmetic gives the same bits.
* maximum/minimum/argmax/argmin are generated over integer types only (their
  float identity is an infinity, which fast-math excludes); argmax/argmin of
  an empty (where-restricted) domain gives coordinate 0, which the interval
  includes.
* argmax/argmin reduce over unsigned or 8/16-bit values only (the value
  element is then cast to the expression's type): upstream 21 compares an
  Int(32)/Int(64) value with its running best, which starts at the type's
  minimum (maximum for argmin), after its simplifier has moved a constant
  across the comparison (127 - a > best becomes a + best < 127), which
  overflows while best is still that identity: argmax(127 - in(r)) over
  {-6, 2, 2} gives 125, not 133, and argmin(in(r) - 5) gives the identity.
  maximum/minimum update with max/min and have no such comparison.
* RDom::where predicates use RVars only (and the Func's pure Vars in the
  per-point reductions), are written right after the RDom's declaration
  (upstream refuses predicates on an RDom already used), and an RDom is used
  by one definition or one inline reduction.
* The last write wins in f(c) = e: the RVar loops keep their order in every
  schedule, so both compilers write the same last value.

Funcs with updates or inline reductions left inline inside a vectorized loop
are tagged reduction_in_vector_loop (--avoid drops the vectorize calls), and
intermediates' histogram coordinates bounded by %, &, >> or casts instead of
clamp unclamped_coordinate, and inline reductions over an explicit RDom their
expression does not use (upstream reduces over nothing: the update has no
RVar and runs once) explicit_rdom_unused.
"""

from __future__ import annotations

import math
import random

import gen_extras
import gen_pipelines as gen
from gen_pipelines import FuncInfo, Loop, Node, Pipeline, T, Update, mk

AVOIDABLE = {
    "reduction_in_vector_loop": "Funcs with updates or inline reductions computed inside a vectorized loop",
    "unclamped_coordinate": "update coordinates of an intermediate narrowed other than by clamp (%, &, >>, casts)",
    "explicit_rdom_unused": "sum(r, e) & co. with an e that does not use r (upstream: no RVar, the update runs once)",
}

# Kept small: reductions multiply the work per output point.
MAX_W1, MAX_W2, MAX_H2 = 24, 12, 8
RED_TYPES = gen.INT_TYPES + gen.FLOAT_TYPES
FLOAT_TERM = 2.0**8  # |float term| of a reduction
FLOAT_TOTAL = 2.0**20  # |float value| of a Func with updates (exact in Float(32): gen.Node.exact)


def bound_for(t: gen.HType) -> int:
    """The largest magnitude a Func with updates may reach in type t (Int(32)/Int(64) and floats)."""
    if t.is_float:
        return int(FLOAT_TOTAL)
    return 2 ** (t.bits - 3)


class RDoms:
    """The RDoms of one pipeline (declared in p.decls)."""

    def __init__(self, rng: random.Random, p: Pipeline) -> None:
        self.rng = rng
        self.p = p
        self.n = 0

    def new(self, ranges: list[tuple[int, int]]) -> tuple[str, list[tuple[str, int, int]]]:
        """An RDom over [(min, extent), ...]: its name and its RVars (text, lo, hi)."""
        name = f"r{self.n}"
        self.n += 1
        args = ", ".join(f"{m}, {e}" for m, e in ranges)
        self.p.decls.append(f"RDom {name}({args});")
        rvars = [(f"{name}.{'xyzw'[i]}", m, m + e - 1) for i, (m, e) in enumerate(ranges)]
        return name, rvars

    def where(self, name: str, rvars: list[tuple[str, int, int]], pure: list[str]) -> bool:
        """Maybe restricts the RDom; True if it did."""
        r = self.rng
        if r.random() > 0.3:
            return False
        v, lo, hi = r.choice(rvars)
        forms = [
            f"{v} < {r.randint(lo, hi + 1)}",
            f"{v} != {r.randint(lo, hi)}",
            f"({v} & 1) == {r.randint(0, 1)}",
            f"{v} >= {r.randint(lo, hi)}",
        ]
        if len(rvars) == 2:
            a, b = rvars[0][0], rvars[1][0]
            forms += [f"{a} != {b}", f"({a} + {b}) % 2 == 0", f"{a} <= {b}"]
        if pure:
            forms.append(f"{v} != ({r.choice(pure)} % 3)")
        self.p.decls.append(f"{name}.where({r.choice(forms)});")
        return True


class RGen(gen.Gen):
    """gen.Gen with coordinates other than (x, y): RVars, offsets, and inline reductions."""

    def __init__(
        self,
        rng: random.Random,
        p: Pipeline,
        f: FuncInfo,
        avoid: set[str],
        rdoms: RDoms,
        coords: list[str],
        leaves: list[tuple[str, int, int]],
        in_row: str | None = None,
        ired: bool = False,
    ) -> None:
        super().__init__(rng, p, f, avoid)
        self.rdoms = rdoms
        self.coords = coords  # one coordinate text per dimension of f
        self.leaves = leaves  # Int(32) leaves: (text, lo, hi)
        self.in_row = in_row  # the second input coordinate of a 1-D Func (None: a constant row)
        self.ired = ired
        self.used_ired = False

    def child(self, coords: list[str], leaves: list[tuple[str, int, int]], in_row: str | None) -> RGen:
        g = RGen(self.rng, self.p, self.f, self.avoid, self.rdoms, coords, leaves, in_row, ired=False)
        g.pending = self.pending
        g.budget = min(self.budget, 8)
        return g

    @staticmethod
    def plus(c: str, d: int) -> str:
        return c if d == 0 else (f"{c} + {d}" if d > 0 else f"{c} - {-d}")

    def input_read(self, t: gen.HType, exact: bool = False) -> Node:
        ident = 0 if exact and t.is_float else self.rng.randint(0, 1)
        self.p.inputs.add((t.name, ident))
        lo, hi, fb = gen.input_range(t, ident)
        off = -gen.IN_MIN
        cx = self.plus(self.coords[0], off + self.offset())
        if len(self.coords) == 2:
            cy = self.plus(self.coords[1], off + self.offset())
        elif self.in_row is not None:
            cy = self.plus(self.in_row, off + self.rng.randint(0, 7))
        else:
            cy = f"Expr({off + self.rng.randint(0, 7)})"
        return mk(t, f"in_{t.name}_{ident}({cx}, {cy})", [], lo, hi, fb=fb)

    def var_leaf(self, t: gen.HType) -> Node:
        if not self.leaves:
            return self.rand_const(t)
        text, lo, hi = self.rng.choice(self.leaves)
        n = mk(T["i32"], text, [], lo, hi)
        if t == T["i32"]:
            return n
        r = self.cast_to(n, t)
        assert r is not None
        return r

    def call_args(self, pf: FuncInfo) -> str:
        dx, dy = self.offset(), self.offset()
        c = self.coords
        if len(c) == pf.dims == 2:
            return f"{self.plus(c[0], dx)}, {self.plus(c[1], dy)}"
        if len(c) == pf.dims == 1:
            return self.plus(c[0], dx)
        if len(c) == 2:
            return self.plus(self.rng.choice(c), dx)
        row = self.rng.randint(-3, 3)
        if self.chance(0.5):
            return f"{self.plus(c[0], dx)}, Expr({row})"
        return f"Expr({row}), {self.plus(c[0], dx)}"

    def ops_for(self, t: gen.HType) -> list[tuple[str, float]]:
        ops = super().ops_for(t)
        if self.ired and not t.is_bool:
            ops = ops + [("ired", 2.5)]
        return ops

    # ---- inline reductions

    def op_ired(self, t: gen.HType, depth: int, exact: bool) -> Node | None:
        r = self.rng
        kind = r.choice(["sum", "sum", "product", "maximum", "minimum", "argmax", "argmin"])
        if t.is_float and kind != "sum" and kind != "product":
            kind = "sum"
        dims = 1 if r.random() < 0.6 else 2
        ranges = [(r.randint(-2, 0), r.randint(1, 3 if dims == 2 else 5)) for _ in range(dims)]
        name, rvars = self.rdoms.new(ranges)
        restricted = self.rdoms.where(name, rvars, [])
        npts = math.prod(e for _m, e in ranges)
        coords = [f"{c} + {rv[0]}" for c, rv in zip(self.coords, rvars, strict=False)]
        in_row = self.in_row
        if len(self.coords) == 1 and dims == 2:
            in_row = rvars[1][0] if in_row is None else f"{in_row} + {rvars[1][0]}"
        sub = self.child(coords, self.leaves + rvars, in_row)
        self.used_ired = True
        if kind in ("sum", "product"):
            body = sub.gen(t, max(depth, 1), t.is_float)
            if t.is_float:
                b = sub.exactify(body, FLOAT_TERM if kind == "sum" else 2.0)
                if b is None:
                    return None
                body = b
            elif t.ub_overflow:
                lim = 2 ** (t.bits - 3) // npts if kind == "sum" else 2
                body = sub.narrow(body, -lim, lim)
        else:
            s = t if not t.is_float else T["i32"]
            if kind in ("argmax", "argmin") and s.ub_overflow:
                # Over a type that wraps (see the docstring: upstream's comparison with its identity).
                s = T["u" + s.name[1:]]
            body = sub.gen(s, max(depth, 1), True)
        uses_r = name in body.render()
        if not uses_r:
            # sum(e) needs an RDom in e: add an RVar (or name the RDom explicitly: then upstream's update
            # has no RVar and runs once, tag explicit_rdom_unused).
            if r.random() < 0.5 and "explicit_rdom_unused" not in self.avoid:
                self.p.tags.add("explicit_rdom_unused")
                fmt_r = f"{name}, "
            else:
                rv = sub.var_leaf(body.t)
                op = "max" if body.t.is_float or kind not in ("sum",) else "+"
                nb = sub.binop(op, body, rv, body.t.is_float) if op == "+" else sub.binop("max", body, rv, True)
                if nb is None or name not in nb.render():
                    fmt_r = f"{name}, "
                    self.p.tags.add("explicit_rdom_unused")
                else:
                    body = nb
                    fmt_r = ""
        else:
            fmt_r = f"{name}, " if r.random() < 0.25 else ""
        bt = body.t
        if kind == "sum":
            lo, hi = npts * body.lo, npts * body.hi
            lo, hi = min(lo, 0), max(hi, 0)
            if not bt.fits(lo, hi):
                assert not bt.ub_overflow and not bt.is_float, (lo, hi)
                lo, hi = bt.lo, bt.hi
            return mk(bt, f"sum({fmt_r}{{0}})", [body], lo, hi, fb=0)
        if kind == "product":
            m = max(abs(body.lo), abs(body.hi), 1) ** npts
            lo = -m if body.lo < 0 else 0
            hi = m
            if not bt.fits(lo, hi):
                assert not bt.ub_overflow and not bt.is_float, (lo, hi)
                lo, hi = bt.lo, bt.hi
            return mk(bt, f"product({fmt_r}{{0}})", [body], lo, hi, fb=0)
        if kind in ("maximum", "minimum"):
            lo, hi = body.lo, body.hi
            if restricted:
                lo, hi = (bt.lo, hi) if kind == "maximum" else (lo, bt.hi)
            n = mk(bt, f"{kind}({fmt_r}{{0}})", [body], lo, hi)
            return self.cast_to(n, t)
        # argmax / argmin: one element of the Tuple (coordinates..., value).
        i = r.randrange(dims + 1)
        if i < dims:
            lo, hi = ranges[i][0], ranges[i][0] + ranges[i][1] - 1
            if restricted:
                lo, hi = min(lo, 0), max(hi, 0)
            n = mk(T["i32"], f"{kind}({fmt_r}{{0}})[{i}]", [body], lo, hi)
        else:
            lo, hi = body.lo, body.hi
            if restricted:
                lo, hi = (bt.lo, hi) if kind == "argmax" else (lo, bt.hi)
            n = mk(bt, f"{kind}({fmt_r}{{0}})[{i}]", [body], lo, hi)
        return self.cast_to(n, t)


# --------------------------------------------------------------------------
# Update definitions


class Updater:
    """Writes the update definitions of one Func, tracking the interval of its values."""

    def __init__(self, rng: random.Random, p: Pipeline, f: FuncInfo, avoid: set[str], rdoms: RDoms) -> None:
        self.rng = rng
        self.p = p
        self.f = f
        self.avoid = avoid
        self.rdoms = rdoms
        e = f.expr
        assert e is not None
        self.lo, self.hi = e.lo, e.hi
        self.is_out = f is p.out
        # Per update: its loops, innermost first (RVars, then the pure Vars it keeps).
        self.loops: list[list[Loop]] = []

    @property
    def t(self) -> gen.HType:
        return self.f.t

    def cur(self, text: str) -> Node:
        t = self.t
        return mk(t, text, [], self.lo, self.hi, fb=0 if t.is_float else 0, amag=max(abs(self.lo), abs(self.hi)))

    def set_interval(self, lo: float, hi: float) -> None:
        t = self.t
        if t.is_intlike:
            lo, hi = math.floor(lo), math.ceil(hi)
        if not t.fits(lo, hi):
            assert not t.ub_overflow and not t.is_float, (t, lo, hi)
            lo, hi = t.lo, t.hi
        self.lo, self.hi = lo, hi

    def pure_leaves(self) -> list[tuple[str, int, int]]:
        return [(v, gen.VAR_LO, gen.VAR_HI) for v in ("x", "y")[: self.f.dims]]

    def term(self, g: RGen, n_terms: int, cur_mag: float) -> Node:
        """A term added n_terms times to values of magnitude cur_mag: narrowed so the total stays in range."""
        t = self.t
        e = g.gen(t, self.rng.randint(1, 2), t.is_float)
        if t.is_float:
            lim = min(FLOAT_TERM, max((FLOAT_TOTAL - cur_mag) / n_terms, 1.0))
            x = g.exactify(e, 2.0 ** math.floor(math.log2(lim)))
            return x if x is not None else gen.const(t, 1.0)
        if t.ub_overflow:
            lim = max(int((bound_for(t) - cur_mag) // n_terms), 1)
            return g.narrow(e, -lim, lim)
        return e

    def accumulate(self, e: Node, n: int) -> None:
        self.set_interval(self.lo + n * min(0, e.lo), self.hi + n * max(0, e.hi))

    def extents(self) -> list[int | None]:
        if self.is_out:
            return [self.p.width, self.p.height][: self.f.dims]
        return [None, None][: self.f.dims]

    def wrapped(self, fmt: str, e: Node) -> Node:
        """fmt around e (fmt also reads the Func), with the Func's interval after the update."""
        return mk(self.t, fmt, [e], self.lo, self.hi, fb=0)

    def uses(self, g: RGen, e: Node, name: str, also: str = "") -> Node:
        """e, made to read RDom `name` if neither it nor `also` (the left side) does: an update over an
        RDom its definition never names is not a loop over it."""
        if f"{name}." in e.render() or f"{name}." in also:
            return e
        rv = [lf for lf in g.leaves if lf[0].startswith(f"{name}.")]
        v = g.var_leaf(e.t) if not rv else g.cast_to(mk(T["i32"], rv[0][0], [], rv[0][1], rv[0][2]), e.t)
        assert v is not None
        r = g.binop("max", e, v, e.t.is_float)
        assert r is not None and f"{name}." in r.render(), (e.render(), rv)
        return r

    def add(self, lhs: str, op: str, e: Node, loops: list[Loop]) -> None:
        self.f.updates.append(Update(lhs, op, e))
        self.loops.append(loops)

    def pure_loops(self, names: list[str]) -> list[Loop]:
        ext = dict(zip(("x", "y"), self.extents(), strict=False))
        return [Loop(v, ext[v]) for v in names]

    def rvar_loops(self, rvars: list[tuple[str, int, int]]) -> list[Loop]:
        return [Loop(v, hi - lo + 1, kind="serial", const=True, rvar=True) for v, lo, hi in rvars]

    # ---- the shapes

    def pure_update(self) -> bool:
        t, r = self.t, self.rng
        args = "x, y" if self.f.dims == 2 else "x"
        g = RGen(r, self.p, self.f, self.avoid, self.rdoms, ["x", "y"][: self.f.dims], self.pure_leaves(), ired=True)
        me = self.cur(f"{self.f.name}({args})")
        form = r.choice(["+", "-", "*", "min", "max", "mulk"])
        e = self.term(g, 1, me.mag)
        if form == "mulk":
            k = r.choice([2, 3, -1, 5]) if t.kind != "uint" else r.choice([2, 3, 5])
            kc = gen.const(t, k)
            prod = g.binop("*", me, kc, t.is_float)
            if prod is None:
                return False
            res = g.binop("+", prod, e, t.is_float)
        else:
            res = g.binop(form, me, e, t.is_float)
        if res is None or (t.is_float and not res.exact):
            return False
        if t.is_float:
            x = g.exactify(res, FLOAT_TOTAL / 4)
            if x is None:
                return False
            res = x
        if t.ub_overflow and max(abs(res.lo), abs(res.hi)) > bound_for(t):
            res = g.narrow(res, -bound_for(t), bound_for(t))
        if form in "+-*" and res.kids[:2] == [me, e] and res.fmt.startswith("("):
            self.add(args, f"{form}=", e, self.pure_loops(["x", "y"][: self.f.dims]))
        else:
            self.add(args, "=", res, self.pure_loops(["x", "y"][: self.f.dims]))
        self.lo, self.hi = res.lo, res.hi
        return True

    def point_reduction(self) -> bool:
        """f(x, y) op= e over an RDom at every point."""
        t, r = self.t, self.rng
        d = self.f.dims
        dims = 1 if r.random() < 0.5 else 2
        ranges = [(r.randint(-2, 1), r.randint(1, 4)) for _ in range(dims)]
        name, rvars = self.rdoms.new(ranges)
        self.rdoms.where(name, rvars, ["x", "y"][:d])
        npts = math.prod(e for _m, e in ranges)
        coords = [f"{c} + {rv[0]}" for c, rv in zip(["x", "y"][:d], rvars, strict=False)]
        in_row = rvars[1][0] if d == 1 and dims == 2 else None
        g = RGen(r, self.p, self.f, self.avoid, self.rdoms, coords, self.pure_leaves() + rvars, in_row)
        args = "x, y" if d == 2 else "x"
        me = f"{self.f.name}({args})"
        mag = max(abs(self.lo), abs(self.hi))
        loops = self.rvar_loops(rvars) + self.pure_loops(["x", "y"][:d])
        form = r.choice(["+=", "+=", "-=", "*=", "max", "min"])
        if form == "*=":
            if t.is_float or t.ub_overflow:
                if mag * 2.0**npts > bound_for(t):
                    form = "+="
                else:
                    e = g.narrow(self.uses(g, self.term(g, 1, 0), name), -2, 2)
                    self.add(args, "*=", e, loops)
                    m = mag * 2.0**npts
                    self.set_interval(-m, m)
                    return True
            else:
                e = self.uses(g, g.gen(t, r.randint(1, 3), False), name)
                self.add(args, "*=", e, loops)
                self.set_interval(t.lo, t.hi)
                return True
        if form in ("+=", "-="):
            e = self.uses(g, self.term(g, npts, mag), name)
            self.add(args, form, e, loops)
            if form == "-=":
                self.set_interval(self.lo - npts * max(0, e.hi), self.hi - npts * min(0, e.lo))
            else:
                self.accumulate(e, npts)
            return True
        e = self.uses(g, self.term(g, 1, mag), name)
        self.set_interval(min(self.lo, e.lo), max(self.hi, e.hi))
        self.add(args, "=", self.wrapped(f"{form}({me}, {{0}})", e), loops)
        return True

    def coordinate(self, g: RGen, lo: int, hi: int, clamp: bool) -> Node:
        """An Int(32) coordinate computed from the RDom's values, within [lo, hi]."""
        s = self.rng.choice(gen.INT_TYPES)
        c = g.gen(s, self.rng.randint(1, 2), True)
        ci = g.cast_to(c, T["i32"])
        assert ci is not None
        if clamp or "unclamped_coordinate" in self.avoid:
            # clamp(c, lo, hi), always written out: the coordinates' bounds must be plain to every compiler
            # (ours refuses an output update that may write outside its buffer).
            lo_, hi_ = min(max(ci.lo, lo), hi), min(max(ci.hi, lo), hi)
            return mk(
                T["i32"], f"clamp({{0}}, {gen.literal(T['i32'], lo)}, {gen.literal(T['i32'], hi)})", [ci], lo_, hi_
            )
        # An intermediate's coordinates narrowed some other way (% c, & mask, >> k, casts): bounds
        # inference must see through it.
        self.p.tags.add("unclamped_coordinate")
        if lo <= ci.lo and ci.hi <= hi:
            return ci
        n = g.narrow(ci, lo, hi)
        if not (lo <= n.lo and n.hi <= hi):
            n = g.clamp_const(ci, lo, hi)
        return n

    def histogram(self) -> bool:
        t, r = self.t, self.rng
        d = self.f.dims
        dims = 1 if r.random() < 0.5 else 2
        ranges = [(r.randint(-3, 2), r.randint(1, 6 if dims == 1 else 4)) for _ in range(dims)]
        name, rvars = self.rdoms.new(ranges)
        self.rdoms.where(name, rvars, [])
        npts = math.prod(e for _m, e in ranges)
        pure_y = d == 2 and r.random() < 0.5
        leaves = rvars + ([("y", gen.VAR_LO, gen.VAR_HI)] if pure_y else [])
        rc = [rv[0] for rv in rvars]
        cg = RGen(r, self.p, self.f, self.avoid, self.rdoms, rc if d == 2 or dims == 1 else rc[:1], leaves, None)
        if d == 1 and dims == 2:
            cg.in_row = rc[1]
        ext = self.extents()
        cr = [(0, ext[i] - 1) if ext[i] is not None else (r.randint(-6, 4), r.randint(5, 30)) for i in range(d)]
        cx = self.coordinate(cg, cr[0][0], cr[0][1], self.is_out or r.random() < 0.85)
        lhs_nodes = [cx]
        if d == 2:
            if pure_y:
                lhs_nodes.append(mk(T["i32"], "y", [], gen.VAR_LO, gen.VAR_HI))
            else:
                lhs_nodes.append(self.coordinate(cg, cr[1][0], cr[1][1], self.is_out or r.random() < 0.85))
        lhs = ", ".join(n.render() for n in lhs_nodes)
        me = f"{self.f.name}({lhs})".replace("{", "{{").replace("}", "}}")  # a format string below
        loops = self.rvar_loops(rvars) + (self.pure_loops(["y"]) if pure_y else [])
        form = r.choice(["+= 1", "+=", "+=", "max", "=", "-="])
        mag = max(abs(self.lo), abs(self.hi))
        if form == "+= 1" and f"{name}." not in lhs:
            form = "+="
        if form == "+= 1":
            one = gen.const(t, 1)
            if t.ub_overflow or t.is_float:
                if mag + npts > bound_for(t):
                    return False
            self.add(lhs, "+=", one, loops)
            self.accumulate(one, npts)
            return True
        e = self.uses(cg, self.term(cg, npts, mag), name, lhs)
        if form == "+=":
            self.add(lhs, "+=", e, loops)
            self.accumulate(e, npts)
        elif form == "-=":
            self.add(lhs, "-=", e, loops)
            self.set_interval(self.lo - npts * max(0, e.hi), self.hi - npts * min(0, e.lo))
        elif form == "max":
            self.set_interval(min(self.lo, e.lo), max(self.hi, e.hi))
            self.add(lhs, "=", self.wrapped(f"max({me}, {{0}})", e), loops)
        else:
            self.add(lhs, "=", e, loops)
            self.set_interval(min(self.lo, e.lo), max(self.hi, e.hi))
        return True

    def scan(self) -> bool:
        t, r = self.t, self.rng
        d = self.f.dims
        axis = 0 if d == 1 or r.random() < 0.6 else 1
        ext = self.extents()[axis]
        if ext is not None:
            if ext < 2:
                return False
            n = ext - 1
        else:
            n = r.randint(2, 12)
        name, rvars = self.rdoms.new([(1, n)])
        rv = rvars[0][0]
        pure = [v for i, v in enumerate(["x", "y"][:d]) if i != axis]
        coords = [rv if i == axis else v for i, v in enumerate(["x", "y"][:d])]
        prev = [f"{rv} - 1" if i == axis else v for i, v in enumerate(["x", "y"][:d])]
        leaves = rvars + [(v, gen.VAR_LO, gen.VAR_HI) for v in pure]
        g = RGen(r, self.p, self.f, self.avoid, self.rdoms, coords, leaves)
        lhs = ", ".join(coords)
        me = f"{self.f.name}({', '.join(prev)})"
        loops = self.rvar_loops(rvars) + self.pure_loops(pure)
        ops = ["+", "+", "-", "max", "min"]
        if t.is_intlike:
            ops.append("^")
            if not t.ub_overflow:
                ops.append("mulk")
        op = r.choice(ops)
        mag = max(abs(self.lo), abs(self.hi))
        if op in ("+", "-"):
            e = self.term(g, n, mag)
            if op == "+":
                self.accumulate(e, n)
            else:
                self.set_interval(self.lo - n * max(0, e.hi), self.hi - n * min(0, e.lo))
            self.add(lhs, "=", self.wrapped(f"({me} {op} {{0}})", e), loops)
        elif op in ("max", "min"):
            e = self.term(g, 1, mag)
            self.set_interval(min(self.lo, e.lo), max(self.hi, e.hi))
            self.add(lhs, "=", self.wrapped(f"{op}({me}, {{0}})", e), loops)
        elif op == "^":
            e = g.gen(t, r.randint(1, 3), True)
            if t.ub_overflow:
                e = g.narrow(e, -bound_for(t), bound_for(t))
            if min(self.lo, e.lo) >= 0:
                k = int(max(self.hi, e.hi)).bit_length()
                self.set_interval(0, (1 << k) - 1)
            else:
                k = int(max(abs(self.lo), abs(self.hi), abs(e.lo), abs(e.hi))).bit_length()
                self.set_interval(max(-(1 << k), t.lo), min((1 << k) - 1, t.hi))
            self.add(lhs, "=", self.wrapped(f"({me} ^ {{0}})", e), loops)
        else:
            k = r.choice([2, 3, 5, 7])
            e = g.gen(t, r.randint(1, 3), False)
            self.set_interval(t.lo, t.hi)
            self.add(lhs, "=", self.wrapped(f"({me} * {k} + {{0}})", e), loops)
        return True

    def box_assign(self) -> bool:
        r = self.rng
        d = self.f.dims
        ext = self.extents()
        ranges = []
        for i in range(d):
            if ext[i] is not None:
                e_ = ext[i]
                assert e_ is not None
                m = r.randint(0, e_ - 1)
                ranges.append((m, r.randint(1, min(4, e_ - m))))
            else:
                ranges.append((r.randint(-4, 8), r.randint(1, 4)))
        if d == 2 and r.random() < 0.4:
            # Only the first dimension over an RDom: f(r.x, y) = e.
            ranges = ranges[:1]
        name, rvars = self.rdoms.new(ranges)
        pure = ["y"] if d == 2 and len(ranges) == 1 else []
        self.rdoms.where(name, rvars, pure)
        coords = [rv[0] for rv in rvars] + pure
        leaves = rvars + [(v, gen.VAR_LO, gen.VAR_HI) for v in pure]
        g = RGen(r, self.p, self.f, self.avoid, self.rdoms, coords, leaves)
        e = self.term(g, 1, 0)
        self.add(", ".join(coords), "=", e, self.rvar_loops(rvars) + self.pure_loops(pure))
        self.set_interval(min(self.lo, e.lo), max(self.hi, e.hi))
        return True

    def run(self, count: int) -> None:
        shapes = [self.pure_update, self.point_reduction, self.histogram, self.scan, self.box_assign]
        weights = [2.0, 3.0, 2.5, 2.0, 1.0]
        for _ in range(count):
            for _try in range(4):
                if self.rng.choices(shapes, weights)[0]():
                    break
        t = self.t
        self.f.value = mk(t, "", [], self.lo, self.hi, fb=0 if t.is_float else 0, amag=max(abs(self.lo), abs(self.hi)))


# --------------------------------------------------------------------------
# Schedules


class RScheduler(gen.Scheduler):
    def __init__(self, rng: random.Random, p: Pipeline, avoid: set[str], uloops: dict[int, list[list[Loop]]]) -> None:
        super().__init__(rng, p, avoid)
        self.uloops = uloops

    def fresh_rvar(self, base: str) -> str:
        self.counter += 1
        name = f"{base}_{self.counter}"
        self.p.sched_rvars.append(name)
        return name

    def update_tail(self, fi: int, lp: Loop, factor: int) -> str | None:
        if lp.rvar:
            return self.rng.choice(["TailStrategy::GuardWithIf", "TailStrategy::Auto"])
        opts = ["TailStrategy::GuardWithIf"]
        is_out = fi == len(self.p.funcs) - 1
        if not is_out or (lp.extent is not None and lp.extent % factor == 0 and not lp.anon):
            opts += ["TailStrategy::RoundUp", "TailStrategy::Auto"]
        return self.rng.choice(opts)

    def schedule_update(self, fi: int, ui: int, loops: list[Loop]) -> None:
        r = self.rng
        name = f"{self.p.funcs[fi].name}.update({ui})"
        fname = self.p.funcs[fi].name
        prod = 1
        for _ in range(r.choice([0, 1, 1, 2, 2, 3, 4])):
            op = r.choice(["split", "split", "vectorize", "unroll", "parallel", "reorder", "fuse", "tile"])
            named = [lp for lp in loops if not lp.anon]
            serial = [lp for lp in named if lp.kind == "serial"]
            pure_serial = [lp for lp in serial if not lp.rvar]
            if op == "split" and serial:
                lp = r.choice(serial)
                fac = r.choice([2, 3, 4, 5, 8])
                if prod * fac > 32:
                    continue
                prod *= fac
                tail = self.update_tail(fi, lp, fac)
                if lp.rvar:
                    outer, inner = self.fresh_rvar(f"{fname}_ro"), self.fresh_rvar(f"{fname}_ri")
                else:
                    outer = lp.name if r.random() < 0.25 and not lp.rvar else self.fresh(f"{fname}_uo")
                    inner = self.fresh(f"{fname}_ui")
                i = loops.index(lp)
                oext = None if lp.extent is None else -(-lp.extent // fac)
                loops[i : i + 1] = [
                    Loop(inner, fac, const=True, rvar=lp.rvar),
                    Loop(outer, oext, rvar=lp.rvar),
                ]
                self.emit(f"{name}.split({lp.name}, {outer}, {inner}, {fac}, {tail});")
            elif op == "vectorize" and pure_serial:
                lp = r.choice(pure_serial)
                if any(x.kind == "vectorized" for x in loops):
                    continue
                if lp.const and 2 <= (lp.extent or 0) <= 16 and r.random() < 0.6:
                    lp.kind = "vectorized"
                    self.emit(f"{name}.vectorize({lp.name});")
                    continue
                fac = r.choice([2, 4, 8])
                tail = self.update_tail(fi, lp, fac)
                i = loops.index(lp)
                oext = None if lp.extent is None else -(-lp.extent // fac)
                loops[i : i + 1] = [Loop(lp.name + "_vec", fac, "vectorized", anon=True), Loop(lp.name, oext)]
                self.emit(f"{name}.vectorize({lp.name}, {fac}, {tail});")
            elif op == "unroll" and serial:
                lp = r.choice(serial)
                if lp.const and 2 <= (lp.extent or 0) <= 16 and r.random() < 0.6:
                    lp.kind = "unrolled"
                    self.emit(f"{name}.unroll({lp.name});")
                    continue
                fac = r.choice([2, 3])
                tail = self.update_tail(fi, lp, fac)
                i = loops.index(lp)
                oext = None if lp.extent is None else -(-lp.extent // fac)
                loops[i : i + 1] = [
                    Loop(lp.name + "_unroll", fac, "unrolled", anon=True, rvar=lp.rvar),
                    Loop(lp.name, oext, rvar=lp.rvar),
                ]
                self.emit(f"{name}.unroll({lp.name}, {fac}, {tail});")
            elif op == "parallel" and pure_serial:
                lp = r.choice(pure_serial[len(pure_serial) // 2 :])
                lp.kind = "parallel"
                self.emit(f"{name}.parallel({lp.name});")
            elif op == "reorder" and len(named) >= 2:
                # A permutation of the named loops that keeps the RVars in their order.
                pos = [i for i, lp in enumerate(loops) if not lp.anon]
                rv_in_order = [lp for lp in named if lp.rvar]
                slots = list(range(len(named)))
                r.shuffle(slots)
                perm: list[Loop | None] = [None] * len(named)
                rv_slots = sorted(slots[: len(rv_in_order)])
                for s, lp in zip(rv_slots, rv_in_order, strict=True):
                    perm[s] = lp
                rest = [lp for lp in named if not lp.rvar]
                r.shuffle(rest)
                it = iter(rest)
                perm = [p if p is not None else next(it) for p in perm]
                for i, lp in zip(pos, perm, strict=True):
                    assert lp is not None
                    loops[i] = lp
                self.emit(f"{name}.reorder({', '.join(lp.name for lp in perm if lp is not None)});")
            elif op == "fuse":
                pairs = [
                    i
                    for i in range(len(loops) - 1)
                    if loops[i].kind == loops[i + 1].kind == "serial"
                    and not loops[i].anon
                    and not loops[i + 1].anon
                    and loops[i].rvar == loops[i + 1].rvar
                ]
                if not pairs:
                    continue
                i = r.choice(pairs)
                a, b = loops[i], loops[i + 1]
                fused = self.fresh_rvar(f"{fname}_rf") if a.rvar else self.fresh(f"{fname}_uf")
                ext = None if a.extent is None or b.extent is None else a.extent * b.extent
                loops[i : i + 2] = [Loop(fused, ext, const=a.const and b.const, rvar=a.rvar)]
                self.emit(f"{name}.fuse({a.name}, {b.name}, {fused});")
            elif op == "tile":
                pairs = [
                    i
                    for i in range(len(loops) - 1)
                    if loops[i].kind == loops[i + 1].kind == "serial"
                    and not loops[i].anon
                    and not loops[i + 1].anon
                    and not loops[i].rvar
                    and not loops[i + 1].rvar
                ]
                # Not of RVars: a tile reorders the inner part of the outer RVar inside the outer part of
                # the inner one, which upstream refuses (it may change the result).
                if not pairs or prod * 4 > 32:
                    continue
                i = r.choice(pairs)
                lx, ly = loops[i], loops[i + 1]
                fx, fy = r.choice([2, 3, 4]), r.choice([2, 4])
                prod *= fx * fy
                tails = [self.update_tail(fi, lx, fx), self.update_tail(fi, ly, fy)]
                tail = "TailStrategy::GuardWithIf" if "TailStrategy::GuardWithIf" in tails else tails[0]
                mkname = self.fresh_rvar if lx.rvar else self.fresh
                xo, yo, xi, yi = (mkname(f"{fname}_t{s}") for s in ("xo", "yo", "xi", "yi"))
                ex = None if lx.extent is None else -(-lx.extent // fx)
                ey = None if ly.extent is None else -(-ly.extent // fy)
                loops[i : i + 2] = [
                    Loop(xi, fx, const=True, rvar=lx.rvar),
                    Loop(yi, fy, const=True, rvar=lx.rvar),
                    Loop(xo, ex, rvar=lx.rvar),
                    Loop(yo, ey, rvar=lx.rvar),
                ]
                self.emit(f"{name}.tile({lx.name}, {ly.name}, {xo}, {yo}, {xi}, {yi}, {fx}, {fy}, {tail});")

    def schedule_all(self, fi: int) -> None:
        self.schedule_func(fi)
        for ui, loops in enumerate(self.uloops.get(fi, [])):
            if self.rng.random() < 0.65:
                self.schedule_update(
                    fi, ui, [Loop(lp.name, lp.extent, lp.kind, lp.anon, lp.const, lp.rvar) for lp in loops]
                )

    def run(self) -> None:
        p = self.p
        n = len(p.funcs)
        inline: set[int] = set()
        self.schedule_all(n - 1)
        self.path[n - 1] = []
        for fi in range(n - 2, -1, -1):
            f = p.funcs[fi]
            r = self.rng.random()
            cons = self.effective_consumers(fi, inline)
            if r < 0.2:
                inline.add(fi)
                continue
            self.schedule_all(fi)
            cons_have_updates = any(p.funcs[c].updates for c in cons)
            if r < 0.5 or len(cons) != 1 or cons_have_updates:
                self.emit(f"{f.name}.compute_root();")
                self.path[fi] = []
                continue
            (c,) = cons
            cname = p.funcs[c].name
            levels = []
            for lp in reversed(self.loops[c]):
                if lp.kind == "vectorized":
                    break
                if not lp.anon:
                    levels.append(lp)
            if not levels:
                self.emit(f"{f.name}.compute_root();")
                self.path[fi] = []
                continue
            ci = self.rng.randrange(len(levels))
            compute_path = self.path[c] + [(c, lp.name) for lp in levels[: ci + 1]]
            self.path[fi] = compute_path
            self.emit(f"{f.name}.compute_at({cname}, {levels[ci].name});")
            s = self.rng.random()
            if s < 0.6:
                continue
            if s < 0.85 and ci > 0:
                si = self.rng.randrange(ci)
                store_path = self.path[c] + [(c, lp.name) for lp in levels[: si + 1]]
                stmt = f"{f.name}.store_at({cname}, {levels[si].name});"
            else:
                store_path = []
                stmt = f"{f.name}.store_root();"
            if not any(self.is_parallel(fc, ln) for fc, ln in compute_path[len(store_path) :]):
                self.emit(stmt)
        self.inline = inline


# --------------------------------------------------------------------------
# Pipelines


def generate_pipeline(seed: int, k: int, avoid: set[str] | None = None) -> Pipeline:
    avoid = avoid or set()
    rng = random.Random(f"r{seed}:{k}")
    dims = 1 if rng.random() < 0.45 else 2
    if dims == 1:
        w, h = rng.randint(1, MAX_W1), 1
    else:
        w, h = rng.randint(1, MAX_W2), rng.randint(1, MAX_H2)
    n = rng.choice([1, 2, 2, 2, 3, 3, 4])
    funcs = []
    for i in range(n):
        fd = dims if i == n - 1 or dims == 1 else (2 if rng.random() < 0.8 else 1)
        t = rng.choice(RED_TYPES) if rng.random() < 0.85 else rng.choice([T["i32"], T["u8"], T["f32"]])
        funcs.append(FuncInfo(i, f"f{i}", t, fd))
    for i in range(1, n):
        prods = {i - 1}
        if i >= 2 and rng.random() < 0.3:
            prods.add(rng.randrange(0, i - 1))
        funcs[i].producers = sorted(prods)
        for pi in prods:
            funcs[pi].consumers.append(i)
    with_updates = [rng.random() < 0.5 for _ in range(n)]
    if not any(with_updates):
        with_updates[rng.randrange(n)] = True
    for i in range(n - 1, -1, -1):
        f = funcs[i]
        f.exact = any(not funcs[c].t.is_float or funcs[c].exact for c in f.consumers) or (
            with_updates[i] and f.t.is_float
        )
    p = Pipeline(seed, k, dims, w, h, funcs, family="r")
    rdoms = RDoms(rng, p)
    uloops: dict[int, list[list[Loop]]] = {}
    for i, f in enumerate(funcs):
        g = RGen(
            rng,
            p,
            f,
            avoid,
            rdoms,
            ["x", "y"][: f.dims],
            [(v, gen.VAR_LO, gen.VAR_HI) for v in ("x", "y")[: f.dims]],
            ired=rng.random() < 0.3,
        )
        g.budget = rng.randint(2, 8)
        e = g.func_expr()
        if with_updates[i] and f.t.is_float:
            x = g.exactify(e, FLOAT_TERM)
            assert x is not None
            e = x
        if with_updates[i] and f.t.ub_overflow and max(abs(e.lo), abs(e.hi)) > bound_for(f.t) / 4:
            e = g.narrow(e, -bound_for(f.t) // 4, bound_for(f.t) // 4)
        f.expr = e
        if with_updates[i]:
            u = Updater(rng, p, f, avoid, rdoms)
            u.run(rng.choice([1, 1, 1, 2, 2, 3]) if n < 3 else rng.choice([1, 1, 1, 2]))
            uloops[i] = u.loops
    if rng.random() < 0.3:
        p.unsched = [f"{f.name}.compute_root();" for f in funcs[:-1]]
    s = RScheduler(rng, p, avoid, uloops)
    s.run()
    # Reductions computed inline (inline reductions, Funcs with updates left inline) inside a
    # vectorized loop.
    inner_red = any(
        "sum(" in d or "product(" in d or "maximum(" in d or "minimum(" in d or "arg" in d for d in gen.definitions(p)
    )
    inner_red = inner_red or any(funcs[i].updates for i in s.inline)
    if inner_red and any(".vectorize(" in st for st in p.sched):
        if "reduction_in_vector_loop" in avoid:
            p.sched = [st for st in p.sched if ".vectorize(" not in st]
        else:
            p.tags.add("reduction_in_vector_loop")
    gen_extras.add_boundary_conditions(p, avoid)
    return p


def main() -> int:
    import sys

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    for k in range(count):
        print(gen.render_pipeline(generate_pipeline(seed, k)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
