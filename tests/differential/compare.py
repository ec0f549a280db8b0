"""Parsing and classification of the differential programs' output.

A program prints "B <entry> <variant>" before running a pipeline variant and
"P <id> <U|S> <values...>" (or "P <id> <U|S> ERR <message>") after it. A
variant that started but never printed is a crash (or a hang, when the
runner killed it).

Each pipeline has four results: ours and upstream's, unscheduled (U) and
scheduled (S). classify() turns them into one verdict:

* pass            all four agree (within the float tolerance);
* both_error      a variant fails on both sides (values of the other agree);
* upstream_bug    upstream's two results disagree with each other, ours are
                  both equal to one of them (its unscheduled one, normally);
* error_mismatch  a variant fails on one side only (compile error, runtime
                  error, crash or hang): a failure;
* mismatch        anything else: a failure;
* harness_error   the interpreter could not parse a generated statement (a
                  bug of the generator or interpreter): a failure.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

OK, ERR, CRASH, HANG, MISSING = "OK", "ERR", "CRASH", "HANG", "MISSING"


@dataclass
class Result:
    status: str
    values: list[str]
    message: str = ""

    def describe(self) -> str:
        if self.status == OK:
            head = " ".join(self.values[:12])
            return head + (" ..." if len(self.values) > 12 else "")
        return f"{self.status} {self.message}".strip()


def parse_output(text: str) -> tuple[dict[tuple[str, str], Result], tuple[int, int] | None, bool]:
    """Results by (pipeline id, variant), the (entry, variant) started last
    without a result (or None), and whether the program reached DONE."""
    results: dict[tuple[str, str], Result] = {}
    started: tuple[int, int] | None = None
    done = False
    for line in text.splitlines():
        if line.startswith("B "):
            parts = line.split()
            if len(parts) == 3:
                started = (int(parts[1]), int(parts[2]))
        elif line.startswith("P "):
            parts = line.split(" ", 3)
            if len(parts) < 3:
                continue
            pid, var = parts[1], parts[2]
            rest = parts[3] if len(parts) > 3 else ""
            if rest.startswith("ERR"):
                results[(pid, var)] = Result(ERR, [], rest[4:])
            else:
                results[(pid, var)] = Result(OK, rest.split())
            started = None
        elif line == "DONE":
            done = True
    return results, started, done


def _float(s: str) -> float:
    return float(s)


def values_equal(a: Result, b: Result, typ: str, tol: float) -> tuple[bool, int]:
    """Whether two OK results agree; else the index of the first difference (-1: sizes differ)."""
    if len(a.values) != len(b.values):
        return False, -1
    if typ not in ("f32", "f64"):
        for i, (x, y) in enumerate(zip(a.values, b.values, strict=True)):
            if x != y:
                return False, i
        return True, 0
    rel = 2.0**-20 if typ == "f32" else 2.0**-48
    for i, (x, y) in enumerate(zip(a.values, b.values, strict=True)):
        if x == y:
            continue
        fx, fy = _float(x), _float(y)
        if math.isnan(fx) and math.isnan(fy):
            continue
        if fx == fy:  # -0 == 0, and different spellings
            continue
        if math.isinf(fx) or math.isinf(fy) or math.isnan(fx) or math.isnan(fy):
            return False, i
        if abs(fx - fy) <= tol + rel * max(abs(fx), abs(fy)):
            continue
        return False, i
    return True, 0


# Upstream errors that a generated pipeline never deserves: reading outside an input (the inputs
# cover everything a correct bounds inference can ask for, see gen_pipelines.py), and signed
# overflow found while constant-folding (every Int(32)/Int(64) operation the generator writes
# stays in range, so the overflow is in upstream's own rewriting, e.g. of clamp(x, 1, 2^31 - 2)
# under a ShiftInwards unroll).
UPSTREAM_FALSE_ERRORS = re.compile(
    r"Input buffer \w+ is accessed at -?\d+, which is (before|beyond)"
    r"|Signed integer overflow occurred during constant-folding"
    r"|^Error:\s*$"  # an error without a message (seen after RoundUp on a vectorized outer tile loop)
    # Upstream's bounds inference loses a clamp the simplifier proved half-redundant: f(clamp(
    # cast<int32_t>(u32 / 3), -3, 13), y) += 1 is "accessed over an unbounded domain" (every
    # coordinate a generated update writes at is bounded by construction, see gen_reductions.py).
    r"|is accessed over an unbounded domain in dimension"
    r"|may be accessed in an unbounded way in dimension"
    # The same for an update reading its own Func at such a coordinate (x & 15, which upstream
    # does not bound and ours bounds to [0, 15]).
    r"|calls function \S+ in an unbounded way in dimension"
    # Upstream's sliding window rewrites the loop it slides over into a ".$n" loop that starts
    # earlier; when that loop is unrolled (a split's inner var, constant extent before the
    # rewrite) its unroll step then refuses it. Minimal case (s1218065868_k12): f4.split(y, yo,
    # yi, 2).reorder(yo, yi, x).unroll(yi); f3.compute_at(f4, yi).store_at(f4, x).
    r"|Can only unroll for loops over a constant extent\. Loop over \S+\.\$n has extent"
)


def normalize_message(m: str) -> str:
    """An error message with the names and numbers that vary between pipelines blanked, for grouping."""
    m = re.sub(r"\$\d+", "", m)
    m = re.sub(r"\b(f\d+|f\d+_\w+|v\d+)\b", "F", m)
    m = re.sub(r"-?\d+", "N", m)
    return m[:160]


@dataclass
class Verdict:
    kind: str  # pass, both_error, upstream_bug, error_mismatch, mismatch
    detail: str  # which results differ, in words
    first_diff: str = ""  # the first differing values, for people


VARIANTS = ("U", "S")


def classify(res: dict[str, Result], typ: str, tol: float) -> Verdict:
    """res has keys oU, oS, uU, uS (ours / upstream, unscheduled / scheduled)."""
    for r in res.values():
        if r.status == ERR and r.message.startswith("HARNESS"):
            # The interpreter could not parse what the generator wrote: a bug of this harness.
            return Verdict("harness_error", r.message[:300])
    # Errors, crashes and hangs first.
    one_sided = []
    both_failed = []
    for v in VARIANTS:
        o, u = res["o" + v], res["u" + v]
        if (o.status == OK) != (u.status == OK):
            one_sided.append(v)
        elif o.status != OK:
            both_failed.append(v)
    if one_sided:
        v = one_sided[0]
        o, u = res["o" + v], res["u" + v]
        other = "U" if v == "S" else "S"
        if (
            o.status == OK
            and (u.status == CRASH or (u.status == ERR and UPSTREAM_FALSE_ERRORS.search(u.message)))
            and res["u" + other].status == OK
            and values_equal(o, res["u" + other], typ, tol)[0]
            and values_equal(res["o" + other], res["u" + other], typ, tol)[0]
        ):
            # Upstream crashed, or failed in a way the generated program rules out, and ours
            # computed what upstream's other variant did.
            return Verdict(
                "upstream_bug",
                f"upstream's {'scheduled' if v == 'S' else 'unscheduled'} variant fails: {u.status} "
                + normalize_message(u.message),
                u.message,
            )
        def upstream_fault(r: Result) -> bool:
            return r.status == CRASH or (r.status == ERR and bool(UPSTREAM_FALSE_ERRORS.search(r.message)))

        if (
            all(res["o" + w].status == OK for w in VARIANTS)
            and all(upstream_fault(res["u" + w]) for w in VARIANTS)
            and values_equal(res["oU"], res["oS"], typ, tol)[0]
        ):
            # Upstream crashes on both variants (no valid program may crash the compiler), or fails
            # them in a way the generated program rules out; ours agrees with itself.
            return Verdict("upstream_bug", "upstream fails both variants: " + normalize_message(u.message), u.message)
        name = "unscheduled" if v == "U" else "scheduled"
        failed = o if o.status != OK else u
        return Verdict(
            "error_mismatch",
            f"{name}: ours {o.status}, upstream {u.status}: {normalize_message(failed.message)}",
            f"ours: {o.describe()}\n    upstream: {u.describe()}",
        )

    def eq(a: str, b: str) -> bool:
        return values_equal(res[a], res[b], typ, tol)[0]

    def diff(a: str, b: str) -> str:
        ok, i = values_equal(res[a], res[b], typ, tol)
        if ok:
            return ""
        ra, rb = res[a], res[b]
        if i < 0:
            return f"{len(ra.values)} vs {len(rb.values)} values"
        lo = max(0, i - 2)
        around_a, around_b = " ".join(ra.values[lo : i + 6]), " ".join(rb.values[lo : i + 6])
        return f"element {i}: {a}={ra.values[i]} {b}={rb.values[i]}  ({a}[{lo}:]={around_a}; {b}[{lo}:]={around_b})"

    if both_failed:
        ok_vars = [v for v in VARIANTS if v not in both_failed]
        for v in ok_vars:
            if not eq("o" + v, "u" + v):
                return Verdict(
                    "mismatch", f"ours {v} != upstream {v} (the other variant fails on both)", diff("o" + v, "u" + v)
                )
        return Verdict("both_error", f"both sides fail: {res['o' + both_failed[0]].message[:200]}")
    if eq("oU", "uU") and eq("oS", "uU") and eq("uS", "uU"):
        return Verdict("pass", "")
    if not eq("uS", "uU"):
        if eq("oU", "uU") and eq("oS", "uU"):
            return Verdict(
                "upstream_bug", "upstream's scheduled result differs from its unscheduled one", diff("uS", "uU")
            )
        if eq("oU", "uS") and eq("oS", "uS"):
            return Verdict(
                "upstream_bug", "upstream's unscheduled result differs from its scheduled one", diff("uU", "uS")
            )
    if eq("uS", "uU"):
        if eq("oU", "uU") and not eq("oS", "uU"):
            return Verdict("mismatch", "ours scheduled differs (ours unscheduled matches upstream)", diff("oS", "uU"))
        if eq("oS", "uU") and not eq("oU", "uU"):
            return Verdict("mismatch", "ours unscheduled differs (ours scheduled matches upstream)", diff("oU", "uU"))
        if eq("oU", "oS"):
            return Verdict("mismatch", "ours (both variants) differs from upstream (both)", diff("oU", "uU"))
        return Verdict(
            "mismatch",
            "ours unscheduled and scheduled both differ from upstream, and from each other",
            diff("oU", "uU"),
        )
    return Verdict("mismatch", "upstream's variants disagree and ours matches neither", diff("oU", "uU"))
