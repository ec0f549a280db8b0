"""Bounds inference against the indices really read, on random index expressions.

tests/differential/bounds_fuzz.py draws integer index expressions of x over
every integer type and operation; here a fixed seed's cases run through
`infer_input_bounds` of `f(x) = in(index(x))`, and the region required of
`in` must hold every index the expression takes over the output region,
computed in Python integers with the language's semantics (wrap-around,
Euclidean division, x / 0 == 0). A region narrower than that reads outside
the input (cases 137 and 233 did, before `x % 0` was bounded as
[0, 0]). Where the region is wider than upstream 21's the fuzzer's full
run reports it (its docstring has the command line). Then regions the
fuzzer's findings give, each worked out by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "differential"))
import bounds_fuzz as bf  # noqa: E402

SEED = 94
CASES = 320


@pytest.mark.parametrize("first", range(0, CASES, 40))
def test_required_region_holds_every_index_read(first):
    unsound = []
    judged = 0
    for k in range(first, first + 40):
        case = bf.generate(SEED, k)
        if case is None:
            continue
        res = bf.run_case(hl, case)
        if "region" not in res:
            continue  # refused (unbounded or too large): never reads outside
        judged += 1
        lo, hi = case["truth"]
        if not (res["region"][0] <= lo and hi <= res["region"][1]):
            unsound.append(f"{SEED}:{k} reads [{lo}, {hi}], region {res['region']}: {bf.show(case['tree'])}")
    assert judged >= 20
    assert not unsound, "\n".join(unsound)


def required_region(index, lo, hi):
    """The region of `in` that infer_input_bounds requires for f(x) = in[index(x)] over x in [lo, hi]."""
    x = hl.Var("x")
    inp = hl.ImageParam(hl.UInt(8), 1, "in")
    f = hl.Func("f")
    f[x] = inp[index(x)]
    out = hl.Buffer(hl.UInt(8), [hi - lo + 1])
    out.set_min([lo])
    f.infer_input_bounds(out)
    got = inp.get()
    return (got.dim(0).min(), got.dim(0).min() + got.dim(0).extent() - 1)


i8, i16, i32, i64, u16, u32 = hl.Int(8), hl.Int(16), hl.Int(32), hl.Int(64), hl.UInt(16), hl.UInt(32)

# Cases the fuzzer found, each with the region worked out by hand (upstream
# 21 gives the same, except where noted) and the indices it must hold.
REGIONS = {
    # x % 0 is 0: the region is [0, 0] (it was [0, -1], empty, and in(0) was read outside it).
    "mod_by_zero": (lambda x: (x + 26) % hl.Expr(0), 22, 30, (0, 0)),
    "mod_by_a_clamp_to_zero": (lambda x: x % hl.clamp(x, 0, 0), 22, 30, (0, 0)),
    # A value of at least 0 is at most itself modulo anything: |int16| % 65532 in [0, 32768] (was [0, 65531]).
    "mod_of_a_nonnegative": (lambda x: hl.cast(i32, hl.abs(hl.cast(i16, x)) % hl.cast(u16, 65532)), 40, 73, (0, 32768)),
    # halving_add of int32 values, summed in 64 bits: floor((117 + 3) / 2) (was unbounded).
    "halving_add_int32": (lambda x: hl.halving_add(x, hl.Expr(3)), 117, 117, (60, 60)),
    "rounding_halving_add_int32": (lambda x: hl.rounding_halving_add(x, x + 10), -8, 4, (-3, 9)),
    "halving_sub_int32": (lambda x: hl.halving_sub(x, hl.Expr(-7)), -8, 4, (-1, 5)),
    # int32 -> int64/uint32/uint64 -> int32 is the int32 (was unbounded).
    "cast_through_int64": (lambda x: hl.cast(i32, hl.cast(i64, x + 95)), 48, 55, (143, 150)),
    "cast_through_uint32": (lambda x: hl.cast(i32, hl.cast(u32, x - 4)), -87, -59, (-91, -63)),
    "cast_through_uint64": (
        lambda x: hl.cast(i32, hl.cast(hl.UInt(64), hl.cast(i64, x - 85))),
        -107,
        -81,
        (-192, -166),
    ),
    # int16 through uint16 and back to int8 keeps int8's bits of the int32.
    "cast_through_uint16_to_int8": (
        lambda x: hl.cast(i32, hl.cast(i8, hl.cast(u16, hl.clamp(x, -3, 5)))),
        -9,
        9,
        (-3, 5),
    ),
    # Saturating casts of a range with symbolic ends keep its ends (were the type's range / unbounded).
    "saturating_cast_int16": (lambda x: hl.cast(i32, hl.saturating_cast(i16, x)), 3, 12, (3, 12)),
    "saturating_add_int32": (lambda x: hl.saturating_add(x, hl.Expr(5)), -17, 63, (-12, 68)),
    "saturating_cast_of_int64": (lambda x: hl.saturating_cast(i32, hl.cast(i64, x) * 3), -5, 7, (-15, 21)),
    # Its ends evaluated in 64 bits: 3 * 10^9 saturates to INT32_MAX (in int32 it wraps to -1294967296).
    "saturating_cast_of_a_large_int64": (
        lambda x: hl.saturating_cast(i32, hl.cast(i64, x) * 3),
        10**9,
        10**9 + 3,
        (2**31 - 1, 2**31 - 1),
    ),
    # A 64-bit product beyond int32 made a float: its ends evaluated in 64 bits (in int32 40000 * 65536 wraps
    # and the region was [-25536, -25526], missing every index read).
    "int64_through_float": (
        lambda x: hl.cast(i32, hl.cast(hl.Float(64), hl.cast(i64, x) * 65536) / 65536.0),
        40000,
        40010,
        (40000, 40010),
    ),
    "halving_add_near_int32_max": (lambda x: hl.halving_add(x, x + 5), 2**31 - 20, 2**31 - 10, (2**31 - 18, 2**31 - 8)),
    # A divisor clamped to [3, 8]: the quotients of x's ends by 3 and 8, [-20 / 3, -11 / 8] (was [-20, 20];
    # upstream 21 gives [-7, -4]).
    "division_by_a_clamped_divisor": (lambda x: x / hl.clamp(x * (x + 40), 3, 8), -20, -11, (-7, -2)),
    # A shift by an amount clamped to [-8, -3] (was unbounded).
    "shift_by_a_clamped_amount": (lambda x: hl.Expr(4096) << hl.clamp(x, -8, -3), 0, 9, (16, 512)),
    # Bit counts of a constant are that count (were [0, width]).
    "popcount_of_a_constant": (lambda x: x * 0 + hl.cast(i32, hl.popcount(hl.cast(i8, -8))), 0, 3, (5, 5)),
    "count_trailing_zeros_of_a_constant": (
        lambda x: x * 0 + hl.cast(i32, hl.count_trailing_zeros(hl.cast(u32, 40))),
        0,
        3,
        (3, 3),
    ),
    # absd with a constant operand: max(20870 - -32768, 32767 - 20870) (was [0, 65535]).
    "absd_of_a_constant": (
        lambda x: hl.cast(i32, hl.absd(hl.cast(i16, 20870), hl.cast(i16, x))),
        -115,
        -100,
        (0, 53638),
    ),
}


@pytest.mark.parametrize("name", sorted(REGIONS))
def test_region_worked_by_hand(name):
    index, lo, hi, want = REGIONS[name]
    region = required_region(index, lo, hi)
    x = hl.Var("x")
    g = hl.Func("g")
    g[x] = index(x)
    out = hl.Buffer(hl.Int(32), [hi - lo + 1])
    out.set_min([lo])
    g.realize(out)
    read = [int(out[k]) for k in range(lo, hi + 1)]
    assert want[0] <= min(read) and max(read) <= want[1], f"the hand-worked region misses {read}"
    assert region == want, f"{name}: region {region}, worked by hand {want}, indices read {min(read)}..{max(read)}"
