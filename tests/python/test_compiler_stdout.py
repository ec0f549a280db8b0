"""The compiler's text in Python goes to sys.stdout, as upstream 21's module
sends it: hl.print()/print_when() output (from every thread of a parallel
loop), trace lines and compile-time warnings. So contextlib.redirect_stdout
(and notebooks) see them (issue 10: upstream's tests capture them so)."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def captured(run) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        run()
    return buf.getvalue()


def test_print_output_reaches_sys_stdout():
    f = hl.Func("printed")
    f[x] = hl.print(hl.u8(x * 3), "is three times", x)
    assert captured(lambda: f.realize([4])) == "".join(f"{3 * i} is three times {i}\n" for i in range(4))


def test_print_when_prints_only_where_true():
    f = hl.Func("printed_when")
    f[x] = hl.print_when(x % 4 == 1, x * x, "at", x)
    assert captured(lambda: f.realize([10])) == "1 at 1\n25 at 5\n81 at 9\n"


def test_every_thread_of_a_parallel_loop_prints_to_sys_stdout():
    f = hl.Func("printed_in_parallel")
    f[x, y] = hl.print(x + y, "from", x, y)
    f.parallel(y)
    lines = captured(lambda: f.realize([3, 40])).splitlines()
    assert sorted(lines) == sorted(f"{i + j} from {i} {j}" for i in range(3) for j in range(40))


def test_a_callable_prints_to_sys_stdout():
    p = hl.Param(hl.Int(32), "p")
    f = hl.Func("printed_by_callable")
    f[x] = hl.print(x + p)
    c = f.compile_to_callable([p])
    out = hl.Buffer(hl.Int(32), [3])
    assert captured(lambda: c(10, out)) == "10\n11\n12\n"


def test_evaluate_prints_to_sys_stdout():
    assert captured(lambda: hl.evaluate(hl.print(hl.i32(7), "seven"))) == "7 seven\n"


def test_trace_lines_reach_sys_stdout():
    f = hl.Func("traced")
    f[x] = x * 2
    f.trace_stores()
    lines = captured(lambda: f.realize([3])).splitlines()
    stores = [line for line in lines if "Store" in line]
    assert len(stores) == 3 and all(re.search(rf"traced(\$\d+)?\.0\({i}\) = {2 * i}$", s) for i, s in enumerate(stores))


def test_compile_time_warnings_reach_sys_stdout():
    f = hl.Func("warned")
    f[x] = 0
    f[x] += 5
    f.vectorize(x, 8)  # the update is left unscheduled: upstream's warning
    out = captured(lambda: f.realize([16]))
    assert out.startswith(f"Warning: Update definition 0 of function {f.name()} has not been scheduled")
    g = hl.Func("not_warned")
    g[x] = 0
    g[x] += 5
    g.vectorize(x, 8)
    g.update(0).unscheduled()
    assert captured(lambda: g.realize([16])) == ""


def test_errors_are_still_exceptions():
    # Errors pass through the same reporter as warnings: they raise.
    f = hl.Func("bad")
    f[x] = x
    with pytest.raises(hl.HalideError):
        f.vectorize(y, 4)  # y is not a dimension of f
    with pytest.raises(hl.HalideError):
        hl.Func("undefined").realize([3])
