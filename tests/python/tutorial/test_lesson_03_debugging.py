"""Tutorial, debugging output: hl.print, hl.print_when and the lowered statement (upstream's lessons 3 and 4,
written for this project).

hl.print(value, ...) evaluates to its first argument and prints every
argument when the pipeline computes it, one line per point (on standard
output); print_when prints only where its condition holds.
compile_to_lowered_stmt writes the loop nest the schedule makes.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def loop_order(stmt: str, func: str) -> list[str]:
    """The loop variables of `func`'s pure stage, outermost first."""
    # (A name in use by another live Func gets a suffix: gradient$1.)
    names = re.findall(rf"for \({re.escape(func)}(?:\$\d+)?\.s0\.((?:\w+\.)*\w+)", stmt)
    # Upstream spells a loop over a split variable s0.x.xo and may add .rebased.
    return [n.removesuffix(".rebased").split(".")[-1] for n in names]


def test_lowered_statement_shows_the_loop_nest(tmp_path: Path) -> None:
    x, y = hl.Var("x"), hl.Var("y")
    gradient = hl.Func("gradient_stmt")
    gradient[x, y] = x + y
    gradient.compile_to_lowered_stmt(str(tmp_path / "plain.stmt"), [])
    assert loop_order((tmp_path / "plain.stmt").read_text(), "gradient_stmt") == ["y", "x"]

    swapped = hl.Func("swapped")
    swapped[x, y] = x + y
    swapped.reorder(y, x)
    swapped.compile_to_lowered_stmt(str(tmp_path / "swapped.stmt"), [], hl.StmtOutputFormat.Text)
    assert loop_order((tmp_path / "swapped.stmt").read_text(), "swapped") == ["x", "y"]


def test_print_reports_every_point_and_keeps_the_value(capfd: pytest.CaptureFixture[str]) -> None:
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = hl.print(x * 10 + y, "<- f at", x, y)
    out = np.asarray(f.realize([3, 2]))
    np.testing.assert_array_equal(out, np.array([[0, 10, 20], [1, 11, 21]]))
    lines = capfd.readouterr().out.splitlines()
    # Row by row (y outer), each value then the other arguments, separated by spaces.
    assert lines == [f"{px * 10 + py} <- f at {px} {py}" for py in range(2) for px in range(3)]


def test_print_of_floats_and_intermediate_values(capfd: pytest.CaptureFixture[str]) -> None:
    x = hl.Var("x")
    e = hl.f32(x) * 0.5
    f = hl.Func("f")
    f[x] = hl.print(e, "half of", x) + 1.0
    out = np.asarray(f.realize([4]))
    np.testing.assert_array_equal(out, np.arange(4, dtype=np.float32) * 0.5 + 1)
    lines = capfd.readouterr().out.splitlines()
    assert len(lines) == 4
    for px, line in enumerate(lines):
        value, rest = line.split(" ", 1)
        assert float(value) == px * 0.5 and rest == f"half of {px}"


def test_print_when_prints_only_where_the_condition_holds(capfd: pytest.CaptureFixture[str]) -> None:
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    e = x * x - y
    f[x, y] = hl.print_when(e < 0, e, "is negative at", x, y)
    out = np.asarray(f.realize([4, 5]))
    ys, xs = np.mgrid[0:5, 0:4]
    np.testing.assert_array_equal(out, xs * xs - ys)
    lines = capfd.readouterr().out.splitlines()
    expected = [f"{px * px - py} is negative at {px} {py}" for py in range(5) for px in range(4) if px * px < py]
    assert lines == expected and len(expected) == 7


def test_a_function_of_a_print_is_not_printed_again(capfd: pytest.CaptureFixture[str]) -> None:
    # The producer is computed once per point (compute_root), so each point prints once.
    x = hl.Var("x")
    producer, consumer = hl.Func("producer"), hl.Func("consumer")
    producer[x] = hl.print(x * 2, "producer", x)
    consumer[x] = producer[x] + producer[x + 1]
    producer.compute_root()
    out = np.asarray(consumer.realize([5]))
    np.testing.assert_array_equal(out, np.arange(5) * 2 + np.arange(1, 6) * 2)
    lines = capfd.readouterr().out.splitlines()
    assert lines == [f"{2 * i} producer {i}" for i in range(6)]
