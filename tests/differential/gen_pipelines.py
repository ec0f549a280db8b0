#!/usr/bin/env python3
"""Random Halide pipelines as C++ programs, for differential testing.

Each pipeline is a chain of 2-5 Funcs (1-D or 2-D, sometimes with two consumers
of one producer) over input images of every type, with a random schedule. The
program this module writes realizes every pipeline twice -- unscheduled
(everything inline, or every Func compute_root) and scheduled -- and prints
the values, so the same source built against our Halide.h and against
upstream's can be compared (run_differential.py does that).

Pipeline k of seed s is generated from its own RNG, seeded with "s:k", so a
single pipeline can be regenerated (and reduced) alone.

The generator never writes a program whose result the Halide language leaves
unspecified (upstream is the oracle, so it must be an oracle for every value),
nor one that trips a known upstream bug:

* Signed 32- and 64-bit overflow is undefined in Halide (8- and 16-bit signed
  arithmetic wraps, unsigned arithmetic wraps). Every expression carries an
  interval of its possible values; an op on Int(32)/Int(64) whose result
  interval does not fit the type first narrows its operands (modulo, mask,
  shift, a cast through a narrower type, or clamp). This includes negation,
  multiplication, left shifts (the simplifier treats x << c as x * 2^c) and
  min / -1 in division and modulo (upstream defines it only for the wrapping
  8- and 16-bit types). Both simplifiers also move terms across +, -, min,
  max and comparisons assuming no overflow (upstream turned
  255 - y * 2^31-1 >= v into something that overflows for v = 2^63 - 1, and
  folds c1 == c2 of Int(64) constants as c1 - c2 == 0), so Int(32)/Int(64)
  nodes also bound the sum of the magnitudes of their terms (amag), and
  comparisons keep the sum for both sides within range.
* Shift amounts are kept strictly below the bit width in magnitude: upstream
  lowers shifts to LLVM's shl/lshr/ashr, which give poison for amounts >= the
  width (halide/Halide#2876). Negative amounts of a signed shift are defined
  upstream (a shift the other way, halide/Halide#4154) and are generated
  (tag neg_shift).
* A right shift by a constant keeps its operand's term magnitude (amag):
  upstream 21 rewrites ((x >> 1) + 2) >> 3 as (x + 4) >> 4, which overflows
  for x = 2^63 - 1 (it returns -2^59 where the answer is 2^59).
* cast<bool>(v) of a non-bool v is never written (v != 0 instead): upstream
  truncates integers to their lowest bit in some places and compares with zero
  in others (halide/Halide#6820).
* Upstream compiles floating point with LLVM's fast-math flags (no NaNs, no
  infinities, no signed zeros, reassociation, contraction into FMA,
  approximate functions), so NaN and infinity are never produced: float
  intervals stay far from overflow (|v| <= 1e15 for Float(32), 1e30 for
  Float(64)), divisors are kept away from zero, sqrt/log/pow/asin arguments
  inside their domains. -0.0 and +0.0 compare equal.
* Floats carry an absolute error bound (err), and "exact" floats (Node.exact)
  are small dyadic values computed without rounding (err == 0, a multiple of
  2^-fb whose sum of term magnitudes is well inside the mantissa), so that no
  reassociation, FMA contraction or algebraic rewrite can change them:
  inputs of fill 0, dyadic constants, casts of small integers, min/max/abs/
  select/floor/ceil/round/trunc of exact values, + - * and division by powers
  of two of exact values. Anything else (division, math functions, large
  sums, arbitrary floats) is inexact and its err bound grows by a few ulps
  per op (upstream's exp/log/pow are approximations). Only exact floats reach
  a discontinuity: float->int casts, saturating casts, reinterpret,
  floor/ceil/round/trunc/fract, float %, comparisons (upstream rewrites
  255 > -fract(v) algebraically, which rounds for large v). Float outputs are
  compared with a tolerance of 8 * err (in the metadata) plus a few ulps.
* Float -> int casts only see values whose truncation fits the integer type
  (unsigned: >= 0); reinterpret of a float only sees intervals that exclude
  zero (no signed-zero ambiguity); reinterpret to a float only builds values
  in [1, 2) (an exponent pattern is or-ed in), never NaN or infinity.
  Upstream folds cast<uint32_t>(cast<int32_t>(f)) (and reinterpret, and
  every width: reinterpret<uint8_t>(cast<int8_t>(-39.0f)) gives 0, not 217)
  into one float -> unsigned conversion, undefined for negative f: such
  values are made non-negative first. The same holds when the conversion is
  the value of a Func the cast calls (inlined, upstream folds across it:
  cast<int32_t>(f3(y)) with f3(x) = cast<uint64_t>(f64 v) saturates), and
  under the reinterpret that builds a float's bits (reinterpret<uint64_t>(
  cast<int64_t>(ceil(-257.0))) gives 0 or garbage).
* Float % by a constant is upstream's a - c * floor(a / c), reassociated by
  fast-math with what surrounds it: its result carries a's term magnitude
  (amag), so the error bound of a later sum covers the rounding.
* Int(32)/Int(64) % by a constant of at least a quarter of the type's range
  is never written: upstream gets (cast<int32_t>(i16) + x) % 2147483647
  wrong (negative for small positive sums).
* lerp is generated for values of at most 32 bits (upstream supports neither
  Float(64) nor 64-bit integers) with float weights in [0, 1] for integer
  values; an Int(32) lerp value is never a direct cast of a float (upstream
  computes that wrongly for negative values).
* Shifted reads f(x - 1, y + 2) and schedules that round up or shift tails
  (upstream also shifts a region smaller than the factor leftwards) compute
  Funcs beyond the output; the inputs cover every coordinate such a pipeline
  can touch (the product of the split factors of one Func is at most 32), so
  no correct bounds inference reads outside them.
* A Func is never stored outside a parallel loop and computed inside it
  (upstream rejects that as a race), and never computed inside a vectorized
  loop.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import struct
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

import gen_extras

# --------------------------------------------------------------------------
# Types


@dataclass(frozen=True)
class HType:
    name: str
    kind: str  # "uint", "int", "float", "bool"
    bits: int

    @property
    def cpp(self) -> str:
        if self.kind == "bool":
            return "bool"
        if self.kind == "float":
            return "float" if self.bits == 32 else "double"
        return f"{'u' if self.kind == 'uint' else ''}int{self.bits}_t"

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_intlike(self) -> bool:
        return self.kind in ("int", "uint")

    @property
    def is_bool(self) -> bool:
        return self.kind == "bool"

    @property
    def is_signed(self) -> bool:
        return self.kind == "int"

    @property
    def ub_overflow(self) -> bool:
        """Signed 32/64-bit: overflow is undefined in Halide."""
        return self.kind == "int" and self.bits >= 32

    @property
    def lo(self) -> float:
        if self.kind == "int":
            return -(1 << (self.bits - 1))
        if self.kind == "float":
            return -FLOAT_LIMIT[self.bits]
        return 0

    @property
    def hi(self) -> float:
        if self.kind == "int":
            return (1 << (self.bits - 1)) - 1
        if self.kind == "uint":
            return (1 << self.bits) - 1
        if self.kind == "float":
            return FLOAT_LIMIT[self.bits]
        return 1

    def fits(self, lo: float, hi: float) -> bool:
        return self.lo <= lo and hi <= self.hi


FLOAT_LIMIT = {32: 1e15, 64: 1e30}
MANT = {32: 24, 64: 53}
EPS = {32: 2.0**-23, 64: 2.0**-52}

T = {
    n: HType(n, k, b)
    for n, k, b in [
        ("u8", "uint", 8),
        ("i8", "int", 8),
        ("u16", "uint", 16),
        ("i16", "int", 16),
        ("u32", "uint", 32),
        ("i32", "int", 32),
        ("u64", "uint", 64),
        ("i64", "int", 64),
        ("f32", "float", 32),
        ("f64", "float", 64),
        ("bool", "bool", 1),
    ]
}
INT_TYPES = [T[n] for n in ("u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64")]
FLOAT_TYPES = [T["f32"], T["f64"]]
VALUE_TYPES = INT_TYPES + FLOAT_TYPES
ALL_TYPES = VALUE_TYPES + [T["bool"]]


def int_type(signed: bool, bits: int) -> HType:
    return T[f"{'i' if signed else 'u'}{bits}"]


# Input images: coordinates [IN_MIN, IN_MIN + IN_SIZE) in both dimensions are
# filled (see the header of the generated program). Vars x and y range over
# [VAR_LO, VAR_HI] wherever a Func can be computed: a Func's computed region
# can grow by less than the product of its split factors (<= 32, ShiftInwards
# and RoundUp tails; upstream shifts a region smaller than the factor
# leftwards) plus 2 (stencil) on each side, over at most 5 Funcs, around an
# output of at most 64 x 16.
IN_MIN = -192
IN_SIZE = 448
VAR_LO, VAR_HI = -176, 240
MAX_SPLIT_PRODUCT = 32

# Value ranges of the two inputs of each type (fill id 0 and 1).
INPUT_FLOAT_RANGE = {0: (-128.0, 128.0, 3), 1: (-1000.0, 1000.0, None)}


def input_range(t: HType, ident: int) -> tuple[float, float, int | None]:
    if t.is_float:
        return INPUT_FLOAT_RANGE[ident]
    if ident == 1:
        return (-16 if t.is_signed else 0, 16, 0)
    return (t.lo, t.hi, 0)


# Features the generator can leave out (--avoid), e.g. to look past defects
# that are already known.
AVOIDABLE = {
    "neg_shift": "shift amounts that can be negative (upstream shifts the other way)",
    "lerp_weight_width": "integer lerp weights whose width differs from the values'",
    "widen_signed_unsigned": "casts of possibly-negative signed values to a wider unsigned type",
    "lerp_float_weight_int": "float weights for lerp between integer values",
    "si_intermediate": "TailStrategy::ShiftInwards on Funcs other than the output",
    "repeat_split_var": "vectorize/unroll/parallel(v, n) twice on the same loop v",
    "nested_vectorize": "two vectorized loops in one Func",
    "blend": "TailStrategy::ShiftInwardsAndBlend on outputs",
    "likely": "likely()/likely_if_innermost() around clamped coordinates",
    "compute_with": "a copy of a compute_root Func computed with it (compute_with)",
    "predicate_tail": "TailStrategy::PredicateLoads/PredicateStores",
    **gen_extras.AVOIDABLE,
}


# --------------------------------------------------------------------------
# Expression nodes


@dataclass
class Node:
    """A C++ expression with the interval of its values.

    fmt holds {0}, {1}, ... for the kids (a leaf's fmt is its text). For floats,
    err bounds the distance to the exactly rounded value of the tree (0: the
    same bits on every correct compiler), fb says the value is a multiple of
    2^-fb (None: any float), amag bounds the sum of |terms| of a chain of
    additions and multiplications (what reassociation can round, or, for
    Int(32)/Int(64), overflow: both Halides' simplifiers move terms across
    +, -, min, max and comparisons assuming no signed overflow, e.g.
    255 - y * c >= v becomes something like 255 - v >= y * c).
    """

    t: HType
    fmt: str
    kids: list[Node]
    lo: float
    hi: float
    err: float = 0.0
    fb: int | None = 0
    amag: float = 0.0
    size: int = 1
    # A call of a Func whose value is a float -> int conversion: inlined, it is one for upstream's
    # cast folding too (see unfold_float_conversion).
    float_conversion: bool = False

    def render(self) -> str:
        if not self.kids:
            return self.fmt
        return self.fmt.format(*[k.render() for k in self.kids])

    @property
    def exact(self) -> bool:
        """Every correct compiler computes the same value, even after rearranging the arithmetic: ints
        always; floats when no op rounded (err == 0) and the value is a small dyadic (a multiple of 2^-fb
        with the sum of magnitudes well inside the mantissa). Upstream's simplifier rewrites float
        comparisons algebraically (255 > -fract(v) becomes something like v + 255 > trunc(v)), which
        rounds for large v, so floats that reach a discontinuity must be exact in this sense."""
        if not self.t.is_float:
            return True
        if self.err != 0.0 or self.fb is None:
            return False
        return self.amag * 2.0**self.fb < 2.0 ** (MANT[self.t.bits] - 2)

    @property
    def mag(self) -> float:
        return max(abs(self.lo), abs(self.hi))


def is_float_conversion(n: Node) -> bool:
    """Whether n is an integer made from a float by a cast, saturating cast or reinterpret, directly or
    as the value of a Func it calls."""
    return n.t.is_intlike and (n.float_conversion or bool(n.kids and n.kids[0].t.is_float))


def mk(t: HType, fmt: str, kids: list[Node], lo: float, hi: float, **kw: float | int | None) -> Node:
    n = Node(t, fmt, kids, lo, hi, **kw)  # type: ignore[arg-type]
    n.size = 1 + sum(k.size for k in kids)
    if n.amag < n.mag:
        n.amag = n.mag
    if t.is_float:
        # Casts of 64-bit integers reach 2^64; everything else stays within FLOAT_LIMIT.
        lim = max(FLOAT_LIMIT[t.bits] * 4, 2.0**65)
        assert lo <= hi and abs(lo) <= lim and abs(hi) <= lim, (fmt, lo, hi)
    else:
        assert t.lo <= lo <= hi <= t.hi, (t, fmt, lo, hi)
    return n


def cpp_float(v: float, bits: int) -> str:
    if bits == 32:
        v = struct.unpack("f", struct.pack("f", v))[0]
        s = f"{v:.9g}"
    else:
        s = repr(float(v))
    if "e" not in s and "." not in s and "n" not in s:
        s += ".0"
    return s + ("f" if bits == 32 else "")


def literal(t: HType, v: float) -> str:
    """An Expr of type t with value v, written the same way for both Halides."""
    if t.is_bool:
        return f"cast<bool>(Expr({int(bool(v))}))"
    if t.is_float:
        return f"Expr({cpp_float(v, t.bits)})"
    v = int(v)
    if t.kind == "int":
        if v == t.lo:
            body = f"({v + 1}{'LL' if t.bits == 64 else ''} - 1)"
        elif v < 0:
            body = f"({v}{'LL' if t.bits == 64 else ''})"
        else:
            body = f"{v}{'LL' if t.bits == 64 else ''}"
    else:
        body = f"{v}{'ULL' if t.bits == 64 else ('U' if t.bits == 32 else '')}"
    return f"Expr(({t.cpp}){body})"


def const(t: HType, v: float) -> Node:
    if t.is_float:
        fb: int | None = 0
        f = float(v)
        if t.bits == 32:
            f = struct.unpack("f", struct.pack("f", f))[0]
        k = 0
        while f * 2**k != math.floor(f * 2**k) and k < 40:
            k += 1
        fb = k if k < 40 else None
        return mk(t, literal(t, f), [], f, f, fb=fb)
    return mk(t, literal(t, v), [], int(v), int(v))


def float_bits_as_int(v: float, bits: int, signed: bool) -> int:
    if bits == 32:
        u = struct.unpack("<I", struct.pack("<f", v))[0]
    else:
        u = struct.unpack("<Q", struct.pack("<d", v))[0]
    if signed and u >= 1 << (bits - 1):
        u -= 1 << bits
    return u


def euclid_div(a: int, b: int) -> int:
    if b == 0:
        return 0
    r = a % abs(b)
    return (a - r) // b


# --------------------------------------------------------------------------
# Pipelines


@dataclass
class FuncInfo:
    idx: int
    name: str
    t: HType
    dims: int
    producers: list[int] = field(default_factory=list)
    consumers: list[int] = field(default_factory=list)
    exact: bool = False
    expr: Node | None = None
    call_args: dict[int, str] = field(default_factory=dict)  # producer idx -> argument text
    # Update definitions (gen_reductions.py), in order, and the interval of the values after them
    # (what a call sees; None: the pure definition's).
    updates: list[Update] = field(default_factory=list)
    value: Node | None = None


@dataclass
class Update:
    """An update definition: f(lhs) op expr, e.g. lhs "r0.x" with op "+=" (gen_reductions.py)."""

    lhs: str
    op: str  # "=", "+=", "-=", "*="
    expr: Node


@dataclass
class Loop:
    name: str
    extent: int | None
    kind: str = "serial"  # serial, vectorized, unrolled, parallel
    anon: bool = False  # made by vectorize(v, n) & co: no Var names it
    const: bool = False  # a compile-time constant extent (the inner loop of a split)
    rvar: bool = False  # a loop over an RVar (of an update definition)
    pred: bool = False  # the inner loop of a PredicateLoads/PredicateStores split: never split again
    from_inner: bool = False  # stems from a split's inner loop: never split with PredicateLoads
    orig: bool = False  # a Func's own dimension, not yet split or fused


@dataclass
class Pipeline:
    seed: int
    k: int
    dims: int
    width: int
    height: int
    funcs: list[FuncInfo]
    sched_vars: list[str] = field(default_factory=list)
    sched: list[str] = field(default_factory=list)
    unsched: list[str] = field(default_factory=list)
    tags: set[str] = field(default_factory=set)
    inputs: set[tuple[str, int]] = field(default_factory=set)
    # The family ("" for these pipelines, "r" for gen_reductions.py's), RDom declarations and where()
    # calls written before the definitions, and RVars the schedule names.
    family: str = ""
    decls: list[str] = field(default_factory=list)
    sched_rvars: list[str] = field(default_factory=list)
    # compute_with: (twin, of, consumer): Func `twin` has the definition of
    # `of` and takes the place of `of` in consumer's first call of it.
    twins: list[tuple[str, str, str]] = field(default_factory=list)
    # Inputs read through a boundary condition: (input, the Func wrapping it) (gen_extras.py).
    renames: list[tuple[str, str]] = field(default_factory=list)

    @property
    def out(self) -> FuncInfo:
        return self.funcs[-1]

    @property
    def ident(self) -> str:
        return f"{self.family}s{self.seed}_k{self.k}"

    @property
    def tolerance(self) -> float:
        e = self.out.value or self.out.expr
        assert e is not None
        return 8.0 * e.err if self.out.t.is_float else 0.0


class Gen:
    """Generates expressions of a requested type for one Func."""

    def __init__(self, rng: random.Random, p: Pipeline, f: FuncInfo, avoid: set[str]) -> None:
        self.rng = rng
        self.p = p
        self.f = f
        self.avoid = avoid
        # How many select/mux values enclose the expression being generated:
        # upstream 21 miscompiles a likely() inside one (it takes the wrong
        # branch of the select), so likely clamps are made only outside.
        self.in_selection = 0
        self.pending = list(f.producers)
        self.budget = rng.randint(6, 30)

    # ---- helpers

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def tag(self, t: str) -> None:
        self.p.tags.add(t)

    def small_const(self, t: HType) -> int:
        r = self.rng
        if t.is_signed:
            return r.choice([-7, -3, -2, -1, 0, 1, 2, 3, 5, 17, -100, 100, 127, -128])
        return r.choice([0, 1, 2, 3, 5, 7, 17, 100, 200, 255])

    def rand_const(self, t: HType, exact: bool = False) -> Node:
        r = self.rng
        if t.is_bool:
            return const(t, r.randint(0, 1))
        if t.is_float:
            c = r.choice(
                [
                    r.randint(-64, 64) / 2 ** r.randint(0, 3),
                    r.choice([0.0, 1.0, -1.0, 0.5, 2.0, 100.0, -0.25, 0.1, 3.14159, 1e6]),
                ]
            )
            if exact and not const(t, c).exact:
                c = r.randint(-64, 64) / 2 ** r.randint(0, 3)
            return const(t, c)
        choice = r.random()
        if choice < 0.5:
            v = self.small_const(t)
        elif choice < 0.8:
            v = r.randint(int(t.lo), int(t.hi))
        else:
            v = r.choice([t.lo, t.hi, t.lo + 1, t.hi - 1, 0, 1, -1 if t.is_signed else 2])
        v = max(int(t.lo), min(int(t.hi), int(v)))
        return const(t, v)

    # ---- narrowing

    def narrow(self, n: Node, lo: float, hi: float) -> Node:
        """n with its interval inside [lo, hi] (which must contain some value of n's type)."""
        t = n.t
        lo = max(lo, t.lo)
        hi = min(hi, t.hi)
        if lo <= n.lo and n.hi <= hi and (n.amag <= max(abs(lo), abs(hi)) or not t.ub_overflow):
            return n
        if t.is_float:
            return self.clamp_const(n, lo, hi)
        lo_i, hi_i = math.ceil(lo), math.floor(hi)
        methods: list[Callable[[], Node | None]] = [lambda: self.clamp_const(n, lo_i, hi_i)]
        if lo_i <= 0 and hi_i >= 1 and hi_i + 1 <= t.hi:
            methods.append(lambda: self.mod_const_node(n, hi_i + 1))
        if lo_i <= 0 and hi_i >= 1:
            k = (hi_i + 1).bit_length() - 1
            methods.append(lambda: self.bitand_const(n, (1 << k) - 1))
        methods.append(lambda: self.shift_narrow(n, lo_i, hi_i))
        methods.append(lambda: self.cast_narrow(n, lo_i, hi_i))
        self.rng.shuffle(methods)
        for m in methods:
            r = m()
            if r is not None and lo_i <= r.lo and r.hi <= hi_i:
                if t.ub_overflow and r.amag > max(abs(lo_i), abs(hi_i)):
                    continue  # a clamp does not stop the simplifier moving terms
                return r
        return self.shift_narrow(n, lo_i, hi_i) or self.clamp_const(n, lo_i, hi_i)

    def clamp_const(self, n: Node, lo: float, hi: float) -> Node:
        t = n.t
        if t.is_float:
            # Dyadic bounds keep exactness.
            lo = (
                -(2.0 ** math.floor(math.log2(-lo)))
                if lo < 0
                else (0.0 if lo == 0 else 2.0 ** math.ceil(math.log2(lo)))
            )
            hi = (
                2.0 ** math.floor(math.log2(hi))
                if hi > 0
                else (0.0 if hi == 0 else -(2.0 ** math.ceil(math.log2(-hi))))
            )
            if lo > hi:
                lo, hi = hi, lo
        rl, rh = min(max(n.lo, lo), hi), min(max(n.hi, lo), hi)
        form = self.rng.random()
        if form < 0.6:
            fmt = f"clamp({{0}}, {literal(t, lo)}, {literal(t, hi)})"
        elif form < 0.8:
            fmt = f"min(max({{0}}, {literal(t, lo)}), {literal(t, hi)})"
        else:
            fmt = f"max(min({{0}}, {literal(t, hi)}), {literal(t, lo)})"
        amag = max(n.amag, abs(lo), abs(hi)) if t.ub_overflow else 0
        return mk(t, fmt, [n], rl, rh, err=n.err, fb=n.fb, amag=amag)

    def mod_const_node(self, n: Node, m: int) -> Node | None:
        if m <= 0 or m > n.t.hi:
            return None
        if n.lo >= 0 and n.hi < m:
            return n
        if n.t.ub_overflow and m >= 1 << (n.t.bits - 2):
            return None  # upstream's % by a constant near the maximum is wrong (see divmod)
        return mk(n.t, f"({{0}} % {literal(n.t, m)})", [n], 0, m - 1)

    def bitand_const(self, n: Node, mask: int) -> Node | None:
        if mask < 0 or mask > n.t.hi:
            return None
        return mk(n.t, f"({{0}} & {literal(n.t, mask)})", [n], 0, mask if n.lo < 0 else min(mask, n.hi))

    def shift_narrow(self, n: Node, lo: int, hi: int) -> Node | None:
        for k in range(1, n.t.bits):
            rl, rh = n.lo >> k, n.hi >> k
            if lo <= rl and rh <= hi:
                # Keeps n's magnitude for Int(32)/Int(64): upstream's simplifier moves a constant
                # shift outward ((x >> 1) + 2) >> 3 -> (x + 4) >> 4, which overflows for x near the max.
                return mk(n.t, f"({{0}} >> {k})", [n], rl, rh, amag=n.amag if n.t.ub_overflow else 0)
        return None

    def cast_narrow(self, n: Node, lo: int, hi: int) -> Node | None:
        cands = [u for u in INT_TYPES if u.bits < n.t.bits and lo <= u.lo and u.hi <= hi]
        if not cands:
            return None
        u = self.rng.choice(cands)
        inner = (
            mk(u, f"cast<{u.cpp}>({{0}})", [n], n.lo, n.hi)
            if u.fits(n.lo, n.hi)
            else mk(u, f"cast<{u.cpp}>({{0}})", [n], u.lo, u.hi)
        )
        return mk(n.t, f"cast<{n.t.cpp}>({{0}})", [inner], inner.lo, inner.hi)

    def wrap(self, t: HType, lo: float, hi: float) -> tuple[float, float]:
        if t.fits(lo, hi):
            return lo, hi
        assert not t.ub_overflow
        return t.lo, t.hi

    # ---- casts

    def cast_to(self, n: Node, t: HType, fmt: str | None = None) -> Node | None:
        """cast<t>(n), narrowing n first where the cast would be unspecified; None if n is
        an inexact float and t is not a float."""
        s = n.t
        if s == t:
            return n
        fmt = fmt or f"cast<{t.cpp}>({{0}})"
        if s.is_float and not t.is_float and not n.exact:
            return None
        if t.is_bool:
            # cast<bool>(v) of a non-bool v: upstream truncates integers to their lowest bit in some
            # places and compares with zero in others (halide/Halide#6820), so write v != 0 instead.
            lo = 0 if n.lo <= 0 <= n.hi else 1
            hi = 0 if n.lo == 0 and n.hi == 0 else 1
            return mk(t, f"({{0}} != {literal(s, 0)})", [n], lo, hi)
        if s.is_bool:
            return mk(t, fmt, [n], 0, 1, fb=0)
        if t.is_float:
            if s.is_float:
                if t.bits > s.bits:
                    return mk(t, fmt, [n], n.lo, n.hi, err=n.err, fb=n.fb, amag=n.amag)
                m = n.mag
                if m > FLOAT_LIMIT[32]:
                    n = self.clamp_const(n, -FLOAT_LIMIT[32] / 2, FLOAT_LIMIT[32] / 2)
                fits = n.fb is not None and n.mag * 2.0**n.fb < 2.0 ** MANT[32]
                if n.exact:
                    return mk(t, fmt, [n], n.lo, n.hi, fb=n.fb if fits else None)
                return mk(t, fmt, [n], n.lo, n.hi, err=n.err + 2 * EPS[32] * n.mag, fb=None)
            fits = max(abs(n.lo), abs(n.hi)) < 2 ** MANT[t.bits]
            return mk(t, fmt, [n], float(n.lo), float(n.hi), fb=0 if fits else None)
        if s.is_float:
            # float -> int: the truncated value must fit (unsigned: be >= 0).
            if t.bits >= 32:
                lim = 2.0 ** (t.bits - 2) if t.bits == 64 else 2.0**30
                lo, hi = (-lim if t.is_signed else 0.0), lim
            else:
                lo, hi = float(t.lo), float(t.hi)
            if not (n.lo > lo - 1 and n.hi < hi + 1):
                n = self.clamp_const(n, lo, hi)
            return mk(t, fmt, [n], int(n.lo), int(n.hi))
        # int -> int: wraps.
        n = self.unfold_float_conversion(n, t)
        if t.kind == "uint" and s.kind == "int" and t.bits > s.bits and n.lo < 0:
            if "widen_signed_unsigned" in self.avoid:
                n = self.narrow(n, 0, s.hi)
            else:
                self.tag("widen_signed_unsigned")
        lo, hi = (n.lo, n.hi) if t.fits(n.lo, n.hi) else (t.lo, t.hi)
        return mk(t, fmt, [n], lo, hi)

    def unfold_float_conversion(self, n: Node, t: HType) -> Node:
        """Upstream folds a cast of a float -> int conversion into one conversion: cast<uint32_t>(
        cast<int32_t>(f)) (and reinterpret, and 64 bits) becomes a float -> unsigned conversion, which
        gives the maximum for negative f, and cast<int8_t>(cast<int64_t>(f)) gives 0 (cast<int32_t> of
        it INT_MIN) when f does not fit the narrow type: upstream bugs. Keep such values in range first."""
        if not (t.is_intlike and is_float_conversion(n)):
            return n
        if t.kind == "uint" and n.t.kind == "int" and t.bits == n.t.bits and n.lo < 0:
            return self.narrow(n, 0, n.t.hi)
        if n.t.bits == 64 and t.bits < 64 and not t.fits(n.lo, n.hi):
            return self.narrow(n, max(t.lo, n.t.lo), min(t.hi, n.t.hi))
        return n

    def force_cast(self, n: Node, t: HType) -> Node | None:
        r = self.cast_to(n, t)
        return r

    # ---- leaves

    def leaf(self, t: HType, exact: bool) -> Node:
        r = self.rng
        if self.pending and r.random() < 0.7:
            i = r.randrange(len(self.pending))
            n = self.call(self.pending[i], t, exact)
            if n is not None and (n.exact or not exact):
                self.pending.pop(i)
                return n
        choice = r.random()
        n = None
        if choice < 0.2 and self.f.producers:
            n = self.call(r.choice(self.f.producers), t, exact)
        elif choice < 0.55 and not t.is_bool:
            n = self.input_read(t, exact)
        elif choice < 0.55:
            n = self.gen_bool_leaf()
        elif choice < 0.75:
            n = self.var_leaf(t)
        if n is None or (exact and not n.exact):
            n = self.rand_const(t, exact)
        return n

    def gen_bool_leaf(self) -> Node:
        s = self.rng.choice(INT_TYPES + FLOAT_TYPES)
        a = self.input_read(s, True)
        c = self.rand_const(s, True) if self.chance(0.5) else self.var_leaf(s)
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        return mk(T["bool"], f"({{0}} {op} {{1}})", [a, c], 0, 1)

    def input_read(self, t: HType, exact: bool = False) -> Node:
        # Float input 1 holds arbitrary floats (not exact in Node.exact's sense).
        ident = 0 if exact and t.is_float else self.rng.randint(0, 1)
        self.p.inputs.add((t.name, ident))
        lo, hi, fb = input_range(t, ident)
        dx, dy = self.offset(), self.offset()
        off = -IN_MIN
        if self.f.dims == 2:
            text = f"in_{t.name}_{ident}(x + {off + dx}, y + {off + dy})"
        else:
            row = self.rng.randint(0, 7)
            text = f"in_{t.name}_{ident}(x + {off + dx}, Expr({off + row}))"
        return mk(t, text, [], lo, hi, fb=fb)

    def offset(self) -> int:
        return self.rng.choice([0, 0, 0, -1, 1, -2, 2])

    def var_leaf(self, t: HType) -> Node:
        v = "x" if self.f.dims == 1 or self.chance(0.5) else "y"
        n = mk(T["i32"], v, [], VAR_LO, VAR_HI)
        if t == T["i32"]:
            return n
        if self.chance(0.3) and not t.is_bool:
            # (x + c) in the target type directly through an int literal.
            c = self.rng.randint(-3, 3)
            base = self.cast_to(n, t)
            assert base is not None
            if t.kind == "uint" and c < 0:
                c = -c
            if c == 0:
                return base
            lo, hi = base.lo + c, base.hi + c
            lo, hi = self.wrap(t, lo, hi) if not t.is_float else (lo, hi)
            return mk(t, f"({{0}} + {c})", [base], lo, hi, fb=0)
        r = self.cast_to(n, t)
        assert r is not None
        return r

    def call(self, pi: int, t: HType, exact: bool) -> Node | None:
        pf = self.p.funcs[pi]
        e = pf.value or pf.expr
        assert e is not None
        if exact and not e.exact:
            return None
        args = self.call_args(pf)
        n = mk(pf.t, f"{pf.name}({args})", [], e.lo, e.hi, err=e.err, fb=e.fb, amag=e.amag)
        n.float_conversion = is_float_conversion(e)
        if pf.t == t:
            return n
        return self.cast_to(n, t)

    def call_args(self, pf: FuncInfo) -> str:
        dx, dy = self.offset(), self.offset()

        def sh(v: str, d: int) -> str:
            return v if d == 0 else (f"{v} + {d}" if d > 0 else f"{v} - {-d}")

        if self.f.dims == pf.dims == 2:
            return f"{sh('x', dx)}, {sh('y', dy)}"
        if self.f.dims == pf.dims == 1:
            return sh("x", dx)
        if self.f.dims == 2:
            return sh(self.rng.choice(["x", "y"]), dx)
        row = self.rng.randint(-3, 3)
        if self.chance(0.5):
            return f"{sh('x', dx)}, Expr({row})"
        return f"Expr({row}), {sh('x', dx)}"

    # ---- the generator

    def gen(self, t: HType, depth: int, exact: bool = False) -> Node:
        if depth <= 0 or self.budget <= 0 or self.chance(0.12):
            return self.leaf(t, exact)
        self.budget -= 1
        ops = self.ops_for(t)
        names = [o[0] for o in ops]
        weights = [o[1] for o in ops]
        for _ in range(12):
            name = self.rng.choices(names, weights)[0]
            n = getattr(self, "op_" + name)(t, depth - 1, exact)
            if n is not None and not (exact and not n.exact):
                assert n.t == t, (name, n.t, t)
                return n
        return self.leaf(t, exact)

    def ops_for(self, t: HType) -> list[tuple[str, float]]:
        if t.is_bool:
            return [("cmp", 6), ("logic", 3), ("not", 1), ("cast", 1.5), ("select", 1), ("bool_mux", 0.3)]
        common = [
            ("arith", 6),
            ("minmax", 2),
            ("clamp", 1),
            ("select", 2),
            ("mux", 0.7),
            ("cast", 4),
            ("sat_cast", 1.2),
            ("neg", 0.5),
            ("abs", 1),
            ("absd", 1),
        ]
        if t.is_float:
            return common + [
                ("fdiv", 2),
                ("math", 4),
                ("round", 2),
                ("fmod", 0.5),
                ("lerp", 1 if t.bits == 32 else 0),
                ("reinterpret", 0.5),
            ]
        return common + [
            ("div", 2.5),
            ("mod", 2),
            ("bitwise", 2),
            ("bitnot", 0.5),
            ("shift", 2),
            ("lerp", 1 if t.bits <= 32 else 0),
            ("reinterpret", 1),
            ("arith_mixed", 1.5),
        ]

    # ---- arithmetic

    def op_arith(self, t: HType, depth: int, exact: bool) -> Node | None:
        op = self.rng.choice(["+", "-", "*"])
        a = self.gen(t, depth, exact)
        if self.chance(0.2) and not t.is_bool:
            # One operand a C++ int literal (coerced to t); it must fit t.
            c = self.small_const(t) if t.is_intlike else self.rng.randint(-5, 5)
            if t.is_intlike and not t.fits(c, c):
                c = 3
            b = mk(t, str(c), [], c, c, fb=0)
            if self.chance(0.5):
                return self.binop(op, a, b, exact, fmt_override=f"({{0}} {op} {c})")
            return self.binop(op, b, a, exact, fmt_override=f"({c} {op} {{1}})")
        b = self.gen(t, depth, exact)
        return self.binop(op, a, b, exact)

    def op_arith_mixed(self, t: HType, depth: int, exact: bool) -> Node | None:
        """a op b with operands of two types whose match_types is t (ints only)."""
        cands = []
        for s in INT_TYPES:
            for u in INT_TYPES:
                if s == u:
                    continue
                if match_types(s, u) == t:
                    cands.append((s, u))
        if not cands:
            return None
        s, u = self.rng.choice(cands)
        op = self.rng.choice(["+", "-", "*", "min", "max"])
        a = self.gen(s, depth, exact)
        b = self.gen(u, depth, exact)
        return self.binop(op, a, b, exact)

    def implicit(self, n: Node, t: HType) -> Node:
        """The operand as match_types casts it (no text of its own)."""
        if n.t == t:
            return n
        c = self.cast_to(n, t, fmt="{0}")
        assert c is not None
        return c

    def binop(
        self, op: str, a: Node, b: Node, exact: bool, fmt_override: str | None = None, retry: bool = True
    ) -> Node | None:
        t = match_types(a.t, b.t)
        if t is None:
            return None
        if a.t.is_float != b.t.is_float:
            return None
        fmt = fmt_override or (f"({{0}} {op} {{1}})" if op in "+-*" else f"{op}({{0}}, {{1}})")
        # Operands in their own types: implicit conversions (widening or a
        # signed/unsigned switch) may wrap.
        ai, bi = self.implicit(a, t), self.implicit(b, t)
        if op in ("min", "max"):
            f = min if op == "min" else max
            lo, hi = f(ai.lo, bi.lo), f(ai.hi, bi.hi)
            if t.is_float:
                fb = None if ai.fb is None or bi.fb is None else max(ai.fb, bi.fb)
                return mk(t, fmt, [a, b], lo, hi, err=max(ai.err, bi.err), fb=fb)
            return mk(t, fmt, [a, b], lo, hi, amag=max(ai.amag, bi.amag) if t.ub_overflow else 0)
        lo, hi = interval_arith(op, ai, bi)
        if t.is_float:
            lim = FLOAT_LIMIT[t.bits]
            ok_exact = self.float_exact(op, ai, bi)
            if max(abs(lo), abs(hi)) > lim or (exact and not ok_exact):
                if not retry:
                    return None
                bound = 2.0**10 if op == "*" else 2.0**20
                if t.bits == 64:
                    bound = 2.0**24 if op == "*" else 2.0**48
                a = self.exactify(a, bound) if exact else self.narrow(a, -bound, bound)
                b = self.exactify(b, bound) if exact else self.narrow(b, -bound, bound)
                if a is None or b is None:
                    return None
                return self.binop(op, a, b, exact, fmt_override, retry=False)
            if ok_exact:
                fb = max(ai.fb, bi.fb) if op != "*" else ai.fb + bi.fb  # type: ignore[operator]
                amag = ai.amag + bi.amag if op != "*" else ai.amag * bi.amag
                return mk(t, fmt, [a, b], lo, hi, fb=fb, amag=amag)
            eps = EPS[t.bits]
            if op == "*":
                amag = ai.amag * bi.amag
                err = ai.err * bi.amag + bi.err * ai.amag + ai.err * bi.err + 4 * eps * amag
            else:
                amag = ai.amag + bi.amag
                err = ai.err + bi.err + 4 * eps * amag
            return mk(t, fmt, [a, b], lo, hi, err=err, fb=None, amag=amag)
        amag = ai.amag * bi.amag if op == "*" else ai.amag + bi.amag
        if t.ub_overflow and (not t.fits(lo, hi) or amag > t.hi):
            # Signed 32/64-bit overflow is undefined: narrow the operands first (so that no
            # rearrangement of the terms overflows either).
            if not retry:
                return None
            q = t.bits - 2 if op != "*" else t.bits // 2 - 1
            a = self.narrow(a, -(2**q), 2**q - 1)
            b = self.narrow(b, -(2**q), 2**q - 1)
            return self.binop(op, a, b, exact, fmt_override, retry=False)
        lo, hi = self.wrap(t, lo, hi)
        return mk(t, fmt, [a, b], lo, hi, amag=amag if t.ub_overflow else 0)

    def float_exact(self, op: str, a: Node, b: Node) -> bool:
        if not (a.exact and b.exact) or a.fb is None or b.fb is None:
            return False
        m = MANT[a.t.bits] - 2  # as Node.exact
        if op == "*":
            return a.amag * b.amag * 2.0 ** (a.fb + b.fb) < 2.0**m
        return (a.amag + b.amag) * 2.0 ** max(a.fb, b.fb) < 2.0**m

    def exactify(self, n: Node, bound: float) -> Node | None:
        """An exact float operand made a small dyadic: clamp(floor(n), -bound, bound)."""
        if n.err != 0.0:
            return None
        if n.fb != 0:
            n = mk(n.t, "floor({0})", [n], math.floor(n.lo), math.floor(n.hi), fb=0)
        if n.mag > bound:
            n = self.clamp_const(n, -bound, bound)
        return n

    def op_neg(self, t: HType, depth: int, exact: bool) -> Node | None:
        a = self.gen(t, depth, exact)
        if t.is_float:
            return mk(t, "(-{0})", [a], -a.hi, -a.lo, err=a.err, fb=a.fb, amag=a.amag)
        lo, hi = -a.hi, -a.lo
        if t.ub_overflow and not t.fits(lo, hi):
            a = self.narrow(a, t.lo + 1, t.hi)
            lo, hi = -a.hi, -a.lo
        lo, hi = self.wrap(t, lo, hi)
        return mk(t, "(-{0})", [a], lo, hi, amag=a.amag if t.ub_overflow else 0)

    def op_div(self, t: HType, depth: int, exact: bool) -> Node | None:
        return self.divmod(t, depth, exact, "/")

    def op_mod(self, t: HType, depth: int, exact: bool) -> Node | None:
        return self.divmod(t, depth, exact, "%")

    def divmod(self, t: HType, depth: int, exact: bool, op: str) -> Node | None:
        a = self.gen(t, depth, exact)
        r = self.rng.random()
        if r < 0.55:
            # By a constant of either sign (sometimes zero).
            cands = [2, 3, 4, 5, 7, 8, 10, 16, 17, 100, 255, 256, 1000, 65536, 1 << 20, 1, 0]
            c = self.rng.choice(cands)
            if t.is_signed and self.chance(0.4):
                c = -c
            if not t.fits(c, c):
                c = 3
            if self.chance(0.25):
                b = mk(t, str(c), [], c, c)  # C++ int literal
            else:
                b = const(t, c)
        else:
            b = self.gen(t, depth, exact)
            if self.chance(0.5):
                # Small divisors of both signs.
                b = self.narrow(b, -9 if t.is_signed else 0, 9)
        if op == "%" and t.ub_overflow and b.lo == b.hi and abs(b.lo) >= 1 << (t.bits - 2):
            # Upstream computes (a + x) % c wrongly for a constant c near the type's maximum
            # (Int(32): (i32(i16 v) + x) % 2147483647 is negative for small positive sums).
            b = self.narrow(b, -(1 << (t.bits - 3)), 1 << (t.bits - 3))
        if t.ub_overflow and a.lo == t.lo and b.lo <= -1 <= b.hi:
            # min / -1 overflows Int(32)/Int(64).
            a = self.narrow(a, t.lo + 1, t.hi)
        fmt = f"({{0}} {op} {b.fmt})" if not b.kids and b.fmt.lstrip("-").isdigit() else f"({{0}} {op} {{1}})"
        kids = [a] if "{1}" not in fmt else [a, b]
        if op == "/":
            lo, hi = interval_div(a, b)
        else:
            lo, hi = interval_mod(a, b)
        lo, hi = self.wrap(t, lo, hi)
        return mk(t, fmt, kids, lo, hi)

    def op_fdiv(self, t: HType, depth: int, exact: bool) -> Node | None:
        a = self.gen(t, depth, exact)
        if self.chance(0.5) or exact:
            c = self.rng.choice([2.0, 4.0, 0.5, 8.0, -2.0, 3.0, 10.0, -7.0, 0.25, 1.5])
            if exact and c not in (2.0, 4.0, 0.5, 8.0, -2.0, 0.25):
                c = 2.0
            lo, hi = sorted([a.lo / c, a.hi / c])
            pow2 = math.log2(abs(c)).is_integer()
            if pow2 and a.exact and a.fb is not None and a.fb + 3 < 60:
                # Dividing by 2^k adds k fractional bits; by 2^-k keeps them (a superset).
                fb = a.fb + int(math.log2(abs(c))) if abs(c) > 1 else a.fb
                m = a.mag / abs(c)
                if a.amag / abs(c) * 2.0**fb < 2.0 ** (MANT[t.bits] - 2) and m <= FLOAT_LIMIT[t.bits]:
                    return mk(t, f"({{0}} / {literal(t, c)})", [a], lo, hi, fb=fb, amag=a.amag / abs(c))
            if exact:
                return None
            if max(abs(lo), abs(hi)) > FLOAT_LIMIT[t.bits]:
                a = self.narrow(a, -FLOAT_LIMIT[t.bits] / 16, FLOAT_LIMIT[t.bits] / 16)
                lo, hi = sorted([a.lo / c, a.hi / c])
            err = a.err / abs(c) + 4 * EPS[t.bits] * max(abs(lo), abs(hi))
            return mk(t, f"({{0}} / {literal(t, c)})", [a], lo, hi, err=err, fb=None)
        # By a value kept away from zero: (abs(b) + 1) or max(b, 0.5)-like.
        b = self.gen(t, depth, exact)
        if self.chance(0.5):
            ab = mk(
                t, "abs({0})", [b], 0.0 if b.lo <= 0 <= b.hi else min(abs(b.lo), abs(b.hi)), b.mag, err=b.err, fb=b.fb
            )
            one = 1.0
            d = mk(
                t,
                f"({{0}} + {literal(t, one)})",
                [ab],
                ab.lo + one,
                ab.hi + one,
                err=ab.err + EPS[t.bits] * ab.hi,
                fb=None,
            )
        else:
            d = mk(t, f"max({{0}}, {literal(t, 0.5)})", [b], max(b.lo, 0.5), max(b.hi, 0.5), err=b.err, fb=None)
        if d.hi > FLOAT_LIMIT[t.bits] / 4:
            return None
        lo = min(a.lo / d.lo, a.lo / d.hi)
        hi = max(a.hi / d.lo, a.hi / d.hi)
        m = max(abs(lo), abs(hi))
        err = (a.err + m * d.err) / d.lo + 4 * EPS[t.bits] * m
        return mk(t, "({0} / {1})", [a, d], lo, hi, err=err, fb=None)

    def op_fmod(self, t: HType, depth: int, exact: bool) -> Node | None:
        a = self.gen(t, depth, True)
        c = self.rng.choice([1.0, 2.0, 4.0, 0.5, 16.0])
        if a.fb is None:
            a = mk(t, "floor({0})", [a], math.floor(a.lo), math.floor(a.hi), fb=0)
        fb = max(a.fb or 0, 1)
        # Upstream expands a % c into a - c * floor(a / c), whose terms (as large as a) fast-math
        # then reassociates with the neighbours: (f64(i32) % 16.0) - v rounds like a sum of
        # magnitude |a|. The result's term magnitude is a's, so later sums account for it.
        return mk(t, f"({{0}} % {literal(t, c)})", [a], 0.0, c, fb=fb, amag=max(a.amag, a.mag))

    # ---- min, max, clamp, select, mux

    def op_minmax(self, t: HType, depth: int, exact: bool) -> Node | None:
        a = self.gen(t, depth, exact)
        b = self.gen(t, depth, exact) if self.chance(0.7) else self.rand_const(t)
        return self.binop(self.rng.choice(["min", "max"]), a, b, exact)

    def op_clamp(self, t: HType, depth: int, exact: bool) -> Node | None:
        a = self.gen(t, depth, exact)
        if self.chance(0.7):
            c1, c2 = self.rand_const(t), self.rand_const(t)
            if c1.lo > c2.lo:
                c1, c2 = c2, c1
            lo, hi = c1.lo, c2.lo
            rl, rh = min(max(a.lo, lo), hi), min(max(a.hi, lo), hi)
            fb = None if a.fb is None or c1.fb is None or c2.fb is None else max(a.fb, c1.fb, c2.fb)
            inner = "{0}"
            if "likely" not in self.avoid and not self.in_selection and self.chance(0.4):
                # The in-range case marked likely: loop partitioning on both sides.
                inner = self.rng.choice(["likely({0})", "likely_if_innermost({0})"])
                self.p.tags.add("likely")
            return mk(t, f"clamp({inner}, {c1.fmt}, {c2.fmt})", [a], rl, rh, err=a.err, fb=fb)
        b = self.gen(t, depth, exact)
        c = self.gen(t, depth, exact)
        # clamp(a, b, c) == max(min(a, c), b) on both sides, even if b > c.
        m_lo, m_hi = min(a.lo, c.lo), min(a.hi, c.hi)
        rl, rh = max(m_lo, b.lo), max(m_hi, b.hi)
        fb = None if a.fb is None or b.fb is None or c.fb is None else max(a.fb, b.fb, c.fb)
        return mk(t, "clamp({0}, {1}, {2})", [a, b, c], rl, rh, err=max(a.err, b.err, c.err), fb=fb)

    def op_select(self, t: HType, depth: int, exact: bool) -> Node | None:
        self.in_selection += 1
        try:
            return self.select_node(t, depth, exact)
        finally:
            self.in_selection -= 1

    def select_node(self, t: HType, depth: int, exact: bool) -> Node | None:
        c = self.gen(T["bool"], depth, True)
        a = self.gen(t, depth, exact)
        b = self.gen(t, depth, exact) if self.chance(0.8) else self.rand_const(t)
        kids = [c, a, b]
        fmt = "select({0}, {1}, {2})"
        if self.chance(0.2):
            c2 = self.gen(T["bool"], depth - 1, True)
            d = self.gen(t, depth - 1, exact)
            kids = [c, a, c2, b, d]
            fmt = "select({0}, {1}, {2}, {3}, {4})"
        vals = kids[1::2] + kids[-1:]
        return self.union(t, fmt, kids, vals)

    def union(self, t: HType, fmt: str, kids: list[Node], vals: list[Node]) -> Node:
        lo, hi = min(v.lo for v in vals), max(v.hi for v in vals)
        if t.is_float:
            fbs = [v.fb for v in vals]
            fb = None if any(f is None for f in fbs) else max(fbs)  # type: ignore[type-var]
            return mk(t, fmt, kids, lo, hi, err=max(v.err for v in vals), fb=fb, amag=max(v.amag for v in vals))
        return mk(t, fmt, kids, lo, hi, amag=max(v.amag for v in vals))

    def op_mux(self, t: HType, depth: int, exact: bool) -> Node | None:
        self.in_selection += 1
        try:
            return self.mux_node(t, depth, exact)
        finally:
            self.in_selection -= 1

    def mux_node(self, t: HType, depth: int, exact: bool) -> Node | None:
        it = self.rng.choice(INT_TYPES)
        idx = self.gen(it, depth - 1, True)
        if self.chance(0.6):
            idx = self.narrow(idx, -1 if it.is_signed else 0, 4)
        n = self.rng.randint(2, 4)
        vals = [self.gen(t, depth - 1, exact) if self.chance(0.7) else self.rand_const(t) for _ in range(n)]
        inner = ", ".join(f"{{{i + 1}}}" for i in range(n))
        return self.union(t, f"mux({{0}}, {{{{{inner}}}}})", [idx] + vals, vals)

    def op_bool_mux(self, t: HType, depth: int, exact: bool) -> Node | None:
        return self.op_mux(t, depth, exact)

    # ---- casts

    def op_cast(self, t: HType, depth: int, exact: bool) -> Node | None:
        s = self.rng.choice([u for u in ALL_TYPES if u != t])
        need_exact = exact or (s.is_float and not t.is_float)
        a = self.gen(s, depth, need_exact)
        form = self.rng.random()
        fmt = None
        if form < 0.3 and not t.is_bool:
            fmt = f"cast({t_halide(t)}, {{0}})"
        elif form < 0.45 and t.is_intlike:
            fmt = f"{t.name}({{0}})"  # ConciseCasts
        return self.cast_to(a, t, fmt)

    def op_sat_cast(self, t: HType, depth: int, exact: bool) -> Node | None:
        if t.is_bool:
            return None
        s = self.rng.choice(VALUE_TYPES)
        if t.is_float and not (s.is_float and s.bits > t.bits):
            return None
        a = self.gen(s, depth, s.is_float or exact)
        lo, hi = max(a.lo, t.lo), min(a.hi, t.hi)
        if lo > hi:
            lo = hi = t.lo if a.hi < t.lo else t.hi
        if t.is_float:
            return mk(t, f"saturating_cast<{t.cpp}>({{0}})", [a], lo, hi, fb=None)
        form = self.rng.random()
        if form < 0.5:
            fmt = f"saturating_cast<{t.cpp}>({{0}})"
        elif form < 0.75:
            fmt = f"saturating_cast({t_halide(t)}, {{0}})"
        else:
            fmt = f"{t.name}_sat({{0}})"
        return mk(
            t, fmt, [a], math.floor(lo) if lo >= 0 else math.ceil(lo), math.floor(hi) if hi >= 0 else math.ceil(hi)
        )

    def op_reinterpret(self, t: HType, depth: int, exact: bool) -> Node | None:
        if t.is_float:
            # Bits of an integer with the exponent of 1.0 or-ed in: a float in [1, 2).
            u = int_type(False, t.bits)
            s = int_type(self.chance(0.5), t.bits)
            a = self.gen(s, depth, True)
            if s != u:
                a = mk(u, f"reinterpret<{u.cpp}>({{0}})", [self.unfold_float_conversion(a, u)], u.lo, u.hi)
            if t.bits == 32:
                mant, one = "0x007fffffU", "0x3f800000U"
            else:
                mant, one = "0x000fffffffffffffULL", "0x3ff0000000000000ULL"
            fmt = f"reinterpret<{t.cpp}>(({{0}} & Expr(({u.cpp}){mant})) | Expr(({u.cpp}){one}))"
            return mk(t, fmt, [a], 1.0, 2.0, fb=None)
        srcs = [u for u in VALUE_TYPES if u.bits == t.bits and u != t]
        s = self.rng.choice(srcs)
        a = self.unfold_float_conversion(self.gen(s, depth, True), t)
        if s.is_float:
            if a.lo <= 0 <= a.hi:
                # Keep away from zero (its sign is unspecified under fast-math).
                a = mk(
                    s,
                    f"max({{0}}, {literal(s, 0.5)})",
                    [a],
                    max(a.lo, 0.5),
                    max(a.hi, 0.5),
                    fb=a.fb if a.fb is None else max(a.fb, 1),
                )
            ends = [float_bits_as_int(v, t.bits, t.is_signed) for v in (a.lo, a.hi)]
            lo, hi = min(ends), max(ends)
        elif t.fits(a.lo, a.hi):
            lo, hi = a.lo, a.hi
        else:
            lo, hi = t.lo, t.hi
        return mk(t, f"reinterpret<{t.cpp}>({{0}})", [a], lo, hi)

    # ---- abs, absd

    def op_abs(self, t: HType, depth: int, exact: bool) -> Node | None:
        if t.is_float:
            a = self.gen(t, depth, exact)
            lo = 0.0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
            return mk(t, "abs({0})", [a], lo, a.mag, err=a.err, fb=a.fb, amag=a.amag)
        if t.kind != "uint":
            return None
        s = int_type(True, t.bits) if self.chance(0.85) else t
        a = self.gen(s, depth, exact)
        lo = 0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
        return mk(t, "abs({0})", [a], lo, max(abs(a.lo), abs(a.hi)))

    def op_absd(self, t: HType, depth: int, exact: bool) -> Node | None:
        if t.is_float:
            a = self.gen(t, depth, exact)
            b = self.gen(t, depth, exact)
            d = self.binop("-", a, b, exact)
            if d is None:
                return None
            lo = 0.0
            hi = max(abs(d.lo), abs(d.hi))
            return mk(t, "absd({0}, {1})", [d.kids[0], d.kids[1]], lo, hi, err=d.err, fb=d.fb, amag=d.amag)
        if t.kind != "uint":
            return None
        s = int_type(self.chance(0.6), t.bits)
        a = self.gen(s, depth, exact)
        b = self.gen(s, depth, exact)
        hi = max(abs(a.hi - b.lo), abs(b.hi - a.lo))
        lo = 0 if (a.lo <= b.hi and b.lo <= a.hi) else min(abs(a.lo - b.hi), abs(b.lo - a.hi))
        return mk(t, "absd({0}, {1})", [a, b], lo, min(hi, t.hi))

    # ---- bitwise and shifts

    def op_bitwise(self, t: HType, depth: int, exact: bool) -> Node | None:
        op = self.rng.choice(["&", "|", "^"])
        a = self.gen(t, depth, exact)
        if self.chance(0.3):
            c = self.rng.choice([1, 3, 7, 15, 0x55, 0x7F])
            b = mk(t, str(c), [], c, c)
            fmt = f"({{0}} {op} {c})"
            lo, hi = interval_bitwise(op, a, b)
            return mk(t, fmt, [a], lo, hi)
        b = self.gen(t, depth, exact)
        lo, hi = interval_bitwise(op, a, b)
        return mk(t, f"({{0}} {op} {{1}})", [a, b], lo, hi)

    def op_bitnot(self, t: HType, depth: int, exact: bool) -> Node | None:
        a = self.gen(t, depth, exact)
        if t.is_signed:
            return mk(t, "(~{0})", [a], -a.hi - 1, -a.lo - 1)
        return mk(t, "(~{0})", [a], t.hi - a.hi, t.hi - a.lo)

    def op_shift(self, t: HType, depth: int, exact: bool) -> Node | None:
        left = self.chance(0.5)
        op = "<<" if left else ">>"
        a = self.gen(t, depth, exact)
        w = t.bits
        neg_ok = "neg_shift" not in self.avoid
        # Int(32)/Int(64): a left shift is a multiplication (overflow is undefined), so keep amounts to half the
        # width and narrow the shifted value to fit.
        wmax = w // 2 if t.ub_overflow else w - 1
        if self.chance(0.35):
            # A C++ int amount (coerced to a's type).
            s = self.rng.randint(0, wmax)
            if t.is_signed and neg_ok and self.chance(0.15):
                s = -self.rng.randint(1, wmax)
            b = mk(T["i32"], str(s), [], s, s)
            fmt = f"({{0}} {op} {s})" if s >= 0 else f"({{0}} {op} ({s}))"
            kids_b = False
        else:
            st = int_type(self.chance(0.5), w)
            b = self.gen(st, depth, exact)
            blo = -wmax if st.is_signed and neg_ok else 0
            b = self.narrow(b, blo, wmax)
            fmt = f"({{0}} {op} {{1}})"
            kids_b = True
        if b.lo < 0:
            self.tag("neg_shift")
        lo, hi = interval_shift(left, a, int(b.lo), int(b.hi))
        smax = max(int(b.hi) if left else -int(b.lo), 0)
        if t.ub_overflow and (not t.fits(lo, hi) or a.amag * 2**smax > t.hi):
            q = w - 2 - smax
            a = self.narrow(a, -(2**q), 2**q - 1)
            lo, hi = interval_shift(left, a, int(b.lo), int(b.hi))
            assert t.fits(lo, hi)
        lo, hi = self.wrap(t, lo, hi)
        amag = a.amag * 2**smax if t.ub_overflow else 0
        return mk(t, fmt, [a, b] if kids_b else [a], lo, hi, amag=amag)

    # ---- lerp

    def lerp_value(self, t: HType, depth: int, exact: bool) -> Node:
        """A value for lerp. Upstream 21 computes lerp(cast<int32_t>(f), ...) of a float f wrongly when
        the value is negative (-1 or 0: an upstream bug), so Int(32) values are never direct casts of floats."""
        for _ in range(6):
            n = self.gen(t, depth, exact)
            if not (t == T["i32"] and n.kids and n.kids[0].t.is_float):
                return n
        return self.rand_const(t)

    def op_lerp(self, t: HType, depth: int, exact: bool) -> Node | None:
        if t.bits > 32 or t.is_bool:
            return None
        z = self.lerp_value(t, depth, exact)
        o = self.lerp_value(t, depth, exact)
        if t.is_float:
            if self.chance(0.6):
                w = self.gen(t, depth, False)
                w = self.narrow(w, -1.0, 2.0)
                wl, wh, werr = w.lo, w.hi, w.err
            else:
                wt = self.rng.choice([u for u in INT_TYPES if u.kind == "uint" and u.bits <= 32])
                w = self.gen(wt, depth, True)
                wl, wh, werr = w.lo / wt.hi, w.hi / wt.hi, EPS[32] * 4
            if exact:
                return None
            corners = [zz + (oo - zz) * ww for zz in (z.lo, z.hi) for oo in (o.lo, o.hi) for ww in (wl, wh)]
            lo, hi = min(corners), max(corners)
            m = max(z.mag, o.mag)
            err = z.err + (z.err + o.err) * max(abs(wl), abs(wh)) + werr * 2 * m + 8 * EPS[32] * m * 3
            return mk(t, "lerp({0}, {1}, {2})", [z, o, w], lo, hi, err=err, fb=None)
        if self.chance(0.3) and "lerp_float_weight_int" not in self.avoid:
            w = self.gen(T["f32"], depth, True)
            w = self.narrow(w, 0.0, 1.0)
            self.tag("lerp_float_weight_int")
        else:
            same = self.chance(0.75) or "lerp_weight_width" in self.avoid
            if same:
                wt = int_type(False, t.bits)
            else:
                wt = self.rng.choice([u for u in INT_TYPES if u.kind == "uint" and u.bits != t.bits and u.bits <= 32])
                self.tag("lerp_weight_width")
            w = self.gen(wt, depth, True)
        return mk(t, "lerp({0}, {1}, {2})", [z, o, w], min(z.lo, o.lo), max(z.hi, o.hi))

    # ---- float math

    def op_math(self, t: HType, depth: int, exact: bool) -> Node | None:
        if exact:
            return None
        fn = self.rng.choice(
            [
                "sqrt",
                "exp",
                "log",
                "sin",
                "cos",
                "tan",
                "atan",
                "tanh",
                "pow",
                "asin",
                "acos",
                "sinh",
                "cosh",
                "hypot",
                "atan_int",
                "sqrt_int",
            ]
        )
        eps = EPS[t.bits]
        ulp = 16 * eps
        if fn in ("sqrt_int", "atan_int"):
            if t.bits != 32:
                return None
            # An integer argument: both Halides cast it to Float(32) first.
            s = self.rng.choice([u for u in INT_TYPES if u.bits <= 16])
            a = self.gen(s, depth, True)
            if fn == "sqrt_int":
                if a.lo < 0:
                    a = self.narrow(a, 0, s.hi)
                return mk(t, "sqrt({0})", [a], math.sqrt(a.lo), math.sqrt(a.hi), err=ulp * math.sqrt(a.hi), fb=None)
            return mk(t, "atan({0})", [a], math.atan(a.lo), math.atan(a.hi), err=ulp, fb=None)
        a = self.gen(t, depth, False)
        if fn == "sqrt":
            a = self.abs_node(a) if self.chance(0.5) else self.binop("max", a, const(t, 0.0), False)
            if a is None:
                return None
            r = (math.sqrt(max(a.lo, 0.0)), math.sqrt(a.hi))
            err = math.sqrt(a.err) + ulp * r[1]
        elif fn == "exp":
            lim = 20.0 if t.bits == 32 else 50.0
            a = self.narrow(a, -lim, lim)
            r = (math.exp(a.lo), math.exp(a.hi))
            err = r[1] * (a.err * 1.01 + ulp)
        elif fn == "log":
            ab = self.abs_node(a)
            one = 1.0
            a = mk(t, f"({{0}} + {literal(t, one)})", [ab], ab.lo + one, ab.hi + one, err=ab.err + eps * ab.hi, fb=None)
            r = (math.log(a.lo), math.log(a.hi))
            err = a.err / a.lo + ulp * max(abs(r[0]), abs(r[1]), 1.0)
        elif fn in ("sin", "cos"):
            a = self.narrow(a, -64.0, 64.0)
            r = (-1.0, 1.0)
            err = a.err + ulp * max(1.0, a.mag) * 4
        elif fn == "tan":
            a = self.narrow(a, -1.0, 1.0)
            r = (math.tan(a.lo), math.tan(a.hi))
            err = a.err * 4 + ulp * 4
        elif fn in ("atan", "tanh"):
            f = math.atan if fn == "atan" else math.tanh
            r = (f(a.lo), f(a.hi))
            err = a.err + ulp
        elif fn in ("asin", "acos"):
            a = self.narrow(a, -0.5, 0.5)
            r = (-math.pi / 2, math.pi / 2) if fn == "asin" else (0.0, math.pi)
            err = a.err * 1.2 + ulp * 4
        elif fn in ("sinh", "cosh"):
            a = self.narrow(a, -8.0, 8.0)
            r = (-math.sinh(8.0), math.sinh(8.0)) if fn == "sinh" else (1.0, math.cosh(8.0))
            err = math.cosh(8.0) * (a.err + ulp)
        elif fn == "hypot":
            b = self.gen(t, depth, False)
            a = self.narrow(a, -1e6, 1e6)
            b = self.narrow(b, -1e6, 1e6)
            r = (0.0, math.hypot(a.mag, b.mag))
            return mk(t, "hypot({0}, {1})", [a, b], r[0], r[1], err=a.err + b.err + ulp * r[1], fb=None)
        else:  # pow
            b = self.gen(t, depth, False)
            base = self.abs_node(a)
            base = self.clamp_const(base, 0.25, 16.0)
            ex = self.clamp_const(b, -4.0, 4.0)
            r = (0.25**4, 16.0**4)
            err = r[1] * (16 * base.err + 3 * ex.err + 8 * ulp)
            return mk(t, "pow({0}, {1})", [base, ex], r[0], r[1], err=err, fb=None)
        return mk(t, f"{fn}({{0}})", [a], min(r), max(r), err=err, fb=None)

    def abs_node(self, a: Node) -> Node:
        lo = 0.0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
        return mk(a.t, "abs({0})", [a], lo, a.mag, err=a.err, fb=a.fb, amag=a.amag)

    def op_round(self, t: HType, depth: int, exact: bool) -> Node | None:
        fn = self.rng.choice(["floor", "ceil", "round", "trunc", "fract"])
        a = self.gen(t, depth, True)
        if fn == "fract":
            lo, hi = (-1.0 if a.lo < 0 else 0.0), (1.0 if a.hi > 0 else 0.0)
            return mk(t, "fract({0})", [a], lo, hi, fb=a.fb)
        return mk(t, f"{fn}({{0}})", [a], math.floor(a.lo), math.ceil(a.hi), fb=0)

    # ---- bool

    def op_cmp(self, t: HType, depth: int, exact: bool) -> Node | None:
        s = self.rng.choice(VALUE_TYPES)
        a = self.gen(s, depth, True)
        if self.chance(0.3):
            b = self.rand_const(s, True)
        elif self.chance(0.2) and s.is_intlike:
            u = self.rng.choice([v for v in INT_TYPES if match_types(s, v) is not None])
            b = self.gen(u, depth, True)
        else:
            b = self.gen(s, depth, True)
        if a.t == b.t and s.ub_overflow and a.amag + b.amag > s.hi:
            # The simplifiers move terms from one side to the other (upstream even folds c1 == c2 as
            # c1 - c2 == 0, and reports the overflow): keep that in range.
            q = s.bits - 2
            a = self.narrow(a, -(2**q), 2**q - 1)
            b = self.narrow(b, -(2**q), 2**q - 1)
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        return mk(t, f"({{0}} {op} {{1}})", [a, b], 0, 1)

    def op_logic(self, t: HType, depth: int, exact: bool) -> Node | None:
        op = self.rng.choice(["&&", "||"])
        return mk(t, f"({{0}} {op} {{1}})", [self.gen(t, depth, True), self.gen(t, depth, True)], 0, 1)

    def op_not(self, t: HType, depth: int, exact: bool) -> Node | None:
        return mk(t, "(!{0})", [self.gen(t, depth, True)], 0, 1)

    # ---- top level

    def func_expr(self) -> Node:
        t = self.f.t
        e = self.gen(t, self.rng.randint(1, 4), self.f.exact)
        # Every producer must be called at least once.
        while self.pending:
            pi = self.pending.pop()
            c = self.call(pi, t, False)
            assert c is not None, "producer type not usable by its consumer"
            if self.f.exact and t.is_float:
                # Small enough that max/min with e stays exact too.
                c = self.exactify(c, 2.0 ** min(20, MANT[t.bits] - 3 - (e.fb or 0)))
                assert c is not None and c.exact, "a producer an exact consumer needs is not exact"
            op = self.rng.choice(["min", "max", "+", "-"] if not t.is_bool else ["&&", "||"])
            if t.is_bool:
                e = mk(t, f"({{0}} {op} {{1}})", [e, c], 0, 1)
            else:
                r = self.binop(op, e, c, self.f.exact) or self.binop("max", e, c, self.f.exact)
                assert r is not None
                e = r
        assert e.exact or not self.f.exact, (e.render(), e.err, e.fb, e.amag)
        return e


def t_halide(t: HType) -> str:
    if t.is_bool:
        return "Bool()"
    return f"{ {'int': 'Int', 'uint': 'UInt', 'float': 'Float'}[t.kind] }({t.bits})"


def match_types(a: HType, b: HType) -> HType | None:
    """Halide's implicit coercion of two operands (both Halides agree)."""
    if a == b:
        return a
    if a.is_bool or b.is_bool:
        return None
    if a.is_float or b.is_float:
        if a.is_float and b.is_float:
            return a if a.bits >= b.bits else b
        return a if a.is_float else b
    if a.kind == b.kind:
        return a if a.bits >= b.bits else b
    return int_type(True, max(a.bits, b.bits))


def interval_arith(op: str, a: Node, b: Node) -> tuple[float, float]:
    if op == "+":
        return a.lo + b.lo, a.hi + b.hi
    if op == "-":
        return a.lo - b.hi, a.hi - b.lo
    c = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
    return min(c), max(c)


def interval_div(a: Node, b: Node) -> tuple[int, int]:
    bs = [v for v in (int(b.lo), int(b.hi), -1, 1) if b.lo <= v <= b.hi and v != 0]
    as_ = [v for v in (int(a.lo), int(a.hi), -1, 0, 1) if a.lo <= v <= a.hi]
    vals = [euclid_div(x, y) for x in as_ for y in bs]
    if b.lo <= 0 <= b.hi:
        vals.append(0)
    return min(vals), max(vals)


def interval_mod(a: Node, b: Node) -> tuple[int, int]:
    m = max(abs(int(b.lo)), abs(int(b.hi)))
    if m == 0:
        return 0, 0
    if a.lo >= 0 and b.lo > 0:
        return 0, int(min(a.hi, m - 1))
    return 0, m - 1


def interval_bitwise(op: str, a: Node, b: Node) -> tuple[int, int]:
    alo, ahi, blo, bhi = int(a.lo), int(a.hi), int(b.lo), int(b.hi)
    if alo >= 0 and blo >= 0:
        if op == "&":
            return 0, min(ahi, bhi)
        k = max(ahi, bhi).bit_length()
        return (max(alo, blo) if op == "|" else 0), (1 << k) - 1
    if op == "&" and (alo >= 0 or blo >= 0):
        return 0, (ahi if alo >= 0 else bhi)
    k = max(abs(alo), abs(ahi), abs(blo), abs(bhi)).bit_length()
    t = a.t
    return max(-(1 << k), int(t.lo)), min((1 << k) - 1, int(t.hi))


def interval_shift(left: bool, a: Node, slo: int, shi: int) -> tuple[int, int]:
    vals = []
    for s in range(slo, shi + 1):
        for v in (int(a.lo), int(a.hi)):
            sh = s if left else -s
            vals.append(v << sh if sh >= 0 else v >> -sh)
    return min(vals), max(vals)


# --------------------------------------------------------------------------
# Schedules


# Predicate is always legal (as GuardWithIf); ShiftInwardsAndBlend where
# ShiftInwards is (pure definitions only here, and the blend is refused
# with a parallel loop from the same Var: drawn only for outputs, which
# parallelize before or after, see tail()). PredicateLoads and
# PredicateStores (PRED_TAILS) are drawn apart, from an RNG of their own
# (Scheduler.predicated), so a seed's other choices stay as they were.
TAILS = [
    "TailStrategy::Auto",
    "TailStrategy::GuardWithIf",
    "TailStrategy::ShiftInwards",
    "TailStrategy::RoundUp",
    "TailStrategy::Predicate",
    "TailStrategy::ShiftInwardsAndBlend",
]

# Upstream's rules: a split with either may not be split again by its inner
# loop; PredicateLoads may not split a loop stemming from a split's inner
# loop (that loop, halves of its splits, fuses with it), and on an output
# its unguarded stores need the extent to be a multiple of the factor (as
# RoundUp's). PredicateStores reads on as RoundUp does (the inputs cover it);
# on an output, upstream's bounds inference counts the guarded stores of a
# split of anything but the output's own dimension as reaching past it
# (split(x, xo, xi, 7).split(xi, a, b, 2, PredicateStores) over 35 points
# "accesses" 36), so there its factor must divide the extent too.
PRED_TAILS = ["TailStrategy::PredicateLoads", "TailStrategy::PredicateStores"]
PRED_TAIL_P = 0.06


class Scheduler:
    def __init__(self, rng: random.Random, p: Pipeline, avoid: set[str]) -> None:
        self.rng = rng
        self.p = p
        self.avoid = avoid
        self.factored: set[tuple[int, str, str]] = set()
        self.counter = 0
        self.loops: dict[int, list[Loop]] = {}
        self.compute: dict[int, str | tuple[int, str]] = {}
        # The loops a Func's compute site is nested in: (func idx, loop name), outermost first.
        self.path: dict[int, list[tuple[int, str]]] = {}
        self.split_product: dict[int, int] = {}
        # Funcs split with a blending tail (never parallel afterwards), and
        # Funcs with a parallel loop (never blended afterwards).
        self.blended: set[int] = set()
        self.parallel_funcs: set[int] = set()
        self.pred_rng = random.Random(f"{p.seed}:{p.k}:predicate_tail")

    def fresh(self, base: str) -> str:
        self.counter += 1
        name = f"{base}_{self.counter}"
        self.p.sched_vars.append(name)
        return name

    def emit(self, s: str) -> None:
        self.p.sched.append(s)

    def tail(self, fi: int, loop: Loop, factor: int) -> str | None:
        """A tail strategy legal for splitting `loop` of Func fi by `factor`, or None."""
        is_out = fi == len(self.p.funcs) - 1
        opts = list(TAILS)
        if is_out:
            e = loop.extent
            assert e is not None
            if e % factor != 0:
                opts.remove("TailStrategy::RoundUp")
            if e < factor:
                # Auto is ShiftInwards for an output.
                opts.remove("TailStrategy::ShiftInwards")
                opts.remove("TailStrategy::Auto")
                opts.remove("TailStrategy::ShiftInwardsAndBlend")
        elif "si_intermediate" in self.avoid:
            opts.remove("TailStrategy::ShiftInwards")
        parallel = any(lp.kind == "parallel" for lp in self.loops.get(fi, [])) or fi in self.parallel_funcs
        if "TailStrategy::ShiftInwardsAndBlend" in opts and (not is_out or parallel or "blend" in self.avoid):
            opts.remove("TailStrategy::ShiftInwardsAndBlend")
        choice = self.rng.choice(opts) if opts else None
        choice = self.predicated(choice, [(loop, factor)], is_out)
        if choice == "TailStrategy::ShiftInwards" and not is_out:
            self.p.tags.add("si_intermediate")
        if choice == "TailStrategy::ShiftInwardsAndBlend":
            self.p.tags.add("blend")
            self.blended.add(fi)
        return choice

    def predicated(self, choice: str | None, splits: list[tuple[Loop, int]], is_out: bool) -> str | None:
        """`choice`, or (sometimes, from pred_rng) a PredicateLoads/Stores tail legal for every split."""
        if choice is None or "predicate_tail" in self.avoid or self.pred_rng.random() >= PRED_TAIL_P:
            return choice
        opts = list(PRED_TAILS)
        for lp, fac in splits:
            divides = lp.extent is not None and lp.extent % fac == 0
            if (lp.from_inner or (is_out and not divides)) and PRED_TAILS[0] in opts:
                opts.remove(PRED_TAILS[0])
            if is_out and not lp.orig and not divides and PRED_TAILS[1] in opts:
                opts.remove(PRED_TAILS[1])
        if not opts:
            return choice
        choice = self.pred_rng.choice(opts)
        self.p.tags.add("predicate_tail")
        return choice

    def repeat_ok(self, fi: int, var: str, kind: str) -> bool:
        """vectorize/unroll/parallel(v, n) again on the same v and kind (the inner loops get the same name in ours)."""
        key = (fi, var, kind)
        if key in self.factored:
            if "repeat_split_var" in self.avoid:
                return False
            self.p.tags.add("repeat_split_var")
        self.factored.add(key)
        return True

    def nested_vectorize_ok(self, loops: list[Loop]) -> bool:
        if any(lp.kind == "vectorized" for lp in loops):
            if "nested_vectorize" in self.avoid:
                return False
            self.p.tags.add("nested_vectorize")
        return True

    def schedule_func(self, fi: int) -> None:
        f = self.p.funcs[fi]
        name = f.name
        is_out = fi == len(self.p.funcs) - 1
        if f.dims == 2:
            ext = [self.p.width, self.p.height] if is_out else [None, None]
            loops = [Loop("x", ext[0], orig=True), Loop("y", ext[1], orig=True)]
        else:
            loops = [Loop("x", self.p.width if is_out else None, orig=True)]
        self.loops[fi] = loops
        self.split_product[fi] = 1
        r = self.rng
        n_ops = r.choice([0, 1, 1, 2, 2, 3, 3, 4, 5])
        for _ in range(n_ops):
            ops = ["split", "split", "vectorize", "vectorize", "unroll", "parallel", "reorder", "fuse"]
            if f.dims == 2 and len(loops) == 2 and loops[0].name == "x" and loops[1].name == "y":
                ops += ["tile", "tile"]
            getattr(self, "do_" + r.choice(ops))(fi, name, loops)

    def serial(self, loops: list[Loop]) -> list[Loop]:
        return [lp for lp in loops if lp.kind == "serial" and not lp.anon]

    def factor(self, fi: int) -> int | None:
        cands = [f for f in (2, 3, 4, 5, 7, 8, 16) if self.split_product[fi] * f <= MAX_SPLIT_PRODUCT]
        if not cands:
            return None
        f = self.rng.choice(cands)
        self.split_product[fi] *= f
        return f

    def do_split(self, fi: int, name: str, loops: list[Loop]) -> None:
        cands = [lp for lp in self.serial(loops) if not lp.pred]
        if not cands:
            return
        lp = self.rng.choice(cands)
        fac = self.factor(fi)
        if fac is None:
            return
        tail = self.tail(fi, lp, fac)
        if tail is None:
            return
        outer = lp.name if self.rng.random() < 0.25 else self.fresh(f"{name}_o")
        inner = self.fresh(f"{name}_i")
        i = loops.index(lp)
        oext = None if lp.extent is None else -(-lp.extent // fac)
        loops[i : i + 1] = [
            Loop(inner, fac, const=True, pred=tail in PRED_TAILS, from_inner=True),
            Loop(outer, oext, from_inner=lp.from_inner),
        ]
        self.emit(f"{name}.split({lp.name}, {outer}, {inner}, {fac}, {tail});")

    def do_tile(self, fi: int, name: str, loops: list[Loop]) -> None:
        if self.split_product[fi] * 4 > MAX_SPLIT_PRODUCT:
            return
        fx = self.rng.choice([2, 3, 4, 8])
        fy = self.rng.choice([f for f in (2, 3, 4, 8) if fx * f * self.split_product[fi] <= MAX_SPLIT_PRODUCT] or [1])
        if fy == 1:
            return
        self.split_product[fi] *= fx * fy
        lx, ly = loops
        # One tail for both splits: it must be legal for both.
        legal = []
        for t in TAILS:
            ok = t != "TailStrategy::ShiftInwardsAndBlend"  # tiles may later go parallel
            for lp, fac in ((lx, fx), (ly, fy)):
                if lp.extent is not None:
                    if t == "TailStrategy::RoundUp" and lp.extent % fac:
                        ok = False
                    if t in ("TailStrategy::ShiftInwards", "TailStrategy::Auto") and lp.extent < fac:
                        ok = False
            if ok:
                legal.append(t)
        if not legal:
            return
        if fi != len(self.p.funcs) - 1 and "si_intermediate" in self.avoid and "TailStrategy::ShiftInwards" in legal:
            legal.remove("TailStrategy::ShiftInwards")
        tail = self.rng.choice(legal)
        tail = self.predicated(tail, [(lx, fx), (ly, fy)], fi == len(self.p.funcs) - 1)
        if tail == "TailStrategy::ShiftInwards" and fi != len(self.p.funcs) - 1:
            self.p.tags.add("si_intermediate")
        xi, yi = self.fresh(f"{name}_xi"), self.fresh(f"{name}_yi")
        ex = None if lx.extent is None else -(-lx.extent // fx)
        ey = None if ly.extent is None else -(-ly.extent // fy)
        if self.rng.random() < 0.5:
            xo, yo = self.fresh(f"{name}_xo"), self.fresh(f"{name}_yo")
            self.emit(f"{name}.tile(x, y, {xo}, {yo}, {xi}, {yi}, {fx}, {fy}, {tail});")
        else:
            xo, yo = "x", "y"
            self.emit(f"{name}.tile(x, y, {xi}, {yi}, {fx}, {fy}, {tail});")
        # Upstream marks both loops of a split of a parallel loop parallel (ours only the outer one:
        # the values are the same, but upstream's race check sees the inner one too).
        pred = tail in PRED_TAILS
        loops[:] = [
            Loop(xi, fx, lx.kind, const=True, pred=pred, from_inner=True),
            Loop(yi, fy, ly.kind, const=True, pred=pred, from_inner=True),
            Loop(xo, ex, lx.kind, from_inner=lx.from_inner),
            Loop(yo, ey, ly.kind, from_inner=ly.from_inner),
        ]

    def do_vectorize(self, fi: int, name: str, loops: list[Loop]) -> None:
        cands = self.serial(loops)
        if not cands:
            return
        lp = self.rng.choice(cands)
        if not self.nested_vectorize_ok(loops):
            return
        if lp.const and 2 <= (lp.extent or 0) <= 16 and self.rng.random() < 0.6:
            lp.kind = "vectorized"
            self.emit(f"{name}.vectorize({lp.name});")
            return
        fac = self.rng.choice(
            [f for f in (2, 3, 4, 5, 8, 16) if self.split_product[fi] * f <= MAX_SPLIT_PRODUCT] or [0]
        )
        if not fac or lp.pred or not self.repeat_ok(fi, lp.name, "vec"):
            return
        tail = self.tail(fi, lp, fac)
        if tail is None:
            return
        self.split_product[fi] *= fac
        i = loops.index(lp)
        oext = None if lp.extent is None else -(-lp.extent // fac)
        loops[i : i + 1] = [
            Loop(lp.name + "_vec", fac, "vectorized", anon=True),
            Loop(lp.name, oext, from_inner=lp.from_inner),
        ]
        if tail == "TailStrategy::Auto" and self.rng.random() < 0.5:
            self.emit(f"{name}.vectorize({lp.name}, {fac});")
        else:
            self.emit(f"{name}.vectorize({lp.name}, {fac}, {tail});")

    def do_unroll(self, fi: int, name: str, loops: list[Loop]) -> None:
        cands = self.serial(loops)
        if not cands:
            return
        lp = self.rng.choice(cands)
        if lp.const and 2 <= (lp.extent or 0) <= 16 and self.rng.random() < 0.6:
            lp.kind = "unrolled"
            self.emit(f"{name}.unroll({lp.name});")
            return
        fac = self.rng.choice([f for f in (2, 3, 4) if self.split_product[fi] * f <= MAX_SPLIT_PRODUCT] or [0])
        if not fac or lp.pred or not self.repeat_ok(fi, lp.name, "unroll"):
            return
        tail = self.tail(fi, lp, fac)
        if tail is None:
            return
        self.split_product[fi] *= fac
        i = loops.index(lp)
        oext = None if lp.extent is None else -(-lp.extent // fac)
        loops[i : i + 1] = [
            Loop(lp.name + "_unroll", fac, "unrolled", anon=True),
            Loop(lp.name, oext, from_inner=lp.from_inner),
        ]
        self.emit(f"{name}.unroll({lp.name}, {fac}, {tail});")

    def do_parallel(self, fi: int, name: str, loops: list[Loop]) -> None:
        cands = self.serial(loops)
        if not cands or fi in self.blended:
            return
        self.parallel_funcs.add(fi)
        lp = self.rng.choice(cands[len(cands) // 2 :])
        if self.rng.random() < 0.25:
            fac = self.rng.choice([f for f in (2, 3, 4) if self.split_product[fi] * f <= MAX_SPLIT_PRODUCT] or [0])
            if fac and not lp.pred and self.repeat_ok(fi, lp.name, "par"):
                tail = self.tail(fi, lp, fac)
                if tail is not None:
                    self.split_product[fi] *= fac
                    i = loops.index(lp)
                    oext = None if lp.extent is None else -(-lp.extent // fac)
                    loops[i : i + 1] = [
                        Loop(lp.name + "_par_inner", fac, anon=True),
                        Loop(lp.name, oext, "parallel", from_inner=lp.from_inner),
                    ]
                    self.emit(f"{name}.parallel({lp.name}, {fac}, {tail});")
                    return
        lp.kind = "parallel"
        self.emit(f"{name}.parallel({lp.name});")

    def do_reorder(self, fi: int, name: str, loops: list[Loop]) -> None:
        named = [lp for lp in loops if not lp.anon]
        if len(named) < 2:
            return
        perm = list(named)
        self.rng.shuffle(perm)
        # Rewrite the named loops' positions in the order given.
        pos = [i for i, lp in enumerate(loops) if not lp.anon]
        for i, lp in zip(pos, perm, strict=True):
            loops[i] = lp
        self.emit(f"{name}.reorder({', '.join(lp.name for lp in perm)});")

    def do_fuse(self, fi: int, name: str, loops: list[Loop]) -> None:
        pairs = [
            i
            for i in range(len(loops) - 1)
            if loops[i].kind == loops[i + 1].kind == "serial" and not loops[i].anon and not loops[i + 1].anon
        ]
        if not pairs:
            return
        i = self.rng.choice(pairs)
        a, b = loops[i], loops[i + 1]
        fused = self.fresh(f"{name}_fused")
        ext = None if a.extent is None or b.extent is None else a.extent * b.extent
        loops[i : i + 2] = [Loop(fused, ext, const=a.const and b.const, from_inner=a.from_inner or b.from_inner)]
        self.emit(f"{name}.fuse({a.name}, {b.name}, {fused});")

    # ---- compute and store levels

    def effective_consumers(self, fi: int, inline: set[int]) -> set[int]:
        out: set[int] = set()
        for c in self.p.funcs[fi].consumers:
            out |= self.effective_consumers(c, inline) if c in inline else {c}
        return out

    def run(self) -> None:
        p = self.p
        n = len(p.funcs)
        inline: set[int] = set()
        self.schedule_func(n - 1)
        self.path[n - 1] = []
        for fi in range(n - 2, -1, -1):
            f = p.funcs[fi]
            r = self.rng.random()
            cons = self.effective_consumers(fi, inline)
            if r < 0.2:
                inline.add(fi)
                continue
            self.schedule_func(fi)
            if r < 0.5 or len(cons) != 1:
                self.emit(f"{f.name}.compute_root();")
                self.path[fi] = []
                if self.rng.random() < 0.15:
                    self.emit(f"{f.name}.store_root();")
                continue
            (c,) = cons
            cname = p.funcs[c].name
            # Outermost first, down to (not into) the first vectorized loop.
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
            # Store level: at the compute level (default), further out in the same consumer, or root; never
            # outside a parallel loop the Func is computed inside.
            s = self.rng.random()
            if s < 0.45:
                continue
            if s < 0.8 and ci > 0:
                si = self.rng.randrange(ci)
                store_path = self.path[c] + [(c, lp.name) for lp in levels[: si + 1]]
                stmt = f"{f.name}.store_at({cname}, {levels[si].name});"
            else:
                store_path = []
                stmt = f"{f.name}.store_root();"
            if not any(self.is_parallel(fc, ln) for fc, ln in compute_path[len(store_path) :]):
                self.emit(stmt)

    def is_parallel(self, fi: int, name: str) -> bool:
        return any(lp.name == name and lp.kind == "parallel" for lp in self.loops[fi])


# --------------------------------------------------------------------------
# Pipeline generation


def generate_pipeline(seed: int, k: int, avoid: set[str] | None = None) -> Pipeline:
    avoid = avoid or set()
    rng = random.Random(f"{seed}:{k}")
    dims = 1 if rng.random() < 0.35 else 2
    if dims == 1:
        w, h = rng.choice([rng.randint(1, 8), rng.randint(9, 64), rng.randint(9, 64)]), 1
    else:
        w = rng.choice([rng.randint(1, 6), rng.randint(7, 40), rng.randint(7, 40)])
        h = rng.choice([rng.randint(1, 4), rng.randint(5, 16), rng.randint(5, 16)])
    n = rng.choice([2, 2, 3, 3, 3, 4, 4, 5])
    funcs = []
    for i in range(n):
        fd = dims if i == n - 1 or dims == 1 else (2 if rng.random() < 0.8 else 1)
        t = rng.choice(ALL_TYPES) if rng.random() < 0.9 else rng.choice([T["i32"], T["f32"], T["u8"]])
        funcs.append(FuncInfo(i, f"f{i}", t, fd))
    for i in range(1, n):
        prods = {i - 1}
        if i >= 2 and rng.random() < 0.35:
            prods.add(rng.randrange(0, i - 1))
        funcs[i].producers = sorted(prods)
        for pi in prods:
            funcs[pi].consumers.append(i)
    # A producer must be exact when any consumer needs it exact (a non-float
    # consumer, or an exact one).
    for i in range(n - 1, -1, -1):
        f = funcs[i]
        f.exact = any(not funcs[c].t.is_float or funcs[c].exact for c in f.consumers)
    p = Pipeline(seed, k, dims, w, h, funcs)
    for f in funcs:
        f.expr = Gen(rng, p, f, avoid).func_expr()
    mode = rng.random()
    if mode < 0.3:
        p.unsched = [f"{f.name}.compute_root();" for f in funcs[:-1]]
    scheduler = Scheduler(rng, p, avoid)
    scheduler.run()
    if "compute_with" not in avoid:
        add_compute_with(p, scheduler, random.Random(f"{seed}:{k}:compute_with"))
    gen_extras.add_boundary_conditions(p, avoid)
    gen_extras.add_schedule_extras(p, scheduler, avoid)
    return p


ALIGNS = [
    "",
    "LoopAlignStrategy::Auto",
    "LoopAlignStrategy::NoAlign",
    "LoopAlignStrategy::AlignStart",
    "LoopAlignStrategy::AlignEnd",
]


def add_compute_with(p: Pipeline, s: Scheduler, rng: random.Random) -> None:
    """Sometimes: a copy ("twin") of a compute_root Func, with the same definition and loop schedule, read by
    one consumer in place of its first call of the original, computed with the original down to one of its
    loops. Neither depends on the other, so the fusion is legal; the values do not change. From a generator
    of its own, so each seed keeps its pipelines and schedules."""
    if rng.random() >= 0.3:
        return
    candidates = []
    for fi, f in enumerate(p.funcs[:-1]):
        if f"{f.name}.compute_root();" not in p.sched or fi not in s.loops:
            continue
        if any(f".compute_at({f.name}," in ln for ln in p.sched):
            continue  # a producer computed inside its loops: the copy could not read it
        calls = {c: len(re.findall(rf"\b{f.name}\(", p.funcs[c].expr.render())) for c in f.consumers}
        # The original must stay in use once the copy takes one of its calls.
        candidates += [(fi, c) for c, n in calls.items() if n >= 1 and sum(calls.values()) >= 2]
    if not candidates:
        return
    fi, c = rng.choice(candidates)
    f = p.funcs[fi]
    # Fused down to a named loop outside any vectorized or unrolled one (outermost first), and outside any
    # loop no Var names (upstream names those apart in the two Funcs, and refuses to fuse them).
    levels = []
    for lp in reversed(s.loops[fi]):
        if lp.kind in ("vectorized", "unrolled") or lp.anon:
            break
        levels.append(lp.name)
    if not levels:
        return
    twin = f"{f.name}w"
    p.twins.append((twin, f.name, p.funcs[c].name))
    own = [ln for ln in p.sched if ln.startswith(f"{f.name}.")]
    p.sched += [twin + ln[len(f.name) :] for ln in own]
    align = rng.choice(ALIGNS)
    p.sched.append(f"{twin}.compute_with({f.name}, {rng.choice(levels)}{', ' + align if align else ''});")
    p.tags.add("compute_with")


# --------------------------------------------------------------------------
# C++ output

PROLOGUE = r"""// Generated by tests/differential/gen_pipelines.py. Builds against our
// Halide.h or upstream's:
//   c++ -std=c++17 THIS.cpp $(pkg-config --cflags --libs halide) -Wl,-rpath,LIBDIR
//   c++ -std=c++17 THIS.cpp -I UPSTREAM/include -L UPSTREAM/lib64 -lHalide -Wl,-rpath,UPSTREAM/lib64 -lpthread -ldl
// Each pipeline prints "P <id> U <values>" (unscheduled) and "P <id> S <values>" (scheduled).
#include "Halide.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

using namespace Halide;
using namespace Halide::ConciseCasts;

namespace {

constexpr int IN_MIN = %(in_min)d, IN_SIZE = %(in_size)d;

uint64_t mix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// The value of input `id` of type T at (x, y): id 0 covers the whole range of
// an integer type (every 8th value an extreme one) or exact multiples of 1/8
// in [-128, 128] for floats; id 1 is small integers (|v| <= 16) or any float
// in [-1000, 1000].
template <typename T> T fill_value(int id, int x, int y) {
    const uint64_t salt =
        sizeof(T) * 131 + (std::is_signed<T>::value ? 7 : 0) + (std::is_floating_point<T>::value ? 1000 : 0);
    uint64_t h = mix64((uint64_t)id * 0x1000193ULL + salt * 0x100000001b3ULL +
                       (uint64_t)(uint32_t)(x + 4096) * 65599ULL + (uint64_t)(uint32_t)(y + 4096) * 0x9e3779b1ULL);
    if constexpr (std::is_floating_point<T>::value) {
        if (id == 0) {
            switch (h %% 16) {
            case 0: return T(0);
            case 1: return -T(0);
            case 2: return T(1);
            case 3: return T(-1);
            case 4: return T(128);
            case 5: return T(-128);
            default: return T((double)((int64_t)((h >> 8) %% 2049) - 1024) / 8.0);
            }
        }
        return T((double)(h >> 11) / 9007199254740992.0 * 2000.0 - 1000.0);
    } else {
        using U = typename std::make_unsigned<T>::type;
        if (id == 1) {
            if (std::is_signed<T>::value) return (T)((int64_t)((h >> 8) %% 33) - 16);
            return (T)((h >> 8) %% 17);
        }
        if (h %% 8 == 0) {
            const T mn = std::numeric_limits<T>::min(), mx = std::numeric_limits<T>::max();
            const T ext[] = {mn, mx, (T)(mn + 1), (T)(mx - 1), (T)0, (T)1, (T)(std::is_signed<T>::value ? -1 : 2),
                             (T)(mx / 2), (T)(mx / 2 + 1)};
            return ext[(h >> 8) %% 9];
        }
        U u = (U)(h >> 5);
        T v;
        std::memcpy(&v, &u, sizeof(T));
        return v;
    }
}

template <typename T> Buffer<T> make_input(int id) {
    Buffer<T> b(IN_SIZE, IN_SIZE);
    for (int y = 0; y < IN_SIZE; y++) {
        for (int x = 0; x < IN_SIZE; x++) {
            b(x, y) = fill_value<T>(id, x + IN_MIN, y + IN_MIN);
        }
    }
    return b;
}

template <typename T> void append_value(std::string &s, T v) {
    char buf[64];
    if constexpr (std::is_same<T, bool>::value) {
        std::snprintf(buf, sizeof(buf), "%%d", v ? 1 : 0);
    } else if constexpr (std::is_floating_point<T>::value) {
        if (std::isnan(v)) {
            std::snprintf(buf, sizeof(buf), "nan");
        } else if (std::isinf(v)) {
            std::snprintf(buf, sizeof(buf), v > 0 ? "inf" : "-inf");
        } else {
            std::snprintf(buf, sizeof(buf), sizeof(T) == 4 ? "%%.9g" : "%%.17g", (double)v);
        }
    } else if constexpr (std::is_signed<T>::value) {
        std::snprintf(buf, sizeof(buf), "%%lld", (long long)v);
    } else {
        std::snprintf(buf, sizeof(buf), "%%llu", (unsigned long long)v);
    }
    s += ' ';
    s += buf;
}

struct Entry {
    const char *id;
    void (*fn)(bool);
};

const char *g_id = "";
bool g_sched = false;

template <typename T> void emit(Buffer<T> out, int w, int h, int dims) {
    std::string s = std::string("P ") + g_id + (g_sched ? " S" : " U");
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            append_value<T>(s, dims == 1 ? out(x) : out(x, y));
        }
    }
    std::puts(s.c_str());
    std::fflush(stdout);
}

void emit_error(const char *what) {
    std::string m(what);
    for (char &c : m) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    if (m.size() > 400) m = m.substr(0, 400) + "...";
    std::printf("P %%s %%s ERR %%s\n", g_id, g_sched ? "S" : "U", m.c_str());
    std::fflush(stdout);
}

"""

EPILOGUE = r"""
}  // namespace

int main(int argc, char **argv) {
    // argv[1], argv[2]: start at entry N, variant V (0 = unscheduled, 1 = scheduled).
    int from = argc > 1 ? std::atoi(argv[1]) : 0;
    int from_variant = argc > 2 ? std::atoi(argv[2]) : 0;
    init_inputs();
    const int n = (int)(sizeof(entries) / sizeof(entries[0]));
    for (int i = from; i < n; i++) {
        for (int v = (i == from ? from_variant : 0); v < 2; v++) {
            g_id = entries[i].id;
            g_sched = v == 1;
            std::printf("B %d %d\n", i, v);
            std::fflush(stdout);
            try {
                entries[i].fn(v == 1);
            } catch (const Halide::Error &e) {
                emit_error(e.what());
            } catch (const std::exception &e) {
                emit_error(e.what());
            }
        }
    }
    std::printf("DONE\n");
    return 0;
}
"""


def render_pipeline(p: Pipeline) -> str:
    out = p.out
    lines = [
        f"// Pipeline {p.k} of seed {p.seed}: {p.dims}-D, {p.width}x{p.height}, {len(p.funcs)} Funcs, "
        f"output {out.t.name}; tags: {','.join(sorted(p.tags)) or '-'}",
        f"void run_{p.ident}(bool sched) {{",
        '    Var x("x"), y("y");',
        "    (void)y;",
    ]
    for f in p.funcs:
        lines.append(f'    Func {f.name}("{f.name}");')
    for twin, _, _ in p.twins:
        lines.append(f'    Func {twin}("{twin}");')
    lines += [f"    {d}" for d in p.decls]
    lines += [f"    {d}" for d in definitions(p)]
    lines.append("    if (sched) {")
    for v in p.sched_vars:
        if any(re.search(rf"\b{v}\b", s) for s in p.sched):
            lines.append(f'        Var {v}("{v}");')
    lines += [f"        {d}" for d in rvar_decls(p)]
    for s in p.sched:
        lines.append(f"        {s}")
    lines.append("    } else {")
    for s in p.unsched:
        lines.append(f"        {s}")
    lines.append("    }")
    sizes = f"{p.width}, {p.height}" if p.dims == 2 else f"{p.width}"
    lines.append(f"    Buffer<{out.t.cpp}> out = {out.name}.realize({{{sizes}}});")
    lines.append(f"    emit<{out.t.cpp}>(out, {p.width}, {p.height}, {p.dims});")
    lines.append("}")
    return "\n".join(lines) + "\n"


def definitions(p: Pipeline) -> list[str]:
    """Each Func's pure definition followed by its updates, producers first."""

    def rendered(e: Node) -> str:
        text = e.render()
        for src, name in p.renames:
            text = re.sub(rf"\b{src}\(", f"{name}(", text)
        return text

    out = []
    for f in p.funcs:
        assert f.expr is not None
        args = "x, y" if f.dims == 2 else "x"
        text = rendered(f.expr)
        for twin, of, consumer in p.twins:
            if consumer == f.name:
                text = re.sub(rf"\b{of}\(", f"{twin}(", text, count=1)
        out.append(f"{f.name}({args}) = {text};")
        out += [f"{f.name}({u.lhs}) {u.op} {rendered(u.expr)};" for u in f.updates]
        out += [f"{twin}({args}) = {rendered(f.expr)};" for twin, of, _ in p.twins if of == f.name]
    return out


def rvar_decls(p: Pipeline) -> list[str]:
    return [f'RVar {v}("{v}");' for v in p.sched_rvars if any(re.search(rf"\b{v}\b", s) for s in p.sched)]


def render_program(pipelines: list[Pipeline], header_comment: str = "") -> str:
    parts = []
    if header_comment:
        parts.append("".join(f"// {ln}\n" for ln in header_comment.splitlines()))
    parts.append(PROLOGUE % {"in_min": IN_MIN, "in_size": IN_SIZE})
    inputs = sorted(set().union(*[p.inputs for p in pipelines]) if pipelines else set())
    for tn, ident in inputs:
        parts.append(f"Buffer<{T[tn].cpp}> in_{tn}_{ident};\n")
    parts.append("\nvoid init_inputs() {\n")
    for tn, ident in inputs:
        parts.append(f"    in_{tn}_{ident} = make_input<{T[tn].cpp}>({ident});\n")
    parts.append("}\n\n")
    for p in pipelines:
        parts.append(render_pipeline(p))
        parts.append("\n")
    parts.append("const Entry entries[] = {\n")
    for p in pipelines:
        parts.append(f'    {{"{p.ident}", run_{p.ident}}},\n')
    if not pipelines:
        parts.append('    {"none", nullptr},\n')
    parts.append("};\n")
    parts.append(EPILOGUE)
    return "".join(parts)


def render_batch(pipelines: list[Pipeline]) -> str:
    """The pipelines in the form interp.cpp reads (the same C++ statements as render_pipeline)."""
    out = []
    for p in pipelines:
        out.append(f"PIPELINE {p.ident} {p.dims} {p.width} {p.height} {p.out.name} {p.out.t.name}")
        out.append("FUNCS " + " ".join([f.name for f in p.funcs] + [t for t, _, _ in p.twins]))
        out += [f"DEF {d}" for d in p.decls + definitions(p)]
        out += [f"SCHED {d}" for d in rvar_decls(p)]
        out += [f"SCHED {s}" for s in p.sched]
        out += [f"UNSCHED {s}" for s in p.unsched]
        out.append("END")
    return "\n".join(out) + "\n"


def metadata(p: Pipeline) -> dict[str, object]:
    return {
        "id": p.ident,
        "seed": p.seed,
        "k": p.k,
        "type": p.out.t.name,
        "tolerance": p.tolerance,
        "tags": sorted(p.tags),
        "width": p.width,
        "height": p.height,
        "dims": p.dims,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="index of the first pipeline")
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--only", type=int, action="append", help="only pipeline K (repeatable)")
    ap.add_argument("--avoid", default="", help="comma-separated features to leave out: " + ", ".join(AVOIDABLE))
    ap.add_argument("-o", "--output", default="-", help="C++ file to write (default stdout)")
    ap.add_argument("--meta", help="JSON file for the per-pipeline metadata")
    args = ap.parse_args(argv)
    avoid = {a for a in args.avoid.split(",") if a}
    ks = args.only or list(range(args.first, args.first + args.count))
    pipelines = [generate_pipeline(args.seed, k, avoid) for k in ks]
    src = render_program(pipelines)
    if args.output == "-":
        sys.stdout.write(src)
    else:
        with open(args.output, "w") as fh:
            fh.write(src)
    if args.meta:
        with open(args.meta, "w") as fh:
            json.dump([metadata(p) for p in pipelines], fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
