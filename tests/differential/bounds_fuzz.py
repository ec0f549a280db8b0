#!/usr/bin/env python3
"""Bounds fuzzer: random integer index expressions against their true values and upstream Halide 21.

Each case is `f(x) = in(index(x))` for a random integer expression of the
pure Var x over every integer type (int8..int64, uint8..uint64) with
+ - * / % min max clamp select casts saturating_cast abs absd shifts & | ^ ~
popcount/clz/ctz, the halving, widening, saturating and mul_shift_right
operations, lerp and likely, and now and then a value taken through a
double (`cast<T>(cast<double>(e) * 2^k)`). `infer_input_bounds` over a random output
region [min, min + extent) gives the region of `in` each compiler requires;
this is compared with

- the indices really read, evaluated here in Python integers with Halide's
  semantics (wrap-around, Euclidean division and modulo, x / 0 == 0,
  shifts by a negative amount the other way). Expressions whose value is
  left unspecified by the language are never generated (signed 32/64-bit
  overflow, shifts by the bit width or more): the evaluator rejects them
  and the generator draws again. A required region that misses an index
  read is UNSOUND (the pipeline reads outside its input: the worst bug).
- upstream Halide 21's region for the same case (run in its own
  interpreter, `env -u PYTHONPATH build/upstream21/bin/python`): a region
  wider than upstream's (or an error where upstream gives a sound region)
  is WIDER; where upstream's misses an index read it is upstream-unsound.

With --realize both compilers also realize `g(x) = index(x)` and the values
are checked against the evaluator (a mismatch is an evaluator bug or a
codegen difference, and the case is not judged).

    .venv/bin/python tests/differential/bounds_fuzz.py --seed 1 --count 500        # ours vs upstream
    .venv/bin/python tests/differential/bounds_fuzz.py --seed 1 --count 500 --realize
    .venv/bin/python tests/differential/bounds_fuzz.py --seed 1 --only 17 --show   # one case, its expression
    .venv/bin/python tests/differential/bounds_fuzz.py --seed 1 --count 200 --no-upstream  # soundness only

Ours is the `halide` module on PYTHONPATH (build/dev/install/site, with
LD_LIBRARY_PATH to its lib folder, as the compiler pytest runs it).
tests/python/test_compiler_bounds_fuzz.py runs a fixed seed for soundness.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
UPSTREAM_PYTHON = ROOT / "build" / "upstream21" / "bin" / "python"

TYPES = [("i", 8), ("i", 16), ("i", 32), ("i", 64), ("u", 8), ("u", 16), ("u", 32), ("u", 64)]


class Undefined(Exception):
    """The expression's value is left unspecified by the language for some x."""


# ---------------------------------------------------------------- semantics


def tmin(t):
    return -(1 << (t[1] - 1)) if t[0] == "i" else 0


def tmax(t):
    return (1 << (t[1] - 1)) - 1 if t[0] == "i" else (1 << t[1]) - 1


def wrap(v, t):
    bits = t[1]
    v &= (1 << bits) - 1
    if t[0] == "i" and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def arith(v, t):
    """An arithmetic result: signed 32/64-bit overflow is undefined, the rest wraps."""
    if t[0] == "i" and t[1] >= 32 and not tmin(t) <= v <= tmax(t):
        raise Undefined(f"overflow of {v} in {t}")
    return wrap(v, t)


def euclid_div(a, b):
    if b == 0:
        return 0
    r = a % abs(b)
    return (a - r) // b


def euclid_mod(a, b):
    return 0 if b == 0 else a % abs(b)


def shift(a, k, t, left):
    """a << k (left) or a >> k of type t; a negative k shifts the other way."""
    if not left:
        k = -k
    if abs(k) >= t[1]:
        raise Undefined(f"shift by {k} in {t}")
    if k >= 0:
        return arith(a << k, t)
    return a >> -k  # floor, arithmetic for signed, and a >= 0 for unsigned


def bits_of(a, t):
    return a & ((1 << t[1]) - 1)


def clz(a, t):
    u = bits_of(a, t)
    return t[1] - u.bit_length()


def ctz(a, t):
    u = bits_of(a, t)
    if u == 0:
        return t[1]
    return (u & -u).bit_length() - 1


def lerp(a, b, w, t):
    n = t[1]
    off = 1 << (n - 1) if t[0] == "i" else 0
    a += off
    b += off
    p = a * ((1 << n) - 1 - w) + b * w + (1 << (n - 1))
    p &= (1 << (2 * n)) - 1
    r = (((p >> n) + p) >> n) & ((1 << n) - 1)
    return r - off


def rounding_shift_right(v, q):
    return v if q == 0 else (v + (1 << (q - 1))) >> q


# What the last truth() saw: casts to int32/int64 that changed a value
# (defined, wrapping, but upstream's bounds assume they do not happen).
NOTES: set[str] = set()


def evaluate(node, xv):
    """The value of a node at x = xv (Python int), or Undefined."""
    op, t = node[0], tuple(node[1])
    a = node[2:]
    if op == "x":
        return xv
    if op == "const":
        return a[0]
    ev = [evaluate(c, xv) if isinstance(c, list) else c for c in a]
    if op == "cast":
        v = wrap(ev[0], t)
        if v != ev[0] and t[0] == "i" and t[1] >= 32:
            NOTES.add("signed-cast-wraps")  # upstream assumes it does not
        return v
    if op == "satcast":
        return min(max(ev[0], tmin(t)), tmax(t))
    if op == "add":
        return arith(ev[0] + ev[1], t)
    if op == "sub":
        return arith(ev[0] - ev[1], t)
    if op == "mul":
        return arith(ev[0] * ev[1], t)
    if op == "div":
        return arith(euclid_div(ev[0], ev[1]), t)
    if op == "mod":
        return euclid_mod(ev[0], ev[1])
    if op == "min":
        return min(ev[0], ev[1])
    if op == "max":
        return max(ev[0], ev[1])
    if op == "clamp":
        return min(max(ev[0], ev[1]), ev[2])
    if op == "select":
        cmp, p, q = ev[0], ev[1], ev[2]
        c = {"lt": p < q, "le": p <= q, "eq": p == q, "ne": p != q}[cmp]
        return ev[3] if c else ev[4]
    if op == "abs":
        return abs(ev[0])
    if op == "absd":
        return abs(ev[0] - ev[1])
    if op in ("shl", "shr"):
        return shift(ev[0], ev[1], t, op == "shl")
    if op == "and":
        return wrap(ev[0] & ev[1], t)
    if op == "or":
        return wrap(ev[0] | ev[1], t)
    if op == "xor":
        return wrap(ev[0] ^ ev[1], t)
    if op == "not":
        return wrap(~ev[0], t)
    if op == "popcount":
        return bin(bits_of(ev[0], t)).count("1")
    if op == "clz":
        return clz(ev[0], t)
    if op == "ctz":
        return ctz(ev[0], t)
    if op == "hadd":
        return (ev[0] + ev[1]) >> 1
    if op == "rhadd":
        return (ev[0] + ev[1] + 1) >> 1
    if op == "hsub":
        return wrap((ev[0] - ev[1]) >> 1, t)
    if op in ("wadd", "wsub", "wmul"):
        v = {"wadd": ev[0] + ev[1], "wsub": ev[0] - ev[1], "wmul": ev[0] * ev[1]}[op]
        return wrap(v, t)
    if op == "sadd":
        return min(max(ev[0] + ev[1], tmin(t)), tmax(t))
    if op == "ssub":
        return min(max(ev[0] - ev[1], tmin(t)), tmax(t))
    if op in ("msr", "rmsr"):
        p, q = ev[0] * ev[1], ev[2]
        v = p >> q if op == "msr" else rounding_shift_right(p, q)
        return min(max(v, tmin(t)), tmax(t))
    if op == "lerp":
        return lerp(ev[0], ev[1], ev[2], t)
    if op == "likely":
        return ev[0]
    if op == "fscale":
        # cast<T>(cast<double>(a) * 2^k): int to double rounds to nearest, double to int truncates
        # (and is undefined out of T's range).
        r = math.trunc(float(ev[0]) * (2.0 ** ev[1]))
        if not tmin(t) <= r <= tmax(t):
            raise Undefined(f"{r} does not fit {t}")
        return r
    raise ValueError(op)


def node_type(node):
    return tuple(node[1])


# ---------------------------------------------------------------- generator


class Gen:
    """Random expressions of x (an int32 Var) of a given type."""

    def __init__(self, rng: random.Random, float_rng: random.Random | None = None):
        self.r = rng
        # Whether a node goes through a double (cast<T>(cast<double>(e) * 2^k)): drawn from an RNG of
        # its own, so a seed's other choices stay.
        self.f = float_rng

    def const(self, t, lo=None, hi=None):
        r = self.r
        if lo is None:
            choice = r.random()
            if choice < 0.5:
                lo, hi = -20, 20
            elif choice < 0.8:
                lo, hi = -300, 300
            else:
                lo, hi = max(tmin(t), -(1 << 31)), min(tmax(t), (1 << 31) - 1)
        v = wrap(r.randint(lo, hi), t)
        return ["const", list(t), v]

    def leaf(self, t):
        r = self.r
        if r.random() < 0.2:
            return self.const(t)
        base = ["x", ["i", 32]]
        if r.random() < 0.5:
            base = ["add", ["i", 32], base, ["const", ["i", 32], r.randint(-100, 100)]]
        return base if t == ("i", 32) else ["cast", list(t), base]

    def small(self, t):
        """A value of t in a small range (a divisor, a shift amount)."""
        r = self.r
        if r.random() < 0.5:
            return self.const(t, -9, 9)
        lo = r.randint(-8, 8) if t[0] == "i" else r.randint(0, 8)
        hi = lo + r.randint(0, 8)
        return ["clamp", list(t), self.expr(t, 1), ["const", list(t), wrap(lo, t)], ["const", list(t), wrap(hi, t)]]

    def other_type(self):
        return self.r.choice(TYPES)

    def expr(self, t, depth):
        e = self.expr_of(t, depth)
        if self.f is not None and self.f.random() < 0.04:
            e = ["fscale", list(t), e, self.f.randint(-3, 3)]
        return e

    def expr_of(self, t, depth):
        r = self.r
        t = tuple(t)
        if depth <= 0 or r.random() < 0.15:
            return self.leaf(t)
        lt = list(t)
        d = depth - 1
        ops = "add sub mul div mod min max clamp select cast satcast and or xor not shl shr bitcount halving sat likely"
        ops = ops.split()
        if t[0] == "u":
            ops += ["abs", "absd"]
        if t[1] >= 16:
            ops += ["widening"]
        if t[1] <= 32:
            ops += ["msr", "lerp"]
        op = r.choice(ops)
        if op in ("add", "sub", "min", "max"):
            return [op, lt, self.expr(t, d), self.expr(t, d)]
        if op == "mul":
            k = self.small(t) if r.random() < 0.7 else self.expr(t, d)
            return ["mul", lt, self.expr(t, d), k]
        if op in ("div", "mod"):
            return [op, lt, self.expr(t, d), self.small(t)]
        if op == "clamp":
            a, b = sorted([self.const(t)[2], self.const(t)[2]])
            return ["clamp", lt, self.expr(t, d), ["const", lt, a], ["const", lt, b]]
        if op == "select":
            u = self.other_type()
            cmp = r.choice(["lt", "le", "eq", "ne"])
            return ["select", lt, cmp, self.expr(u, d), self.expr(u, d), self.expr(t, d), self.expr(t, d)]
        if op in ("cast", "satcast"):
            return [op, lt, self.expr(self.other_type(), d)]
        if op in ("and", "or", "xor"):
            b = self.const(t) if r.random() < 0.4 else self.expr(t, d)
            return [op, lt, self.expr(t, d), b]
        if op == "not":
            return ["not", lt, self.expr(t, d)]
        if op in ("shl", "shr"):
            u = (r.choice("iu"), t[1])
            return [op, lt, self.expr(t, d), self.small(u)]
        if op == "bitcount":
            return [r.choice(["popcount", "clz", "ctz"]), lt, self.expr(t, d)]
        if op == "halving":
            return [r.choice(["hadd", "hsub", "rhadd"]), lt, self.expr(t, d), self.expr(t, d)]
        if op == "sat":
            return [r.choice(["sadd", "ssub"]), lt, self.expr(t, d), self.expr(t, d)]
        if op == "likely":
            return ["likely", lt, self.expr(t, d)]
        if op == "abs":
            return ["abs", lt, self.expr(("i", t[1]), d)]
        if op == "absd":
            u = (r.choice("iu"), t[1])
            return ["absd", lt, self.expr(u, d), self.expr(u, d)]
        if op == "widening":
            # widening_add/mul keep their operands' sign; widening_sub is signed.
            half = t[1] // 2
            kinds = ["wadd", "wmul"] + (["wsub"] if t[0] == "i" else [])
            kind = r.choice(kinds)
            u = (r.choice("iu") if kind == "wsub" else t[0], half)
            return [kind, lt, self.expr(u, d), self.expr(u, d)]
        if op == "msr":
            q = r.randint(0, 2 * t[1] - 1)
            return [r.choice(["msr", "rmsr"]), lt, self.expr(t, d), self.expr(t, d), q]
        if op == "lerp":
            return ["lerp", lt, self.expr(t, d), self.expr(t, d), self.expr(("u", t[1]), d)]
        raise AssertionError(op)

    def case(self, max_depth=4):
        t = self.r.choice(TYPES)
        e = self.expr(t, self.r.randint(1, max_depth))
        if t != ("i", 32):
            e = ["cast", ["i", 32], e]
        mn = self.r.randint(-120, 120)
        ext = self.r.randint(1, 48)
        return {"tree": e, "min": mn, "extent": ext}


def truth(case):
    """(min, max) of the index over the region, or raises Undefined."""
    NOTES.clear()
    vals = [evaluate(case["tree"], xv) for xv in range(case["min"], case["min"] + case["extent"])]
    return min(vals), max(vals), vals


def generate(seed, k, max_depth=4, tries=200):
    """Case k of seed: the first draw of its RNG whose value is specified everywhere."""
    rng = random.Random(f"bounds:{seed}:{k}")
    g = Gen(rng, random.Random(f"bounds:{seed}:{k}:float"))
    for _ in range(tries):
        c = g.case(max_depth)
        try:
            lo, hi, vals = truth(c)
        except Undefined:
            continue
        c["truth"] = [lo, hi]
        c["values"] = vals
        c["notes"] = sorted(NOTES)
        return c
    return None


def show(node):
    op = node[0]
    t = node_type(node)
    ts = f"{'int' if t[0] == 'i' else 'uint'}{t[1]}"
    if op == "x":
        return "x"
    if op == "const":
        return f"{ts}({node[2]})"
    args = [show(c) if isinstance(c, list) else str(c) for c in node[2:]]
    return f"{op}<{ts}>(" + ", ".join(args) + ")"


# ---------------------------------------------------------------- building (in a worker)


def build(hl, node, x):
    op, t = node[0], tuple(node[1])
    ht = (hl.Int if t[0] == "i" else hl.UInt)(t[1])
    if op == "x":
        return x
    if op == "const":
        v = node[2]
        if -(1 << 31) <= v < (1 << 31):
            return hl.cast(ht, hl.Expr(v)) if t != ("i", 32) else hl.Expr(v)
        # A wide constant: from two 32-bit halves.
        hi, lo = v >> 32, v & 0xFFFFFFFF
        wide = hl.Int(64) if t[0] == "i" else hl.UInt(64)
        e = (hl.cast(wide, hl.Expr(hi)) << hl.cast(wide, hl.Expr(32))) | hl.cast(
            wide, hl.cast(hl.UInt(32), hl.Expr(wrap(lo, ("i", 32))))
        )
        return hl.cast(ht, e)
    c = [build(hl, a, x) if isinstance(a, list) else a for a in node[2:]]
    if op == "cast":
        return hl.cast(ht, c[0])
    if op == "satcast":
        return hl.saturating_cast(ht, c[0])
    if op == "add":
        return c[0] + c[1]
    if op == "sub":
        return c[0] - c[1]
    if op == "mul":
        return c[0] * c[1]
    if op == "div":
        return c[0] / c[1]
    if op == "mod":
        return c[0] % c[1]
    if op == "min":
        return hl.min(c[0], c[1])
    if op == "max":
        return hl.max(c[0], c[1])
    if op == "clamp":
        return hl.clamp(c[0], c[1], c[2])
    if op == "select":
        p, q = c[1], c[2]
        cond = {"lt": lambda: p < q, "le": lambda: p <= q, "eq": lambda: p == q, "ne": lambda: p != q}[c[0]]()
        return hl.select(cond, c[3], c[4])
    if op == "abs":
        return hl.abs(c[0])
    if op == "absd":
        return hl.absd(c[0], c[1])
    if op == "shl":
        return c[0] << c[1]
    if op == "shr":
        return c[0] >> c[1]
    if op == "and":
        return c[0] & c[1]
    if op == "or":
        return c[0] | c[1]
    if op == "xor":
        return c[0] ^ c[1]
    if op == "not":
        return ~c[0]
    if op == "popcount":
        return hl.popcount(c[0])
    if op == "clz":
        return hl.count_leading_zeros(c[0])
    if op == "ctz":
        return hl.count_trailing_zeros(c[0])
    if op == "hadd":
        return hl.halving_add(c[0], c[1])
    if op == "rhadd":
        return hl.rounding_halving_add(c[0], c[1])
    if op == "hsub":
        return hl.halving_sub(c[0], c[1])
    if op == "wadd":
        return hl.widening_add(c[0], c[1])
    if op == "wsub":
        return hl.widening_sub(c[0], c[1])
    if op == "wmul":
        return hl.widening_mul(c[0], c[1])
    if op == "sadd":
        return hl.saturating_add(c[0], c[1])
    if op == "ssub":
        return hl.saturating_sub(c[0], c[1])
    if op in ("msr", "rmsr"):
        q = hl.cast(hl.UInt(t[1]), hl.Expr(c[2]))
        return (hl.mul_shift_right if op == "msr" else hl.rounding_mul_shift_right)(c[0], c[1], q)
    if op == "lerp":
        return hl.lerp(c[0], c[1], c[2])
    if op == "likely":
        return hl.likely(c[0])
    if op == "fscale":
        return hl.cast(ht, hl.cast(hl.Float(64), c[0]) * hl.cast(hl.Float(64), hl.Expr(2.0 ** c[1])))
    raise ValueError(op)


def run_case(hl, case, realize=False):
    """Our region (lo, hi) or an error, and with `realize` the values of the index."""
    x = hl.Var("x")
    out = {}
    try:
        idx = build(hl, case["tree"], x)
        assert idx.type() == hl.Int(32), idx.type()
        inp = hl.ImageParam(hl.UInt(8), 1, "in")
        f = hl.Func("f")
        f[x] = inp[idx]
        b = hl.Buffer(hl.UInt(8), [case["extent"]])
        b.set_min([case["min"]])
        f.infer_input_bounds(b)
        g = inp.get()
        out["region"] = [g.dim(0).min(), g.dim(0).min() + g.dim(0).extent() - 1]
    except Exception as e:  # noqa: BLE001 - any refusal is a result
        out["error"] = f"{type(e).__name__}: {str(e).strip().splitlines()[-1][:200] if str(e).strip() else ''}"
    if realize:
        try:
            gf = hl.Func("g")
            gf[x] = build(hl, case["tree"], x)
            b = hl.Buffer(hl.Int(32), [case["extent"]])
            b.set_min([case["min"]])
            gf.realize(b)
            out["values"] = [int(b[i]) for i in range(case["min"], case["min"] + case["extent"])]
        except Exception as e:  # noqa: BLE001
            out["realize_error"] = f"{type(e).__name__}: {str(e)[:200]}"
    return out


def worker():
    """Reads cases as JSON lines on stdin, answers each with a JSON line."""
    import resource

    limit = 8 << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import halide as hl

    for line in sys.stdin:
        req = json.loads(line)
        res = run_case(hl, req, req.get("realize", False))
        res["id"] = req["id"]
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()


class Worker:
    def __init__(self, cmd, env):
        self.cmd, self.env = cmd, env
        self.p = None

    def ask(self, req):
        for _ in range(2):
            if self.p is None or self.p.poll() is not None:
                self.p = subprocess.Popen(
                    self.cmd,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    env=self.env,
                )
            try:
                self.p.stdin.write(json.dumps(req) + "\n")
                self.p.stdin.flush()
                line = self.p.stdout.readline()
            except BrokenPipeError:
                line = ""
            if line:
                return json.loads(line)
            self.p.wait()
            return {"id": req["id"], "error": f"crash (exit {self.p.returncode})"}
        raise AssertionError

    def close(self):
        if self.p is not None and self.p.poll() is None:
            self.p.stdin.close()
            self.p.wait()


def verdict(case, ours, up):
    """The judgements of one case: a list of tags."""
    lo, hi = case["truth"]
    tags = []

    def sound(res):
        return "region" in res and res["region"][0] <= lo and hi <= res["region"][1]

    if "region" in ours and not sound(ours):
        tags.append("UNSOUND")
    if up is None:
        return tags or ["ok"]
    if "region" in up and not sound(up):
        tags.append("upstream-unsound" + ("(cast-wraps)" if case.get("notes") else ""))
    if sound(up):
        if "error" in ours:
            tags.append("WIDER(error)")
        elif sound(ours):
            o, u = ours["region"], up["region"]
            if o[0] < u[0] or o[1] > u[1]:
                tags.append("WIDER")
            elif o != u:
                tags.append("narrower")
            else:
                tags.append("same")
    elif "error" in up and sound(ours):
        tags.append("ours-only-bounded")
    elif "error" in up and "error" in ours:
        tags.append("both-error")
    return tags or ["other"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--only", type=int, help="run case K of the seed only")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--no-upstream", action="store_true")
    ap.add_argument("--realize", action="store_true", help="also check realized values against the evaluator")
    ap.add_argument("--show", action="store_true", help="print every case's expression and regions")
    ap.add_argument("--json", help="write every judged case to this file (JSON lines)")
    args = ap.parse_args()

    me = [sys.executable, str(Path(__file__).resolve()), "--worker"]
    ours = Worker(me, dict(os.environ))
    up_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    upstream = None if args.no_upstream else Worker([str(UPSTREAM_PYTHON), *me[1:]], up_env)

    ks = [args.only] if args.only is not None else range(args.first, args.first + args.count)
    counts = collections.Counter()
    out = open(args.json, "w") if args.json else None
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(2)
    for k in ks:
        case = generate(args.seed, k, args.depth)
        if case is None:
            counts["no-case"] += 1
            continue
        req = {"id": k, "tree": case["tree"], "min": case["min"], "extent": case["extent"], "realize": args.realize}
        fo = pool.submit(ours.ask, req)
        fu = pool.submit(upstream.ask, req) if upstream else None
        o, u = fo.result(), (fu.result() if fu else None)
        bad_values = [
            n for n, r in (("ours", o), ("upstream", u)) if r and "values" in r and r["values"] != case["values"]
        ]
        tags = verdict(case, o, u)
        if bad_values:
            tags = [f"values-differ({','.join(bad_values)})"]
        for t in tags:
            counts[t] += 1
        interesting = any(t.startswith(("WIDER", "UNSOUND", "upstream-unsound", "values")) for t in tags)
        if args.show or interesting:
            print(
                f"{args.seed}:{k} {' '.join(tags)} truth={case['truth']} x in [{case['min']}, "
                f"{case['min'] + case['extent'] - 1}]"
            )
            print(f"   ours={o.get('region', o.get('error'))} upstream={u.get('region', u.get('error')) if u else '-'}")
            print(f"   {show(case['tree'])}")
            if bad_values:
                print(
                    f"   values: want {case['values'][:8]} ours {o.get('values', o.get('realize_error'))[:8]} "
                    f"upstream {(u or {}).get('values', (u or {}).get('realize_error', []))[:8]}"
                )
        if out:
            out.write(json.dumps({"k": k, "case": case, "ours": o, "upstream": u, "tags": tags}) + "\n")
    ours.close()
    if upstream:
        upstream.close()
    print("summary:", dict(sorted(counts.items())))
    return 1 if counts["UNSOUND"] else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker()
    else:
        sys.exit(main())
